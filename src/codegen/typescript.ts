/**
 * `folio types`: TypeScript declarations of every content type and component, read from the
 * compiled field model, with the response envelopes and the error type. Scalars are typed
 * by their field (enumerations as literal unions, json as JsonValue, blocks as a node tree);
 * relations, media, components and dynamic zones are optional because they appear only when
 * populated; a dynamic zone is a union discriminated by `__component`. Documents are object
 * type aliases (not interfaces), so they also fit @strapi/client's `API.DocumentResponse<T>`,
 * whose `Document` has an index signature only type aliases satisfy implicitly.
 */
import type { ScalarField } from '../registry/fields';
import { FILE_UID } from '../registry/file-model';
import { shownByContentApi, USER_UID } from '../registry/system-models';
import type { AnyModel, Attribute, Registry } from '../registry/types';
import { modelNames, nameOf } from './names';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value: string) => JSON.stringify(value);

/** The declarations every generated file starts with: JSON, rich text, relation input, envelopes. */
const PRELUDE = `export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Rich text (\`blocks\` attributes): Strapi's node tree. */
export type BlocksText = { type: 'text'; text: string; bold?: boolean; italic?: boolean; underline?: boolean; strikethrough?: boolean; code?: boolean };
export type BlocksLink = { type: 'link'; url: string; children: BlocksText[] };
export type BlocksInline = BlocksText | BlocksLink;
export type BlocksListItem = { type: 'list-item'; children: BlocksInline[] };
export type BlocksList = { type: 'list'; format: 'ordered' | 'unordered'; indentLevel?: number; children: (BlocksListItem | BlocksList)[] };
export type BlocksImage = {
  type: 'image';
  image: { name: string; url: string; hash: string; ext: string; mime: string; width: number; height: number; size: number; alternativeText?: string | null; caption?: string | null; previewUrl?: string | null; formats?: JsonValue; provider: string; createdAt: string; updatedAt: string };
  children: BlocksInline[];
};
export type BlocksNode =
  | { type: 'paragraph'; children: BlocksInline[] }
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: BlocksInline[] }
  | { type: 'quote'; children: BlocksInline[] }
  | { type: 'code'; language?: string; children: BlocksText[] }
  | BlocksList
  | BlocksImage;

/** One responsive variant of an uploaded image (thumbnail, small, medium, large). */
export type UploadFileFormat = { name: string; hash: string; ext: string; mime: string; path: string | null; width: number; height: number; size: number; sizeInBytes: number; url: string };

/** A relation in a write: documentIds or ids, a list of them (replaces), { connect, disconnect } or { set }, or null. */
export type RelationTarget = string | number | { documentId?: string; id?: number; locale?: string; position?: { before?: string; after?: string; start?: boolean; end?: boolean } };
export type RelationInput = RelationTarget | RelationTarget[] | { connect?: RelationTarget[]; disconnect?: RelationTarget[]; set?: RelationTarget[] } | null;

/** A document a polymorphic (morphTo) relation holds: any content type, discriminated by \`__type\`. */
export type MorphTarget = { [K in keyof ContentTypes]: ContentTypes[K] & { __type: K } }[keyof ContentTypes];
export type MorphItem = { __type: keyof ContentTypes; id?: number; documentId?: string; locale?: string; status?: 'draft' | 'published' };
/** A polymorphic relation in a write: one item or null (morphToOne), a list (replaces), or { connect, disconnect, set }. */
export type MorphInput = MorphItem | MorphItem[] | { connect?: MorphItem[]; disconnect?: MorphItem[]; set?: MorphItem[] } | null;

export type Pagination = { page: number; pageSize: number; pageCount: number; total: number };
/** meta.pagination of a list requested with pagination[start] / pagination[limit]. */
export type PaginationByOffset = { start: number; limit: number; total: number };

/** GET /api/:singular, GET /api/:plural/:documentId, writes and document actions. */
export type StrapiResponse<T> = { data: T; meta: Record<string, unknown> };
/** GET /api/:plural. */
export type StrapiListResponse<T, P = Pagination> = { data: T[]; meta: { pagination: P } };
export type StrapiError = { status: number; name: string; message: string; details: Record<string, unknown> };
/** Every error answer: 400, 401, 403, 404, 405, 413, 429, 500, 503. */
export type StrapiErrorResponse = { data: null; error: StrapiError };
/** POST /api/auth/local, /register, /reset-password and /change-password. */
export type AuthResponse = { jwt: string; user: User };

/** A dynamic-zone entry of one of the components K, discriminated by \`__component\`. */
export type ZoneEntry<K extends keyof ComponentMap> = K extends K ? ComponentMap[K] & { __component: K } : never;
export type ZoneEntryInput<K extends keyof ComponentInputMap> = K extends K ? ComponentInputMap[K] & { __component: K } : never;
`;

