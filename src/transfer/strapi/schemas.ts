/**
 * The project's schemas, written into Folio's layout (`<dir>/<name>.json`,
 * `<dir>/components/<category>/<name>.json`, the users-permissions extension, custom-fields.json)
 * unchanged, so `--content-types DIR` serves the same API. Folio reads Strapi's layout too
 * (registry/strapi-layout.ts); the copy is what the new installation keeps.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findLayout } from '../../registry/strapi-layout';
import { StrapiImportError } from './source';

export interface WrittenSchemas {
  contentTypes: number;
  components: number;
}

const copy = (from: string, to: string) => {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
};

/** Copies the schemas of the project at `projectDir` into `targetDir` (Folio's layout); `dryRun` only counts. */
export function writeSchemas(projectDir: string, targetDir: string, dryRun: boolean): WrittenSchemas {
  const layout = findLayout(projectDir, (...parts) => join(projectDir, ...parts));
  if (!dryRun && existsSync(targetDir) && readdirSync(targetDir).some((f) => f.endsWith('.json') || f === 'components')) {
    // Schemas of another project mixed with these would serve a different API: refuse before writing anything.
    const existing = readdirSync(targetDir).filter((f) => f.endsWith('.json'));
    for (const file of layout.contentTypes) {
      const name = `${file.uid!.split('.').pop()}.json`;
      if (existing.includes(name) && readFileSync(join(targetDir, name), 'utf8') !== readFileSync(join(projectDir, ...file.parts), 'utf8')) {
        throw new StrapiImportError(`${join(targetDir, name)} exists and differs from the project's schema; choose an empty --content-types folder`);
      }
    }
  }
  for (const file of layout.contentTypes) {
    // Folio's layout derives uid api::<name>.<name> from the file name: an api folder named
    // otherwise (api::blog.post) would change every relation target and permission.
    const [api, name] = file.uid!.slice('api::'.length).split('.') as [string, string];
    if (api !== name) {
      throw new StrapiImportError(`${join(projectDir, ...file.parts)}: uid ${file.uid} cannot be kept in Folio's layout (api folder and content type differ)`);
    }
    const raw = JSON.parse(readFileSync(join(projectDir, ...file.parts), 'utf8')) as { info?: { singularName?: string } };
    if (raw.info?.singularName !== name) {
      throw new StrapiImportError(`${join(projectDir, ...file.parts)}: info.singularName must be "${name}" to keep uid ${file.uid}`);
    }
    if (!dryRun) copy(join(projectDir, ...file.parts), join(targetDir, `${name}.json`));
  }
  for (const c of layout.components) {
    if (!dryRun) copy(join(projectDir, ...c.parts), join(targetDir, 'components', c.category, `${c.name}.json`));
  }
  if (!dryRun && layout.userExtension) {
    copy(join(projectDir, ...layout.userExtension), join(targetDir, 'extensions', 'users-permissions', 'content-types', 'user', 'schema.json'));
  }
  if (!dryRun && layout.customFields) copy(join(projectDir, ...layout.customFields), join(targetDir, 'custom-fields.json'));
  return { contentTypes: layout.contentTypes.length, components: layout.components.length };
}
