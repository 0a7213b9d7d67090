/**
 * Looks into the SQLite file of a data dir (`<data>/folio.db`) directly, as a user with the
 * sqlite3 shell would: for CLI tests that check what a command left on disk.
 */
import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registerFunctions } from '../../src/db/sqlite';

/** The tables in the data dir's database; none when the file does not exist. */
export function tableNames(dataDir: string): string[] {
  const file = join(dataDir, 'folio.db');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true });
  try {
    return db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

export function columnNames(dataDir: string, table: string): string[] {
  const db = new Database(join(dataDir, 'folio.db'), { readonly: true });
  try {
    return db
      .query<{ name: string }, []>(`PRAGMA table_info("${table}")`)
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

/**
 * Opens the data dir's database for `fn` (read-write) and closes it again, with Folio's SQL
 * functions registered: the `_q` index triggers call them on every write to a content table.
 */
export function withDb<T>(dataDir: string, fn: (db: Database) => T): T {
  const db = new Database(join(dataDir, 'folio.db'));
  registerFunctions(db);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
