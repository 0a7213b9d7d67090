/**
 * `folio audit [--since ISO] [--actor NAME] [--action ACTION] [--json]`: the audit log
 * (src/audit/), newest first, streamed page by page.
 */
import type { AuditEntry } from '../audit/log';
import { withInstance, UsageError, type Command } from './command';
import { actorText } from './history';

const usage = `Usage: folio audit [--since ISO-8601] [--actor NAME] [--action ACTION] [--json]

Prints the audit log, newest first: one line per row with its time, actor, action, type,
documentId, locale, client address and details (what changed: the granted actions, the
fields updated; never a secret). Rows are content writes (entry.create, entry.update,
entry.delete, entry.publish, entry.unpublish, entry.draft-discard, media.*), settings changes
(permissions.grant/revoke, role.*, api-token.*, webhook.*, locale.*, user.*, admin-user.*),
admin logins (admin.login, admin.login-failed) and release publishes (releases.publish).

--since keeps rows at or after that time; --actor those of that actor (an admin's email, a
user's username, an API token's name, or cli, system, public); --action those of one action.
--json prints [{ at, actor: { kind, name }, action, type, documentId, locale, ip, details }].

Rows are kept FOLIO_AUDIT_DAYS days (90; 0 logs nothing).`;

const dash = (v: string | null) => (v === null || v === '' ? '-' : v);

function line(e: AuditEntry): string {
  return [e.at, actorText(e.actor), e.action, dash(e.type), dash(e.documentId), dash(e.locale), dash(e.ip), JSON.stringify(e.details)].join('\t');
}

export const auditCommand: Command = {
  name: 'audit',
  summary: 'print the audit log (content writes, settings changes, logins, release publishes)',
  usage,
  options: {
    since: { type: 'string' },
    actor: { type: 'string' },
    action: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    let since: string | undefined;
    if (values.since !== undefined) {
      const at = Date.parse(values.since as string);
      if (!Number.isFinite(at)) throw new UsageError(`--since must be an ISO-8601 time (2025-01-31 or 2025-01-31T09:00:00Z), got "${values.since}"`);
      since = new Date(at).toISOString();
    }
    return withInstance(values, async ({ audit }) => {
      const rows = audit.all({ since, actor: values.actor as string | undefined, action: values.action as string | undefined });
      if (values.json) {
        // Streamed: the log may be long.
        let first = true;
        console.log('[');
        for await (const { id: _, ...e } of rows) {
          console.log(`${first ? '' : ','}${JSON.stringify(e)}`);
          first = false;
        }
        console.log(']');
        return 0;
      }
      let any = false;
      for await (const e of rows) {
        console.log(line(e));
        any = true;
      }
      if (!any) console.log(audit.enabled ? 'no audit rows' : 'no audit rows (FOLIO_AUDIT_DAYS=0: nothing is logged)');
      return 0;
    });
  },
};
