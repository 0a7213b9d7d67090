/**
 * Reads a folder of schema files — Folio's layout or a Strapi project's (see strapi-layout.ts):
 *   <dir>/<any>.json                          content types (uid `api::<singularName>.<singularName>`)
 *   <dir>/components/<category>/<name>.json   components (uid `<category>.<name>`)
 *   <src>/api/<api>/content-types/<name>/schema.json   content types (uid `api::<api>.<name>`)
 * and turns it into the normalised Registry. Anything unusable throws a SchemaError; what
 * only deserves a word (unknown keys, ignored relations) is collected in `registry.warnings`.
 */
import { linkModels } from './links';
import { unsupportedOperator } from './conditions';
import { dropDanglingInverses } from './dangling-inverses';
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  SchemaError,
  type Attribute,
  type Component,
  type ContentType,
  type IgnoredAttribute,
  type Registry,
  type RelationKind,
  type ScalarType,
  type RelationAttribute,
  type MorphAttribute,
  type MorphKind,
  type ComponentAttribute,
  type DynamicZoneAttribute,
  type PluginTypeSchema,
} from './types.ts';
// Stored names are fitted to PostgreSQL's 63 bytes (db/layout.ts re-exports the helpers).
import { fitIdentifier, linkTableName, morphTableName } from './stored-names';
import { isObject } from '../json';
import { compileFields } from './fields';
import { CUSTOM_FIELDS_FILE, CUSTOM_FIELD_TYPES, UNKNOWN_CUSTOM_FIELD_TYPE, customFieldType } from './fields/custom.ts';
import { unknownKeyWarnings } from './known-keys.ts';
import { findLayout } from './strapi-layout.ts';
import { BUILT_IN_USER_ATTRIBUTES, USERS_TABLE, USER_UID, systemTypes, userModel } from './system-models.ts';
import { checkComponentFile, checkContentTypeFile, checkRegistry, checkUserExtensionFile, MORPH_KINDS, parseSchema, type Json } from './validate.ts';

/**
 * Strapi's own types that Folio does not hold as relation targets. A relation to one of them
 * starts but is ignored (no table, not writable, not readable): Folio has no admin roles as
 * documents, upload folders or locale documents. Users, roles, upload files and admin users are
 * real targets (system-models.ts).
 */
export const IGNORED_TARGETS = new Set(['admin::role', 'plugin::upload.folder', 'plugin::i18n.locale']);

/** What every model file of one folder is read with. */
interface LoadContext {
  customFields: Record<string, ScalarType>;
  /** How the mapping file is named in messages (where it is, or where it would go). */
  customFieldsFile: string;
  warnings: string[];
  ignored: IgnoredAttribute[];
}

/**
 * `registered`: custom fields a project's code registers (`strapi.customFields.register`,
 * project/custom-fields.ts), under the folder's own custom-fields.json. `pluginTypes`: the
 * content types the project's plugins declare in their server code (project/plugins/content-types.ts).
 */
export function loadRegistry(dir: string, registered: Readonly<Record<string, ScalarType>> = {}, pluginTypes: readonly PluginTypeSchema[] = []): Registry {
  const root = resolve(dir);
  // Error messages name files as the user sees them in their project ("content-types/article.json").
  const display = (...parts: string[]): string => {
    const rel = relative(dirname(root), join(root, ...parts));
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : join(dir, ...parts);
  };
  try {
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new SchemaError(dir, undefined, 'the content type folder does not exist or is not a folder');
  }
  const read = (parts: string[]): Json => parseSchema(display(...parts), readFileSync(join(root, ...parts), 'utf8'));
  const layout = findLayout(root, display);

  const context: LoadContext = {
    customFields: { ...registered, ...(layout.customFields ? readCustomFields(display(...layout.customFields), read(layout.customFields)) : {}) },
    customFieldsFile: display(...(layout.customFields ?? [...layout.base, CUSTOM_FIELDS_FILE])),
    warnings: [],
    ignored: [],
  };
  const contentTypes = layout.contentTypes.map((f) => toContentType(display(...f.parts), read(f.parts), context, f.uid));
  for (const p of pluginTypes) {
    const taken = contentTypes.find((ct) => ct.uid === p.uid);
    if (taken) throw new SchemaError(p.source, undefined, `content type ${p.uid} has already been registered (${taken.file})`);
    contentTypes.push({ ...toContentType(p.source, p.schema as Json, context, p.uid), plugin: p.plugin });
  }
  const components = layout.components.map((c) => toComponent(display(...c.parts), c.category, c.name, read(c.parts), context));
  const user = layout.userExtension ? toUserModel(display(...layout.userExtension), read(layout.userExtension), context) : userModel();

  const byUid = (a: { uid: string }, b: { uid: string }) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
  contentTypes.sort(byUid);
  components.sort(byUid);
  const system = systemTypes(user);
  dropDanglingInverses([...contentTypes, ...system], context.ignored, context.warnings);
  checkRegistry(contentTypes, components, system);
  resolveInverseLinkTables([...contentTypes, ...system]);
  linkModels([...contentTypes, ...system], components);
  return makeRegistry(contentTypes, components, context, system);
}