function scalarType(field: ScalarField): string {
  switch (field.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enumeration':
      return (field.attribute.enum ?? []).map(literal).join(' | ') || 'never';
    case 'json':
      return 'JsonValue';
    case 'blocks':
      return 'BlocksNode[]';
    default:
      // Text, dates and times (ISO strings), and bigintegers and timestamps (strings of digits).
      return 'string';
  }
}

const shown = (model: AnyModel) => Object.values(model.attributes).filter((a) => !a.private && !(a.kind === 'scalar' && a.type === 'password'));
const union = (types: string[]) => (types.length ? types.join(' | ') : 'never');

/** A populated reference in a response; undefined for scalars. */
function populatedType(names: Map<string, string>, attribute: Attribute): string | undefined {
  const named = (uid: string) => names.get(uid) ?? 'Record<string, unknown>';
  const oneOrMany = (type: string, many: boolean) => (many ? `${type}[]` : `${type} | null`);
  switch (attribute.kind) {
    case 'relation':
      // A relation to admin users is stored but never populated through the content API.
      return shownByContentApi(attribute.target) ? oneOrMany(named(attribute.target), attribute.toMany) : undefined;
    case 'morph':
      return oneOrMany(attribute.target ? named(attribute.target) : 'MorphTarget', attribute.toMany);
    case 'media':
      return oneOrMany(named(FILE_UID), attribute.multiple);
    case 'component':
      return oneOrMany(named(attribute.component), attribute.repeatable);
    case 'dynamiczone':
      return `ZoneEntry<${union(attribute.components.map(literal))}>[]`;
    default:
      return undefined;
  }
}

function inputType(names: Map<string, string>, model: AnyModel, attribute: Attribute): string {
  switch (attribute.kind) {
    case 'scalar':
      return `${scalarType(model.fields[attribute.name] as ScalarField)} | null`;
    case 'relation':
      return 'RelationInput';
    case 'morph':
      return 'MorphInput';
    case 'media':
      return attribute.multiple ? 'number[]' : 'number | null';
    case 'component':
      return attribute.repeatable ? `${nameOf(names, attribute.component)}Input[]` : `${nameOf(names, attribute.component)}Input | null`;
    case 'dynamiczone':
      return `ZoneEntryInput<${union(attribute.components.map(literal))}>[]`;
  }
  throw new Error(`Unknown attribute kind of ${(attribute as Attribute).name}`);
}

const doc = (text: string | undefined, indent = '') => (text ? `${indent}/** ${text.replace(/\*\//g, '* /')} */\n` : '');

/**
 * A document or a component value as responses hold it. Required attributes are typed
 * without null: published content always has them (a draft may not, as Strapi's own types
 * also assume).
 */
