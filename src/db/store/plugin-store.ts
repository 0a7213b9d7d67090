/**
 * Rows of `folio_plugin_store` (migration 0013): plugins' stored settings, one JSON text per
 * key. What the values may hold is auth/settings-values.ts's business.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const STORE = sql.id(SYSTEM.pluginStore);

/** Every stored key with its JSON text. */
export function readPluginStore(db: Queryable): Promise<{ key: string; value: string }[]> {
  return db.all<{ key: string; value: string }>(sql`SELECT "key", "value" FROM ${STORE}`);
}

export async function writePluginStoreValue(db: Queryable, key: string, value: string, now: string): Promise<void> {
  await db.run(sql`INSERT INTO ${STORE} ("key", "value", "updatedAt") VALUES (${key}, ${value}, ${now})
    ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value", "updatedAt" = excluded."updatedAt"`);
}
