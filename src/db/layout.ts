/**
 * The storage layout, in one place: every table and column name of content, version,
 * link, component and media-link storage. Other modules ask here instead of spelling a
 * name, so the layout can be read (and changed) in one file. See docs/deploy.md "Storage".
 *
 *  - content table (one per content type): one row per version, keyed by
 *    (documentId, locale, draft|published);
 *  - component table (one per component): each row owned by (ownerType, ownerId, ownerField)
 *    at a position;
 *  - link table (one per owning relation attribute): a link belongs to the source version
 *    and names the target by documentId (+ locale, + optional pinned status), ordered by
 *    fractional keys on both sides;
 *  - media links (one system table): which file sits in which field of which row, in order.
 */
import type { AnyModel, MorphAttribute, RelationAttribute } from '../registry/types';
import { sql, type Sql } from './sql';
import { fitIdentifier } from '../registry/stored-names';

/** System columns of every content table. */
export const VERSION = {
  id: 'id',
  documentId: 'documentId',
  /** '' for types without i18n, so (documentId, locale, status) stays a usable unique key. */
  locale: 'locale',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  /** NULL marks the draft version of a draft & publish type. */
  publishedAt: 'publishedAt',
} as const;

/** The key column of a component row (content and link rows name theirs in VERSION and LINK). */
export const COMPONENT_ID = 'id';

/** Columns naming the owner of a component row. */
export const COMPONENT_OWNER = {
  type: '__ownerType',
  id: '__ownerId',
  field: '__ownerField',
  order: '__order',
} as const;

/** Columns of a relation link table. */
export const LINK = {
  id: 'id',
  sourceId: 'sourceId',
  targetDocumentId: 'targetDocumentId',
  /** '' when the target has no i18n. */
  targetLocale: 'targetLocale',
  /** '' = the version matching the reader's status; 'draft' / 'published' pins one. */
  targetStatus: 'targetStatus',
  /** Order of the targets in the source's list. */
  position: 'position',
  /** Order of the sources in the target's (inverse) list. */
  inversePosition: 'inversePosition',
} as const;

/**
 * Columns of a polymorphic link table (one per morphToOne / morphToMany attribute): a link
 * belongs to the source version and names its target by type uid and documentId (+ locale,
 * + pinned status), like a relation link; there is no inverse order (Strapi keeps none).
 */
export const MORPH_LINK = {
  id: 'id',
  sourceId: 'sourceId',
  targetType: 'targetType',
  targetDocumentId: 'targetDocumentId',
  targetLocale: 'targetLocale',
  targetStatus: 'targetStatus',
  position: 'position',
} as const;

/** The media-link table and its columns (Strapi's upload plugin names). */
export const MEDIA_LINKS = {
  table: 'files_related_mph',
  fileId: 'fileId',
  relatedType: 'relatedType',
  relatedId: 'relatedId',
  field: 'field',
  position: 'position',
} as const;

/** The uploaded files table. */
export const FILES_TABLE = 'files';

/** Columns of `files` in the order Strapi lists a file's keys. */
export const FILE_COLUMNS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
] as const;

export type FileColumn = (typeof FILE_COLUMNS)[number];

