/**
 * Request limits (src/query/limits.ts, docs/rest-api.md "Request limits"): past each cap a query is a
 * 400 ValidationError naming its parameter; at the cap it is answered. Repeated sort keys
 * collapse to their first occurrence. Runs on the example data set, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import type { ValidationError } from '../../src/errors';
import { parseReadQuery } from '../../src/query/parse';
import { REQUEST_LIMITS } from '../../src/query/limits';
import { startServer, type TestServer } from '../helpers/server';
import { seedExampleData } from './example-data';
import { mentorChain, widePopulate } from '../helpers/populate-shapes';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await seedExampleData(server);
});
afterAll(() => server.stop());

const get = (params: object | string, path = '/api/articles') =>
  server.call('GET', `${path}?${typeof params === 'string' ? params : qs.stringify(params, { encodeValuesOnly: true })}`);
const refused = (param: string, message: string, limit: number, extra: object = {}) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: `Invalid ${param} parameter: ${message}`, details: { param, limit, ...extra } },
});
const titles = (response: { body: any }) => response.body.data.map((d: any) => d.title);

/** The request's parsed query, as the route handler would see it. */
const parse = (raw: Record<string, unknown>) => {
  const registry = server.instance.registry;
  return parseReadQuery(registry, registry.contentType('api::article.article')!, raw, 'en');
};
const parseError = (raw: Record<string, unknown>) => {
  try {
    parse(raw);
  } catch (error) {
    return { name: (error as ValidationError).name, message: (error as ValidationError).message, details: (error as ValidationError).details };
  }
  throw new Error('expected the query to be refused');
};

// 21 distinct sort keys of articles: 14 of its own fields and 7 through author, category and seo.
const OWN = [
  'title',
  'slug',
  'summary',
  'kind',
  'views',
  'rating',
  'featured',
  'publishDate',
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
];
const THROUGH = ['author.name', 'author.email', 'author.bio', 'author.birthday', 'category.name', 'category.slug', 'seo.metaTitle'];
const mentors = (n: number) => ['author', ...Array(n).fill('mentor')];

describe('sort', () => {
  it('keeps only the first occurrence of a repeated sort key, and answers as if it were given once', async () => {
    const repeated = [...Array(100).fill('author.mentor.name:desc'), 'author.mentor.name:asc', 'title', 'title:desc'].join(',');
    expect(parse({ sort: repeated }).sort).toEqual([
      { path: ['author', 'mentor', 'name'], order: 'desc' },
      { path: ['title'], order: 'asc' },
    ]);
    const once = await get({ sort: 'author.mentor.name:desc,title', fields: ['title'] });
    const many = await get({ sort: repeated, fields: ['title'] });
    expect(many.status).toBe(200);
    expect(titles(many)).toEqual(titles(once));
  });
  it('refuses a 21st distinct sort key with a 400 naming sort, counting a repeated key once', async () => {
    const sort = [...OWN, ...THROUGH.slice(0, 6), 'title', 'views', 'title:desc', 'id', 'author.name'];
    expect(new Set(sort.map((s) => s.split(':')[0])).size).toBe(20);
    expect((await get({ sort: sort.join(',') })).status).toBe(200);
    const response = await get({ sort: [...OWN, ...THROUGH].join(',') });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('sort', 'at most 20 distinct sort keys are allowed', 20));
  });
  it('accepts a sort path of 5 segments and refuses one of 6', async () => {
    expect((await get({ sort: [...mentors(3), 'name'].join('.') })).status).toBe(200);
    const response = await get({ sort: [...mentors(4), 'name'].join('.') });
    expect(response.body).toEqual(refused('sort', 'a sort path may have at most 5 segments', 5));
  });
  it('refuses sort keys passing through more than 20 relations and components in all', async () => {
    const deep = ['name', 'email', 'bio', 'birthday', 'id'].map((f) => [...mentors(3), f].join('.'));
    expect((await get({ sort: deep.join(',') })).status).toBe(200);
    const response = await get({ sort: [...deep, 'seo.metaTitle'].join(',') });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('sort', 'sort keys may pass through at most 20 relations and components in all', 20));
  });
  it('applies the sort limits inside populate too', async () => {
    const response = await get({ populate: { author: { sort: [...mentors(5), 'name'].slice(1).join('.') } } });
    expect(response.body).toEqual(refused('sort', 'a sort path may have at most 5 segments', 5));
  });
});

