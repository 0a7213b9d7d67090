/**
 * The short-lived state of a provider sign-in (users-permissions' `/api/connect/:provider`,
 * auth/providers/connect.ts), kept on the server where Strapi keeps it in its session cookie:
 * the browser holds only a random key (the `folio_connect` cookie), this table its SHA-256,
 * the OAuth state to check on the way back, a front-end callback the request chose, and,
 * once the provider called back, the provider's tokens the sign-in needs (never sent to the
 * browser). Rows live ten minutes.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `CREATE TABLE folio_provider_sessions (
  "keyHash" ${d.textType} PRIMARY KEY,
  "provider" ${d.textType} NOT NULL,
  -- OAuth 2's state, or OAuth 1's request token (JSON); NULL once used.
  "state" TEXT,
  "callback" TEXT,
  -- JSON: the provider's tokens, once it called back.
  "response" TEXT,
  -- Milliseconds since the epoch.
  "expiresAt" BIGINT NOT NULL
);
CREATE INDEX folio_provider_sessions_expiry ON folio_provider_sessions ("expiresAt");
`;
