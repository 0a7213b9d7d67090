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

/**
 * Sets a key's value. An UPDATE, then an INSERT when there was no row: not an upsert, whose
 * conflict clause SQLite would apply to the settings-version trigger's own INSERT OR REPLACE
 * (the outer statement's conflict handling wins inside triggers), failing it.
 */
export async function writePluginStoreValue(db: Queryable, key: string, value: string, now: string): Promise<void> {
  const updated = await db.run(sql`UPDATE ${STORE} SET "value" = ${value}, "updatedAt" = ${now} WHERE "key" = ${key}`);
  if (updated.changes === 0) await db.run(sql`INSERT INTO ${STORE} ("key", "value", "updatedAt") VALUES (${key}, ${value}, ${now})`);
}
