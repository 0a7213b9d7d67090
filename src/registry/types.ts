/**
 * The registry's model of content types and components, normalised from Strapi's
 * `schema.json` format. Everything downstream (table sync, validation, queries,
 * routes) reads these shapes, never the raw JSON.
 */

import type { Field } from './fields/field';

export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'blocks'
  | 'email'
  | 'password'
  | 'uid'
  | 'enumeration'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'json';

export const SCALAR_TYPES: readonly ScalarType[] = [
  'string',
  'text',
  'richtext',
  'blocks',
  'email',
  'password',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
  'json',
];

export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';

interface AttributeBase {
  /** Attribute name; also the column name in the owner's table. */
  name: string;
  required: boolean;
  private: boolean;
  /** Whether the value differs per locale (always true for relations and uid). */
  localized: boolean;
  /** Whether clients may write it (false for nothing in the JSON today; kept for system attributes). */
  writable: boolean;
  /**
   * Strapi 5's conditional field: while `visible` (JSON Logic on the values beside the
   * attribute, ./conditions.ts) is false, the attribute is hidden: not required, not checked.
   */
  conditions?: { visible: unknown };
}

export interface ScalarAttribute extends AttributeBase {
  kind: 'scalar';
  type: ScalarType;
  unique: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  /** Allowed values of an enumeration. */
  enum?: string[];
  /** Source attribute of a uid field. */
  targetField?: string;
  /** A Strapi custom field (`plugin::color-picker.color`) stored as `type`; kept for OpenAPI and admin tools. */
  customField?: string;
  /** Strapi's `searchable: false`: left out of `_q`. */
  searchable?: boolean;
}

export interface MediaAttribute extends AttributeBase {
  kind: 'media';
  multiple: boolean;
  allowedTypes?: string[];
}

export interface RelationAttribute extends AttributeBase {
  kind: 'relation';
  relation: RelationKind;
  /** Target content type uid (`api::tag.tag`). */
  target: string;
  inversedBy?: string;
  mappedBy?: string;
  /** This side may hold several targets (oneToMany, manyToMany). */
  toMany: boolean;
  /** This side stores the links (it has `inversedBy`, or no inverse at all). */
  owner: boolean;
  /** Link table of the owning side (shared by both sides of a bidirectional relation). */
  linkTable: string;
  /** On an inverse side: the owning attribute's name on the target. */
  ownerAttribute?: string;
  /** The target content type itself (linked when the registry loads, ./links.ts). */
  readonly targetType: ContentType;
  /** The other side of a bidirectional relation (the target's `inversedBy`/`mappedBy` attribute), when there is one. */
  readonly inverse?: RelationAttribute;
}

/** Strapi's polymorphic relation kinds: a morphTo side names (type, document) pairs; morphOne/morphMany read them back. */
export type MorphKind = 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/**
 * A polymorphic relation. The morphTo side (`morphToOne` / `morphToMany`, no target) stores
 * links naming any content type's documents; the other side (`morphOne` / `morphMany`, with
 * `target` and `morphBy`) lists the documents of `target` whose `morphBy` attribute links here.
 */
export interface MorphAttribute extends AttributeBase {
  kind: 'morph';
  relation: MorphKind;
  toMany: boolean;
  /** The morphTo side: it stores the links. */
  owner: boolean;
  /** Link table of the morphTo side (shared with the sides that read it back). */
  linkTable: string;
  /** The other side: the type whose morphTo attribute `morphBy` points here. */
  target?: string;
  morphBy?: string;
  /** The other side's `target` itself (linked when the registry loads, ./links.ts). */
  readonly targetType?: ContentType;
}

export interface ComponentAttribute extends AttributeBase {
  kind: 'component';
  /** Component uid (`shared.seo`). */
  component: string;
  repeatable: boolean;
  min?: number;
  max?: number;
  /** The component itself (linked when the registry loads, ./links.ts). */
  readonly componentModel: Component;
}

export interface DynamicZoneAttribute extends AttributeBase {
  kind: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
  /** The components themselves, in `components`' order (linked when the registry loads, ./links.ts). */
  readonly componentModels: Component[];
}