/** `custom-fields.json`: `{ "plugin::<plugin>.<field>": "<storage type>" }`. */
function readCustomFields(file: string, raw: Json): Record<string, ScalarType> {
  const out: Record<string, ScalarType> = {};
  for (const [uid, type] of Object.entries(raw)) {
    if (!/^(plugin|global)::[^.\s]+\.[^.\s]+$/.test(uid)) {
      throw new SchemaError(file, undefined, `"${uid}" is not a custom field uid; expected "plugin::<plugin>.<field>" (e.g. "plugin::color-picker.color")`);
    }
    if (typeof type !== 'string' || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
      throw new SchemaError(file, undefined, `custom field "${uid}" maps to ${JSON.stringify(type)}; expected one of: ${CUSTOM_FIELD_TYPES.join(', ')}`);
    }
    out[uid] = type as ScalarType;
  }
  return out;
}

/**
 * Gives each `"type": "customField"` attribute the type its plugin stores it as (Strapi does
 * the same when it loads a schema), keeping `customField`. A custom field Folio cannot type
 * (its plugin is not in the table of fields/custom.ts nor in custom-fields.json) never stops
 * start-up, since Strapi starts with it: its values are kept as JSON, so each is stored and
 * returned as sent (a string stays a string), and a warning says how to name its type.
 */
function withCustomFieldTypes(file: string, raw: Json, context: LoadContext): Json {
  if (!isObject(raw.attributes)) return raw;
  const attributes: Json = {};
  for (const [name, a] of Object.entries(raw.attributes)) {
    attributes[name] = a;
    if (!isObject(a) || a.type !== 'customField') continue;
    const uid = a.customField;
    if (typeof uid !== 'string' || uid === '') {
      throw new SchemaError(file, name, 'a customField attribute needs "customField": the uid its plugin registers (e.g. "plugin::color-picker.color")');
    }
    let type = customFieldType(uid, context.customFields);
    if (!type) {
      type = UNKNOWN_CUSTOM_FIELD_TYPE;
      context.warnings.push(
        `${file} (attribute "${name}"): custom field "${uid}" is registered by a plugin Folio does not know; ` +
          `its values are kept as JSON, as sent. To check, filter and sort them as the plugin stores them, name its type in ` +
          `${context.customFieldsFile}, e.g. { "${uid}": "string" } (types: ${CUSTOM_FIELD_TYPES.join(', ')})`,
      );
    }
    attributes[name] = { ...a, type };
  }
  return { ...raw, attributes };
}

/**
 * The user model with the attributes of Strapi's user extension schema. The schema repeats the
 * built-in attributes (username, email, role, …): those stay as Folio stores them.
 */
function toUserModel(file: string, raw: Json, context: LoadContext): ContentType {
  context.warnings.push(...unknownKeyWarnings(file, raw));
  const resolved = withCustomFieldTypes(file, raw, context);
  checkUserExtensionFile(file, resolved);
  const extra: Json = {};
  for (const [name, a] of Object.entries(resolved.attributes as Json)) if (!BUILT_IN_USER_ATTRIBUTES.has(name)) extra[name] = a;
  // The users table is a system table: links the user owns get Strapi's `up_users_…` names, which no schema can claim.
  const attributes = toAttributes(extra, { uid: USER_UID, tableName: USERS_TABLE.replace(/^folio_/, 'up_'), file }, false, context);
  return userModel(attributes, file);
}

