/**
 * Rows of content history (`folio_history`, migration 0019): written by the history listener
 * inside the write's own transaction, read by `folio history` and the admin, pruned by age.
 */
import type { Queryable, SqlValue } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';
import { insertRows } from './insert-rows';

const HISTORY = sql.id(SYSTEM.history);
const id = (name: string) => sql.id(name);

export interface HistoryRow {
  id: number;
  uid: string;
  documentId: string;
  locale: string;
  status: string;
  event: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  changed: string[];
  data: Record<string, unknown>;
  createdAt: string;
}

export type NewHistoryRow = Omit<HistoryRow, 'id'>;

const COLUMNS = sql.join(['id', 'uid', 'documentId', 'locale', 'status', 'event', 'actorKind', 'actorId', 'actorName', 'changed', 'data', 'createdAt'].map(id));

function rowOf(r: Record<string, unknown>): HistoryRow {
  return {
    id: Number(r.id),
    uid: r.uid as string,
    documentId: r.documentId as string,
    locale: r.locale as string,
    status: r.status as string,
    event: r.event as string,
    actorKind: r.actorKind as string,
    actorId: (r.actorId as string | null) ?? null,
    actorName: (r.actorName as string | null) ?? null,
    changed: JSON.parse(r.changed as string),
    data: JSON.parse(r.data as string),
    createdAt: r.createdAt as string,
  };
}

const INSERT_COLUMNS = ['uid', 'documentId', 'locale', 'status', 'event', 'actorKind', 'actorId', 'actorName', 'changed', 'data', 'createdAt'].map(id);

/** Inserts versions, as many a statement as the parameter limit allows (./insert-rows.ts). */
export async function insertHistory(tx: Queryable, rows: NewHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values: SqlValue[] = [];
  for (const row of rows) {
    values.push(row.uid, row.documentId, row.locale, row.status, row.event, row.actorKind, row.actorId, row.actorName);
    values.push(JSON.stringify(row.changed), JSON.stringify(row.data), row.createdAt);
  }
  await insertRows(tx, HISTORY, INSERT_COLUMNS, values);
}

/** The content of the newest version kept of some documents of a type, keyed `documentId + NUL + locale`. */
export async function latestHistoryData(
  tx: Queryable,
  uid: string,
  keys: { documentId: string; locale: string }[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const ids = [...new Set(keys.map((k) => k.documentId))];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx.all<{ documentId: string; locale: string; data: string }>(
      sql`SELECT "documentId", "locale", "data" FROM ${HISTORY} WHERE "id" IN (
        SELECT MAX("id") FROM ${HISTORY} WHERE "uid" = ${uid} AND "documentId" IN (${sql.list(ids.slice(i, i + 500))}) GROUP BY "documentId", "locale")`,
    );
    for (const row of rows) out.set(`${row.documentId}\u0000${row.locale}`, JSON.parse(row.data));
  }
  return out;
}

export interface HistoryQuery {
  uid: string;
  documentId: string;
  /** One locale, or every locale when undefined. */
  locale?: string;
  /** Versions older than this id only (the next page). */
  before?: number;
  limit: number;
}

/** A document's versions, newest first. */
export async function listHistory(db: Queryable, q: HistoryQuery): Promise<HistoryRow[]> {
  const where = sql.and([
    sql`"uid" = ${q.uid}`,
    sql`"documentId" = ${q.documentId}`,
    q.locale === undefined ? sql.empty : sql`"locale" = ${q.locale}`,
    q.before === undefined ? sql.empty : sql`"id" < ${q.before}`,
  ]);
  return (await db.all<Record<string, unknown>>(sql`SELECT ${COLUMNS} FROM ${HISTORY} WHERE ${where} ORDER BY "id" DESC LIMIT ${q.limit}`)).map(rowOf);
}

export interface HistoryAuthor {
  kind: string;
  name: string | null;
}

/**
 * Who made a document's locale version (the oldest version kept, when it is its create) and
 * who wrote it last (the newest kept): null where history holds no such version.
 */
export async function historyAuthors(
  db: Queryable,
  uid: string,
  documentId: string,
  locale: string,
): Promise<{ created: HistoryAuthor | null; updated: HistoryAuthor | null }> {
  const where = sql`"uid" = ${uid} AND "documentId" = ${documentId} AND "locale" = ${locale}`;
  const rows = await db.all<{ id: number; event: string; actorKind: string; actorName: string | null }>(
    sql`SELECT "id", "event", "actorKind", "actorName" FROM ${HISTORY} WHERE "id" IN (
      SELECT MIN("id") FROM ${HISTORY} WHERE ${where} UNION SELECT MAX("id") FROM ${HISTORY} WHERE ${where}) ORDER BY "id"`,
  );
  const author = (r: { actorKind: string; actorName: string | null } | undefined) => (r ? { kind: r.actorKind, name: r.actorName ?? null } : null);
  const first = rows[0];
  return { created: first?.event === 'entry.create' ? author(first) : null, updated: author(rows.at(-1)) };
}

export async function findHistory(db: Queryable, versionId: number): Promise<HistoryRow | undefined> {
  const row = await db.get<Record<string, unknown>>(sql`SELECT ${COLUMNS} FROM ${HISTORY} WHERE "id" = ${versionId}`);
  return row && rowOf(row);
}

/** Deletes up to `batch` versions written before `before` (ISO time); returns how many went. */
export async function pruneHistory(db: Queryable, before: string, batch: number): Promise<number> {
  const result = await db.run(
    sql`DELETE FROM ${HISTORY} WHERE "id" IN (SELECT "id" FROM ${HISTORY} WHERE "createdAt" < ${before} ORDER BY "id" LIMIT ${batch})`,
  );
  return result.changes;
}
