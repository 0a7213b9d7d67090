/**
 * Concurrent writes through one server, on either engine (SQLite by default; PostgreSQL with
 * FOLIO_TEST_DATABASE_URL): what must happen once happens once, whatever the interleaving.
 * test/postgres/contention.test.ts does the same across two processes on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

const WRITERS = 8;

describe('concurrent writes through one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  const all = (n: number, request: (i: number) => Promise<{ status: number; body: any }>) => Promise.all(Array.from({ length: n }, (_, i) => request(i)));

  it('creates a single type once when its first PUTs arrive together: every answer 200, one documentId', async () => {
    const answers = await all(WRITERS, (i) => server.call('PUT', '/api/homepage', { body: { data: { headline: `first ${i}` } } }));
    expect(answers.map((a) => a.status)).toEqual(Array(WRITERS).fill(200));
    expect(new Set(answers.map((a) => a.body.data.documentId)).size).toBe(1);
    const rows = await server.instance.db.all<{ documentId: string }>('SELECT "documentId" FROM homepages');
    // One document: its draft and its published version.
    expect(rows.map((r) => r.documentId)).toEqual([answers[0]!.body.data.documentId, answers[0]!.body.data.documentId]);
  });

  it('lets exactly one of several concurrent writes of the same unique value win; the others answer 400', async () => {
    const ids: string[] = [];
    for (let i = 0; i < WRITERS; i++) ids.push((await server.call('POST', '/api/tags', { body: { data: { name: `distinct ${i}` } } })).body.data.documentId);
    const answers = await all(WRITERS, (i) => server.call('PUT', `/api/tags/${ids[i]}`, { body: { data: { name: 'wanted by all' } } }));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(WRITERS - 1).fill(400)]);
    const holders = await server.instance.db.all('SELECT id FROM tags WHERE "name" = ? AND "publishedAt" IS NOT NULL', ['wanted by all']);
    expect(holders.length).toBe(1);
  });
});
