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

/** The settings version and a change marker (db/migrations/0022: PostgreSQL's sequence), read together. */
export interface Markers {
  settings: number | undefined;
  changes: number | undefined;
}

const MARKERS = sql`SELECT (SELECT "version" FROM ${sql.id(SYSTEM.settingsVersion)} WHERE "id" = 1) AS "settings", (SELECT "last_value" FROM ${sql.id(SYSTEM.changes)}) AS "changes"`;

/**
 * Both markers in one statement (PostgreSQL: what every turn of a serving instance reads).
 * Before migration 0022 there is no change marker (undefined: nothing keyed on it is kept),
 * before 0005 no settings version either.
 */
export async function readMarkers(db: Queryable): Promise<Markers> {
  try {
    const row = await db.get<{ settings: number | string | null; changes: number | string | null }>(MARKERS);
    return { settings: row?.settings == null ? 0 : Number(row.settings), changes: row?.changes == null ? undefined : Number(row.changes) };
  } catch {
    return { settings: await readSettingsVersion(db), changes: undefined };
  }
}
