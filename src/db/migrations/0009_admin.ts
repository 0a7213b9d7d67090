/**
 * Admin users (the people who log in to /admin), apart from the API's end users: an admin
 * session opens nothing on /api and an end user's JWT opens nothing under /admin/api.
 */
import type { Dialect } from '../dialect';

export default function admin(d: Dialect): string {
  const id = d.idColumn;
  const text = d.textType;
  return `CREATE TABLE folio_admin_users (
  "id" ${id},
  -- Stored lower-cased, so the unique index is case-insensitive.
  "email" ${text} NOT NULL UNIQUE,
  -- Bun.password hash (argon2id); never returned.
  "password" ${text} NOT NULL,
  -- super-admin (everything) or editor (content and media only).
  "role" ${text} NOT NULL,
  "blocked" INTEGER NOT NULL DEFAULT 0,
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);
CREATE TABLE folio_admin_sessions (
  "id" ${id},
  -- SHA-256 of the cookie's random value: a leaked database holds no usable session.
  "tokenHash" ${text} NOT NULL UNIQUE,
  "userId" INTEGER NOT NULL REFERENCES folio_admin_users("id") ON DELETE CASCADE,
  -- Milliseconds since the epoch.
  "expiresAt" BIGINT NOT NULL,
  "createdAt" ${text} NOT NULL
);
CREATE INDEX folio_admin_sessions_user ON folio_admin_sessions ("userId");
`;
}
