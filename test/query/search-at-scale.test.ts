/**
 * `_q` on a table large enough for PostgreSQL to look up only the rarest trigrams of a search
 * (db/search-grams.ts): the answers (documents and totals) are the same before the table's sample
 * exists and after, for searches with rare and common words, accents, `%` and `_`, and no match.
 * On SQLite the same searches go through the FTS5 index and answer the same. Both engines.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from '../../src/db/sql';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(60_000);
const ARTICLES = 25_000;
let server: TestServer;

beforeAll(async () => {
  // No answer cache: the second round must be read again (PostgreSQL keeps answers too now).
  server = await startServer({ config: { answerCacheBytes: 0 } });
  const db = server.instance.db;
  const pg = db.dialect.name === 'postgres';
  const numbers = pg
    ? sql`generate_series(1, ${ARTICLES}) AS g(i)`
    : sql`(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${ARTICLES}) SELECT i FROM s) g`;
  const i = pg ? sql`CAST(g.i AS TEXT)` : sql`g.i`;
  await db.transaction((tx) =>
    tx.run(sql`INSERT INTO articles ("documentId", locale, "createdAt", "updatedAt", "publishedAt", title, slug, summary, kind, views, featured)
    SELECT 'scale' || ${i}, 'en', '2024-01-15T00:00:00.000Z', '2024-01-15T00:00:00.000Z', '2024-01-15T00:00:00.000Z',
      'Bench article ' || ${i}, 'bench-article-' || ${i}, 'Summary of bench article ' || ${i} || '.', 'news', 1, 0
    FROM ${numbers}`),
  );
  for (const title of ['Grüße aus Köln 4242', 'Fully 100%_done article', 'ΣΟΦΙΑ article 4242']) {
    expect((await server.call('POST', '/api/articles', { body: { data: { title } } })).status).toBe(201);
  }
  await db.run(pg ? 'ANALYZE articles' : 'ANALYZE');
});
afterAll(() => server.stop());

const SEARCHES = ['article 4242', 'ARTICLE 4242', 'köln 4242', 'σοφια article', '100%_d', 'bench', 'e 42', 'no such words here'];

async function search(q: string) {
  const read = await server.call('GET', `/api/articles?_q=${encodeURIComponent(q)}&sort=id&pagination[pageSize]=100&fields[0]=title`);
  expect(read.status).toBe(200);
  return { titles: read.body.data.map((a: { title: string }) => a.title), total: read.body.meta.pagination.total };
}

test('a search answers the same before the table is sampled and after, on a table of 25,000 articles', async () => {
  const before = new Map<string, Awaited<ReturnType<typeof search>>>();
  for (const q of SEARCHES) before.set(q, await search(q));
  const samples = server.instance.documents.searchGrams;
  await samples?.settled();

  // On PostgreSQL the second round looks up the rarest trigrams: the statements say so.
  const statements: string[] = [];
  const db = server.instance.db as unknown as { all: (...args: unknown[]) => Promise<unknown> };
  const all = db.all.bind(db);
  db.all = (statement: unknown, ...rest: unknown[]) => {
    statements.push(String((statement as { compile?: (s: string) => { text: string } }).compile?.('numbered').text ?? statement));
    return all(statement, ...rest);
  };
  try {
    for (const q of SEARCHES) expect({ q, ...(await search(q)) }).toEqual({ q, ...before.get(q)! });
  } finally {
    db.all = all;
  }
  if (samples) expect(statements.some((s) => s.includes('ANY(ARRAY(SELECT'))).toBe(true);

  // 4242, 42420–42429 are beyond 25,000: "article 4242" is Bench article 4242 and ΣΟΦΙΑ's.
  expect(before.get('article 4242')).toEqual({ titles: ['Bench article 4242', 'ΣΟΦΙΑ article 4242'], total: 2 });
  expect(before.get('köln 4242')!.titles).toEqual(['Grüße aus Köln 4242']);
  expect(before.get('100%_d')!.titles).toEqual(['Fully 100%_done article']);
  expect(before.get('bench')!.total).toBe(ARTICLES);
  expect(before.get('no such words here')!.total).toBe(0);
});
