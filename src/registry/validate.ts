/**
 * Schema checks. Per-file checks run on the raw JSON before normalisation (so the
 * normaliser can trust shapes); cross-file checks run on the normalised models,
 * once every uid and table name is known. Every problem throws a SchemaError whose
 * message should let someone new to Strapi schemas fix the file without reading code.
 */
import {
  RESERVED_ATTRIBUTE_NAMES,
  SCALAR_TYPES,
  SchemaError,
  type Component,
  type ContentType,
  type Model,
  type RelationAttribute,
  type RelationKind,
} from './types.ts';
import { isObject } from '../json';

export type Json = Record<string, unknown>;

export const KEBAB_CASE = /^[a-z][a-z0-9-]*$/;
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const RELATION_KINDS: readonly RelationKind[] = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];
const ATTRIBUTE_TYPES: readonly string[] = [...SCALAR_TYPES, 'media', 'relation', 'component', 'dynamiczone'];
// Each side of a bidirectional relation sees the other from the opposite end.
const INVERSE_KIND: Record<RelationKind, RelationKind> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};
const KEBAB_HINT = 'must be kebab-case: lowercase letters, digits and dashes, starting with a letter (e.g. "blog-post")';

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);
const aOrAn = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
const describe = (v: unknown): string => (Array.isArray(v) ? 'an array' : v === null ? 'null' : `${typeof v} ${show(v)}`);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '');

