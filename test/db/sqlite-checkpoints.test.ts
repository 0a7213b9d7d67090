/**
 * SQLite checkpoints happen off the request path (issue #21): the writer connection never
 * checkpoints inside a COMMIT (wal_autocheckpoint is off), a worker thread copies the WAL
 * into the database in the background, and so the WAL does not grow without bound. Closing
 * stops that thread (and its connection) first, so the WAL ends up in the file (issue #35).
 * SQLite only: PostgreSQL has no WAL file of ours to watch.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from '../../src/db/sql';
import { SqliteDatabase } from '../../src/db/sqlite';
import { onPostgres, tempDir } from '../helpers/server';

const sqliteOnly = onPostgres ? test.skip : test;
let db: SqliteDatabase;
let path: string;

beforeAll(async () => {
  path = join(tempDir(), 'checkpoints.db');
  db = new SqliteDatabase(path);
  await db.exec('CREATE TABLE blobs ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "body" TEXT NOT NULL)');
});
afterAll(() => db.close());

/** Waits (bounded) until the background thread has checkpointed everything written so far. */
async function caughtUp(runsBefore: number) {
  for (let i = 0; i < 400; i++) {
    const { runs, log, checkpointed } = db.checkpoints;
    if (runs > runsBefore && log > 0 && checkpointed === log) return;
    await Bun.sleep(25);
  }
  throw new Error(`no complete background checkpoint: ${JSON.stringify(db.checkpoints)}`);
}

/** About 4 MB of rows, in one transaction each 100 rows (a few hundred commits' worth of WAL). */
async function writeBatch() {
  const body = 'x'.repeat(20_000);
  for (let i = 0; i < 200; i += 100) {
    await db.transaction(async (tx) => {
      for (let j = 0; j < 100; j++) await tx.run(sql`INSERT INTO "blobs" ("body") VALUES (${body})`);
    });
  }
}

const walSize = () => statSync(`${path}-wal`).size;

sqliteOnly('commits on the serving connection never checkpoint: wal_autocheckpoint is off once it writes', async () => {
  const pages = await db.transaction((tx) => tx.get<{ wal_autocheckpoint: number }>(sql`PRAGMA wal_autocheckpoint`));
  expect(pages?.wal_autocheckpoint).toBe(0);
});

sqliteOnly('a background thread copies the WAL into the database, so writing again reuses the WAL instead of growing it', async () => {
  await writeBatch();
  await caughtUp(db.checkpoints.runs);
  const afterFirst = walSize();
  expect(afterFirst).toBeGreaterThan(2_000_000);
  // Once the WAL is fully checkpointed, the next write starts it from the top again.
  await writeBatch();
  await caughtUp(db.checkpoints.runs);
  await writeBatch();
  expect(walSize()).toBeLessThan(afterFirst * 1.5);
  const rows = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM "blobs"`);
  expect(rows?.n).toBe(600);
});

/**
 * Databases on their own files, each written in one big transaction (an import's pattern) and
 * closed at a different moment of the background thread's work (idle, or in the middle of
 * copying a WAL of tens of MB); `close` is given each, then its file.
 */
async function closedAtEveryMoment(close: (db: SqliteDatabase) => void): Promise<string[]> {
  const files: string[] = [];
  for (let trial = 0; trial < 8; trial++) {
    const file = join(tempDir(), 'closing.db');
    const other = new SqliteDatabase(file);
    await other.exec('CREATE TABLE rows ("id" INTEGER PRIMARY KEY, "body" TEXT NOT NULL)');
    const body = 'y'.repeat(2_000);
    await other.transaction(async (tx) => {
      for (let i = 0; i < 15_000; i++) await tx.run(sql`INSERT INTO "rows" ("body") VALUES (${body})`);
    });
    await Bun.sleep(trial * 70);
    close(other);
    files.push(file);
  }
  return files;
}

const rowsIn = (file: string) => {
  const db = new BunDatabase(file, { readonly: true });
  try {
    return (db.query('SELECT COUNT(*) AS n FROM "rows"').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

sqliteOnly(
  'close stops the background thread and its connection first: the WAL goes into the file and is removed, whenever it comes',
  async () => {
    const files = await closedAtEveryMoment((db) => db.close());
    expect(files.map((f) => readdirSync(join(f, '..')).sort().join(' '))).toEqual(files.map(() => 'closing.db'));
    for (const file of files) expect(rowsIn(file)).toBe(15_000);
  },
  60_000,
);

sqliteOnly(
  'closeToOneFile leaves the whole database in its main file alone, which holds every row wherever it is moved',
  async () => {
    const files = await closedAtEveryMoment((db) => db.closeToOneFile());
    for (const file of files) {
      expect(readdirSync(join(file, '..'))).toEqual(['closing.db']);
      renameSync(file, `${file}.moved`);
      expect(rowsIn(`${file}.moved`)).toBe(15_000);
    }
  },
  60_000,
);
