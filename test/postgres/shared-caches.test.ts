/**
 * Two instances on one PostgreSQL database keep answers and wake their realtime feeds from one
 * signal (db/postgres.ts): every commit advances the change marker right after it, in the same
 * message as its COMMIT, and notifies the channel each instance listens to. A read that starts
 * after another instance's write was acknowledged never gets an answer kept from before it; a
 * write that rolls back moves and notifies nothing. Skipped unless FOLIO_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { RealtimeHub, type FeedEvent } from '../../src/events/realtime';
import { createDatabase } from '../helpers/postgres';
import { startServer, tempDir, type TestServer } from '../helpers/server';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;

describe.skipIf(!ADMIN_URL)('two instances on one PostgreSQL database', () => {
  let a: TestServer;
  let b: TestServer;
  let documentId: string;
  beforeAll(async () => {
    const url = await createDatabase(ADMIN_URL!, 'folio_shared_caches');
    a = await startServer({ config: { databaseUrl: url } });
    b = await startServer({ dataDir: tempDir(), config: { databaseUrl: url } });
    // Background work reads and commits too (the outbox pruner's first run comes ~10 s after
    // start): not while counting statements or checking what is kept at the end of a loop.
    for (const s of [a, b]) s.instance.pause();
    const created = await a.call('POST', '/api/articles', { body: { data: { title: 'v0' } } });
    expect(created.status).toBe(201);
    documentId = created.body.data.documentId;
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  }, 30_000);

  const get = async (server: TestServer, path: string) => {
    const response = await fetch(server.url + path);
    expect(response.status).toBe(200);
    return (await response.json()) as { data: any };
  };

  it('answers a repeated read from what it sent last time: one statement (the markers), no query', async () => {
    const path = `/api/articles/${documentId}?populate=*`;
    const first = await get(b, path);
    const before = b.instance.db.statementCount;
    const again = await get(b, path);
    expect(b.instance.db.statementCount - before).toBeLessThanOrEqual(1);
    expect(again).toEqual(first);
    expect(b.instance.caches.answers.size.entries).toBeGreaterThan(0);
  });

  it('never answers a read with what was kept before a write another instance acknowledged, in a tight loop with readers keeping answers warm', async () => {
    const one = `/api/articles/${documentId}`;
    const list = '/api/articles?fields[0]=title&pagination[pageSize]=100';
    let stop = false;
    // Other readers on the same instance meanwhile: answers are kept and reused all along.
    const readers = Array.from({ length: 4 }, async () => {
      while (!stop) await Promise.all([get(b, one), get(b, list)]);
    });
    const stale: string[] = [];
    try {
      for (let i = 1; i <= 150; i++) {
        const title = `v${i}`;
        const written = await a.call('PUT', one, { body: { data: { title } } });
        expect(written.status).toBe(200);
        const [read, listed] = await Promise.all([get(b, one), get(b, list)]);
        if (read.data.title !== title) stale.push(`${title}: read ${read.data.title}`);
        const entry = (listed.data as { documentId: string; title: string }[]).find((d) => d.documentId === documentId);
        if (entry?.title !== title) stale.push(`${title}: listed ${entry?.title}`);
      }
    } finally {
      stop = true;
      await Promise.all(readers);
    }
    expect(stale).toEqual([]);
    // And the answers were kept and reused meanwhile, not built every time.
    expect(b.instance.caches.answers.size.entries).toBeGreaterThan(0);
  }, 120_000);

  it('is told of every commit, of a write rolled back nothing, and keeps its answers then', async () => {
    let told = 0;
    const unwatch = b.instance.db.watchCommits(() => told++)!;
    try {
      await Bun.sleep(300); // the listening connection subscribes
      told = 0;
      const path = `/api/articles/${documentId}?fields[0]=title`;
      await get(b, path);
      const marker = await b.instance.db.changeMarker({ fresh: true });
      const ct = a.instance.registry.contentType('api::article.article')!;
      const remove = a.instance.documents.hooks.subscribe({
        afterUpdate: () => {
          throw new Error('refused');
        },
      });
      await expect(a.instance.documents.update(ct, documentId, { title: 'Rolled back' })).rejects.toThrow('refused');
      remove();
      await Bun.sleep(500);
      expect(told).toBe(0);
      expect(await b.instance.db.changeMarker({ fresh: true })).toBe(marker!);
      const before = b.instance.db.statementCount;
      expect((await get(b, path)).data.title).not.toBe('Rolled back');
      expect(b.instance.db.statementCount - before).toBeLessThanOrEqual(1);

      await a.instance.documents.update(ct, documentId, { title: 'Committed' });
      for (let waited = 0; told === 0 && waited < 2000; waited += 20) await Bun.sleep(20);
      expect(told).toBeGreaterThan(0);
      expect(await b.instance.db.changeMarker({ fresh: true })).toBeGreaterThan(marker!);
    } finally {
      unwatch();
    }
  });

  it("wakes an instance's realtime feed when another instance commits, with no poll due", async () => {
    // A hub that would look at the outbox only every minute on its own.
    const hub = new RealtimeHub(b.instance.db, { resumeWindowMs: 60_000, pollMs: 60_000, watchedPollMs: 60_000 });
    const received: FeedEvent[] = [];
    const unsubscribe = await hub.subscribe({
      accepts: () => true,
      send: (events) => (received.push(...events), true),
      dropped: () => {},
      recheck: async () => true,
    });
    try {
      await Bun.sleep(300); // the listening connection subscribes
      const started = Date.now();
      const created = await a.call('POST', '/api/articles', { body: { data: { title: 'Realtime across instances' } } });
      expect(created.status).toBe(201);
      while (!received.some((e) => JSON.stringify(e).includes(created.body.data.documentId)) && Date.now() - started < 5000) await Bun.sleep(10);
      expect(received.some((e) => JSON.stringify(e).includes(created.body.data.documentId))).toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      unsubscribe();
      hub.stop();
    }
  });
});
