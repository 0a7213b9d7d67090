/**
 * Strapi projects with code, as test fixtures: a fixture folder (test/fixtures/projects/<name>:
 * package.json, .env, config/, src/ with its code) copied to a temp dir, with the blog
 * fixture's schemas laid out as Strapi's project does (src/api/<name>/content-types/<name>/
 * schema.json, src/components/<category>/<name>.json). The same folder, copied over a copy of
 * the Strapi peer's app, runs on Strapi.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXAMPLE_CONTENT_TYPES, tempDir } from './server';

export const PROJECTS = resolve(import.meta.dir, '../fixtures/projects');

/** A copy of fixture project `name` in a temp dir, with the blog schemas and `extra` files (path → text); answers its root. */
export function copyProject(name: string, extra: Record<string, string> = {}): string {
  const root = join(tempDir('folio-project-'), name);
  cpSync(join(PROJECTS, name), root, { recursive: true });
  for (const file of readdirSync(EXAMPLE_CONTENT_TYPES).filter((f) => f.endsWith('.json'))) {
    const singular = file.slice(0, -'.json'.length);
    const dir = join(root, 'src/api', singular, 'content-types', singular);
    mkdirSync(dir, { recursive: true });
    cpSync(join(EXAMPLE_CONTENT_TYPES, file), join(dir, 'schema.json'));
  }
  cpSync(join(EXAMPLE_CONTENT_TYPES, 'components'), join(root, 'src/components'), { recursive: true });
  for (const [path, text] of Object.entries(extra)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
