/**
 * Applies the system migrations that have not run yet, each in its own transaction,
 * and records them in `folio_migrations`.
 */
import type { Database } from './database';
import { SYSTEM } from './layout';
import { migrations } from './migrations';
import { sql } from './sql';

const TABLE = sql.id(SYSTEM.migrations);

/** The system migrations with their text for this database's engine. */
export function systemMigrations(db: Database): { name: string; sql: string }[] {
  return migrations.map((m) => ({ name: m.name, sql: m.sql(db.dialect) }));
}

async function appliedNames(db: Database): Promise<Set<string>> {
  return new Set((await db.all<{ name: string }>(sql`SELECT "name" FROM ${TABLE}`)).map((r) => r.name));
}

/** Runs pending migrations; returns the names it applied. */
export async function migrateSystem(db: Database): Promise<string[]> {
  // Unquoted, as the first releases wrote it: SQLite keeps the statement's text as the schema.
  await db.exec(`CREATE TABLE IF NOT EXISTS ${SYSTEM.migrations} ("name" TEXT PRIMARY KEY, "appliedAt" TEXT NOT NULL)`);
  const done = await appliedNames(db);
  const applied: string[] = [];
  for (const migration of systemMigrations(db)) {
    if (done.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      // A migration may have nothing to do on an engine (it is recorded all the same).
      if (migration.sql.trim()) await tx.exec(migration.sql);
      await tx.run(sql`INSERT INTO ${TABLE} ("name", "appliedAt") VALUES (${migration.name}, ${new Date().toISOString()})`);
    });
    applied.push(migration.name);
  }
  return applied;
}

/** Names of pending migrations, without applying them (for `migrate --dry-run`). */
export async function pendingSystemMigrations(db: Database): Promise<string[]> {
  const exists = (await db.schema()).columns.has(SYSTEM.migrations);
  const done = exists ? await appliedNames(db) : new Set<string>();
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