function outputDeclaration(names: Map<string, string>, model: AnyModel): string {
  const lines: string[] = ['  id: number;'];
  if (model.modelType === 'contentType') lines.push('  documentId: string;');
  for (const attribute of shown(model)) {
    if (attribute.kind !== 'scalar') continue;
    const type = scalarType(model.fields[attribute.name] as ScalarField);
    // A conditional field (Strapi 5's `conditions`) is null while hidden, required or not.
    lines.push(`  ${key(attribute.name)}: ${attribute.required && !attribute.conditions ? type : `${type} | null`};`);
  }
  if (model.modelType === 'contentType') {
    lines.push('  createdAt: string;', '  updatedAt: string;', '  publishedAt: string | null;');
    if (model.localized) lines.push('  locale: string;');
  }
  for (const attribute of shown(model)) {
    const type = populatedType(names, attribute);
    if (type) lines.push(`  ${key(attribute.name)}?: ${type};`);
  }
  if (model.modelType === 'contentType' && model.localized) lines.push(`  localizations?: ${nameOf(names, model)}[];`);
  if (model.uid === USER_UID) lines.push('  role?: Role | null;');
  if (model.uid === FILE_UID) {
    // The stored json column, typed as the upload plugin writes it.
    const at = lines.findIndex((l) => l.startsWith('  formats:'));
    if (at >= 0) lines[at] = '  formats: Record<string, UploadFileFormat> | null;';
  }
  const description = model.modelType === 'contentType' ? `${model.description ? `${model.description} ` : ''}(${model.uid})` : `Component ${model.uid}`;
  return `${doc(description)}export type ${nameOf(names, model)} = {\n${lines.join('\n')}\n};\n`;
}

/** The `data` of a write: everything optional (a PUT changes what it names; drafts skip required checks). */
function inputDeclaration(names: Map<string, string>, model: AnyModel): string {
  const lines: string[] = model.modelType === 'component' ? ['  id?: number;'] : [];
  // The read-back side of a polymorphic relation (morphOne / morphMany) takes no value.
  for (const attribute of shown(model))
    if (attribute.kind !== 'morph' || attribute.owner) lines.push(`  ${key(attribute.name)}?: ${inputType(names, model, attribute)};`);
  return `export type ${nameOf(names, model)}Input = {${lines.length ? `\n${lines.join('\n')}\n` : ' '}};\n`;
}

const map = (name: string, description: string, entries: [string, string][]) =>
  `${doc(description)}export interface ${name} {${entries.length ? `\n${entries.map(([k, v]) => `  ${key(k)}: ${v};`).join('\n')}\n` : ''}}\n`;

/** The whole declaration file for a registry. */
export function generateTypes(registry: Registry): string {
  const names = modelNames(registry);
  // A plugin's types have no /api/<id> route of their own: ContentTypes lists them, the route maps do not.
  const collections = registry.contentTypes.filter((ct) => ct.kind === 'collectionType' && !ct.plugin);
  const singles = registry.contentTypes.filter((ct) => ct.kind === 'singleType' && !ct.plugin);
  const parts = [
    `/**\n * Types of a Folio API, written by \`folio types\` from its content types. Do not edit: run\n * \`folio types\` again after changing them. Relations, media, components and dynamic zones are\n * optional: responses carry them only when populated.\n */\n`,
    PRELUDE,
    "// Strapi's own types.",
    ...registry.systemTypes.filter((t) => shownByContentApi(t.uid)).map((model) => outputDeclaration(names, model)),
    '// Content types.',
    ...registry.contentTypes.flatMap((ct) => [outputDeclaration(names, ct), inputDeclaration(names, ct)]),
    '// Components.',
    ...registry.components.flatMap((c) => [outputDeclaration(names, c), inputDeclaration(names, c)]),
    map(
      'ComponentMap',
      'Components by uid (the `__component` of dynamic-zone entries).',
      registry.components.map((c) => [c.uid, nameOf(names, c)]),
    ),
    map(
      'ComponentInputMap',
      'Component inputs by uid.',
      registry.components.map((c) => [c.uid, `${nameOf(names, c)}Input`]),
    ),
    map(
      'CollectionTypes',
      'Collection types by plural API id: GET /api/<key> answers StrapiListResponse<CollectionTypes[key]>.',
      collections.map((ct) => [ct.pluralName, nameOf(names, ct)]),
    ),
    map(
      'SingleTypes',
      'Single types by singular API id: GET /api/<key> answers StrapiResponse<SingleTypes[key]>.',
      singles.map((ct) => [ct.singularName, nameOf(names, ct)]),
    ),
    map(
      'ContentTypes',
      'Every content type by uid.',
      registry.contentTypes.map((ct) => [ct.uid, nameOf(names, ct)]),
    ),
  ];
  return parts.join('\n');
}
