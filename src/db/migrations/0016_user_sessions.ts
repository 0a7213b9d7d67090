/**
 * End users' refresh-token sessions (users-permissions `jwtManagement: 'refresh'`,
 * auth/sessions.ts). One row per login: its public id (`sessionId`, which each rotation
 * replaces, the one before kept so access JWTs issued just before a refresh still work), the
 * SHA-256 of its current refresh token (a leaked database holds no usable token), the device,
 * and its idle and absolute expiry. Rows go with their user (ON DELETE CASCADE); logout,
 * password changes and blocking delete them.
 */
import type { Dialect } from '../dialect';

export default function userSessions(d: Dialect): string {
  const text = d.textType;
  return `CREATE TABLE folio_user_sessions (
  "id" ${d.idColumn},
  "sessionId" ${text} NOT NULL UNIQUE,
  "previousSessionId" ${text},
  "tokenHash" ${text} NOT NULL UNIQUE,
  "userId" INTEGER NOT NULL REFERENCES folio_users("id") ON DELETE CASCADE,
  "deviceId" ${text},
  -- refresh (what users-permissions makes) or session: which lifespans apply.
  "type" ${text} NOT NULL,
  "deviceName" ${text},
  -- When the user logged in; NULL for the session a password change opens (Strapi records none).
  "loginAt" ${text},
  -- When the current refresh token was issued (the session's last activity).
  "createdAt" ${text} NOT NULL,
  -- Milliseconds since the epoch: the idle expiry of the current token, and the session's absolute one.
  "expiresAt" BIGINT NOT NULL,
  "absoluteExpiresAt" BIGINT NOT NULL
);
CREATE INDEX folio_user_sessions_user ON folio_user_sessions ("userId");
CREATE INDEX folio_user_sessions_previous ON folio_user_sessions ("previousSessionId");
`;
}
