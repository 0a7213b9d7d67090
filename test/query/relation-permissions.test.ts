/**
 * Populate, filters and sort only go through relations to types the caller may `find`
 * (docs/rest-api.md "Access"). A custom API token holding only the article actions, and a public role
 * holding only those, are refused filters and sort through `author` (400 Invalid key, as
 * Strapi), and a populate of `author` is answered with `author` left out (Strapi validates
 * populate without the caller's permissions and strips such relations from the answer),
 * while the same requests through `category`, which they may find, are answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';
import { seedExampleData } from './example-data';

let server: TestServer;
let articleOnly: string;
let articleAndCategory: string;
let someArticle: string;

const ARTICLE = ['api::article.article.find', 'api::article.article.findOne'];

beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  await seedExampleData(server);
  const { tokens, roles } = server.instance;
  articleOnly = (await tokens.create('articles-only', 'custom', undefined, undefined, ARTICLE)).accessKey;
  articleAndCategory = (await tokens.create('articles-and-categories', 'custom', undefined, undefined, [...ARTICLE, 'api::category.category.find'])).accessKey;
  await roles.grant('public', ARTICLE);
  const list = await server.call('GET', '/api/articles?fields[0]=title&sort=title', { headers: { authorization: `Bearer ${articleOnly}` } });
  someArticle = list.body.data[0].documentId;
});
afterAll(() => server.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const get = (params: object, headers: Record<string, string>, path = '/api/articles') =>
  server.call('GET', `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`, { headers });
const invalidKey = (key: string, path: string, param: string) => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
    details: { key, path, source: 'query', param },
  },
});

// The same refusals hold for a custom token and for a role: both hold only the article actions.
const callers: [string, () => Record<string, string>][] = [
  ['a custom API token', () => bearer(articleOnly)],
  ['the public role', () => ({})],
];

describe.each(callers)('%s holding only find and findOne on articles', (_name, headers) => {
  it('gets author left out of populate, on lists and on one document, in every populate form and in the v4 format', async () => {
    for (const populate of [
      ['author', 'seo'],
      'author,seo',
      { author: true, seo: true },
      { author: { fields: ['name'] }, seo: true },
      { author: '*', seo: true },
      ['author.articles', 'seo'],
    ]) {
      for (const path of ['/api/articles', `/api/articles/${someArticle}`]) {
        for (const format of [{}, { 'strapi-response-format': 'v4' }] as Record<string, string>[]) {
          const response = await get({ populate, sort: 'title' }, { ...headers(), ...format }, path);
          expect({ populate, path, format, status: response.status }).toEqual({ populate, path, format, status: 200 });
          const first = Array.isArray(response.body.data) ? response.body.data[0] : response.body.data;
          const doc = first.attributes ?? first;
          expect(doc).not.toHaveProperty('author');
          expect(doc.seo).toMatchObject({ metaTitle: expect.any(String) });
        }
      }
    }
  });
  it('still gets a 400 for a mistake inside a populate that is left out', async () => {
    const response = await get({ populate: { author: { fields: ['nope'] } } }, headers());
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ key: 'nope', path: null, param: 'populate' });
  });
  it('is refused filtering through author, at the root and inside $or and $not', async () => {
    for (const filters of [
      { author: { name: 'Author 1' } },
      { author: { $null: true } },
      { $or: [{ title: 'x' }, { author: { name: 'Author 1' } }] },
      { $not: { author: { id: 1 } } },
    ]) {
      const response = await get({ filters }, headers());
      expect({ filters, body: response.body }).toEqual({ filters, body: invalidKey('author', 'author', 'filters') });
    }
  });
  it('is refused sorting through author, in string and object form', async () => {
    for (const sort of ['author.name', 'title,author.name:desc', { author: { name: 'asc' } }]) {
      const response = await get({ sort }, headers());
      expect({ sort, body: response.body }).toEqual({ sort, body: invalidKey('author', 'author', 'sort') });
    }
  });
  it('still gets populate=* with author left out, and plain reads', async () => {
    const star = await get({ populate: '*', sort: 'title', pagination: { pageSize: 1 } }, headers());
    expect(star.status).toBe(200);
    expect(star.body.data[0]).not.toHaveProperty('author');
    expect(star.body.data[0]).not.toHaveProperty('category');
    expect(star.body.data[0].seo).toMatchObject({ metaTitle: expect.any(String) });
    expect((await get({ sort: 'title' }, headers())).body.meta.pagination.total).toBe(100);
  });
});

describe('a custom API token that may also find categories', () => {
  const headers = () => bearer(articleAndCategory);

  it('populates, filters and sorts through category', async () => {
    const populated = await get({ populate: { category: { fields: ['name'] } }, fields: ['title'], sort: 'title', pagination: { pageSize: 2 } }, headers());
    expect(populated.status).toBe(200);
    expect(populated.body.data.map((d: any) => [d.title, d.category.name])).toEqual([
      ['Article 000', 'Category 0'],
      ['Article 001', 'Category 1'],
    ]);
    const filtered = await get({ filters: { category: { name: 'Category 2' } }, fields: ['title'] }, headers());
    expect(filtered.status).toBe(200);
    expect(filtered.body.meta.pagination.total).toBe(20);
    const sorted = await get({ sort: 'category.name:desc,title', fields: ['title'], pagination: { pageSize: 1 } }, headers());
    expect(sorted.body.data.map((d: any) => d.title)).toEqual(['Article 004']);
  });
  it('gets author left out at depth, and is refused reaching it through nested filters and populate filters', async () => {
    const nested = await get({ populate: { category: { populate: { articles: { populate: ['author'] } } } }, sort: 'title' }, headers());
    expect(nested.status).toBe(200);
    const linked = nested.body.data[0].category.articles;
    expect(linked.length).toBeGreaterThan(0);
    for (const article of linked) expect(article).not.toHaveProperty('author');
    const v4 = await get(
      { populate: { category: { populate: { articles: { populate: ['author'] } } } }, sort: 'title' },
      { ...headers(), 'strapi-response-format': 'v4' },
    );
    const v4Linked = v4.body.data[0].attributes.category.data.attributes.articles.data;
    expect(v4Linked.length).toBe(linked.length);
    for (const article of v4Linked) expect(article.attributes).not.toHaveProperty('author');
    const filters = await get({ filters: { category: { articles: { author: { name: 'Author 1' } } } } }, headers());
    expect(filters.body).toEqual(invalidKey('author', 'category.articles.author', 'filters'));
    const inPopulate = await get({ populate: { category: { filters: { articles: { author: { name: 'Author 1' } } } } } }, headers());
    expect(inPopulate.body).toEqual(invalidKey('author', 'articles.author', 'populate'));
  });
  it('is answered the author requests once the caller may find authors (a read-only token)', async () => {
    const headers = bearer(server.tokens.readOnly);
    const response = await get(
      { populate: { author: { fields: ['name'] } }, filters: { author: { name: 'Author 1' } }, sort: 'author.name,title', fields: ['title'] },
      headers,
    );
    expect(response.status).toBe(200);
    expect(response.body.meta.pagination.total).toBe(20);
    expect(response.body.data[0]).toMatchObject({ title: 'Article 001', author: { name: 'Author 1' } });
  });
});
