-- System tables: locales, roles and permissions, API tokens, uploaded files and their links.
-- Content tables are not migrations: they are synced from the content types (schema-sync.ts).

CREATE TABLE folio_locales (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "documentId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL,
  "code" TEXT NOT NULL UNIQUE,
  "isDefault" INTEGER NOT NULL DEFAULT 0,
  "createdAt" TEXT NOT NULL,
  "updatedAt" TEXT NOT NULL,
  "publishedAt" TEXT NOT NULL
);

CREATE TABLE folio_roles (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "documentId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "type" TEXT NOT NULL UNIQUE,
  "createdAt" TEXT NOT NULL,
  "updatedAt" TEXT NOT NULL
);

CREATE TABLE folio_permissions (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "roleId" INTEGER NOT NULL REFERENCES folio_roles("id") ON DELETE CASCADE,
  "action" TEXT NOT NULL,
  "createdAt" TEXT NOT NULL,
  UNIQUE ("roleId", "action")
);

CREATE TABLE folio_api_tokens (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "documentId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL UNIQUE,
  "description" TEXT,
  "type" TEXT NOT NULL CHECK ("type" IN ('read-only', 'full-access', 'custom')),
  -- HMAC-SHA512 of the access key with the installation's salt; the key itself is never stored.
  "accessKey" TEXT NOT NULL UNIQUE,
  "lifespan" INTEGER,
  "expiresAt" TEXT,
  "lastUsedAt" TEXT,
  "createdAt" TEXT NOT NULL,
  "updatedAt" TEXT NOT NULL
);

CREATE TABLE folio_api_token_permissions (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "tokenId" INTEGER NOT NULL REFERENCES folio_api_tokens("id") ON DELETE CASCADE,
  "action" TEXT NOT NULL,
  UNIQUE ("tokenId", "action")
);

CREATE TABLE files (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "documentId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL,
  "alternativeText" TEXT,
  "caption" TEXT,
  "width" INTEGER,
  "height" INTEGER,
  "formats" TEXT,
  "hash" TEXT NOT NULL,
  "ext" TEXT,
  "mime" TEXT NOT NULL,
  "size" REAL NOT NULL,
  "url" TEXT NOT NULL,
  "previewUrl" TEXT,
  "provider" TEXT NOT NULL,
  "provider_metadata" TEXT,
  "createdAt" TEXT NOT NULL,
  "updatedAt" TEXT NOT NULL,
  "publishedAt" TEXT NOT NULL
);

-- Media attributes: which file sits in which field of which row (content version or component), in order.
CREATE TABLE files_related_mph (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "fileId" INTEGER NOT NULL REFERENCES files("id") ON DELETE CASCADE,
  "relatedType" TEXT NOT NULL,
  "relatedId" INTEGER NOT NULL,
  "field" TEXT NOT NULL,
  "position" INTEGER NOT NULL
);
CREATE INDEX files_related_mph_owner ON files_related_mph ("relatedType", "relatedId", "field", "position");
CREATE INDEX files_related_mph_file ON files_related_mph ("fileId");
