/**
 * The write path's cost in statements (issue #21): a create with relations checks its targets
 * and reads their inverse keys in one statement, inserts both versions in one and each link
 * table's rows in one, and answers from what it wrote. Counted through Database.statementCount
 * around real HTTP requests, so every statement the request runs (guard and locale caches
 * included) is in the count.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ALL_TYPES_CONTENT_TYPES, onPostgres, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let category: string;
let author: string;
const tags: string[] = [];

const created = async (path: string, data: Record<string, unknown>) => {
  const response = await server.call('POST', path, { body: { data } });
  expect(response.status).toBe(201);
  return response.body.data as Record<string, any>;
};

/** The exact bytes of a response, for comparing a write's answer with a read's. */
const text = async (method: string, url: string, body?: unknown) => {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, text: await response.text() };
};

/** A request and the statements it ran (Database.statementCount around it). */
const counted = async (method: string, path: string, body: unknown) => {
  const before = server.instance.db.statementCount;
  const response = await server.call(method, path, { body });
  return { response, used: server.instance.db.statementCount - before };
};

/** The article `documentId` (in `status`, when given) links the seeded category, author and three tags, in order. */
const expectSeededLinks = async (documentId: string, status?: string) => {
  const read = await server.call('GET', `/api/articles/${documentId}?populate=*${status ? `&status=${status}` : ''}`);
  expect(read.body.data.category.documentId).toBe(category);
  expect(read.body.data.author.documentId).toBe(author);
  expect(read.body.data.tags.map((t: { documentId: string }) => t.documentId)).toEqual(tags);
};

// History and the audit log are listeners with statements of their own (their budgets:
// test/history/content-history.test.ts, test/audit/): these are the write path's own.
const WRITE_PATH_ONLY = { historyDays: 0, auditDays: 0 };

beforeAll(async () => {
  server = await startServer({ config: WRITE_PATH_ONLY, quiet: true });
  category = (await created('/api/categories', { name: 'News', slug: 'news' })).documentId;
  author = (await created('/api/authors', { name: 'Ada' })).documentId;
  for (const name of ['one', 'two', 'three']) tags.push((await created('/api/tags', { name })).documentId);
});
afterAll(() => server.stop());