/** System tables (made by db/migrations; their rows are read and written in db/store/). */
export const SYSTEM = {
  migrations: 'folio_migrations',
  locales: 'folio_locales',
  roles: 'folio_roles',
  permissions: 'folio_permissions',
  apiTokens: 'folio_api_tokens',
  apiTokenPermissions: 'folio_api_token_permissions',
  users: 'folio_users',
  /** Folio Admin's accounts (migration 0009), relation targets as `admin::user` (0010). */
  adminUsers: 'folio_admin_users',
  /** Installation secrets several instances share (PostgreSQL only; SQLite keeps them in the data dir). */
  store: 'folio_store',
  /** Plugins' stored settings (users & permissions: advanced, email, grant), JSON per key (migration 0013). */
  pluginStore: 'folio_plugin_store',
  /** End users' refresh-token sessions (migration 0014, auth/sessions.ts). */
  userSessions: 'folio_user_sessions',
  /** Provider sign-ins in progress (migration 0018, auth/providers/connect.ts). */
  providerSessions: 'folio_provider_sessions',
  /** Rate-limit windows several instances share (PostgreSQL only). */
  rateLimits: 'folio_rate_limits',
  /** One row, rewritten by triggers on every settings write (migration 0005): what settings caches key on. */
  settingsVersion: 'folio_settings_version',
  /**
   * PostgreSQL only (migration 0022, db/postgres.ts): a sequence every commit advances right
   * after it, and the channel it then notifies: what caches of any data key on, and what wakes
   * the realtime feed of every instance.
   */
  changes: 'folio_changes',
  /** Events written in the transaction of the change that caused them (src/events/). */
  outbox: 'folio_outbox',
  /** Webhooks managed with `folio webhook`. */
  webhooks: 'folio_webhooks',
  /** One row per (event, webhook): what is still to send, and when. */
  webhookDeliveries: 'folio_webhook_deliveries',
  /** One row per attempt to send (`folio webhook deliveries`). */
  webhookAttempts: 'folio_webhook_attempts',
  /** One row: until when writes record events for realtime subscribers (src/events/realtime.ts). */
  realtimeLease: 'folio_realtime_lease',
  /** Versions per (content table, locale, published), kept by triggers (migration 0012, db/counts.ts): list totals. */
  counts: 'folio_counts',
  /** The schema the content tables were last synced with, per model (db/schema-changes.ts, migration 0008). */
  schemaSnapshot: 'folio_schema_snapshot',
  /** Content history: a document's content after each write (src/history/, migration 0019). */
  history: 'folio_history',
  /** The audit log: content writes, settings changes, admin logins, release publishes (src/audit/, migration 0020). */
  audit: 'folio_audit',
  /** Releases and their entries (src/releases/, migration 0021). */
  releases: 'folio_releases',
  releaseEntries: 'folio_release_entries',
  /** Cron ticks run, per task (migration 0022, project/cron.ts): each tick runs once across instances. */
  cronTicks: 'folio_cron_ticks',
  /** Folio Admin's view configuration per content type (migration 0023, src/admin/views.ts). */
  adminViews: 'folio_admin_views',
} as const;

/** Prefix of every system table; content types and components may not use it. */
export const SYSTEM_TABLE_PREFIX = 'folio_';

/** Tables outside the prefix that Folio owns all the same (Strapi's names, kept for familiarity). */
export const RESERVED_TABLES: ReadonlySet<string> = new Set([FILES_TABLE, MEDIA_LINKS.table]);

/**
 * The substring index behind `_q` (db/search-index.ts), named under the system prefix so no
 * content table can take a name it uses. SQLite: an FTS5 trigram table per content type (its
 * shadow tables end in _data, _idx, _docsize, _config: the `_fts` suffix keeps one type's
 * table from being another's shadow) and the triggers keeping it in step. PostgreSQL: one
 * pg_trgm index per searched column, within the 63-byte identifier limit (a hash keeps
 * shortened names apart).
 */
export const SEARCH = {
  prefix: `${SYSTEM_TABLE_PREFIX}search_`,
  ftsTable: (table: string) => `${SEARCH.prefix}${table}_fts`,
  trigger: (table: string, event: 'insert' | 'update' | 'delete') => `${SEARCH.prefix}${table}_${event}`,
  // Always hashed (names made before fitIdentifier keep theirs); fitted too, for names whose 40 characters take more bytes.
  trgmIndex: (table: string, column: string) =>
    fitIdentifier(
      `${SEARCH.prefix}${`${table}_${column}`.slice(0, 40)}_${new Bun.CryptoHasher('sha1').update(`${table}\0${column}`).digest('hex').slice(0, 8)}`,
    ),
};

// The fitting of long names lives with the registry, which names tables as it loads schemas
// (registry/ is the layer below db/); db/ code takes every name from here.
export { clipToBytes, fitIdentifier, indexName, legacyName, linkTableName, MAX_IDENTIFIER_BYTES, morphTableName, wholeName } from '../registry/stored-names';

/** The table of a content type or component, as an identifier. */
export const tableOf = (model: AnyModel): Sql => sql.id(model.tableName);

/** The link table of a relation attribute (owning or inverse side), as an identifier. */
export const linkTableOf = (attribute: RelationAttribute | MorphAttribute): Sql => sql.id(attribute.linkTable);

/** `alias.column` as an identifier. */
export const column = (alias: string, name: string): Sql => sql.id(alias, name);
