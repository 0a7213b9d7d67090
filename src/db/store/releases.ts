/**
 * Rows of releases (`folio_releases`) and their entries (`folio_release_entries`), migration
 * 0017. The claim that makes a publish happen once is `claimRelease`: one conditional UPDATE
 * run first in the publishing transaction (it takes the row's lock, so a second instance
 * waits, then finds the status moved on and does nothing).
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const RELEASES = sql.id(SYSTEM.releases);
const ENTRIES = sql.id(SYSTEM.releaseEntries);

export type ReleaseStatus = 'pending' | 'done' | 'failed';

export interface ReleaseRow {
  id: number;
  name: string;
  status: ReleaseStatus;
  scheduledAt: string | null;
  timezone: string | null;
  error: Record<string, unknown> | null;
  releasedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ReleaseEntryRow {
  uid: string;
  documentId: string;
  locale: string;
  action: 'publish' | 'unpublish';
}

const RELEASE_COLUMNS = sql.join(['id', 'name', 'status', 'scheduledAt', 'timezone', 'error', 'releasedAt', 'createdAt', 'updatedAt'].map((c) => sql.id(c)));

function releaseOf(r: Record<string, unknown>): ReleaseRow {
  return {
    id: Number(r.id),
    name: r.name as string,
    status: r.status as ReleaseStatus,
    scheduledAt: (r.scheduledAt as string | null) ?? null,
    timezone: (r.timezone as string | null) ?? null,
    error: r.error ? JSON.parse(r.error as string) : null,
    releasedAt: (r.releasedAt as string | null) ?? null,
    createdAt: r.createdAt as string,
    updatedAt: r.updatedAt as string,
  };
}

export async function insertRelease(db: Queryable, row: { name: string; scheduledAt: string | null; timezone: string | null; now: string }): Promise<number> {
  return db.insert(sql`INSERT INTO ${RELEASES} ("name", "status", "scheduledAt", "timezone", "createdAt", "updatedAt")
    VALUES (${row.name}, 'pending', ${row.scheduledAt}, ${row.timezone}, ${row.now}, ${row.now})`);
}

export async function findRelease(db: Queryable, name: string): Promise<ReleaseRow | undefined> {
  const row = await db.get<Record<string, unknown>>(sql`SELECT ${RELEASE_COLUMNS} FROM ${RELEASES} WHERE "name" = ${name}`);
  return row && releaseOf(row);
}

export async function findReleaseById(db: Queryable, id: number): Promise<ReleaseRow | undefined> {
  const row = await db.get<Record<string, unknown>>(sql`SELECT ${RELEASE_COLUMNS} FROM ${RELEASES} WHERE "id" = ${id}`);
  return row && releaseOf(row);
}

/** Every release, the pending ones first (soonest scheduled first), then the rest newest first; at most `limit`. */
export async function listReleases(db: Queryable, limit: number): Promise<(ReleaseRow & { entries: number })[]> {
  const rows = await db.all<Record<string, unknown>>(sql`SELECT ${RELEASE_COLUMNS}, (SELECT COUNT(*) FROM ${ENTRIES} e WHERE e."releaseId" = r."id") AS n
    FROM ${RELEASES} r ORDER BY CASE WHEN "status" = 'pending' THEN 0 ELSE 1 END, CASE WHEN "scheduledAt" IS NULL THEN 1 ELSE 0 END, "scheduledAt", "id" DESC LIMIT ${limit}`);
  return rows.map((r) => ({ ...releaseOf(r), entries: Number(r.n) }));
}

export async function setSchedule(db: Queryable, id: number, scheduledAt: string | null, timezone: string | null, now: string): Promise<void> {
  await db.run(sql`UPDATE ${RELEASES} SET "scheduledAt" = ${scheduledAt}, "timezone" = ${timezone}, "updatedAt" = ${now} WHERE "id" = ${id}`);
}

export async function deleteRelease(db: Queryable, id: number): Promise<void> {
  await db.run(sql`DELETE FROM ${ENTRIES} WHERE "releaseId" = ${id}`);
  await db.run(sql`DELETE FROM ${RELEASES} WHERE "id" = ${id}`);
}

export async function releaseEntries(db: Queryable, releaseId: number): Promise<ReleaseEntryRow[]> {
  return db.all<ReleaseEntryRow>(sql`SELECT "uid", "documentId", "locale", "action" FROM ${ENTRIES} WHERE "releaseId" = ${releaseId} ORDER BY "id"`);
}

