/**
 * GraphQL queries in Strapi 5's shapes: lists, `_connection` with pageInfo, one document,
 * single types, relations (to-one, to-many, `_connection`, nested filters/sort/pagination),
 * components, dynamic zones with fragments, media, localizations, `status` and `locale`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);
  const now = new Date().toISOString();
  const file = await server.instance.db.insert(
    'INSERT INTO files ("documentId", "name", "hash", "ext", "mime", "size", "url", "provider", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ['gqlfile00000000000000001', 'pic.png', 'pic_hash', '.png', 'image/png', 1.5, '/uploads/pic.png', 'local', now, now, now],
  );
  ids.ada = (await post('/api/authors', { name: 'Ada' })).documentId;
  ids.tech = (await post('/api/categories', { name: 'Tech', slug: 'tech' })).documentId;
  ids.alpha = (await post('/api/tags', { name: 'alpha' })).documentId;
  ids.beta = (await post('/api/tags', { name: 'beta' })).documentId;
  ids.gamma = (await post('/api/tags', { name: 'gamma' })).documentId;
  ids.one = (
    await post('/api/articles', {
      title: 'One',
      kind: 'guide',
      views: 7,
      cover: file,
      gallery: [file],
      category: ids.tech,
      author: ids.ada,
      tags: [ids.alpha, ids.beta, ids.gamma],
      seo: { metaTitle: 'Seo one' },
      links: [
        { label: 'a', url: '/a' },
        { label: 'b', url: '/b' },
      ],
      blocks: [
        { __component: 'shared.quote', title: 'Q', body: 'quoted' },
        { __component: 'shared.rich-text', body: '# hi' },
        { __component: 'shared.media', file },
      ],
    })
  ).documentId;
  ids.two = (await post('/api/articles', { title: 'Two', kind: 'news', views: 3 })).documentId;
  await post(`/api/articles`, { title: 'Draft only' }, '?status=draft');
  const fr = await server.call('PUT', `/api/articles/${ids.one}?locale=fr`, { body: { data: { title: 'Un' } } });
  expect(fr.status).toBe(200);
  expect((await server.call('PUT', '/api/global', { body: { data: { siteName: 'Folio' } } })).status).toBe(200);
});
afterAll(() => server.stop());

describe('GraphQL queries', () => {
  it('lists documents with filters, sort and pagination', async () => {
    const { status, body } = await gql(server, '{ articles(sort: "title:desc", filters: { views: { gt: 1 } }) { documentId title kind views } }');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        articles: [
          { documentId: ids.two, title: 'Two', kind: 'news', views: 3 },
          { documentId: ids.one, title: 'One', kind: 'guide', views: 7 },
        ],
      },
    });
    const page = await gql(server, '{ articles(sort: ["title:asc"], pagination: { start: 1, limit: 1 }) { title } }');
    expect(page.body.data.articles).toEqual([{ title: 'Two' }]);
    const or = await gql(server, '{ articles(filters: { or: [{ title: { eq: "Two" } }, { tags: { name: { eq: "beta" } } }] }, sort: "title") { title } }');
    expect(or.body.data.articles).toEqual([{ title: 'One' }, { title: 'Two' }]);
  });

  it('answers a _connection with nodes and pageInfo', async () => {
    const { body } = await gql(
      server,
      '{ articles_connection(pagination: { page: 2, pageSize: 1 }, sort: "title") { nodes { title } pageInfo { total page pageSize pageCount } } }',
    );
    expect(body.data.articles_connection).toEqual({ nodes: [{ title: 'Two' }], pageInfo: { total: 2, page: 2, pageSize: 1, pageCount: 2 } });
  });

  it('reads one document, a single type, drafts and another locale', async () => {
    const one = await gql(server, `{ article(documentId: "${ids.one}") { title locale } }`);
    expect(one.body.data.article).toEqual({ title: 'One', locale: 'en' });
    const fr = await gql(server, `{ article(documentId: "${ids.one}", locale: "fr") { title locale localizations { title locale } } }`);
    expect(fr.body.data.article).toEqual({ title: 'Un', locale: 'fr', localizations: [{ title: 'One', locale: 'en' }] });
    const missing = await gql(server, '{ article(documentId: "nope") { title } }');
    expect(missing.body).toEqual({ data: { article: null } });
    const drafts = await gql(server, '{ articles(status: DRAFT, sort: "title") { title publishedAt } }');
    expect(drafts.body.data.articles.map((a: { title: string }) => a.title)).toEqual(['Draft only', 'One', 'Two']);
    expect(drafts.body.data.articles[0].publishedAt).toBeNull();
    const single = await gql(server, '{ global { siteName } homepage { headline } }');
    expect(single.body.data).toEqual({ global: { siteName: 'Folio' }, homepage: null });
  });

  it('reads relations, their _connection and nested arguments from one batched read', async () => {
    const { body } = await gql(
      server,
      `{ article(documentId: "${ids.one}") {
      category { name } author { name articles { title } }
      tags(sort: "name:desc", pagination: { limit: 2 }) { name }
      tags_connection(filters: { name: { ne: "beta" } }) { nodes { name } }
    } }`,
    );
    expect(body.data.article).toEqual({
      category: { name: 'Tech' },
      author: { name: 'Ada', articles: [{ title: 'One' }] },
      tags: [{ name: 'gamma' }, { name: 'beta' }],
      tags_connection: { nodes: [{ name: 'alpha' }, { name: 'gamma' }] },
    });
  });

  it('reads components, dynamic zones through fragments, and media', async () => {
    const { body } = await gql(
      server,
      `{ article(documentId: "${ids.one}") {
      seo { id metaTitle } links(pagination: { limit: 1 }) { label url }
      cover { name url mime } gallery { name } gallery_connection { nodes { url } }
      blocks {
        __typename
        ... on ComponentSharedQuote { title body }
        ... on ComponentSharedMedia { file { url } }
      }
    } }`,
    );
    const article = body.data.article;
    expect(article.seo).toEqual({ id: expect.any(String), metaTitle: 'Seo one' });
    expect(article.links).toEqual([{ label: 'a', url: '/a' }]);
    expect(article.cover).toEqual({ name: 'pic.png', url: '/uploads/pic.png', mime: 'image/png' });
    expect(article.gallery).toEqual([{ name: 'pic.png' }]);
    expect(article.gallery_connection).toEqual({ nodes: [{ url: '/uploads/pic.png' }] });
    expect(article.blocks).toEqual([
      { __typename: 'ComponentSharedQuote', title: 'Q', body: 'quoted' },
      { __typename: 'ComponentSharedRichText' },
      { __typename: 'ComponentSharedMedia', file: { url: '/uploads/pic.png' } },
    ]);
  });

  it('takes variables, fragments and aliases', async () => {
    const { body } = await gql(
      server,
      `query Q($id: ID!, $f: TagFiltersInput) {
      first: article(documentId: $id) { ...A t1: tags(filters: $f) { name } t2: tags(sort: "name:desc") { name } }
    }
    fragment A on Article { title }`,
      { id: ids.one, f: { name: { in: ['alpha', 'gamma'] } } },
    );
    expect(body.data.first).toEqual({ title: 'One', t1: [{ name: 'alpha' }, { name: 'gamma' }], t2: [{ name: 'gamma' }, { name: 'beta' }, { name: 'alpha' }] });
  });
});