describe('filters', () => {
  /** `$or` of n titles: 1 + 2n keys. */
  const orOfTitles = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ title: `Article ${String(i).padStart(3, '0')}` })) });
  /** author → mentor × n → name: n + 2 levels of objects below the root. */
  const mentorChain = (n: number): object => {
    let node: object = { name: 'Author 0' };
    for (let i = 0; i < n; i++) node = { mentor: node };
    return { author: node };
  };

  it('answers a filter tree of 199 keys and refuses one of 201', async () => {
    const ok = await get({ filters: orOfTitles(99) });
    expect(ok.status).toBe(200);
    expect(ok.body.meta.pagination.total).toBe(99);
    const response = await get({ filters: orOfTitles(100) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(refused('filters', 'at most 200 keys are allowed', 200));
  });
  it('answers filters nested 10 levels deep and refuses 11', async () => {
    const ok = await get({ filters: mentorChain(8) });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual([]);
    const response = await get({ filters: mentorChain(9) });
    expect(response.body).toEqual(refused('filters', 'filters may nest at most 10 levels deep', 10));
  });
  it('counts the root filters and every populate filter against one budget', async () => {
    const response = await get({ filters: orOfTitles(70), populate: { author: { filters: orOfTitles(40) } } });
    expect(response.body).toEqual(refused('filters', 'at most 200 keys are allowed', 200));
    expect((await get({ filters: orOfTitles(40), populate: { author: { filters: { name: 'Author 1' } } } })).status).toBe(200);
  });
  it('refuses a list of more than 1000 values and more than 2000 values in all (past what a URL can carry)', () => {
    const list = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(from + i));
    expect(() => parse({ filters: { id: { $in: list(1000) } } })).not.toThrow();
    expect(parseError({ filters: { id: { $in: list(1001) } } })).toEqual({
      name: 'ValidationError',
      message: 'Invalid filters parameter: a list may hold at most 1000 values',
      details: { param: 'filters', limit: 1000 },
    });
    expect(parseError({ filters: { id: { $in: list(1000) }, views: { $notIn: list(1000) }, title: 'x' } })).toEqual({
      name: 'ValidationError',
      message: 'Invalid filters parameter: at most 2000 values are allowed',
      details: { param: 'filters', limit: 2000 },
    });
  });
});

describe('populate', () => {
  it('answers populate nested 8 levels deep and refuses 9, naming the path', async () => {
    const ok = await get({ populate: mentorChain(6) });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].author.mentor).toBeDefined();
    const response = await get({ populate: mentorChain(7) });
    expect(response.body).toEqual(
      refused('populate', 'populate may nest at most 8 levels deep', 8, { path: `author.${Array(7).fill('mentor').join('.')}.avatar` }),
    );
  });
  it('answers 98 populated relations, components and media, and refuses 101', async () => {
    const ok = await get({ populate: widePopulate(8, 6) });
    expect(ok.status).toBe(200);
    const response = await get({ populate: widePopulate(8, 7) });
    expect(response.body).toEqual(refused('populate', 'at most 100 relations, components and media may be populated in one request', 100));
  });
  it('refuses a populate whose shared targets would repeat past 10,000 entries, and answers a smaller page of it', async () => {
    const populate = { author: { populate: { articles: { populate: { author: { populate: { articles: true } } } } } } };
    const response = await get({ populate });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      refused('populate', 'the response would hold more than 10000 entries; populate fewer levels or ask for a smaller page', 10000),
    );
    const smaller = await get({ populate, pagination: { pageSize: 20 } });
    expect(smaller.status).toBe(200);
    expect(smaller.body.data[0].author.articles[0].author.articles).toHaveLength(20);
  });
});

describe('query string', () => {
  it('answers 1000 parameters and refuses 1001 rather than drop the rest unseen', async () => {
    expect(REQUEST_LIMITS.queryParameters).toBe(1000);
    const ok = await get(Array(1000).fill('sort=title').join('&'));
    expect(ok.status).toBe(200);
    for (const query of [Array(1001).fill('sort=title').join('&'), Array(1001).fill('sort[]=title').join('&')]) {
      const response = await get(query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: 'Invalid query string: at most 1000 parameters are allowed, received 1001',
          details: { param: 'query', limit: 1000 },
        },
      });
    }
  });
  it('keeps a filter written after many empty pairs', async () => {
    const response = await get(`${'&'.repeat(1500)}filters[title]=Article 007`);
    expect(response.status).toBe(200);
    expect(titles(response)).toEqual(['Article 007']);
  });
});
