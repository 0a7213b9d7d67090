/**
 * SQLite checkpoints happen off the request path (issue #21): the writer connection never
 * checkpoints inside a COMMIT (wal_autocheckpoint is off), a worker thread copies the WAL
 * into the database in the background, and so the WAL does not grow without bound.
 * SQLite only: PostgreSQL has no WAL file of ours to watch.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { statSync } from 'node:fs';
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
