/**
 * Password resets of Folio Admin's accounts ("Forgot password?" on the admin login page):
 * the SHA-256 of each mailed link's token (the token itself only travels in the mail), whose
 * admin it resets and until when (one hour). One live token per admin; using it deletes it.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `CREATE TABLE folio_admin_password_resets (
  "tokenHash" ${d.textType} PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES folio_admin_users("id") ON DELETE CASCADE,
  -- Milliseconds since the epoch.
  "expiresAt" BIGINT NOT NULL,
  "createdAt" ${d.textType} NOT NULL
);
CREATE INDEX folio_admin_password_resets_user ON folio_admin_password_resets ("userId");
`;
