/**
 * Events and webhooks (src/events/). An event is one outbox row, written in the transaction
 * of the change that caused it, so a crash after the commit never loses it. Each webhook
 * subscribed to the event gets a delivery row in the same transaction: the deliverer claims
 * due deliveries, sends them, and records every attempt.
 */
import type { Dialect } from '../dialect';

export default function events(d: Dialect): string {
  const id = d.idColumn;
  const text = d.textType;
  return `CREATE TABLE folio_outbox (
  "id" ${id},
  "event" ${text} NOT NULL,
  -- The content type's uid, or plugin::upload.file for media events.
  "uid" ${text} NOT NULL,
  -- The JSON body webhooks receive, fixed when the change committed.
  "body" ${text} NOT NULL,
  "createdAt" ${text} NOT NULL
);
CREATE TABLE folio_webhooks (
  "id" ${id},
  "name" ${text} NOT NULL UNIQUE,
  "url" ${text} NOT NULL,
  -- Comma-delimited on both sides (",entry.create,entry.update,"), so one LIKE finds subscribers.
  "events" ${text} NOT NULL,
  -- The user's own shared secret, kept as given: signing needs it in clear. Never printed.
  "secret" ${text},
  -- Extra request headers, a JSON object.
  "headers" ${text} NOT NULL DEFAULT '{}',
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);
CREATE TABLE folio_webhook_deliveries (
  "id" ${id},
  "webhookId" INTEGER NOT NULL REFERENCES folio_webhooks("id") ON DELETE CASCADE,
  "outboxId" INTEGER NOT NULL REFERENCES folio_outbox("id") ON DELETE CASCADE,
  -- pending, delivered or failed (every attempt used).
  "state" ${text} NOT NULL,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  -- Milliseconds since the epoch: when the next attempt is due, or when the claim of an
  -- attempt in flight lapses (a process that died while sending leaves it due again).
  "dueAt" BIGINT NOT NULL,
  "createdAt" ${text} NOT NULL,
  "updatedAt" ${text} NOT NULL
);
CREATE INDEX folio_webhook_deliveries_due ON folio_webhook_deliveries ("state", "dueAt");
CREATE TABLE folio_webhook_attempts (
  "id" ${id},
  "webhookId" INTEGER NOT NULL REFERENCES folio_webhooks("id") ON DELETE CASCADE,
  -- NULL for \`folio webhook test\`, which sends outside the queue.
  "deliveryId" INTEGER REFERENCES folio_webhook_deliveries("id") ON DELETE CASCADE,
  "event" ${text} NOT NULL,
  "attempt" INTEGER NOT NULL,
  -- The HTTP status, or NULL with "error" when no response came.
  "status" INTEGER,
  "error" ${text},
  "durationMs" INTEGER NOT NULL,
  "at" ${text} NOT NULL
);
CREATE INDEX folio_webhook_attempts_webhook ON folio_webhook_attempts ("webhookId", "id");
`;
}
