/**
 * The realtime feed (src/events/realtime.ts) and outbox pruning (src/events/prune.ts).
 *
 * `folio_realtime_lease` is one row: until when events must be written to the outbox for
 * realtime subscribers. Instances with open streams push it forward (to now + the resume
 * window); writes read it in the same query that finds webhook subscribers, so a write
 * pays nothing more when nobody listens, and a client that reconnects within the window
 * finds every event it missed.
 *
 * Pruning deletes old outbox rows with their settled deliveries; these indexes let it (and
 * PostgreSQL's cascades) find a row's deliveries and a delivery's attempts without scans.
 */
import type { Dialect } from '../dialect';

export default (_d: Dialect): string => `CREATE TABLE folio_realtime_lease (
  "id" INTEGER PRIMARY KEY,
  -- Milliseconds since the epoch; 0: no subscriber has ever asked.
  "expiresAt" BIGINT NOT NULL
);
INSERT INTO folio_realtime_lease ("id", "expiresAt") VALUES (1, 0);
CREATE INDEX folio_webhook_deliveries_outbox ON folio_webhook_deliveries ("outboxId");
CREATE INDEX folio_webhook_attempts_delivery ON folio_webhook_attempts ("deliveryId");
`;
