/**
 * Reads a folder laid out like Strapi's exported schemas:
 *   <dir>/<any>.json                          content types
 *   <dir>/components/<category>/<name>.json   components (uid `<category>.<name>`)
 * and turns it into the normalised Registry. Anything unusable throws a SchemaError.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  SchemaError,
  type Attribute, type Component, type ContentType, type Registry, type RelationKind, type ScalarType,
} from './types.ts';
import { compileFields } from './fields';
import { checkComponentFile, checkContentTypeFile, checkRegistry, isObject, parseSchema, type Json } from './validate.ts';

export function loadRegistry(dir: string): Registry {
  const root = resolve(dir);
  // Error messages name files as the user sees them in their project ("content-types/article.json").
  const display = (...parts: string[]): string => {
    const rel = relative(dirname(root), join(root, ...parts));
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : join(dir, ...parts);
  };
  let top: Dirent[];
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
    top = readdirSync(root, { withFileTypes: true });
  } catch {
    throw new SchemaError(dir, undefined, 'the content type folder does not exist or is not a folder');
  }
  const read = (...parts: string[]): Json => parseSchema(display(...parts), readFileSync(join(root, ...parts), 'utf8'));

  const contentTypes = jsonFiles(top).map((f) => toContentType(display(f), read(f)));

  const components: Component[] = [];
  const componentsDir = top.find((e) => e.name === 'components' && e.isDirectory());
  if (componentsDir) {
    const entries = readdirSync(join(root, 'components'), { withFileTypes: true });
    const stray = jsonFiles(entries)[0];
    if (stray) {
      throw new SchemaError(display('components', stray), undefined,
        'component files must live in a category folder: components/<category>/<name>.json (e.g. components/shared/seo.json)');
    }
    for (const category of entries.filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      for (const f of jsonFiles(readdirSync(join(root, 'components', category), { withFileTypes: true }))) {
        const name = f.slice(0, -'.json'.length);
        components.push(toComponent(display('components', category, f), category, name, read('components', category, f)));
      }
    }
  }

  const byUid = (a: { uid: string }, b: { uid: string }) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
  contentTypes.sort(byUid);
  components.sort(byUid);
  checkRegistry(contentTypes, components);
  resolveInverseLinkTables(contentTypes);
  return makeRegistry(contentTypes, components);
}

function jsonFiles(entries: Dirent[]): string[] {
  return entries.filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name).sort();
}

function toContentType(file: string, raw: Json): ContentType {
  checkContentTypeFile(file, raw);
  const info = raw.info as Json;
  const singularName = info.singularName as string;
  const pluralName = info.pluralName as string;
  const localized = dig(raw, 'pluginOptions', 'i18n', 'localized') === true;
  const ct: ContentType = {
    modelType: 'contentType',
    uid: `api::${singularName}.${singularName}`,
    kind: raw.kind as ContentType['kind'],
    singularName,
    pluralName,
    displayName: typeof info.displayName === 'string' && info.displayName ? info.displayName : singularName,
    draftAndPublish: dig(raw, 'options', 'draftAndPublish') === true,
    localized,
    tableName: (raw.collectionName as string | undefined) ?? pluralName,
    attributes: {},
    fields: {},
    file,
  };
  if (typeof info.description === 'string') ct.description = info.description;
  ct.attributes = toAttributes(raw.attributes as Json, ct.tableName, localized);
  ct.fields = compileFields(ct.attributes);
  return ct;
}

function toComponent(file: string, category: string, name: string, raw: Json): Component {
  checkComponentFile(file, category, name, raw);
  const displayName = dig(raw, 'info', 'displayName');
  const tableName = (raw.collectionName as string | undefined) ??
    `components_${category.replace(/-/g, '_')}_${name.replace(/-/g, '_')}s`;
  // Components take the locale of the entry that holds them, so their own fields are never localized.
  const attributes = toAttributes(raw.attributes as Json, tableName, false);
  return {
    modelType: 'component',
    uid: `${category}.${name}`,
    category,
    name,
    displayName: typeof displayName === 'string' && displayName ? displayName : name,
    tableName,
    attributes,
    fields: compileFields(attributes),
    file,
  };
}

function toAttributes(raw: Json, tableName: string, modelLocalized: boolean): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [name, value] of Object.entries(raw)) out[name] = toAttribute(name, value as Json, tableName, modelLocalized);
  return out;
}

function toAttribute(name: string, a: Json, tableName: string, modelLocalized: boolean): Attribute {
  const type = a.type as string;
  // Relations and uids are always per locale in Strapi's i18n model: each locale links and slugs on its own.
  const localized = modelLocalized &&
    (dig(a, 'pluginOptions', 'i18n', 'localized') !== false || type === 'relation' || type === 'uid');
  const base = { name, required: a.required === true, private: a.private === true, localized, writable: true };
  const bounds = pick(a, ['min', 'max']) as { min?: number; max?: number };
  switch (type) {
    case 'media':
      return {
        ...base, kind: 'media', multiple: a.multiple === true,
        ...(a.allowedTypes ? { allowedTypes: a.allowedTypes as string[] } : {}),
      };
    case 'relation': {
      const relation = a.relation as RelationKind;
      const mappedBy = a.mappedBy as string | undefined;
      return {
        ...base, kind: 'relation', relation, target: a.target as string,
        ...pick(a, ['inversedBy', 'mappedBy']),
        toMany: relation === 'oneToMany' || relation === 'manyToMany',
        owner: mappedBy === undefined,
        // The inverse side shares the owner's table; filled in once every table name is known.
        linkTable: mappedBy === undefined ? `${tableName}_${name}_lnk` : '',
        ...(mappedBy !== undefined ? { ownerAttribute: mappedBy } : {}),
      };
    }
    case 'component':
      return { ...base, kind: 'component', component: a.component as string, repeatable: a.repeatable === true, ...bounds };
    case 'dynamiczone':
      return { ...base, kind: 'dynamiczone', components: [...(a.components as string[])], ...bounds };
    default:
      return {
        ...base, kind: 'scalar', type: type as ScalarType, unique: a.unique === true,
        ...pick(a, ['default', 'min', 'max', 'minLength', 'maxLength', 'regex', 'enum', 'targetField']),
      };
  }
}

function resolveInverseLinkTables(contentTypes: ContentType[]): void {
  const byUid = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  for (const ct of contentTypes) {
    for (const a of Object.values(ct.attributes)) {
      if (a.kind === 'relation' && !a.owner) a.linkTable = `${byUid.get(a.target)!.tableName}_${a.mappedBy}_lnk`;
    }
  }
}

function makeRegistry(contentTypes: ContentType[], components: Component[]): Registry {
  const cts = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  const cmps = new Map(components.map((c) => [c.uid, c]));
  // Collection types are addressed by plural (/api/articles), single types by singular (/api/homepage).
  const routes = new Map(contentTypes.map((ct) => [ct.kind === 'collectionType' ? ct.pluralName : ct.singularName, ct]));
  return {
    contentTypes,
    components,
    get: (uid) => cts.get(uid) ?? cmps.get(uid),
    contentType: (uid) => cts.get(uid),
    component: (uid) => cmps.get(uid),
    byRouteId: (id) => routes.get(id),
  };
}

function dig(value: unknown, ...keys: string[]): unknown {
  for (const key of keys) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** Copies the keys that are present, so absent options stay absent rather than `undefined`. */
function pick(a: Json, keys: string[]): Json {
  const out: Json = {};
  for (const key of keys) if (a[key] !== undefined) out[key] = Array.isArray(a[key]) ? [...(a[key] as unknown[])] : a[key];
  return out;
}
