/**
 * The audit log: who did what, when, from where. Content writes reach it as a listener of
 * the write pipeline (./listener.ts: rows written in the write's own transaction); settings
 * changes, admin logins and failed logins through the AuditTrail interface the composition
 * root hands to their services (src/audit-trail.ts: a row appended once the change is done).
 * Kept FOLIO_AUDIT_DAYS days (0: nothing is logged). `folio audit` and /admin/api/audit (Super
 * Admins) read it. Secrets never reach it: callers pass names, never values, and as a last
 * guard any detail under a secret's name is dropped before it is written.
 */
import type { Database } from '../db/database';
import { insertAudit, listAudit, pruneAudit, type AuditRow, type NewAuditRow } from '../db/store/audit';
import type { AuditEvent, AuditTrail } from '../audit-trail';
import type { Logger } from '../log';

/** A row as `folio audit --json` and the admin API show it. */
export interface AuditEntry {
  id: number;
  at: string;
  actor: { kind: string; name: string | null };
  action: string;
  type: string | null;
  documentId: string | null;
  locale: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilter {
  /** ISO-8601: rows at or after it. */
  since?: string;
  /** The actor's name (an email, a username, a token's name), or the kind of an actor without one (`cli`, `system`). */
  actor?: string;
  action?: string;
  /** Rows older than this id (the next page). */
  before?: number;
  limit?: number;
}

/** Most rows one page lists. */
export const AUDIT_PAGE_LIMIT = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Names under which a value is a secret: dropped from details wherever they appear. */
const SECRET_NAMES =
  /^(password|currentPassword|passwordConfirmation|secret|accessKey|key|token|jwt|code|resetPasswordToken|confirmationToken|apiTokenSalt|jwtSecret)$/i;

/** `details` without anything under a secret's name (a last guard: callers pass names, not values). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_NAMES.test(k))
        .map(([k, v]) => [k, withoutSecrets(v)]),
    );
  }
  return value;
}

/** The row an event makes. */
export function auditRow(event: AuditEvent, at: string): NewAuditRow {
  return {
    at,
    actorKind: event.actor.kind,
    actorId: event.actor.id === undefined ? null : String(event.actor.id),
    actorName: event.actor.name ?? null,
    action: event.action,
    type: event.type ?? null,
    documentId: event.documentId ?? null,
    locale: event.locale || null,
    ip: event.actor.ip ?? null,
    details: withoutSecrets(event.details ?? {}) as Record<string, unknown>,
  };
}

const entryOf = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: { kind: row.actorKind, name: row.actorName },
  action: row.action,
  type: row.type,
  documentId: row.documentId,
  locale: row.locale,
  ip: row.ip,
  details: row.details,
});

export class AuditLog implements AuditTrail {
  constructor(
    private db: Database,
    /** FOLIO_AUDIT_DAYS: rows older than this go; 0: nothing is logged. */
    readonly days: number,
    private options: { log?: Pick<Logger, 'error'>; now?: () => number } = {},
  ) {}

  get enabled(): boolean {
    return this.days > 0;
  }

  /** Appends a row for a change that has been made; a failure to write it is logged, never thrown at the change. */
  async record(event: AuditEvent): Promise<void> {
    if (!this.enabled) return;
    try {
      await insertAudit(this.db, [auditRow(event, new Date((this.options.now ?? Date.now)()).toISOString())]);
    } catch (error) {
      this.options.log?.error('audit log write failed', { error, action: event.action });
    }
  }

  /** Rows, newest first, at most `limit` (AUDIT_PAGE_LIMIT). */
  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(1, filter.limit ?? AUDIT_PAGE_LIMIT), AUDIT_PAGE_LIMIT + 1);
    return (await listAudit(this.db, { ...filter, limit })).map(entryOf);
  }

  /** Every row the filter matches, newest first (the CLI pages through them). */
  async *all(filter: Omit<AuditFilter, 'before' | 'limit'> = {}): AsyncGenerator<AuditEntry> {
    let before: number | undefined;
    for (;;) {
      const page = await this.list({ ...filter, before, limit: AUDIT_PAGE_LIMIT });
      yield* page;
      if (page.length < AUDIT_PAGE_LIMIT) return;
      before = page.at(-1)!.id;
    }
  }

  /** Deletes rows older than the retention; returns how many went. */
  async prune(now = Date.now(), batch = 1000): Promise<number> {
    if (!this.enabled) return 0;
    const before = new Date(now - this.days * DAY_MS).toISOString();
    let pruned = 0;
    for (;;) {
      const n = await pruneAudit(this.db, before, batch);
      pruned += n;
      if (n < batch) return pruned;
    }
  }
}
