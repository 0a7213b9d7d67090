/**
 * The settings version (migration 0005): one row that triggers rewrite whenever roles,
 * grants, API tokens or locales change. Caches of settings key on it (db/cache.ts).
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const READ = sql`SELECT "version" FROM ${sql.id(SYSTEM.settingsVersion)} WHERE "id" = 1`;

/**
 * The current version: 0 before the first settings write, undefined when the table does not
 * exist yet (a database opened without migrating, `migrate --dry-run`): then nothing is cached.
 */
export async function readSettingsVersion(db: Queryable): Promise<number | undefined> {
  try {
    const row = await db.get<{ version: number | string }>(READ);
    return row === undefined ? 0 : Number(row.version);
  } catch {
    return undefined;
  }
}
