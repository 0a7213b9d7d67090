/**
 * A webhook may be disabled (`folio webhook disable NAME`, the admin's toggle): nothing is
 * queued for it and nothing already queued is sent until it is enabled again. An installation
 * made by `folio import ARCHIVE` or `folio restore` starts with every webhook disabled, so a
 * staging copy of production never calls production's receivers (transfer/quiet-webhooks.ts).
 * 1: enabled, 0: disabled (booleans stay 0/1 integers on both engines).
 */
import type { Dialect } from '../dialect';

export default (_d: Dialect): string => `ALTER TABLE folio_webhooks ADD COLUMN "enabled" INTEGER NOT NULL DEFAULT 1;
`;
