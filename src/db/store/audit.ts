/**
 * Rows of the audit log (`folio_audit`, migration 0020): appended by the audit log's listener
 * inside a document write's transaction and by settings services after their change, read by
 * `folio audit` and /admin/api/audit, pruned by age.
 */
import type { Queryable, SqlValue } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';
import { insertRows } from './insert-rows';

const AUDIT = sql.id(SYSTEM.audit);

export interface AuditRow {
  id: number;
  at: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  type: string | null;
  documentId: string | null;
  locale: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export type NewAuditRow = Omit<AuditRow, 'id'>;

const COLUMNS = ['at', 'actorKind', 'actorId', 'actorName', 'action', 'type', 'documentId', 'locale', 'ip', 'details'] as const;
const INSERT_COLUMNS = COLUMNS.map((c) => sql.id(c));
const SELECT_COLUMNS = sql.join(['id', ...COLUMNS].map((c) => sql.id(c)));

/** Appends rows, as many a statement as the parameter limit allows (./insert-rows.ts). */
export async function insertAudit(tx: Queryable, rows: NewAuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values: SqlValue[] = [];
  for (const r of rows) values.push(r.at, r.actorKind, r.actorId, r.actorName, r.action, r.type, r.documentId, r.locale, r.ip, JSON.stringify(r.details));
  await insertRows(tx, AUDIT, INSERT_COLUMNS, values);
}

export interface AuditQuery {
  /** Rows at or after this ISO time. */
  since?: string;
  /** Rows whose actor has this name, or (for actors without one) this kind. */
  actor?: string;
  action?: string;
  /** Rows older than this id (the next page). */
  before?: number;
  limit: number;
}

/** Rows, newest first. */
export async function listAudit(db: Queryable, q: AuditQuery): Promise<AuditRow[]> {
  const where = sql.and([
    q.since === undefined ? sql.empty : sql`"at" >= ${q.since}`,
    q.actor === undefined ? sql.empty : sql`("actorName" = ${q.actor} OR ("actorName" IS NULL AND "actorKind" = ${q.actor}))`,
    q.action === undefined ? sql.empty : sql`"action" = ${q.action}`,
    q.before === undefined ? sql.empty : sql`"id" < ${q.before}`,
  ]);
  const rows = await db.all<Record<string, unknown>>(
    sql`SELECT ${SELECT_COLUMNS} FROM ${AUDIT}${where.isEmpty ? sql.empty : sql` WHERE ${where}`} ORDER BY "id" DESC LIMIT ${q.limit}`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at as string,
    actorKind: r.actorKind as string,
    actorId: (r.actorId as string | null) ?? null,
    actorName: (r.actorName as string | null) ?? null,
    action: r.action as string,
    type: (r.type as string | null) ?? null,
    documentId: (r.documentId as string | null) ?? null,
    locale: (r.locale as string | null) ?? null,
    ip: (r.ip as string | null) ?? null,
    details: JSON.parse(r.details as string),
  }));
}

/** Deletes up to `batch` rows older than `before` (ISO time); returns how many went. */
export async function pruneAudit(db: Queryable, before: string, batch: number): Promise<number> {
  const result = await db.run(sql`DELETE FROM ${AUDIT} WHERE "id" IN (SELECT "id" FROM ${AUDIT} WHERE "at" < ${before} ORDER BY "id" LIMIT ${batch})`);
  return result.changes;
}
