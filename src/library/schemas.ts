/**
 * In-memory schemas for startFolio(): written to a folder in Folio's layout, so the one
 * registry loader (src/registry/load.ts) reads them exactly as it reads a project's files,
 * with the same checks and the same error messages (naming `content-types/<key>.json`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Schemas by their place in Folio's layout, without `.json`: `article` (a content type,
 * Strapi's schema.json format), `components/shared/seo` (component `shared.seo`),
 * `custom-fields`, `extensions/users-permissions/content-types/user/schema`.
 */
export type SchemaMap = Record<string, Record<string, unknown>>;

// A key becomes a path: only plain names, so no key can write outside the folder.
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** Writes the schemas into `dir` (created); throws on a key that is no plain relative path or a value that is no object. */
export function writeSchemas(dir: string, schemas: SchemaMap): void {
  const entries = Object.entries(schemas);
  if (entries.length === 0) throw new Error('startFolio: contentTypes holds no schema');
  for (const [key, schema] of entries) {
    const parts = key.split('/');
    if (!parts.every((p) => SEGMENT.test(p) && !p.includes('..'))) {
      throw new Error(`startFolio: contentTypes key "${key}" is not a schema path like "article" or "components/shared/seo"`);
    }
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
      throw new Error(`startFolio: contentTypes["${key}"] must be a schema object`);
    }
  }
  for (const [key, schema] of entries) {
    const file = join(dir, `${key}.json`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(schema, null, 2));
  }
}
