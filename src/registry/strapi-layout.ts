/**
 * Where the schema files of a `--content-types` folder are. Two layouts are read:
 *
 *  - Folio's: `<dir>/<name>.json` content types, `<dir>/components/<category>/<name>.json`;
 *  - Strapi's project, given its root or its `src`: `api/<api>/content-types/<name>/schema.json`
 *    (uid `api::<api>.<name>`, as Strapi derives it from the folders) and the same components.
 *
 * Both may hold the users-permissions user extension at
 * `extensions/users-permissions/content-types/user/schema.json` and a `custom-fields.json`
 * mapping (in Strapi's layout also in the folder given, when that is the project root).
 * A folder in neither layout is a SchemaError, so a wrong path never starts an empty API.
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { CUSTOM_FIELDS_FILE } from './fields/custom';
import { SchemaError } from './types';

/** A schema file: its path relative to the folder given, and the uid its place implies. */
export interface SchemaFile {
  parts: string[];
  uid?: string;
}

export interface Layout {
  kind: 'folio' | 'strapi';
  /** Relative to the folder given: `[]`, `['src']`. */
  base: string[];
  contentTypes: SchemaFile[];
  components: { parts: string[]; category: string; name: string }[];
  userExtension?: string[];
  customFields?: string[];
}

export const USER_EXTENSION = ['extensions', 'users-permissions', 'content-types', 'user', 'schema.json'];

const entries = (dir: string): Dirent[] => readdirSync(dir, { withFileTypes: true });
const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const jsonFiles = (list: Dirent[]) =>
  list
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort();
const folders = (dir: string) =>
  isDir(dir)
    ? entries(dir)
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];

export function findLayout(root: string, display: (...parts: string[]) => string): Layout {
  const top = entries(root);
  const strapiBase = isDir(join(root, 'src', 'api')) ? ['src'] : isDir(join(root, 'api')) ? [] : undefined;
  const topJson = jsonFiles(top).filter((f) => f !== CUSTOM_FIELDS_FILE);
  let layout: Layout;
  // A project root holds package.json, tsconfig.json…: beside src/api they are never schemas.
  if (strapiBase && (strapiBase.length > 0 || topJson.length === 0)) {
    const api = join(root, ...strapiBase, 'api');
    const contentTypes: SchemaFile[] = [];
    for (const apiName of folders(api)) {
      for (const name of folders(join(api, apiName, 'content-types'))) {
        const parts = [...strapiBase, 'api', apiName, 'content-types', name, 'schema.json'];
        if (isFile(join(root, ...parts))) contentTypes.push({ parts, uid: `api::${apiName}.${name}` });
      }
    }
    layout = { kind: 'strapi', base: strapiBase, contentTypes, components: [] };
  } else {
    layout = { kind: 'folio', base: [], contentTypes: topJson.map((f) => ({ parts: [f] })), components: [] };
  }
  layout.components = componentFiles(root, layout.base, display);

  if (layout.contentTypes.length === 0) {
    throw new SchemaError(
      display(),
      undefined,
      layout.kind === 'strapi'
        ? 'holds a Strapi project but no content type: expected api/<name>/content-types/<name>/schema.json files'
        : 'holds no content type. Point --content-types at a folder of schema files (<name>.json, components/<category>/<name>.json) ' +
            'or at a Strapi project (its root or its src folder, with api/<name>/content-types/<name>/schema.json)',
    );
  }
  const extension = [...layout.base, ...USER_EXTENSION];
  if (isFile(join(root, ...extension))) layout.userExtension = extension;
  for (const candidate of [[...layout.base, CUSTOM_FIELDS_FILE], [CUSTOM_FIELDS_FILE]]) {
    if (isFile(join(root, ...candidate))) {
      layout.customFields = candidate;
      break;
    }
  }
  return layout;
}

function componentFiles(root: string, base: string[], display: (...parts: string[]) => string): Layout['components'] {
  const dir = join(root, ...base, 'components');
  if (!isDir(dir)) return [];
  const stray = jsonFiles(entries(dir))[0];
  if (stray) {
    throw new SchemaError(
      display(...base, 'components', stray),
      undefined,
      'component files must live in a category folder: components/<category>/<name>.json (e.g. components/shared/seo.json)',
    );
  }
  const out: Layout['components'] = [];
  for (const category of folders(dir)) {
    for (const f of jsonFiles(entries(join(dir, category)))) {
      out.push({ parts: [...base, 'components', category, f], category, name: f.slice(0, -'.json'.length) });
    }
  }
  return out;
}