/** Adds an entry, or changes the action of the one for the same document and locale. */
export async function upsertReleaseEntry(db: Queryable, releaseId: number, entry: ReleaseEntryRow, now: string): Promise<void> {
  const changed = await db.run(sql`UPDATE ${ENTRIES} SET "action" = ${entry.action}
    WHERE "releaseId" = ${releaseId} AND "uid" = ${entry.uid} AND "documentId" = ${entry.documentId} AND "locale" = ${entry.locale}`);
  if (changed.changes > 0) return;
  await db.run(sql`INSERT INTO ${ENTRIES} ("releaseId", "uid", "documentId", "locale", "action", "createdAt")
    VALUES (${releaseId}, ${entry.uid}, ${entry.documentId}, ${entry.locale}, ${entry.action}, ${now})`);
}

/** Removes a document's entries (in one locale, or all); returns how many went. */
export async function deleteReleaseEntries(db: Queryable, releaseId: number, uid: string, documentId: string, locale?: string): Promise<number> {
  const result = await db.run(
    sql`DELETE FROM ${ENTRIES} WHERE "releaseId" = ${releaseId} AND "uid" = ${uid} AND "documentId" = ${documentId}${locale === undefined ? sql.empty : sql` AND "locale" = ${locale}`}`,
  );
  return result.changes;
}

/** Releases that hold a document (any locale), with the entry's locale and action. */
export async function releasesOfDocument(
  db: Queryable,
  uid: string,
  documentId: string,
): Promise<{ name: string; status: ReleaseStatus; scheduledAt: string | null; locale: string; action: string }[]> {
  return db.all(sql`SELECT r."name" AS "name", r."status" AS "status", r."scheduledAt" AS "scheduledAt", e."locale" AS "locale", e."action" AS "action"
    FROM ${ENTRIES} e JOIN ${RELEASES} r ON r."id" = e."releaseId" WHERE e."uid" = ${uid} AND e."documentId" = ${documentId} ORDER BY r."id"`);
}

/**
 * The claim: moves a release from one of `from` to done, in the publishing transaction, and
 * answers it; undefined when it is not in such a status any more (another instance published
 * it, or it was deleted). The row stays locked until that transaction ends.
 */
export async function claimRelease(tx: Queryable, id: number, from: ReleaseStatus[], now: string): Promise<ReleaseRow | undefined> {
  const row = await tx.get<Record<string, unknown>>(sql`UPDATE ${RELEASES} SET "status" = 'done', "releasedAt" = ${now}, "updatedAt" = ${now}, "error" = NULL
    WHERE "id" = ${id} AND "status" IN (${sql.list(from)}) RETURNING ${RELEASE_COLUMNS}`);
  return row && releaseOf(row);
}

/** Marks a release failed with why, unless it has moved on since (published meanwhile); true when it did. */
export async function markReleaseFailed(db: Queryable, id: number, from: ReleaseStatus[], error: Record<string, unknown>, now: string): Promise<boolean> {
  const result = await db.run(sql`UPDATE ${RELEASES} SET "status" = 'failed', "error" = ${JSON.stringify(error)}, "updatedAt" = ${now}
    WHERE "id" = ${id} AND "status" IN (${sql.list(from)})`);
  return result.changes > 0;
}

/** Ids of pending releases scheduled at or before `now`, soonest first. */
export async function dueReleases(db: Queryable, now: string, limit: number): Promise<number[]> {
  const rows = await db.all<{
    id: number;
  }>(sql`SELECT "id" FROM ${RELEASES} WHERE "status" = 'pending' AND "scheduledAt" IS NOT NULL AND "scheduledAt" <= ${now}
    ORDER BY "scheduledAt", "id" LIMIT ${limit}`);
  return rows.map((r) => Number(r.id));
}

/** When the next pending release is due (ISO), if any is scheduled. */
export async function nextDue(db: Queryable): Promise<string | undefined> {
  const row = await db.get<{ at: string | null }>(
    sql`SELECT MIN("scheduledAt") AS "at" FROM ${RELEASES} WHERE "status" = 'pending' AND "scheduledAt" IS NOT NULL`,
  );
  return row?.at ?? undefined;
}