export function parseSchema(file: string, text: string): Json {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SchemaError(file, undefined, `is not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(data)) {
    throw new SchemaError(file, undefined, `must hold a JSON object at the top level, but it holds ${describe(data)}`);
  }
  return data;
}

export function checkContentTypeFile(file: string, raw: Json): void {
  const fail = (detail: string) => new SchemaError(file, undefined, detail);
  // Without a kind, Strapi makes a collection type (its content-type loader defaults it); so does load.ts.
  if (raw.kind !== undefined && raw.kind !== 'collectionType' && raw.kind !== 'singleType') {
    throw fail(`"kind" must be "collectionType" or "singleType", got ${show(raw.kind)}`);
  }
  const info = raw.info;
  if (!isObject(info)) throw fail('is missing the "info" object (it holds singularName, pluralName and displayName)');
  for (const key of ['singularName', 'pluralName']) {
    const name = info[key];
    if (name === undefined || name === '') {
      throw fail(`is missing "info.${key}" (the API id used in URLs and in the uid, e.g. "${key === 'singularName' ? 'article' : 'articles'}")`);
    }
    if (typeof name !== 'string' || !KEBAB_CASE.test(name)) throw fail(`info.${key} ${show(name)} ${KEBAB_HINT}`);
  }
  if (info.singularName === info.pluralName) {
    throw fail(
      `info.singularName and info.pluralName are both "${info.singularName}"; they must differ ` +
        'because collection routes use the plural and single types the singular',
    );
  }
  checkModelFile(file, raw, false, (raw.options as Json | undefined)?.draftAndPublish === true);
}

export function checkComponentFile(file: string, category: string, name: string, raw: Json): void {
  if (!KEBAB_CASE.test(category)) throw new SchemaError(file, undefined, `component category folder "${category}" ${KEBAB_HINT}`);
  if (!KEBAB_CASE.test(name)) throw new SchemaError(file, undefined, `component file name "${name}" ${KEBAB_HINT}`);
  if (raw.info !== undefined && !isObject(raw.info)) throw new SchemaError(file, undefined, '"info" must be an object');
  checkModelFile(file, raw, true, false);
}

/** Strapi's users-permissions user extension: attributes checked like a content type's (no D&P, no dynamic zones needed). */
export function checkUserExtensionFile(file: string, raw: Json): void {
  checkModelFile(file, raw, false, false);
}

function checkModelFile(file: string, raw: Json, inComponent: boolean, draftAndPublish: boolean): void {
  const fail = (detail: string) => new SchemaError(file, undefined, detail);
  if (raw.collectionName !== undefined && (typeof raw.collectionName !== 'string' || raw.collectionName === '')) {
    throw fail(`"collectionName" (the table name) must be a non-empty string, got ${show(raw.collectionName)}`);
  }
  for (const key of ['options', 'pluginOptions']) {
    if (raw[key] !== undefined && !isObject(raw[key])) throw fail(`"${key}" must be an object, got ${describe(raw[key])}`);
  }
  const dp = (raw.options as Json | undefined)?.draftAndPublish;
  if (dp !== undefined && typeof dp !== 'boolean') throw fail(`"options.draftAndPublish" must be true or false, got ${show(dp)}`);
  if (!isObject(raw.attributes)) {
    throw fail(
      raw.attributes === undefined
        ? 'is missing "attributes" (an object mapping attribute names to definitions, e.g. { "title": { "type": "string" } })'
        : `"attributes" must be an object mapping attribute names to definitions, got ${describe(raw.attributes)}`,
    );
  }
  for (const [name, attr] of Object.entries(raw.attributes)) {
    checkAttribute(file, name, attr, raw.attributes, inComponent, draftAndPublish);
  }
}

function checkAttribute(file: string, name: string, a: unknown, siblings: Json, inComponent: boolean, draftAndPublish: boolean): void {
  const fail = (detail: string) => new SchemaError(file, name, detail);
  if (!ATTRIBUTE_NAME.test(name)) {
    throw fail('attribute names must start with a letter or underscore and contain only letters, digits and underscores');
  }
  // Strapi accepts an attribute named `status` where no draft & publish status exists.
  if ((RESERVED_ATTRIBUTE_NAMES as readonly string[]).includes(name) && !(name === 'status' && !draftAndPublish)) {
    throw fail(
      name === 'status'
        ? '"status" is reserved on types with draft & publish (the `status` query parameter chooses draft or published there); ' +
            'rename the attribute, or turn draftAndPublish off'
        : `"${name}" is reserved for a system field (reserved names: ${RESERVED_ATTRIBUTE_NAMES.join(', ')}); rename the attribute`,
    );
  }
  if (!isObject(a)) throw fail(`the definition must be an object like { "type": "string" }, got ${describe(a)}`);
  const type = a.type;
  if (type === undefined) throw fail(`is missing "type"; expected one of: ${ATTRIBUTE_TYPES.join(', ')}`);
  if (typeof type !== 'string' || !ATTRIBUTE_TYPES.includes(type)) {
    throw fail(`unknown type ${show(type)}; expected one of: ${ATTRIBUTE_TYPES.join(', ')}`);
  }
  for (const key of ['required', 'private', 'unique', 'multiple', 'repeatable']) {
    if (a[key] !== undefined && typeof a[key] !== 'boolean') throw fail(`"${key}" must be true or false, got ${show(a[key])}`);
  }
  for (const key of ['min', 'max']) {
    if (a[key] !== undefined && !(typeof a[key] === 'number' && Number.isFinite(a[key]))) {
      throw fail(`"${key}" must be a number, got ${describe(a[key])}`);
    }
  }
  for (const key of ['minLength', 'maxLength']) {
    if (a[key] !== undefined && !(Number.isInteger(a[key]) && (a[key] as number) >= 0)) {
      throw fail(`"${key}" must be a non-negative integer, got ${describe(a[key])}`);
    }
  }
  for (const [lo, hi] of [
    ['min', 'max'],
    ['minLength', 'maxLength'],
  ]) {
    if (typeof a[lo] === 'number' && typeof a[hi] === 'number' && a[lo] > a[hi]) {
      throw fail(`"${lo}" (${a[lo]}) is greater than "${hi}" (${a[hi]}), so no value could be valid`);
    }
  }
  if (a.regex !== undefined) {
    if (typeof a.regex !== 'string') throw fail(`"regex" must be a string, got ${describe(a.regex)}`);
    try {
      new RegExp(a.regex);
    } catch (e) {
      throw fail(`"regex" ${show(a.regex)} does not compile: ${(e as Error).message}`);
    }
  }

  switch (type) {
    case 'enumeration':
      if (!isStringArray(a.enum) || a.enum.length === 0) {
        throw fail(`an enumeration needs a non-empty "enum" array of strings (e.g. ["draft", "live"]), got ${describe(a.enum)}`);
      }
      if (new Set(a.enum).size !== a.enum.length) throw fail(`"enum" lists a value twice: ${show(a.enum)}`);
      break;
    case 'uid':
      if (a.targetField !== undefined) checkTargetField(fail, a.targetField, siblings);
      break;
    case 'media':
      if (a.allowedTypes !== undefined && !isStringArray(a.allowedTypes)) {
        throw fail(`"allowedTypes" must be an array of strings (e.g. ["images", "files"]), got ${describe(a.allowedTypes)}`);
      }
      break;
    case 'relation':
      checkRelationShape(fail, a, inComponent);
      break;
    case 'component':
      if (typeof a.component !== 'string' || a.component === '') {
        throw fail('a component attribute needs "component": "<category>.<name>" (e.g. "shared.seo")');
      }
      break;
    case 'dynamiczone':
      if (inComponent) throw fail('components cannot contain dynamic zones; only content types can');
      if (!isStringArray(a.components) || a.components.length === 0) {
        throw fail(`a dynamiczone needs a non-empty "components" array of component uids (e.g. ["shared.quote"]), got ${describe(a.components)}`);
      }
      break;
  }
  if (a.default !== undefined) checkDefault(fail, type, a);
}

function checkTargetField(fail: (d: string) => SchemaError, target: unknown, siblings: Json): void {
  const candidates = Object.keys(siblings).filter((k) => {
    const t = (siblings[k] as Json | undefined)?.type;
    return t === 'string' || t === 'text';
  });
  const hint = `string/text attributes of this model: ${candidates.join(', ') || '(none)'}`;
  if (typeof target !== 'string' || !(target in siblings)) {
    throw fail(`uid "targetField" ${show(target)} is not an attribute of this model; ${hint}`);
  }
  const t = (siblings[target] as Json | undefined)?.type;
  if (t !== 'string' && t !== 'text') {
    throw fail(`uid "targetField" "${target}" is ${aOrAn(String(t))} attribute, but it must be a string or text attribute; ${hint}`);
  }
}

/** Strapi's polymorphic relation kinds. */
export const MORPH_KINDS: readonly string[] = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'];

function checkRelationShape(fail: (d: string) => SchemaError, a: Json, inComponent: boolean): void {
  const rel = a.relation;
  if (MORPH_KINDS.includes(rel as string)) {
    if ((rel === 'morphOne' || rel === 'morphMany') && (typeof a.target !== 'string' || a.target === '')) {
      throw fail(`a ${rel} relation needs "target": the uid of the type whose morphTo attribute points here`);
    }
    if ((rel === 'morphOne' || rel === 'morphMany') && (typeof a.morphBy !== 'string' || a.morphBy === '')) {
      throw fail(`a ${rel} relation needs "morphBy": the name of the morphToOne/morphToMany attribute of "${a.target}" that points here`);
    }
    return;
  }
  if (!RELATION_KINDS.includes(rel as RelationKind)) {
    throw fail(`"relation" must be one of ${[...RELATION_KINDS, ...MORPH_KINDS].join(', ')}, got ${show(rel)}`);
  }
  if (typeof a.target !== 'string' || a.target === '') {
    throw fail('a relation needs "target": the uid of a content type (e.g. "api::article.article")');
  }
  if (a.inversedBy !== undefined && a.mappedBy !== undefined) {
    throw fail('a relation cannot have both "inversedBy" and "mappedBy": the owning side uses inversedBy, the other side mappedBy');
  }
  for (const key of ['inversedBy', 'mappedBy']) {
    if (a[key] !== undefined && (typeof a[key] !== 'string' || a[key] === '')) {
      throw fail(`"${key}" must name an attribute of the target, got ${show(a[key])}`);
    }
  }
  if (inComponent && (a.inversedBy !== undefined || a.mappedBy !== undefined)) {
    throw fail('relations in components must be one-way: remove "inversedBy"/"mappedBy" (a component has no API of its own to hold the other side)');
  }
}

function checkDefault(fail: (d: string) => SchemaError, type: string, a: Json): void {
  const d = a.default;
  const wrong = (expected: string) => fail(`"default" ${show(d)} does not fit ${aOrAn(type)} attribute; expected ${expected}`);
  switch (type) {
    case 'enumeration':
      if (!(a.enum as string[]).includes(d as string)) {
        throw fail(`"default" ${show(d)} is not one of the enum values: ${(a.enum as string[]).join(', ')}`);
      }
      return;
    case 'boolean':
      if (typeof d !== 'boolean') throw wrong('true or false');
      return;
    case 'integer':
      if (!Number.isInteger(d)) throw wrong('a whole number');
      return;
    case 'biginteger':
      if (!Number.isInteger(d) && !(typeof d === 'string' && /^-?\d+$/.test(d))) throw wrong('a whole number or a string of digits');
      return;
    case 'float':
    case 'decimal':
      if (typeof d !== 'number' || !Number.isFinite(d)) throw wrong('a number');
      return;
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      if (typeof d !== 'string') throw wrong('a string');
  }
}

/** Checks that need every model: unique API ids and tables, existing targets, matching relation sides, no component cycles. */
export function checkRegistry(contentTypes: ContentType[], components: Component[], systemTypes: ContentType[] = []): void {
  const apiIds = new Map<string, ContentType>();
  // A plugin's types have no /api/<id> route: their names are the plugin's own (uids and GraphQL names carry the plugin).
  for (const ct of contentTypes) {
    if (ct.plugin) continue;
    for (const id of [ct.singularName, ct.pluralName]) {
      const other = apiIds.get(id);
      if (other) {
        throw new SchemaError(
          ct.file,
          undefined,
          `API id "${id}" is already used by ${other.file} (${other.uid}); ` + 'every singularName and pluralName must be unique across all content types',
        );
      }
      apiIds.set(id, ct);
    }
  }
  const models: Model[] = [...contentTypes, ...components];
  const tables = new Map<string, string>();
  const claimTable = (table: string, by: string, file: string, attribute?: string) => {
    const other = tables.get(table);
    if (other) {
      throw new SchemaError(file, attribute, `table name "${table}" is also used by ${other}; set a different "collectionName"`);
    }
    tables.set(table, `${by} (${file})`);
  };
  for (const m of models) claimTable(m.tableName, m.uid, m.file);
  // Users may carry relations from the project's extension schema: checked like any model's.
  models.push(...systemTypes);
  for (const m of models) {
    for (const a of Object.values(m.attributes)) {
      if ((a.kind === 'relation' || a.kind === 'morph') && a.owner) claimTable(a.linkTable, `the link table of ${m.uid}.${a.name}`, m.file, a.name);
    }
  }

  const ctByUid = new Map([...systemTypes, ...contentTypes].map((ct) => [ct.uid, ct]));
  const cmpByUid = new Map(components.map((c) => [c.uid, c]));
  const knownCts =
    `known content types: ${contentTypes.map((ct) => ct.uid).join(', ') || '(none)'}` +
    (systemTypes.length ? `, and Strapi's ${systemTypes.map((ct) => ct.uid).join(', ')}` : '');
  const knownCmps = `known components: ${[...cmpByUid.keys()].join(', ') || '(none)'}`;
  for (const m of models) {
    for (const a of Object.values(m.attributes)) {
      const fail = (detail: string) => new SchemaError(m.file, a.name, detail);
      if (a.kind === 'relation') {
        const target = ctByUid.get(a.target);
        if (!target) {
          const why = cmpByUid.has(a.target) ? ' as a content type (it is a component; use a component attribute)' : '';
          throw fail(`relation target "${a.target}" does not exist${why}; ${knownCts}`);
        }
        if (a.inversedBy !== undefined) checkInverse(m, a, target, a.inversedBy, 'mappedBy');
        if (a.mappedBy !== undefined) checkInverse(m, a, target, a.mappedBy, 'inversedBy');
      } else if (a.kind === 'morph' && !a.owner) {
        const target = ctByUid.get(a.target!);
        if (!target) throw fail(`${a.relation} target "${a.target}" does not exist; ${knownCts}`);
        const by = target.attributes[a.morphBy!];
        if (by?.kind !== 'morph' || !by.owner) {
          throw fail(
            `morphBy "${a.morphBy}": ${target.uid} (${target.file}) has no morphToOne/morphToMany attribute of that name; ` +
              `add "${a.morphBy}": { "type": "relation", "relation": "morphToMany" } there`,
          );
        }
      } else if (a.kind === 'component' && !cmpByUid.has(a.component)) {
        throw fail(`component "${a.component}" does not exist; ${knownCmps}`);
      } else if (a.kind === 'dynamiczone') {
        const missing = a.components.find((uid) => !cmpByUid.has(uid));
        if (missing !== undefined) throw fail(`dynamiczone component "${missing}" does not exist; ${knownCmps}`);
      }
    }
  }
  checkComponentCycles(components, cmpByUid);
}

/** `a` on `model` names `partnerName` on `target`; that attribute must be a relation naming `a` back via `backKey`. */
function checkInverse(model: Model, a: RelationAttribute, target: ContentType, partnerName: string, backKey: 'inversedBy' | 'mappedBy'): void {
  const ownKey = backKey === 'mappedBy' ? 'inversedBy' : 'mappedBy';
  const there = `${target.uid} attribute "${partnerName}" (${target.file})`;
  const expected = `{ "type": "relation", "relation": "${INVERSE_KIND[a.relation]}", "target": "${model.uid}", "${backKey}": "${a.name}" }`;
  const fail = (detail: string) => new SchemaError(model.file, a.name, `${ownKey} "${partnerName}": ${detail}`);
  const p = target.attributes[partnerName];
  if (!p) throw fail(`${target.uid} (${target.file}) has no attribute "${partnerName}"; add "${partnerName}": ${expected} there`);
  if (p.kind !== 'relation') throw fail(`${there} is ${aOrAn(p.kind === 'scalar' ? p.type : p.kind)}, not a relation; it should be ${expected}`);
  const problems: string[] = [];
  if (p.target !== model.uid) problems.push(`its target is "${p.target}"`);
  if (p[backKey] !== a.name) {
    problems.push(p[backKey] ? `its ${backKey} is "${p[backKey]}"` : `it has no ${backKey}${p[ownKey] ? ` (it has ${ownKey} "${p[ownKey]}")` : ''}`);
  }
  if (problems.length) {
    throw fail(`the other side ${there} does not point back to ${model.uid} attribute "${a.name}": ` + `${problems.join(' and ')}; it should be ${expected}`);
  }
  if (p.relation !== INVERSE_KIND[a.relation]) {
    throw fail(`relation kinds do not match: this side is ${a.relation}, so ${there} must be ${INVERSE_KIND[a.relation]}, but it is ${p.relation}`);
  }
}

function checkComponentCycles(components: Component[], byUid: Map<string, Component>): void {
  const done = new Set<string>();
  const visit = (c: Component, path: Component[]): void => {
    if (done.has(c.uid)) return;
    const seen = path.findIndex((p) => p.uid === c.uid);
    if (seen >= 0) {
      const loop = [...path.slice(seen), c].map((p) => p.uid).join(' -> ');
      const from = path[path.length - 1];
      const attr = Object.values(from.attributes).find((a) => a.kind === 'component' && a.component === c.uid);
      throw new SchemaError(from.file, attr?.name, `components nest in a cycle (${loop}); a component cannot contain itself, directly or indirectly`);
    }
    for (const a of Object.values(c.attributes)) {
      if (a.kind === 'component') visit(byUid.get(a.component)!, [...path, c]);
    }
    done.add(c.uid);
  };
  for (const c of components) visit(c, []);
}