function toContentType(file: string, source: Json, context: LoadContext, uid?: string): ContentType {
  context.warnings.push(...unknownKeyWarnings(file, source));
  const raw = withCustomFieldTypes(file, source, context);
  checkContentTypeFile(file, raw);
  const info = raw.info as Json;
  const singularName = info.singularName as string;
  const pluralName = info.pluralName as string;
  const localized = dig(raw, 'pluginOptions', 'i18n', 'localized') === true;
  const ct: ContentType = {
    modelType: 'contentType',
    uid: uid ?? `api::${singularName}.${singularName}`,
    kind: (raw.kind ?? 'collectionType') as ContentType['kind'],
    singularName,
    pluralName,
    displayName: typeof info.displayName === 'string' && info.displayName ? info.displayName : singularName,
    draftAndPublish: dig(raw, 'options', 'draftAndPublish') === true,
    localized,
    tableName: fitIdentifier((raw.collectionName as string | undefined) ?? pluralName),
    attributes: {},
    fields: {},
    file,
  };
  if (typeof info.description === 'string') ct.description = info.description;
  if (dig(raw, 'pluginOptions', 'content-manager', 'visible') === false) ct.hidden = true;
  ct.attributes = toAttributes(raw.attributes as Json, { ...ct, morphs: true }, localized, context);
  ct.fields = compileFields(ct.attributes);
  return ct;
}

function toComponent(file: string, category: string, name: string, source: Json, context: LoadContext): Component {
  context.warnings.push(...unknownKeyWarnings(file, source));
  const raw = withCustomFieldTypes(file, source, context);
  checkComponentFile(file, category, name, raw);
  const displayName = dig(raw, 'info', 'displayName');
  const tableName = fitIdentifier((raw.collectionName as string | undefined) ?? `components_${category.replace(/-/g, '_')}_${name.replace(/-/g, '_')}s`);
  // Components take the locale of the entry that holds them, so their own fields are never localized.
  const attributes = toAttributes(raw.attributes as Json, { uid: `${category}.${name}`, tableName, file }, false, context);
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

/** `morphs`: the model may hold polymorphic relations (project content types; not components or users). */
function toAttributes(
  raw: Json,
  model: { uid: string; tableName: string; file: string; morphs?: boolean },
  modelLocalized: boolean,
  context: LoadContext,
): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [name, value] of Object.entries(raw)) {
    const a = value as Json;
    const ignored = ignoredRelation(a, model.morphs === true);
    if (ignored) {
      // Left out of the model, so nothing stores, accepts or shows it.
      context.ignored.push({ uid: model.uid, file: model.file, attribute: name, target: ignored.target });
      context.warnings.push(
        `${model.file} (attribute "${name}"): ${ignored.what} is ignored: ` +
          `Folio does not store it${ignored.yet ? ' yet' : ''}, accepts no value for it and never returns it`,
      );
      continue;
    }
    out[name] = toAttribute(name, a, model.tableName, modelLocalized);
    const conditions = conditionsOf(a, `${model.file} (attribute "${name}")`, context);
    if (conditions) out[name]!.conditions = conditions;
  }
  return out;
}

/**
 * An attribute's `conditions` (Strapi 5's conditional fields, ./conditions.ts) when its
 * `visible` rule is one Folio evaluates; otherwise a warning, and the attribute is always shown.
 */
function conditionsOf(a: Json, where: string, context: LoadContext): { visible: unknown } | undefined {
  if (!isObject(a.conditions) || a.conditions.visible === undefined) return undefined;
  const visible = a.conditions.visible;
  const unsupported = unsupportedOperator(visible);
  if (unsupported) {
    context.warnings.push(
      `${where}: its visibility condition uses the JSON Logic operator "${unsupported}", which Folio does not evaluate; ` +
        'the attribute is checked as if it had no condition',
    );
    return undefined;
  }
  return { visible };
}

/**
 * A relation Folio starts without: a polymorphic one where it does not store them (components,
 * the users extension) or one to a type it does not hold (IGNORED_TARGETS).
 */
function ignoredRelation(a: Json, morphs: boolean): { target: string; what: string; yet: boolean } | undefined {
  if (a.type !== 'relation') return undefined;
  if (MORPH_KINDS.includes(a.relation as string)) {
    if (morphs) return undefined;
    return { target: `${a.relation}${a.target ? ` ${a.target}` : ''}`, what: `polymorphic relation ${a.relation} outside a content type`, yet: true };
  }
  if (IGNORED_TARGETS.has(a.target as string)) return { target: a.target as string, what: `relation to ${a.target}`, yet: false };
  return undefined;
}

