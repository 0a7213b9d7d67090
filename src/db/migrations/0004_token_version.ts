/**
 * A per-user counter embedded in every JWT issued to the user (claim `v`). Changing or
 * resetting the password increments it, so the JWTs issued before stop working at once.
 * A counter rather than a timestamp: JWT `iat` has one-second granularity and instances
 * sharing a database do not share a clock, so "issued before the change" is exact only
 * as a number the database increments. JWTs without `v` (Strapi's) count as version 0.
 */
import type { Dialect } from '../dialect';

export default (_d: Dialect): string => `ALTER TABLE folio_users ADD COLUMN "tokenVersion" INTEGER NOT NULL DEFAULT 0;
`;
