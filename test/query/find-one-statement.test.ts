/**
 * A find-one reads one version (issue #21): a documentId, a locale and a status name at most
 * one row, since the version index is unique on them, so the statement has no ORDER BY and
 * the engine sorts nothing (SQLite sorted that one row in a temporary B-tree: 15 of the 17 µs
 * the statement took). Only a read across locales (a filter on `locale`) or a single type's
 * read (no documentId) can match several rows, and keeps the first by id. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { Database as SqliteFile } from 'bun:sqlite';
import { join } from 'node:path';
import { sql } from '../../src/db/sql';
import { findOneStatement } from '../../src/query/compile';
import { parseReadQuery } from '../../src/query/parse';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let documentId: string;

beforeAll(async () => {
  server = await startServer();
  documentId = (await seedCreate(server, '/api/articles', { title: 'Published en', views: 1 })).documentId;
  const draft = await server.call('PUT', `/api/articles/${documentId}?status=draft`, { body: { data: { title: 'Draft en' } } });
  expect(draft.status).toBe(200);
  const fr = await server.call('PUT', `/api/articles/${documentId}?locale=fr`, { body: { data: { title: 'Published fr' } } });
  expect(fr.status).toBe(200);
});
afterAll(() => server.stop());

/** The statement a find-one of `params` runs (`id` null: a single type's read). */
function statementOf(params: Record<string, unknown>, id: string | null = documentId) {
  const { db, registry } = server.instance;
  const ct = registry.contentType('api::article.article')!;
  return findOneStatement(db.dialect, registry, ct, id ?? undefined, parseReadQuery(registry, ct, params, 'en')).statement;
}

/** The engine's plan for the find-one `params` would run, as one text. */
async function planOf(params: Record<string, unknown>): Promise<string> {
  const { db } = server.instance;
  const statement = statementOf(params);
  if (db.dialect.name === 'postgres') return (await db.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${statement}`)).map((r) => r['QUERY PLAN']).join('\n');
  // A connection of its own: after an EXPLAIN, bun:sqlite's get() on that connection left its
  // read transaction open, and the server's closing checkpoint then waited out its busy timeout.
  const file = new SqliteFile(join(server.dataDir, 'folio.db'), { readonly: true });
  try {
    const { text, params } = sql`EXPLAIN QUERY PLAN ${statement}`.compile('question');
    return (file.query(text).all(...(params as string[])) as { detail: string }[]).map((r) => r.detail).join('\n');
  } finally {
    file.close();
  }
}

/** SQLite's temporary B-tree or PostgreSQL's Sort node. */
const SORTS = /TEMP B-TREE|Sort/;

describe('a find-one pinned to one version', () => {
  it.each([
    ['the published version', {}],
    ['the draft', { status: 'draft' }],
    ['another locale', { locale: 'fr' }],
  ])('reads %s with no ORDER BY, so the engine sorts nothing', async (_, params) => {
    expect(statementOf(params).compile('question').text).not.toContain('ORDER BY');
    expect(await planOf(params)).not.toMatch(SORTS);
  });

  it('answers each version as before', async () => {
    const title = async (query: string) => (await server.call('GET', `/api/articles/${documentId}${query}`)).body.data.title;
    expect(await title('')).toBe('Published en');
    expect(await title('?status=draft')).toBe('Draft en');
    expect(await title('?locale=fr')).toBe('Published fr');
    expect((await server.call('GET', '/api/articles/nosuchdocument0000000000')).status).toBe(404);
  });
});

describe('a find-one that may match several versions', () => {
  it('a filter on locale reads across locales and keeps the first version by id', async () => {
    expect(statementOf({ filters: { locale: { $in: ['fr', 'en'] } } }).compile('question').text).toMatch(/ ORDER BY "t"\."id" LIMIT 1$/);
    const got = await server.call('GET', `/api/articles/${documentId}?filters[locale][$in][0]=fr&filters[locale][$in][1]=en`);
    expect(got.status).toBe(200);
    expect(got.body.data.title).toBe('Published en');
  });

  it('a read without a documentId (a single type) keeps its ORDER BY', () => {
    expect(statementOf({}, null).compile('question').text).toMatch(/ ORDER BY "t"\."id" LIMIT 1$/);
  });
});
