/**
 * SQLite group commit (src/db/group-commit.ts, issue #21): writers queued behind each other
 * share one COMMIT, each inside its own savepoint, and none is answered before the COMMIT
 * that holds its write. SQLite only: PostgreSQL runs each transaction on its own connection.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { sql } from '../../src/db/sql';
import { SqliteDatabase } from '../../src/db/sqlite';
import { onPostgres, tempDir } from '../helpers/server';

const sqliteOnly = onPostgres ? test.skip : test;
let db: SqliteDatabase;

beforeAll(async () => {
  db = new SqliteDatabase(join(tempDir(), 'group-commit.db'));
  await db.exec('CREATE TABLE notes ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE)');
});
beforeEach(() => db.exec('DELETE FROM notes'));
afterAll(() => db.close());

const insert = (name: string) => db.transaction((tx) => tx.run(sql`INSERT INTO notes ("name") VALUES (${name})`));
/** What the reader connection sees: committed rows only. */
const committedNames = async () => (await db.all<{ name: string }>(sql`SELECT "name" FROM notes ORDER BY "id"`)).map((r) => r.name);

sqliteOnly('a lone write gets a commit of its own', async () => {
  const before = db.commitCount;
  await insert('first');
  expect(await committedNames()).toEqual(['first']);
  await insert('second');
  expect(db.commitCount - before).toBe(2);
});

sqliteOnly('writers queued behind each other share commits, and every one of their rows is saved in order', async () => {
  const before = db.commitCount;
  const names = Array.from({ length: 12 }, (_, i) => `queued ${i}`);
  await Promise.all(names.map(insert));
  expect(await committedNames()).toEqual(names);
  const commits = db.commitCount - before;
  expect(commits).toBeGreaterThanOrEqual(1);
  expect(commits).toBeLessThan(names.length);
});

sqliteOnly('a group never grows past 16 writers: 40 queued writes take at least 3 commits', async () => {
  const before = db.commitCount;
  await Promise.all(Array.from({ length: 40 }, (_, i) => insert(`many ${i}`)));
  expect(db.commitCount - before).toBeGreaterThanOrEqual(3);
  expect((await committedNames()).length).toBe(40);
});

sqliteOnly('no writer is answered before the commit that holds its write: its row is visible to readers when it resolves', async () => {
  const order: string[] = [];
  const first = insert('early').then(async () => {
    order.push('early answered');
    // Read through the reader connection, which never sees uncommitted work.
    expect(await committedNames()).toContain('early');
  });
  const second = db.transaction(async (tx) => {
    await tx.run(sql`INSERT INTO notes ("name") VALUES ('late')`);
    await Bun.sleep(30);
    order.push('late written');
  });
  await Promise.all([first, second]);
  // The early writer shared the late one's commit, so it was answered after the late one wrote.
  expect(order).toEqual(['late written', 'early answered']);
  expect(await committedNames()).toEqual(['early', 'late']);
});

sqliteOnly('a writer that fails rolls back its own work only: the others in its group are saved', async () => {
  const results = await Promise.allSettled([
    insert('kept 1'),
    db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO notes ("name") VALUES ('lost')`);
      throw new Error('refused by the caller');
    }),
    insert('kept 1'), // breaks the UNIQUE constraint: this writer's error, nobody else's
    insert('kept 2'),
  ]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe('refused by the caller');
  expect(String((results[2] as PromiseRejectedResult).reason)).toContain('UNIQUE');
  expect(await committedNames()).toEqual(['kept 1', 'kept 2']);
});

sqliteOnly('when the database rolls back the whole transaction, every writer of the group fails and nothing of it is saved', async () => {
  const results = await Promise.allSettled([
    insert('gone 1'),
    // Ends the shared transaction under everyone's feet, as SQLite does on some I/O errors.
    db.transaction(async (tx) => {
      await tx.exec('ROLLBACK');
      throw new Error('the transaction is gone');
    }),
    insert('next group'),
  ]);
  expect(results[0]!.status).toBe('rejected');
  expect(String((results[0] as PromiseRejectedResult).reason)).toContain('rolled back');
  expect(results[1]!.status).toBe('rejected');
  // A writer that comes after the failure starts a transaction of its own.
  expect(results[2]!.status).toBe('fulfilled');
  expect(await committedNames()).toEqual(['next group']);
});

sqliteOnly('two databases opened on one file in one process do not wait for each other: a BEGIN commits the other’s open group first', async () => {
  const path = join(tempDir(), 'two-handles.db');
  const one = new SqliteDatabase(path);
  await one.exec('CREATE TABLE notes ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL)');
  const two = new SqliteDatabase(path);
  try {
    const commitsBefore = one.commitCount;
    const first = one.transaction((tx) => tx.run(sql`INSERT INTO notes ("name") VALUES ('from one')`));
    // Microtasks only (no turn of the event loop): one's write is done and its commit is scheduled, not run.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(one.commitCount).toBe(commitsBefore);
    const started = performance.now();
    // Without the flush, this BEGIN would wait for the file's lock while blocking the loop that commits it (busy_timeout: 10 s).
    await Promise.all([first, two.transaction((tx) => tx.run(sql`INSERT INTO notes ("name") VALUES ('from two')`))]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await two.all<{ name: string }>(sql`SELECT "name" FROM notes ORDER BY "id"`)).map((r) => r.name)).toEqual(['from one', 'from two']);
  } finally {
    two.close();
    one.close();
  }
});
