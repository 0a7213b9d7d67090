/**
 * The audit log (src/audit/): one row per content write event, settings change, admin login
 * or failed login, and release publish. Kept FOLIO_AUDIT_DAYS days. Never a secret in it.
 */
import type { Dialect } from '../dialect';

export default function audit(d: Dialect): string {
  const text = d.textType;
  return `CREATE TABLE folio_audit (
  "id" ${d.idColumn},
  -- ISO-8601 UTC with milliseconds.
  "at" ${text} NOT NULL,
  -- admin, user, token, public, cli, system or project; the id and name (email, username, token name) when known.
  "actorKind" ${text} NOT NULL,
  "actorId" ${text},
  "actorName" ${text},
  -- entry.create, permissions.grant, admin.login…
  "action" ${text} NOT NULL,
  -- A content type's uid, role, api-token, webhook, locale, user, admin-user, release…
  "type" ${text},
  "documentId" ${text},
  "locale" ${text},
  -- The client's address, for what came over HTTP.
  "ip" ${text},
  -- JSON: what changed (the granted actions, the fields updated), never a secret.
  "details" ${text} NOT NULL
);
CREATE INDEX folio_audit_at ON folio_audit ("at");
CREATE INDEX folio_audit_actor ON folio_audit ("actorName", "id");
`;
}