export type Attribute = ScalarAttribute | MediaAttribute | RelationAttribute | MorphAttribute | ComponentAttribute | DynamicZoneAttribute;

/** What content types and components have in common: a table and attributes. */
export interface Model {
  uid: string;
  /** Table holding one row per version (content types) or per instance (components). */
  tableName: string;
  /** Attributes in declaration order. */
  attributes: Record<string, Attribute>;
  /** The compiled field of each attribute, same order (registry/fields): what to do with its values. */
  fields: Record<string, Field>;
  /** The file it was read from, for error messages. */
  file: string;
}

export interface ContentType extends Model {
  modelType: 'contentType';
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  displayName: string;
  description?: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** One of Strapi's own types (users, roles, upload files): a relation target with no route or synced table of its own. */
  system?: boolean;
  /** A plugin's own type (`plugin::<plugin>.<name>`, declared in its server code): no REST route of its own. */
  plugin?: string;
  /** `pluginOptions['content-manager'].visible === false`: the admin's content manager does not list it. */
  hidden?: boolean;
}

/**
 * A content type a plugin's server code declares (`contentTypes: { 'nav-item': { schema } }`),
 * read by src/project/ and handed to loadRegistry: its uid, the plugin, the schema as given
 * (collectionName filled in as Strapi does), and how messages name it.
 */
export interface PluginTypeSchema {
  uid: string;
  plugin: string;
  /** `plugin navigation, content type nav-item (node_modules/x/strapi-server.js)`. */
  source: string;
  schema: Record<string, unknown>;
}

export interface Component extends Model {
  modelType: 'component';
  category: string;
  name: string;
  displayName: string;
}

/** A content type or a component: anything that owns a table and attributes. */
export type AnyModel = ContentType | Component;

export interface Registry {
  contentTypes: ContentType[];
  components: Component[];
  /** Content type or component by uid. */
  get(uid: string): ContentType | Component | undefined;
  contentType(uid: string): ContentType | undefined;
  component(uid: string): Component | undefined;
  /** Collection type by plural API id, or single type by singular API id (the `/api/:id` segment). */
  byRouteId(id: string): ContentType | undefined;
  /** Problems that do not stop start-up (unknown schema keys, ignored attributes); `serve` and `migrate` print them. */
  warnings: string[];
  /**
   * Relation attributes Folio starts with but leaves out of the model: those to Strapi's own types
   * it does not hold (load.ts IGNORED_TARGETS; no table, not writable, not readable), polymorphic
   * ones where it does not store them, and dangling mappedBy sides (`dangling`).
   */
  ignored: IgnoredAttribute[];
  /**
   * Strapi's own types a relation may target (users with the project's extension attributes,
   * roles, upload files: registry/system-models.ts). `contentType(uid)` finds them too.
   */
  systemTypes: ContentType[];
  /**
   * Actions of a project's own routes (`api::article.article.findBySlug`): grantable like the core
   * ones. Filled by src/project/ when it loads the project's routes; empty otherwise.
   */
  customActions: string[];
}

export interface IgnoredAttribute {
  /** The model that declares it. */
  uid: string;
  file: string;
  attribute: string;
  target: string;
  /**
   * A mappedBy side whose owning attribute does not exist or points elsewhere
   * (registry/dangling-inverses.ts): a write may carry it (the value is ignored) and populate
   * leaves it out, as Strapi does. Other ignored attributes accept no value.
   */
  dangling?: true;
}

/**
 * Attribute names no schema may declare: the document model owns them. `status` only on
 * types with draft & publish, where the `status` query parameter and the version model own it
 * (Strapi accepts it elsewhere).
 */
export const RESERVED_ATTRIBUTE_NAMES = [
  'id',
  'documentId',
  'document_id',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'created_at',
  'updated_at',
  'published_at',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  'status',
  '__component',
  '__type',
] as const;

/** A schema file that cannot be used; the message names the file and, where it applies, the attribute. */
export class SchemaError extends Error {
  constructor(
    public file: string,
    public attribute: string | undefined,
    detail: string,
  ) {
    super(`${file}${attribute ? ` (attribute "${attribute}")` : ''}: ${detail}`);
    this.name = 'SchemaError';
  }
}