function toAttribute(name: string, a: Json, tableName: string, modelLocalized: boolean): Attribute {
  const type = a.type as string;
  // Relations and uids are always per locale in Strapi's i18n model: each locale links and slugs on its own.
  const localized = modelLocalized && (dig(a, 'pluginOptions', 'i18n', 'localized') !== false || type === 'relation' || type === 'uid');
  const base = { name, required: a.required === true, private: a.private === true, localized, writable: true };
  const bounds = pick(a, ['min', 'max']) as { min?: number; max?: number };
  switch (type) {
    case 'media':
      return {
        ...base,
        kind: 'media',
        multiple: a.multiple === true,
        ...(a.allowedTypes ? { allowedTypes: a.allowedTypes as string[] } : {}),
      };
    case 'relation': {
      if (MORPH_KINDS.includes(a.relation as string)) return toMorph(base, a, tableName);
      const relation = a.relation as RelationKind;
      const mappedBy = a.mappedBy as string | undefined;
      return {
        ...base,
        kind: 'relation',
        relation,
        target: a.target as string,
        ...pick(a, ['inversedBy', 'mappedBy']),
        toMany: relation === 'oneToMany' || relation === 'manyToMany',
        owner: mappedBy === undefined,
        // The inverse side shares the owner's table; filled in once every table name is known.
        linkTable: mappedBy === undefined ? linkTableName(tableName, name) : '',
        ...(mappedBy !== undefined ? { ownerAttribute: mappedBy } : {}),
        // targetType and inverse: linked once every model is read (./links.ts).
      } as RelationAttribute;
    }
    case 'component':
      // componentModel: linked once every model is read (./links.ts).
      return { ...base, kind: 'component', component: a.component as string, repeatable: a.repeatable === true, ...bounds } as ComponentAttribute;
    case 'dynamiczone':
      return { ...base, kind: 'dynamiczone', components: [...(a.components as string[])], ...bounds } as DynamicZoneAttribute;
    default:
      return {
        ...base,
        kind: 'scalar',
        type: type as ScalarType,
        unique: a.unique === true,
        ...pick(a, ['default', 'min', 'max', 'minLength', 'maxLength', 'regex', 'enum', 'targetField', 'customField', 'searchable']),
      };
  }
}

/** A polymorphic relation: the morphTo side owns a link table naming (type, document) pairs. */
function toMorph(base: Omit<MorphAttribute, 'kind' | 'relation' | 'toMany' | 'owner' | 'linkTable'>, a: Json, tableName: string): MorphAttribute {
  const relation = a.relation as MorphKind;
  const owner = relation === 'morphToOne' || relation === 'morphToMany';
  return {
    ...base,
    kind: 'morph',
    relation,
    owner,
    toMany: relation === 'morphToMany' || relation === 'morphMany',
    // The other side reads the morphTo side's table; filled in once every table name is known.
    linkTable: owner ? morphTableName(tableName, base.name) : '',
    ...(owner ? {} : pick(a, ['target', 'morphBy'])),
  };
}

function resolveInverseLinkTables(contentTypes: ContentType[]): void {
  const byUid = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  for (const ct of contentTypes) {
    for (const a of Object.values(ct.attributes)) {
      if (a.kind === 'morph' && !a.owner) {
        // checkRegistry made sure the morphTo side exists.
        a.linkTable = (byUid.get(a.target!)!.attributes[a.morphBy!] as MorphAttribute).linkTable;
        continue;
      }
      if (a.kind !== 'relation' || a.owner) continue;
      // checkRegistry made sure the owning side exists and points back.
      const owning = byUid.get(a.target)!.attributes[a.mappedBy!] as RelationAttribute;
      a.linkTable = owning.linkTable;
    }
  }
}

function makeRegistry(contentTypes: ContentType[], components: Component[], context: LoadContext, system: ContentType[]): Registry {
  // Relations reach the system types by uid; routes and table sync only see the project's types.
  const cts = new Map([...system, ...contentTypes].map((ct) => [ct.uid, ct]));
  const cmps = new Map(components.map((c) => [c.uid, c]));
  // Collection types are addressed by plural (/api/articles), single types by singular (/api/homepage); a plugin's types have no such route.
  const routes = new Map(contentTypes.filter((ct) => !ct.plugin).map((ct) => [ct.kind === 'collectionType' ? ct.pluralName : ct.singularName, ct]));
  return {
    contentTypes,
    components,
    get: (uid) => cts.get(uid) ?? cmps.get(uid),
    contentType: (uid) => cts.get(uid),
    component: (uid) => cmps.get(uid),
    byRouteId: (id) => routes.get(id),
    warnings: context.warnings,
    ignored: context.ignored,
    systemTypes: system,
    customActions: [],
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
