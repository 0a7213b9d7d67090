/**
 * Rows of the outbox (`folio_outbox`) and of the delivery queue (`folio_webhook_deliveries`).
 * Appending runs inside the write transaction of the change; claiming runs in a short
 * transaction of its own, so that of several instances sharing PostgreSQL exactly one takes
 * each due delivery (`FOR UPDATE SKIP LOCKED`; SQLite has one writer at a time already).
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';
import { encodeEvents } from './webhooks';

const OUTBOX = sql.id(SYSTEM.outbox);
const DELIVERIES = sql.id(SYSTEM.webhookDeliveries);
const WEBHOOKS = sql.id(SYSTEM.webhooks);

export interface OutboxEvent {
  event: string;
  uid: string;
  body: string;
  createdAt: string;
}

/** Appends an event and queues it for every enabled webhook subscribed to it; returns its position. */
export async function appendEvent(tx: Queryable, e: OutboxEvent, dueAt: number): Promise<number> {
  const id = await tx.insert(sql`INSERT INTO ${OUTBOX} ("event", "uid", "body", "createdAt") VALUES (${e.event}, ${e.uid}, ${e.body}, ${e.createdAt})`);
  await tx.run(sql`INSERT INTO ${DELIVERIES} ("webhookId", "outboxId", "state", "attempts", "dueAt", "createdAt", "updatedAt")
    SELECT "id", ${id}, 'pending', 0, ${dueAt}, ${e.createdAt}, ${e.createdAt} FROM ${WEBHOOKS} WHERE "enabled" = 1 AND "events" LIKE ${`%${encodeEvents([e.event])}%`}`);
  return id;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  /** This attempt's number (1 for the first). */
  attempts: number;
  webhookId: number;
  /** The webhook's name (what the log says). */
  name: string;
  url: string;
  secret: string | null;
  headers: string;
  event: string;
  body: string;
}

/** A webhook's lane and how many more of its deliveries may be claimed now. */
export interface Lane {
  webhookId: number;
  room: number;
}

/**
 * Claims due deliveries, lane by lane, oldest first in each: up to each lane's `room` and
 * `limit` in all. Claiming counts the attempt and moves `dueAt` to `leaseUntil`, so no one
 * else takes them while they are in flight (and a process that dies mid-send leaves them due
 * again once the lease lapses). Run it in its own transaction.
 */
export async function claimDue(tx: Queryable, now: number, leaseUntil: number, lanes: Lane[], limit: number): Promise<ClaimedDelivery[]> {
  const skipLocked = tx.dialect.name === 'postgres' ? sql` FOR UPDATE SKIP LOCKED` : sql.empty;
  const ids: number[] = [];
  for (const lane of lanes) {
    const take = Math.min(lane.room, limit - ids.length);
    if (take <= 0) continue;
    const claimed = await tx.all<{ id: number }>(sql`UPDATE ${DELIVERIES} SET "attempts" = "attempts" + 1, "dueAt" = ${leaseUntil}
      WHERE "id" IN (SELECT "id" FROM ${DELIVERIES} WHERE "webhookId" = ${lane.webhookId} AND "state" = 'pending' AND "dueAt" <= ${now}
        ORDER BY "id" LIMIT ${take}${skipLocked})
      RETURNING "id"`);
    for (const c of claimed) ids.push(Number(c.id));
  }
  if (ids.length === 0) return [];
  return tx.all<ClaimedDelivery>(sql`SELECT d."id", d."attempts", d."webhookId", w."name", w."url", w."secret", w."headers", o."event", o."body"
    FROM ${DELIVERIES} d JOIN ${WEBHOOKS} w ON w."id" = d."webhookId" JOIN ${OUTBOX} o ON o."id" = d."outboxId"
    WHERE d."id" IN (${sql.list(ids)}) ORDER BY d."id"`);
}

/** After an attempt: delivered, failed for good, or pending again at `dueAt`. */
export async function settleDelivery(tx: Queryable, id: number, state: 'pending' | 'delivered' | 'failed', dueAt: number, now: string): Promise<void> {
  await tx.run(sql`UPDATE ${DELIVERIES} SET "state" = ${state}, "dueAt" = ${dueAt}, "updatedAt" = ${now} WHERE "id" = ${id}`);
}

/** When the next pending delivery of these webhooks is due (ms since the epoch), if any. */
export async function nextDue(db: Queryable, webhookIds: number[]): Promise<number | undefined> {
  if (webhookIds.length === 0) return undefined;
  const row = await db.get<{ due: number | string | null }>(sql`SELECT MIN("dueAt") AS "due" FROM ${DELIVERIES}
    WHERE "webhookId" IN (${sql.list(webhookIds)}) AND "state" = 'pending'`);
  return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
}

const ATTEMPTS = sql.id(SYSTEM.webhookAttempts);

/**
 * Deletes up to `limit` outbox rows created before `before` (an ISO time) that no webhook
 * still has to send: every delivery delivered or failed, or none at all (an event recorded
 * for the realtime feed only). Their deliveries go with them (ON DELETE CASCADE); their
 * attempts stay in the log, detached first, and age out on their own (`pruneAttempts`).
 * Returns how many rows went. Run it in a transaction.
 */
export async function pruneOutbox(tx: Queryable, before: string, limit: number): Promise<number> {
  const rows = await tx.all<{ id: number }>(sql`SELECT o."id" FROM ${OUTBOX} o WHERE o."createdAt" < ${before}
    AND NOT EXISTS (SELECT 1 FROM ${DELIVERIES} d WHERE d."outboxId" = o."id" AND d."state" = 'pending') ORDER BY o."id" LIMIT ${limit}`);
  if (rows.length === 0) return 0;
  const ids = sql.list(rows.map((r) => Number(r.id)));
  await tx.run(sql`UPDATE ${ATTEMPTS} SET "deliveryId" = NULL WHERE "deliveryId" IN (SELECT "id" FROM ${DELIVERIES} WHERE "outboxId" IN (${ids}))`);
  // The state is checked again: a delivery cannot become pending after its event was written,
  // but the condition costs nothing and keeps a pending one safe whatever happens between.
  return (
    await tx.run(sql`DELETE FROM ${OUTBOX} WHERE "id" IN (${ids})
    AND NOT EXISTS (SELECT 1 FROM ${DELIVERIES} d WHERE d."outboxId" = ${OUTBOX}."id" AND d."state" = 'pending')`)
  ).changes;
}

/** Deletes attempt-log rows older than `before` (an ISO time); returns how many. */
export async function pruneAttempts(db: Queryable, before: string): Promise<number> {
  return (await db.run(sql`DELETE FROM ${ATTEMPTS} WHERE "at" < ${before}`)).changes;
}
