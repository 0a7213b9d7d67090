/**
 * The schemas of a `strapi export` archive (`schemas/*.jsonl`: Strapi's compiled models) written
 * back as a Strapi project's `src/` layout, so the import reads them exactly as it reads a project
 * directory's. The compiled models carry what Strapi adds to every model (timestamps, publishedAt,
 * createdBy/updatedBy, locale, localizations) and keys of its own (uid, modelName, globalId):
 * those are dropped, so the files are what the project's authors wrote.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUILT_IN_USER_ATTRIBUTES, USER_UID } from '../../registry/system-models';
import { StrapiImportError } from './source';

/** A compiled model as the archive holds it. */
export interface ArchiveSchema {
  uid: string;
  modelType: 'contentType' | 'component';
  modelName?: string;
  collectionName: string;
  kind?: string;
  info?: { singularName?: string; pluralName?: string; displayName?: string; description?: string };
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  attributes: Record<string, Record<string, unknown>>;
}

/** Attributes Strapi adds to every model (and its plugins' own bookkeeping relations). */
const ADDED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);
const BOOKKEEPING_TARGET = /^plugin::(review-workflows|content-releases)\./;

function authored(attributes: ArchiveSchema['attributes']): ArchiveSchema['attributes'] {
  const out: ArchiveSchema['attributes'] = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (ADDED.has(name)) continue;
    if (typeof attribute.target === 'string' && BOOKKEEPING_TARGET.test(attribute.target)) continue;
    out[name] = attribute;
  }
  return out;
}

const write = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
};

/**
 * Writes the project's content types, components and (when it adds attributes) the
 * users-permissions user extension under `srcDir`; returns how many content types it wrote.
 */
export function writeArchiveSchemas(schemas: Iterable<ArchiveSchema>, srcDir: string): number {
  let contentTypes = 0;
  for (const schema of schemas) {
    if (schema.modelType === 'component') {
      const [category, name] = schema.uid.split('.');
      if (!category || !name) throw new StrapiImportError(`schemas: component uid "${schema.uid}" is not category.name`);
      const { collectionName, info, options } = schema;
      write(join(srcDir, 'components', category, `${name}.json`), { collectionName, info, options: options ?? {}, attributes: authored(schema.attributes) });
    } else if (schema.uid.startsWith('api::')) {
      const [api, name] = schema.uid.slice('api::'.length).split('.');
      if (!api || !name) throw new StrapiImportError(`schemas: content type uid "${schema.uid}" is not api::api.name`);
      const { kind, collectionName, info, options, pluginOptions } = schema;
      write(join(srcDir, 'api', api, 'content-types', name, 'schema.json'), {
        kind,
        collectionName,
        info,
        options: options ?? {},
        ...(pluginOptions ? { pluginOptions } : {}),
        attributes: authored(schema.attributes),
      });
      contentTypes++;
    } else if (schema.uid === USER_UID) {
      const attributes = authored(schema.attributes);
      // Strapi's own user model needs no extension file; one that adds attributes does.
      if (Object.keys(attributes).some((name) => !BUILT_IN_USER_ATTRIBUTES.has(name))) {
        const { kind, collectionName, info, options } = schema;
        write(join(srcDir, 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json'), { kind, collectionName, info, options, attributes });
      }
    }
  }
  return contentTypes;
}
