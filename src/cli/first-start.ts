/**
 * A first start shows something: when `folio serve` opens a database it has just created
 * (its first system migration ran now) and the content types are exactly the example ones
 * (`folio init`'s, or the repository's), it writes the example content (example-seed.ts),
 * adds the French locale it uses, and lets the public role read the example types. Never for
 * a user's own content types (any file added, removed or changed), a Strapi project, or a
 * database that existed before; FOLIO_EXAMPLE_CONTENT=false turns it off.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { SYSTEM_ACTOR } from '../actor';
import { migrations } from '../db/migrations';
import type { Instance } from '../instance';
import { writeSeed } from '../library/seed';
import { uploadBytes } from '../library/seed-files';
import { exampleContent } from './example-content';
import { EXAMPLE_SEED, exampleImage } from './example-seed';

export interface FirstStart {
  /** Documents written, by plural API id (a single type's singular one). */
  counts: Record<string, number>;
  /** The actions granted to the public role. */
  granted: string[];
  /** The command that takes the public grants back (`folio permissions revoke public …`). */
  revoke: string[];
}

/** The schema files under `dir` (relative paths, `/` separators), as JSON. */
function schemaFiles(dir: string): Map<string, unknown> | undefined {
  const files = new Map<string, unknown>();
  try {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
      files.set(path, path.endsWith('.json') ? JSON.parse(readFileSync(join(dir, path), 'utf8')) : undefined);
    }
  } catch {
    return undefined;
  }
  return files;
}

/** The folder holds the example content types and nothing else (whitespace aside). */
export function isExampleContentTypes(dir: string): boolean {
  const files = schemaFiles(dir);
  const examples = Object.entries(exampleContent);
  if (!files || files.size !== examples.length) return false;
  return examples.every(([path, text]) => files.has(path) && JSON.stringify(files.get(path)) === JSON.stringify(JSON.parse(text)));
}

/** Whether this opening of the installation is its first: the database was just created, with the example types. */
export function isFirstStartWithExamples(instance: Instance): boolean {
  const { config } = instance;
  return config.exampleContent && !config.project && instance.migrationsApplied.includes(migrations[0]!.name) && isExampleContentTypes(config.contentTypesDir);
}

/** Example content and the public grants to read it; undefined when this is not such a first start. */
export async function writeExampleContent(instance: Instance): Promise<FirstStart | undefined> {
  if (!isFirstStartWithExamples(instance)) return undefined;
  const { registry, documents, locales, roles } = instance;
  if (!(await locales.exists('fr'))) await locales.add('fr', 'French (fr)', SYSTEM_ACTOR);
  const { counts } = await writeSeed(registry, documents, EXAMPLE_SEED, {
    source: 'example content',
    actor: SYSTEM_ACTOR,
    files: {
      async upload(file) {
        const bytes = exampleImage(file.path);
        if (!bytes) throw new Error(`no example image "${file.path}"`);
        return uploadBytes(instance, file.path, bytes, file, SYSTEM_ACTOR);
      },
      remove: async (id) => void (await instance.uploads.remove(String(id), SYSTEM_ACTOR)),
    },
  });
  const readable = registry.contentTypes.filter((ct) => !ct.system);
  const names = readable.flatMap((ct) => (ct.kind === 'collectionType' ? [`${ct.pluralName}.find`, `${ct.pluralName}.findOne`] : [`${ct.singularName}.find`]));
  const granted = readable.flatMap((ct) => (ct.kind === 'collectionType' ? ['find', 'findOne'] : ['find']).map((a) => `${ct.uid}.${a}`));
  await roles.grant('public', granted, SYSTEM_ACTOR);
  return { counts, granted, revoke: ['permissions', 'revoke', 'public', ...names] };
}
