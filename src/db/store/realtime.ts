/**
 * The realtime lease (`folio_realtime_lease`, one row) and reading the outbox by position
 * for the realtime feed (src/events/realtime.ts). Positions are outbox ids: AUTOINCREMENT on
 * SQLite and an identity on PostgreSQL, so an id is never handed out twice, even once
 * pruning has deleted the rows above it.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const LEASE = sql.id(SYSTEM.realtimeLease);
const OUTBOX = sql.id(SYSTEM.outbox);
const WEBHOOKS = sql.id(SYSTEM.webhooks);

/** What a write must record: the events some enabled webhook listens to, and whether realtime wants them all. */
export interface WantedEvents {
  events: Set<string>;
  realtime: boolean;
}

/**
 * One statement, the one a write already paid to find webhook subscribers: the lease rides
 * along as a `*` row while it is live, so "nobody listens" still costs a single query.
 */
export async function wantedEvents(tx: Queryable, now: number): Promise<WantedEvents> {
  const rows = await tx.all<{ events: string }>(sql`SELECT DISTINCT "events" FROM ${WEBHOOKS} WHERE "enabled" = 1
    UNION SELECT '*' FROM ${LEASE} WHERE "id" = 1 AND "expiresAt" > ${now}`);
  const events = new Set<string>();
  let realtime = false;
  for (const r of rows) {
    if (r.events === '*') realtime = true;
    else for (const e of r.events.split(',')) if (e) events.add(e);
  }
  return { events, realtime };
}

/** Pushes the lease to `until` (never back: another instance may hold it longer). */
export async function renewLease(db: Queryable, until: number): Promise<void> {
  await db.run(sql`UPDATE ${LEASE} SET "expiresAt" = ${until} WHERE "id" = 1 AND "expiresAt" < ${until}`);
}

/** When the lease lapses (ms since the epoch; 0 when it never was taken). */
export async function leaseExpiry(db: Queryable): Promise<number> {
  const row = await db.get<{ expiresAt: number | string }>(sql`SELECT "expiresAt" FROM ${LEASE} WHERE "id" = 1`);
  return row ? Number(row.expiresAt) : 0;
}

export interface FeedRow {
  id: number;
  event: string;
  uid: string;
  body: string;
}

/** The newest position (0 for an empty outbox). */
export async function lastPosition(db: Queryable): Promise<number> {
  const row = await db.get<{ last: number | string | null }>(sql`SELECT MAX("id") AS "last" FROM ${OUTBOX}`);
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last);
}

/** Events after `position` (up to `until`, when given), oldest first: a range of the primary key. */
export async function eventsAfter(db: Queryable, position: number, limit: number, until?: number): Promise<FeedRow[]> {
  const upTo = until === undefined ? sql.empty : sql` AND "id" <= ${until}`;
  const rows = await db.all<FeedRow>(sql`SELECT "id", "event", "uid", "body" FROM ${OUTBOX} WHERE "id" > ${position}${upTo} ORDER BY "id" LIMIT ${limit}`);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
