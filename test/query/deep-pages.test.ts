/**
 * Deep pages (issue #21, "Scale"): from an offset on, PostgreSQL reads a page as a deferred
 * join (ids through the index past the offset, then the page's rows by id). Whatever the
 * form, a page must be exactly what the plain LIMIT/OFFSET statement answers: for the default
 * list, sorted (ties included, and through a relation), filtered, drafts, another locale and
 * every locale. Here the threshold is forced to 0 so the deferred form runs on small data, on
 * both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { findMany, type ReadContext } from '../../src/query/read';
import { DEFERRED_PAGE_FROM, listStatements } from '../../src/query/compile';
import { parseReadQuery } from '../../src/query/parse';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;

const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);

beforeAll(async () => {
  server = await startServer();
  const authors = [await post('/api/authors', { name: 'Zoe' }), await post('/api/authors', { name: 'Adam' })];
  for (let i = 0; i < 30; i++) {
    // views repeat (ties broken by id), some are missing (NULLs sort first ascending, last descending).
    const views = i % 7 === 3 ? undefined : (i * 37) % 11;
    const created = await post('/api/articles', {
      title: `Article ${String((i * 13) % 30).padStart(2, '0')}`,
      views,
      ...(i % 3 ? { author: authors[i % 2].documentId } : {}),
    });
    if (i % 4 === 0) {
      const fr = await server.call('PUT', `/api/articles/${created.documentId}?locale=fr`, { body: { data: { title: `Article fr ${i}`, views: i % 5 } } });
      if (fr.status !== 200) throw new Error(`seed fr: ${fr.status} ${JSON.stringify(fr.body)}`);
    }
    if (i % 5 === 0) await post('/api/articles', { title: `Draft only ${i}`, views: i }, '?status=draft');
  }
});
afterAll(() => server.stop());

const LISTS: Record<string, object> = {
  default: {},
  'sorted on views, descending': { sort: 'views:desc' },
  'sorted on views then title': { sort: ['views:asc', 'title:desc'] },
  'sorted through a relation': { sort: 'author.name:asc' },
  filtered: { filters: { views: { $gte: 3 } } },
  'filtered through a relation': { filters: { author: { name: { $eq: 'Adam' } } } },
  drafts: { status: 'draft' },
  'drafts sorted': { status: 'draft', sort: 'title:desc' },
  'another locale': { locale: 'fr' },
  'every locale': { locale: '*', sort: 'views:desc' },
  'only some fields': { fields: ['title'], sort: 'title' },
};

/** The page of `params` read through the documents' reader, with the deferred form from `deferredFrom` on. */
async function page(params: object, deferredFrom: number) {
  const { db, registry } = server.instance;
  const ct = registry.contentType('api::article.article')!;
  const ctx: ReadContext = { db, registry, deferredPagesFrom: deferredFrom };
  return findMany(ctx, ct, parseReadQuery(registry, ct, qs.parse(qs.stringify(params)) as Record<string, unknown>, 'en'));
}

describe('a deep page read as a deferred join', () => {
  for (const [name, params] of Object.entries(LISTS)) {
    it(`answers exactly what the plain OFFSET statement answers: ${name}`, async () => {
      let compared = 0;
      for (const pagination of [
        { page: 2, pageSize: 4 },
        { page: 3, pageSize: 7 },
        { start: 1, limit: 5 },
        { start: 9, limit: 100 },
        { page: 40, pageSize: 3 },
      ]) {
        const query = { ...params, pagination };
        const plain = await page(query, Number.POSITIVE_INFINITY);
        const deferred = await page(query, 0);
        expect(deferred).toEqual(plain);
        compared += plain.data.length;
      }
      // The pages were not all empty: something was compared.
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('is the statement form used from the threshold on, and the plain one below it (default: PostgreSQL only)', () => {
    const { db, registry } = server.instance;
    const ct = registry.contentType('api::article.article')!;
    const statement = (start: number, deferredFrom?: number) =>
      listStatements(db.dialect, registry, ct, parseReadQuery(registry, ct, { pagination: { start: String(start), limit: '25' } }, 'en'), {
        deferredFrom,
      }).page.compile('question').text;
    expect(statement(10, 10)).toContain('"pageId"');
    expect(statement(9, 10)).not.toContain('"pageId"');
    const deep = statement(DEFERRED_PAGE_FROM);
    if (db.dialect.name === 'postgres') expect(deep).toContain('"pageId"');
    else expect(deep).not.toContain('"pageId"');
  });

  it('serves the same deep page over HTTP as the reader does', async () => {
    const response = await server.call('GET', `/api/articles?${qs.stringify({ sort: 'views:desc', pagination: { page: 3, pageSize: 5 } })}`);
    expect(response.status).toBe(200);
    const plain = await page({ sort: 'views:desc', pagination: { page: 3, pageSize: 5 } }, Number.POSITIVE_INFINITY);
    expect(response.body.data.map((d: { id: number }) => d.id)).toEqual(plain.data.map((d) => d.id));
    expect(response.body.meta.pagination).toEqual(plain.pagination);
  });
});
