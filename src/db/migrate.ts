/**
 * Applies the system migrations that have not run yet, each in its own transaction,
 * and records them in `folio_migrations`.
 */
import type { Database } from './database';
import { postgresMigrations, sqliteMigrations, type Migration } from './migrations';

export function systemMigrations(db: Database): readonly Migration[] {
  return db.dialect.name === 'sqlite' ? sqliteMigrations : postgresMigrations;
}

/** Runs pending migrations; returns the names it applied. */
export async function migrateSystem(db: Database): Promise<string[]> {
  await db.exec(
    'CREATE TABLE IF NOT EXISTS folio_migrations ("name" TEXT PRIMARY KEY, "appliedAt" TEXT NOT NULL)',
  );
  const done = new Set((await db.all<{ name: string }>('SELECT "name" FROM folio_migrations')).map((r) => r.name));
  const applied: string[] = [];
  for (const migration of systemMigrations(db)) {
    if (done.has(migration.name)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.run('INSERT INTO folio_migrations ("name", "appliedAt") VALUES (?, ?)', [
        migration.name,
        new Date().toISOString(),
      ]);
    });
    applied.push(migration.name);
  }
  return applied;
}

/** Names of pending migrations, without applying them (for `migrate --dry-run`). */
export async function pendingSystemMigrations(db: Database): Promise<string[]> {
  const exists = (await db.schema()).columns.has('folio_migrations');
  const done = exists
    ? new Set((await db.all<{ name: string }>('SELECT "name" FROM folio_migrations')).map((r) => r.name))
    : new Set<string>();
  return systemMigrations(db).filter((m) => !done.has(m.name)).map((m) => m.name);
}
