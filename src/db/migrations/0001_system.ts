/**
 * System tables: locales, roles and permissions, API tokens, uploaded files and their links;
 * on PostgreSQL also the state several instances share (secrets, rate-limit windows), which
 * SQLite keeps in the data dir and in memory. Content tables are not migrations: they are
 * synced from the content types (schema-sync.ts).
 *
 * A migration spells table and column names as they were when it shipped (db/layout.ts may
 * move on; a rename is a new migration). The text is what the SQL files of the first
 * releases held, so installations made from them and from this have the same schema.
 */
import type { Dialect } from '../dialect';

export default function system(d: Dialect): string {
  const id = d.idColumn;
  const text = d.textType;
  const tables = `CREATE TABLE folio_locales (
  "id" ${id},
  "documentId" ${text} NOT NULL UNIQUE,
  "name" ${text} NOT NULL,
  "code" ${text} NOT NULL UNIQUE,
  "isDefault" INTEGER NOT NULL DEFAULT 0,
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL,
  "publishedAt" ${text} NOT NULL
);

CREATE TABLE folio_roles (
  "id" ${id},
  "documentId" ${text} NOT NULL UNIQUE,
  "name" ${text} NOT NULL,
  "description" ${text},
  "type" ${text} NOT NULL UNIQUE,
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);

CREATE TABLE folio_permissions (
  "id" ${id},
  "roleId" INTEGER NOT NULL REFERENCES folio_roles("id") ON DELETE CASCADE,
  "action" ${text} NOT NULL,
  "createdAt" ${text} NOT NULL,
  UNIQUE ("roleId", "action")
);

CREATE TABLE folio_api_tokens (
  "id" ${id},
  "documentId" ${text} NOT NULL UNIQUE,
  "name" ${text} NOT NULL UNIQUE,
  "description" ${text},
  "type" TEXT NOT NULL CHECK ("type" IN ('read-only', 'full-access', 'custom')),
  -- HMAC-SHA512 of the access key with the installation's salt; the key itself is never stored.
  "accessKey" ${text} NOT NULL UNIQUE,
  "lifespan" INTEGER,
  "expiresAt" ${text},
  "lastUsedAt" ${text},
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);

CREATE TABLE folio_api_token_permissions (
  "id" ${id},
  "tokenId" INTEGER NOT NULL REFERENCES folio_api_tokens("id") ON DELETE CASCADE,
  "action" ${text} NOT NULL,
  UNIQUE ("tokenId", "action")
);

CREATE TABLE files (
  "id" ${id},
  "documentId" ${text} NOT NULL UNIQUE,
  "name" ${text} NOT NULL,
  "alternativeText" ${text},
  "caption" ${text},
  "width" INTEGER,
  "height" INTEGER,
  "formats" ${text},
  "hash" ${text} NOT NULL,
  "ext" ${text},
  "mime" ${text} NOT NULL,
  "size" ${d.realType} NOT NULL,
  "url" ${text} NOT NULL,
  "previewUrl" ${text},
  "provider" ${text} NOT NULL,
  "provider_metadata" ${text},
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL,
  "publishedAt" ${text} NOT NULL
);

-- Media attributes: which file sits in which field of which row (content version or component), in order.
CREATE TABLE files_related_mph (
  "id" ${id},
  "fileId" INTEGER NOT NULL REFERENCES files("id") ON DELETE CASCADE,
  "relatedType" ${text} NOT NULL,
  "relatedId" INTEGER NOT NULL,
  "field" ${text} NOT NULL,
  "position" INTEGER NOT NULL
);
CREATE INDEX files_related_mph_owner ON files_related_mph ("relatedType", "relatedId", "field", "position");
CREATE INDEX files_related_mph_file ON files_related_mph ("fileId");
`;
  if (d.name === 'sqlite') return tables;
  return `${tables}
-- Installation secrets and other state several instances must share (SQLite keeps them in the data dir).
CREATE TABLE folio_store (
  "key" ${text} PRIMARY KEY,
  "value" TEXT NOT NULL
);

-- Rate-limit windows shared by every instance.
CREATE TABLE folio_rate_limits (
  "key" ${text} PRIMARY KEY,
  "count" INTEGER NOT NULL,
  "resetAt" BIGINT NOT NULL
);
`;
}
