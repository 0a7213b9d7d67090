/**
 * How PostgreSQL write transactions keep concurrent writers apart (hardening issue), shown
 * deterministically: a test transaction plays "another writer" by holding a lock Folio's
 * writes take (src/documents/write/locks.ts) while it changes a list, and a real request is made to
 * wait for it and then compute its order key from the list as committed; a lock that is never
 * released, a deadlock, and a conflict that outlasts the retries end in 503, never a 500.
 * Skipped unless FOLIO_TEST_DATABASE_URL is set (the admin URL for scratch databases).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { generateKeyBetween } from 'fractional-indexing';

import type { Queryable } from '../../src/db/database';
import { PostgresDatabase } from '../../src/db/postgres';
import { documentLock, linksToLock } from '../../src/documents/write/locks';
import { ServiceUnavailableError } from '../../src/errors';
import type { ContentType } from '../../src/registry/types';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, type TestServer } from '../helpers/server';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
if (!ADMIN_URL) console.warn('test/postgres/write-locks.test.ts skipped: set FOLIO_TEST_DATABASE_URL to a PostgreSQL admin URL to run it');
const databases: string[] = [];
afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
});
const LOCKED = { isolation: 'read committed' } as const;

describe.skipIf(!ADMIN_URL)('a document write waiting for the writer holding its list', () => {
  let server: TestServer;
  let articleType: ContentType;
  let tagType: ContentType;
  beforeAll(async () => {
    server = await startServer();
    articleType = server.instance.registry.contentType('api::article.article')!;
    tagType = server.instance.registry.contentType('api::tag.tag')!;
  });
  afterAll(() => server?.stop());

  const create = async (path: string, data: Record<string, unknown>) => {
    const created = await server.call('POST', `/api/${path}`, { body: { data } });
    expect(created.status).toBe(201);
    return created.body.data.documentId as string;
  };
  const ids = async (path: string, field: string) =>
    ((await server.call('GET', `/api/${path}?status=draft&populate[${field}][fields][0]=createdAt`)).body.data[field] as { documentId: string }[]).map(
      (x) => x.documentId,
    );

  /**
   * Runs `change` in a transaction holding `lock`, sends `request` meanwhile, and lets the
   * transaction commit once the request waits for a lock (polled, bounded) or has answered.
   */
  async function interleave(
    lock: { exclusive?: string[]; shared?: string[] },
    change: (tx: Queryable) => Promise<void>,
    request: () => Promise<{ status: number }>,
  ) {
    const db = server.instance.db;
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let changed!: () => void;
    const ready = new Promise<void>((resolve) => (changed = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.lock(lock.exclusive ?? [], lock.shared ?? []);
      await change(tx);
      changed();
      await committing;
    }, LOCKED);
    await ready;
    let answered = false;
    const answer = request().finally(() => (answered = true));
    let waited = false;
    for (let i = 0; i < 500 && !answered && !waited; i++) {
      const row = await db.get<{ n: number }>(
        `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      waited = row!.n > 0;
      if (!waited) await Bun.sleep(10);
    }
    commit();
    await holder;
    return { waited, answer: await answer };
  }

  it('computes an owning-side key from the list another writer committed, not from the one it replaced', async () => {
    const [t0, t1, t2] = [await create('tags', { name: 'own-0' }), await create('tags', { name: 'own-1' }), await create('tags', { name: 'own-2' })];
    const article = await create('articles', { title: 'Owning side', tags: [t0, t1] });
    const draft = (await server.instance.db.get<{ id: number }>(`SELECT id FROM articles WHERE "documentId" = ? AND "publishedAt" IS NULL`, [article]))!.id;
    const first = (await server.instance.db.get<{ p: string }>(`SELECT MIN("position") AS p FROM articles_tags_lnk WHERE "sourceId" = ?`, [draft]))!.p;
    // The other writer moves own-1 first, with the very key a `start` connect computes from the old list.
    const { waited, answer } = await interleave(
      { exclusive: [documentLock(articleType, article)] },
      (tx) =>
        tx
          .run(`UPDATE articles_tags_lnk SET "position" = ? WHERE "sourceId" = ? AND "targetDocumentId" = ?`, [generateKeyBetween(null, first), draft, t1!])
          .then(() => {}),
      () =>
        server.call('PUT', `/api/articles/${article}?status=draft`, { body: { data: { tags: { connect: [{ documentId: t2, position: { start: true } }] } } } }),
    );
    expect(answer.status).toBe(200);
    const keys = await server.instance.db.all<{ position: string }>(`SELECT "position" FROM articles_tags_lnk WHERE "sourceId" = ?`, [draft]);
    expect(new Set(keys.map((k) => k.position)).size).toBe(3);
    expect(await ids(`articles/${article}`, 'tags')).toEqual([t2, t1, t0]);
    expect(waited).toBe(true);
  });

  it('computes an inverse-side key from the list another writer committed, not from the one it replaced', async () => {
    const tag = await create('tags', { name: 'inverse-hub' });
    const [a0, a1] = [await create('articles', { title: 'inv-0', tags: [tag] }), await create('articles', { title: 'inv-1', tags: [tag] })];
    const a2 = await create('articles', { title: 'inv-2' });
    const first = (await server.instance.db.get<{ p: string }>(`SELECT MIN("inversePosition") AS p FROM articles_tags_lnk WHERE "targetDocumentId" = ?`, [
      tag,
    ]))!.p;
    const { waited, answer } = await interleave(
      { exclusive: [linksToLock(tagType, tag)] },
      (tx) =>
        tx
          .run(
            `UPDATE articles_tags_lnk SET "inversePosition" = ? WHERE "targetDocumentId" = ? AND "sourceId" IN (SELECT id FROM articles WHERE "documentId" = ?)`,
            [generateKeyBetween(null, first), tag, a1!],
          )
          .then(() => {}),
      () => server.call('PUT', `/api/tags/${tag}?status=draft`, { body: { data: { articles: { connect: [{ documentId: a2, position: { start: true } }] } } } }),
    );
    expect(answer.status).toBe(200);
    const keys = await server.instance.db.all<{ k: string }>(
      `SELECT DISTINCT l."inversePosition" AS k FROM articles_tags_lnk l JOIN articles o ON o.id = l."sourceId" WHERE l."targetDocumentId" = ? AND o."publishedAt" IS NULL`,
      [tag],
    );
    expect(keys.length).toBe(3);
    expect(await ids(`tags/${tag}`, 'articles')).toEqual([a2, a1, a0]);
    expect(waited).toBe(true);
  });

  it('lets a new link be appended to a list that other appenders hold, without waiting for them', async () => {
    const tag = await create('tags', { name: 'append-hub' });
    const { waited, answer } = await interleave(
      { shared: [linksToLock(tagType, tag)] },
      async () => {},
      () => server.call('POST', '/api/articles', { body: { data: { title: 'appended', tags: [tag] } } }),
    );
    expect(answer.status).toBe(201);
    expect(waited).toBe(false);
  });
});

describe.skipIf(!ADMIN_URL)('write transactions on PostgreSQL when contention does not resolve', () => {
  let db: PostgresDatabase;
  // Default lock timeout (5 s), longer than PostgreSQL's deadlock check (deadlock_timeout, 1 s).
  let patient: PostgresDatabase;
  const LOCKED = { isolation: 'read committed' } as const;

  beforeAll(async () => {
    const url = await createDatabase(ADMIN_URL!, 'folio_write_locks');
    databases.push(url);
    db = new PostgresDatabase(url, { lockTimeoutMs: 200 });
    patient = new PostgresDatabase(url);
    await db.exec('CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO counter VALUES (1, 0);');
  });
  afterAll(() => {
    db?.close();
    patient?.close();
  });

  it('gives up on a lock held past the lock timeout with ServiceUnavailableError (503, Retry-After) and keeps nothing of the write', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.lock(['the same list']);
      locked();
      await held;
    }, LOCKED);
    await isLocked;
    const waiter = db.transaction(async (tx) => {
      await tx.run('UPDATE counter SET n = n + 1 WHERE id = 1');
      await tx.lock(['the same list']);
    }, LOCKED);
    const error = await waiter.then(
      () => null,
      (e: unknown) => e,
    );
    release();
    await holder;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).status).toBe(503);
    expect((error as ServiceUnavailableError).headers['retry-after']).toBe('1');
    expect(await db.get('SELECT n FROM counter WHERE id = 1')).toEqual({ n: 0 });
  });

  it('retries the loser of a deadlock, so both transactions complete', async () => {
    // Each takes one lock, waits until the other has its own, then asks for the other's: a cycle.
    let aHas!: () => void;
    let bHas!: () => void;
    const aLocked = new Promise<void>((resolve) => (aHas = resolve));
    const bLocked = new Promise<void>((resolve) => (bHas = resolve));
    const attempts = { a: 0, b: 0 };
    const crossing = (me: 'a' | 'b', mine: string, theirs: string, announce: () => void, other: Promise<void>) =>
      patient.transaction(async (tx) => {
        attempts[me]++;
        await tx.lock([mine]);
        announce();
        await other;
        await tx.lock([theirs]);
        await tx.run('UPDATE counter SET n = n + 1 WHERE id = 1');
      }, LOCKED);
    await Promise.all([crossing('a', 'lock a', 'lock b', aHas, bLocked), crossing('b', 'lock b', 'lock a', bHas, aLocked)]);
    expect(attempts.a + attempts.b).toBe(3);
    expect(await db.get('SELECT n FROM counter WHERE id = 1')).toEqual({ n: 2 });
  });

  it('answers ServiceUnavailableError, not a raw database error, when a serialization failure outlasts every retry', async () => {
    let attempts = 0;
    const failing = db.transaction(async (tx) => {
      attempts++;
      await tx.exec(`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$`);
    });
    const error = await failing.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(attempts).toBeGreaterThan(1);
  });
});
