/**
 * A write transaction's BEGIN travels with its first lock call (db/postgres.ts): a document
 * write, which locks before anything else, holds its pooled connection one round trip less,
 * and is still one transaction (the lock held to its end, its rows gone with a rollback).
 * Skipped unless FOLIO_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { PostgresDatabase } from '../../src/db/postgres';
import { createDatabase, dropDatabases } from '../helpers/postgres';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;

describe.skipIf(!ADMIN_URL)('round trips of a PostgreSQL write transaction', () => {
  let url: string;
  let db: PostgresDatabase;
  beforeAll(async () => {
    url = await createDatabase(ADMIN_URL!, 'folio_round_trips');
    db = new PostgresDatabase(url);
    await db.exec('CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)');
  });
  afterAll(async () => {
    db?.close();
    if (ADMIN_URL) await dropDatabases(ADMIN_URL, [url]);
  });

  /** Advisory locks this connection holds, and its transaction's isolation level. */
  const advisoryLocksHeld = (tx: { get<T>(s: string): Promise<T | undefined> }) =>
    tx.get<{ n: number; level: string }>(
      "SELECT COUNT(*)::int AS n, current_setting('transaction_isolation') AS level FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
    );

  it('sends BEGIN with the first lock: lock, insert, a read and COMMIT are four round trips, in the isolation level asked, locks held to the end', async () => {
    const before = db.roundTrips;
    const held = await db.transaction(
      async (tx) => {
        await tx.lock(['note-a'], ['note-b']);
        await tx.run("INSERT INTO notes (body) VALUES ('kept')");
        return advisoryLocksHeld(tx);
      },
      { isolation: 'read committed' },
    );
    // lock (+ BEGIN), insert, lock count, COMMIT.
    expect(db.roundTrips - before).toBe(4);
    expect(held).toEqual({ n: 2, level: 'read committed' });
    // Transaction-scoped: released at COMMIT.
    expect((await advisoryLocksHeld(db))!.n).toBe(0);
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
  });

  it('rolls back everything written after a lock-carried BEGIN when the transaction throws', async () => {
    await expect(
      db.transaction(
        async (tx) => {
          await tx.lock(['note-a']);
          await tx.run("INSERT INTO notes (body) VALUES ('dropped')");
          throw new Error('changed my mind');
        },
        { isolation: 'read committed' },
      ),
    ).rejects.toThrow('changed my mind');
    expect(await db.all('SELECT body FROM notes ORDER BY id')).toEqual([{ body: 'kept' }]);
  });

  it('runs a transaction without locks in its isolation level, and one that runs nothing sends nothing', async () => {
    const level = await db.transaction((tx) => tx.get<{ l: string }>('SELECT current_setting($1) AS l', ['transaction_isolation']));
    expect(level!.l).toBe('serializable');
    const before = db.roundTrips;
    expect(await db.transaction(async () => 'nothing to do')).toBe('nothing to do');
    expect(db.roundTrips - before).toBe(0);
  });

  it('keeps a transaction on its reserved connection when the pool is replaced under it (prepared-statement budget)', async () => {
    const small = new PostgresDatabase(url, { preparedPerPool: 2 });
    try {
      const inside = await small.transaction(
        async (tx) => {
          await tx.lock(['note-c']);
          // Each distinct text outside the transaction counts against the budget: the pool is replaced twice meanwhile.
          for (let i = 0; i < 6; i++) {
            await tx.run(`INSERT INTO notes (body) VALUES ('pooled ${i}')`);
            await small.get(`SELECT ${i} + 1 AS n`);
          }
          return tx.get<{ n: number }>("SELECT COUNT(*)::int AS n FROM notes WHERE body LIKE 'pooled %'");
        },
        { isolation: 'read committed' },
      );
      expect(inside!.n).toBe(6);
      expect((await small.get<{ n: number }>("SELECT COUNT(*)::int AS n FROM notes WHERE body LIKE 'pooled %'"))!.n).toBe(6);
    } finally {
      small.close();
    }
  });
});
