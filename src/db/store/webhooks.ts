/**
 * Rows of `folio_webhooks` and of the attempt log `folio_webhook_attempts`. A webhook's
 * events are stored comma-delimited on both sides (",entry.create,entry.update,") so that
 * "who subscribes to this event" is one LIKE on either engine.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const WEBHOOKS = sql.id(SYSTEM.webhooks);
const ATTEMPTS = sql.id(SYSTEM.webhookAttempts);

export interface WebhookRow {
  id: number;
  name: string;
  url: string;
  events: string[];
  /** The shared secret in clear (signing needs it); never printed. */
  secret: string | null;
  headers: Record<string, string>;
  /** False: nothing is queued for it, nor sent from its queue (a restored copy's webhooks start so). */
  enabled: boolean;
  createdAt: string;
}

interface StoredWebhook {
  id: number;
  name: string;
  url: string;
  events: string;
  secret: string | null;
  headers: string;
  enabled: number | boolean;
  createdAt: string;
}

export const encodeEvents = (events: string[]) => `,${events.join(',')},`;

function fromStored(row: StoredWebhook): WebhookRow {
  return {
    ...row,
    events: row.events.split(',').filter(Boolean),
    headers: JSON.parse(row.headers) as Record<string, string>,
    enabled: Number(row.enabled) === 1,
  };
}

const COLUMNS = sql.join(['id', 'name', 'url', 'events', 'secret', 'headers', 'enabled', 'createdAt'].map((c) => sql.id(c)));

export async function listWebhooks(db: Queryable): Promise<WebhookRow[]> {
  return (await db.all<StoredWebhook>(sql`SELECT ${COLUMNS} FROM ${WEBHOOKS} ORDER BY "name"`)).map(fromStored);
}

/** Every enabled webhook's id, in order (the deliverer's lanes: a disabled webhook's queue waits). */
export async function webhookIds(db: Queryable): Promise<number[]> {
  return (await db.all<{ id: number }>(sql`SELECT "id" FROM ${WEBHOOKS} WHERE "enabled" = 1 ORDER BY "id"`)).map((r) => Number(r.id));
}

export async function findWebhook(db: Queryable, name: string): Promise<WebhookRow | undefined> {
  const row = await db.get<StoredWebhook>(sql`SELECT ${COLUMNS} FROM ${WEBHOOKS} WHERE "name" = ${name}`);
  return row && fromStored(row);
}

export interface NewWebhook {
  name: string;
  url: string;
  events: string[];
  secret: string | null;
  headers: Record<string, string>;
  now: string;
}

export function insertWebhook(db: Queryable, w: NewWebhook): Promise<number> {
  return db.insert(sql`INSERT INTO ${WEBHOOKS} ("name", "url", "events", "secret", "headers", "createdAt", "updatedAt")
    VALUES (${w.name}, ${w.url}, ${encodeEvents(w.events)}, ${w.secret}, ${JSON.stringify(w.headers)}, ${w.now}, ${w.now})`);
}

export async function updateWebhook(
  db: Queryable,
  id: number,
  w: { url: string; events: string[]; secret: string | null; headers: Record<string, string>; now: string },
): Promise<void> {
  await db.run(sql`UPDATE ${WEBHOOKS} SET "url" = ${w.url}, "events" = ${encodeEvents(w.events)}, "secret" = ${w.secret},
    "headers" = ${JSON.stringify(w.headers)}, "updatedAt" = ${w.now} WHERE "id" = ${id}`);
}

/** Enables or disables a webhook; false when there is none of that name. */
export async function setWebhookEnabled(db: Queryable, name: string, enabled: boolean, now: string): Promise<boolean> {
  return (await db.run(sql`UPDATE ${WEBHOOKS} SET "enabled" = ${enabled ? 1 : 0}, "updatedAt" = ${now} WHERE "name" = ${name}`)).changes > 0;
}

/** Disables every webhook (an installation made from an archive); returns how many there are. */
export async function disableAllWebhooks(db: Queryable): Promise<number> {
  await db.run(sql`UPDATE ${WEBHOOKS} SET "enabled" = 0 WHERE "enabled" <> 0`);
  return Number((await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS "n" FROM ${WEBHOOKS}`))?.n ?? 0);
}

/** What is queued for a webhook: its pending deliveries and when the first of them is due (ms since the epoch). */
export async function queuedDeliveries(db: Queryable, webhookId: number): Promise<{ pending: number; nextDueAt: number | null }> {
  const row = await db.get<{ n: number | string; due: number | string | null }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS "n", MIN("dueAt") AS "due"
    FROM ${sql.id(SYSTEM.webhookDeliveries)} WHERE "webhookId" = ${webhookId} AND "state" = 'pending'`);
  return { pending: Number(row?.n ?? 0), nextDueAt: row?.due === null || row?.due === undefined ? null : Number(row.due) };
}

/** Deletes a webhook (its deliveries and attempts go with it, ON DELETE CASCADE); false when there was none. */
export async function deleteWebhook(db: Queryable, name: string): Promise<boolean> {
  return (await db.run(sql`DELETE FROM ${WEBHOOKS} WHERE "name" = ${name}`)).changes > 0;
}

/** The events some enabled webhook listens to (writes skip building the payload of the others). */
export async function subscribedEvents(db: Queryable): Promise<Set<string>> {
  const rows = await db.all<{ events: string }>(sql`SELECT DISTINCT "events" FROM ${WEBHOOKS} WHERE "enabled" = 1`);
  return new Set(rows.flatMap((r) => r.events.split(',').filter(Boolean)));
}

export interface AttemptRow {
  webhookId: number;
  deliveryId: number | null;
  event: string;
  attempt: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

export async function insertAttempt(db: Queryable, a: AttemptRow): Promise<void> {
  await db.run(sql`INSERT INTO ${ATTEMPTS} ("webhookId", "deliveryId", "event", "attempt", "status", "error", "durationMs", "at")
    VALUES (${a.webhookId}, ${a.deliveryId}, ${a.event}, ${a.attempt}, ${a.status}, ${a.error}, ${a.durationMs}, ${a.at})`);
}

/** A webhook's attempts, oldest first. */
export function listAttempts(db: Queryable, webhookId: number): Promise<AttemptRow[]> {
  return db.all<AttemptRow>(sql`SELECT "webhookId", "deliveryId", "event", "attempt", "status", "error", "durationMs", "at"
    FROM ${ATTEMPTS} WHERE "webhookId" = ${webhookId} ORDER BY "id"`);
}