describe('statements per write', () => {
  test('a create with a category, an author and three tags runs at most 12 statements, its answer included', async () => {
    const body = { data: { title: 'Counted', category, author, tags } };
    // The first create warms the caches a fresh server has not filled yet.
    expect((await server.call('POST', '/api/articles', { body })).status).toBe(201);
    const { response, used } = await counted('POST', '/api/articles', body);
    expect(response.status).toBe(201);
    expect(used).toBeLessThanOrEqual(12);
    await expectSeededLinks(response.body.data.documentId);
  });

  test.if(onPostgres)(
    'on PostgreSQL the links of all three link tables go in one statement: that create runs at most 6 statements, its document lock included',
    async () => {
      const body = { data: { title: 'One link statement', category, author, tags } };
      expect((await server.call('POST', '/api/articles', { body })).status).toBe(201);
      const { response, used } = await counted('POST', '/api/articles', body);
      expect(response.status).toBe(201);
      // The settings version (once per event-loop turn), the lock, both versions, the targets, the links, the webhook check.
      expect(used).toBeLessThanOrEqual(6);
      for (const status of ['published', 'draft']) await expectSeededLinks(response.body.data.documentId, status);
      // The inverse lists got the new article after the earlier ones.
      const tag = await server.call('GET', `/api/tags/${tags[0]}?populate[articles][fields][0]=title`);
      expect(tag.body.data.articles.at(-1).title).toBe('One link statement');
    },
  );

  test("a publishing update with a positioned connect runs at most 12 statements (14 with PostgreSQL's lock calls), its answer included", async () => {
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'Moved', tags } } })).body.data;
    const move = (i: number) => ({ data: { title: `Moved ${i}`, tags: { connect: [{ documentId: tags[2], position: { before: tags[i % 2] } }] } } });
    expect((await server.call('PUT', `/api/articles/${doc.documentId}`, { body: move(0) })).status).toBe(200);
    const { response, used } = await counted('PUT', `/api/articles/${doc.documentId}`, move(1));
    expect(response.status).toBe(200);
    // PostgreSQL's document locks are statements too (advisory locks); SQLite needs none.
    // Republishing copies only the link tables the draft has rows in, and the answer is built from what was written.
    expect(used).toBeLessThanOrEqual(onPostgres ? 14 : 12);
    const read = await server.call('GET', `/api/articles/${doc.documentId}?populate=tags`);
    expect(read.body.data.title).toBe('Moved 1');
    expect(read.body.data.tags.map((t: { documentId: string }) => t.documentId)).toEqual([tags[0], tags[2], tags[1]]);
  });
  test('a publishing connect of two articles on the inverse side (tag.articles) runs at most 12 statements (14 on PostgreSQL): the articles and the tag’s links read once, the links inserted in one statement', async () => {
    const tag = await created('/api/tags', { name: 'Inverse count' });
    const [first, second] = [await created('/api/articles', { title: 'Inverse 1' }), await created('/api/articles', { title: 'Inverse 2' })];
    const body = { data: { articles: { connect: [first.documentId, { documentId: second.documentId, position: { before: first.documentId } }] } } };
    // The same write once first, on another tag: caches warm.
    const warm = await created('/api/tags', { name: 'Inverse warm' });
    expect((await server.call('PUT', `/api/tags/${warm.documentId}`, { body })).status).toBe(200);
    const { response, used } = await counted('PUT', `/api/tags/${tag.documentId}`, body);
    expect(response.status).toBe(200);
    // Writing them one by one took 26: each article's versions read twice, and per version its link, its list's last key and an insert.
    expect(used).toBeLessThanOrEqual(onPostgres ? 14 : 12);
    for (const status of ['draft', 'published']) {
      const read = await server.call('GET', `/api/tags/${tag.documentId}?status=${status}&populate[articles][fields][0]=title`);
      expect(read.body.data.articles.map((a: { documentId: string }) => a.documentId)).toEqual([second.documentId, first.documentId]);
    }
  });

  test('republishing an article with a seo component, a two-item dynamic zone, a category, an author and three tags runs at most 20 statements (22 on PostgreSQL)', async () => {
    // The bench's update_connect shape (bench/data.ts): one read finds every component, media link and link table of both versions.
    const data = {
      title: 'Bench shaped',
      summary: 'S',
      category,
      author,
      tags,
      seo: { metaTitle: 'Bench', metaDescription: 'Seo' },
      blocks: [
        { __component: 'shared.quote', title: 'A quote', body: 'Quoted.' },
        { __component: 'shared.rich-text', body: '## Rich' },
      ],
    };
    const doc = await created('/api/articles', data);
    const move = (i: number) => ({ data: { tags: { connect: [{ documentId: tags[2], position: { before: tags[i % 2] } }] } } });
    expect((await server.call('PUT', `/api/articles/${doc.documentId}`, { body: move(0) })).status).toBe(200);
    const { response, used } = await counted('PUT', `/api/articles/${doc.documentId}`, move(1));
    expect(response.status).toBe(200);
    expect(used).toBeLessThanOrEqual(onPostgres ? 22 : 20);
    const read = await server.call('GET', `/api/articles/${doc.documentId}?populate=*`);
    expect(read.body.data.id).toBe(response.body.data.id);
    expect(read.body.data.seo.metaTitle).toBe('Bench');
    expect(read.body.data.blocks.map((b: { __component: string }) => b.__component)).toEqual(['shared.quote', 'shared.rich-text']);
    expect([read.body.data.category.documentId, read.body.data.author.documentId]).toEqual([category, author]);
    expect(read.body.data.tags.map((t: { documentId: string }) => t.documentId)).toEqual([tags[0], tags[2], tags[1]]);
  });
});

describe('the answer to an update', () => {
  test('is byte for byte what reading the same version answers, republished, draft only and in another locale', async () => {
    const doc = await created('/api/articles', { title: 'Before', summary: 'Kept', views: 7, rating: 2.5, meta: { k: [1] }, featured: true, category, tags });
    await server.call('PUT', `/api/articles/${doc.documentId}?locale=fr`, { body: { data: { title: 'Avant' } } });
    const cases: [string, Record<string, unknown>][] = [
      ['', { title: 'After', views: 8, tags: { connect: [{ documentId: tags[2], position: { start: true } }] } }],
      ['?status=draft', { summary: null, publishDate: '2024-02-03', meta: { k: [2, null] } }],
      ['', {}],
      ['?locale=fr', { title: 'Après', views: 9 }],
      ['?status=draft&locale=fr', { featured: false }],
    ];
    for (const [query, data] of cases) {
      const written = await text('PUT', `${server.url}/api/articles/${doc.documentId}${query}`, { data });
      expect(written.status).toBe(200);
      const status = query.includes('draft') ? 'draft' : 'published';
      const locale = query.includes('fr') ? 'fr' : 'en';
      const read = await text('GET', `${server.url}/api/articles/${doc.documentId}?status=${status}&locale=${locale}`);
      expect(written.text).toBe(read.text);
    }
  });
});

