/**
 * Content answers kept until the next commit (src/http/answer-cache.ts): a repeated read is
 * answered from what was sent last time while nothing committed, and never after a commit,
 * whoever made it: this server, another connection, another process. Each caller and each
 * response format has its own answers. Both engines: SQLite's commits move data_version, every
 * PostgreSQL commit moves the change marker (db/postgres.ts; two instances:
 * test/postgres/shared-caches.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { openDatabase } from '../../src/instance';
import { sql } from '../../src/db/sql';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let documentId: string;
let categoryId: string;

beforeAll(async () => {
  server = await startServer();
  const category = await server.call('POST', '/api/categories', { body: { data: { name: 'Kept', slug: 'kept' } } });
  categoryId = category.body.data.documentId;
  const created = await server.call('POST', '/api/articles', { body: { data: { title: 'First title', slug: 'first', category: categoryId } } });
  expect(created.status).toBe(201);
  documentId = created.body.data.documentId;
});
afterAll(() => server.stop());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, { headers });
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
}

/** Statements the instance runs while `fn` runs. */
async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
  const before = server.instance.db.statementCount;
  await fn();
  return server.instance.db.statementCount - before;
}

describe('answers kept until the next commit', () => {
  it('answers a repeated read with the same bytes and tag, running no query but the commit check', async () => {
    const path = `/api/articles/${documentId}?populate=category`;
    const first = await get(path);
    expect(first.status).toBe(200);
    let again!: Awaited<ReturnType<typeof get>>;
    const statements = await statementsDuring(async () => (again = await get(path)));
    expect(again).toEqual(first);
    expect(statements).toBeLessThanOrEqual(1);
  });

  it('shows a write made through the API on the next read of the document and of the list', async () => {
    for (const path of [`/api/articles/${documentId}`, '/api/articles']) expect((await get(path)).text).toContain('First title');
    const updated = await server.call('PUT', `/api/articles/${documentId}`, { body: { data: { title: 'Second title' } } });
    expect(updated.status).toBe(200);
    for (const path of [`/api/articles/${documentId}`, '/api/articles']) {
      const read = await get(path);
      expect(read.text).toContain('Second title');
      expect(read.text).not.toContain('First title');
    }
  });

  it('shows a commit made by another connection to the database on the next read', async () => {
    const path = `/api/articles/${documentId}`;
    expect((await get(path)).text).toContain('Second title');
    const other = openDatabase(server.instance.config);
    try {
      await other.run(sql`UPDATE ${sql.id('articles')} SET ${sql.id('title')} = ${'Written elsewhere'} WHERE ${sql.id('documentId')} = ${documentId}`);
    } finally {
      other.close();
    }
    expect(JSON.parse((await get(path)).text).data.title).toBe('Written elsewhere');
  });

  it('keeps each caller apart: a token that may not read categories never gets the public answer with one populated', async () => {
    const path = `/api/articles/${documentId}?populate=category`;
    const publicAnswer = JSON.parse((await get(path)).text);
    expect(publicAnswer.data.category.documentId).toBe(categoryId);
    const { accessKey } = await server.instance.tokens.create('articles only', 'custom', undefined, undefined, ['api::article.article.findOne']);
    const tokenAnswer = JSON.parse((await get(path, { authorization: `Bearer ${accessKey}` })).text);
    expect(tokenAnswer.data.title).toBe(publicAnswer.data.title);
    expect(tokenAnswer.data.category).toBeUndefined();
    // And the public answer is still its own.
    expect(JSON.parse((await get(path)).text).data.category.documentId).toBe(categoryId);
  });

  it('keeps the v4 and v5 formats apart', async () => {
    const path = `/api/articles/${documentId}`;
    const v5 = JSON.parse((await get(path)).text);
    const v4 = JSON.parse((await get(path, { 'strapi-response-format': 'v4' })).text);
    expect(v5.data.title).toBe('Written elsewhere');
    expect(v4.data.attributes.title).toBe('Written elsewhere');
    expect(JSON.parse((await get(path)).text).data.attributes).toBeUndefined();
  });

  it('still checks every request: a revoked grant is a 403 at once, and a bad query a 400', async () => {
    const path = '/api/articles';
    expect((await get(path)).status).toBe(200);
    await server.instance.roles.revoke('public', ['api::article.article.find']);
    try {
      expect((await get(path)).status).toBe(403);
    } finally {
      await server.instance.roles.grant('public', ['api::article.article.find']);
    }
    expect((await get(path)).status).toBe(200);
    expect((await get(`${path}?filters[nope][$eq]=1`)).status).toBe(400);
  });
});

describe('FOLIO_ANSWER_CACHE_MB=0', () => {
  it('builds every answer', async () => {
    const off = await startServer({ config: { answerCacheBytes: 0 } });
    try {
      const path = `${off.url}/api/articles?populate=category`;
      expect((await fetch(path)).status).toBe(200);
      const before = off.instance.db.statementCount;
      expect((await fetch(path)).status).toBe(200);
      // The page and its categories again (a kept answer would cost the commit check alone).
      expect(off.instance.db.statementCount - before).toBeGreaterThan(1);
    } finally {
      await off.stop();
    }
  });
});
