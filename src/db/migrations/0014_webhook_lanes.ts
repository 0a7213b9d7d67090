/**
 * Webhook lanes (src/events/deliverer.ts): each webhook's deliveries are claimed, and the
 * next one due found, on their own, so a receiver that hangs and piles up a backlog costs
 * the others nothing. This index finds one webhook's pending deliveries without reading
 * another's (and lets deleting a webhook cascade to its deliveries without a scan).
 */
import type { Dialect } from '../dialect';

export default (_d: Dialect): string => `CREATE INDEX folio_webhook_deliveries_lane ON folio_webhook_deliveries ("webhookId", "state", "dueAt");
`;