describe('the answer to a create', () => {
  test('is byte for byte what reading the same version answers, published, draft and in another locale', async () => {
    const data = { title: 'Same bytes', summary: 'S', views: 3, featured: true, rating: 4.25, meta: { a: [1, null] }, category, tags };
    for (const query of ['', '?status=draft', '?locale=fr', '?status=draft&locale=fr']) {
      // The relations' targets exist in English only (a localized source links its own locale).
      const written = await text('POST', `${server.url}/api/articles${query}`, { data: query.includes('fr') ? { ...data, category: null, tags: [] } : data });
      expect(written.status).toBe(201);
      const { documentId } = JSON.parse(written.text).data;
      const status = query.includes('draft') ? 'draft' : 'published';
      const locale = query.includes('fr') ? 'fr' : 'en';
      const read = await text('GET', `${server.url}/api/articles/${documentId}?status=${status}&locale=${locale}`);
      expect(written.text).toBe(read.text);
    }
  });

  test('with populate or fields is read back, as before', async () => {
    const withPopulate = await server.call('POST', '/api/articles?populate=tags&fields[0]=title', { body: { data: { title: 'Shaped', tags } } });
    expect(withPopulate.status).toBe(201);
    expect(Object.keys(withPopulate.body.data).sort()).toEqual(['documentId', 'id', 'tags', 'title']);
    expect(withPopulate.body.data.tags).toHaveLength(3);
  });
});

describe('links of a new document', () => {
  test("connect with positions orders a new document's list as it would an existing one, in both versions", async () => {
    const [a, b, c] = tags as [string, string, string];
    const connect = [{ documentId: a }, { documentId: b, position: { before: a } }, { documentId: c, position: { after: b } }];
    const doc = await created('/api/articles', { title: 'Placed', tags: { connect } });
    for (const status of ['draft', 'published']) {
      const read = await server.call('GET', `/api/articles/${doc.documentId}?status=${status}&populate=tags`);
      expect(read.body.data.tags.map((t: { documentId: string }) => t.documentId)).toEqual([b, c, a]);
    }
  });

  test("a new document goes at the end of each target's inverse list", async () => {
    const doc = await created('/api/articles', { title: 'Last in line', category, tags: [tags[0]] });
    const list = await server.call('GET', `/api/tags/${tags[0]}?populate[articles][fields][0]=title&populate[articles][sort]=`);
    expect(list.status).toBe(200);
    expect(list.body.data.articles.at(-1).documentId).toBe(doc.documentId);
  });

  test("a missing target or anchor is refused with Strapi's message and leaves nothing behind", async () => {
    const count = async () => (await server.call('GET', '/api/articles?status=draft&pagination[pageSize]=1')).body.meta.pagination.total;
    const before = await count();
    const missing = await server.call('POST', '/api/articles', { body: { data: { title: 'Broken', tags: [tags[0], 'nosuchdocumentid0000000'] } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(
      'Document with id "nosuchdocumentid0000000" not found: the relation tags points at api::tag.tag, which has no such document',
    );
    const anchor = await server.call('POST', '/api/articles', {
      body: { data: { title: 'Broken', tags: { connect: [{ documentId: tags[0], position: { after: tags[1] } }] } } },
    });
    expect(anchor.status).toBe(400);
    expect(anchor.body.error.message).toContain(`The relation with id ${tags[1]} needs to be connected first.`);
    expect(await count()).toBe(before);
  });
});

test('a create of every attribute type answers what a read of it answers, byte for byte', async () => {
  const showcase = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES, config: WRITE_PATH_ONLY, quiet: true });
  try {
    const data = {
      aString: 'Hello',
      aText: 'Two\nlines',
      aRichText: '**b**',
      anEmail: 'ada@example.com',
      aPassword: 'secret-123',
      aUid: 'a-uid',
      anEnumeration: 'beta',
      anInteger: 42,
      aBigInteger: '9007199254740993',
      aFloat: 3.5,
      aDecimal: 4.5,
      aBoolean: false,
      aDate: '2024-05-01',
      aTime: '10:20:30.000',
      aDateTime: '2024-05-01T10:20:30.000Z',
      aTimestamp: '2024-05-01T10:20:30.000Z',
      aJson: { nested: [1, 'two', { three: true }] },
      aBlocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }],
    };
    for (const body of [data, {}]) {
      const written = await text('POST', `${showcase.url}/api/showcases`, { data: body });
      expect(written.status).toBe(201);
      const { documentId } = JSON.parse(written.text).data;
      const read = await text('GET', `${showcase.url}/api/showcases/${documentId}`);
      expect(written.text).toBe(read.text);
      // An update answers what a read answers too: a big integer it does not send is read back (SELECT * would round it).
      for (const change of [
        { aString: 'Changed', aBoolean: true, aJson: [1] },
        { aBigInteger: '9007199254740995', aDecimal: 1.25 },
      ]) {
        const updated = await text('PUT', `${showcase.url}/api/showcases/${documentId}`, { data: change });
        expect(updated.status).toBe(200);
        expect(updated.text).toBe((await text('GET', `${showcase.url}/api/showcases/${documentId}`)).text);
      }
    }
  } finally {
    await showcase.stop();
  }
}, 30_000);
