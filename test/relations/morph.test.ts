/**
 * Polymorphic relations (morphToOne / morphToMany and their morphOne / morphMany sides):
 * written with Strapi's `{ __type, id }` items (or documentIds), populated with `__type` on
 * each item, read back from the other side, kept by publishing, dropped with their targets,
 * and filtered by what the caller may read. Runs on SQLite and, with FOLIO_TEST_DATABASE_URL,
 * on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { strapi } from '@strapi/client';
import qs from 'qs';
import { onPostgres, startServer, type TestServer } from '../helpers/server';

const FIXTURE = resolve(import.meta.dir, '../fixtures/morph');
let server: TestServer;

const q = (query: object) => qs.stringify(query, { encodeValuesOnly: true });
const auth = () => ({ authorization: `Bearer ${server.tokens.fullAccess}` });

async function create(plural: string, data: object, query = '') {
  const res = await server.call('POST', `/api/${plural}${query}`, { body: { data }, headers: auth() });
  if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; documentId: string };
}

let article: { id: number; documentId: string };
let draftOnly: { id: number; documentId: string };
let video: { id: number; documentId: string };
let video2: { id: number; documentId: string };
let secret: { id: number; documentId: string };

beforeAll(async () => {
  server = await startServer({ contentTypes: FIXTURE });
  await server.instance.roles.revoke('public', ['api::secret.secret.find', 'api::secret.secret.findOne']);
  article = await create('articles', { title: 'Hello' }, '?status=published');
  draftOnly = await create('articles', { title: 'Draft only' }, '?status=draft');
  video = await create('videos', { title: 'Intro', length: 90 });
  video2 = await create('videos', { title: 'Outro', length: 30 });
  secret = await create('secrets', { code: 'xyzzy' });
});

afterAll(() => server.stop());

describe('a type with polymorphic relations', () => {
  test('starts without a warning about them', () => {
    expect(server.instance.registry.warnings.filter((w) => w.includes('polymorphic'))).toEqual([]);
  });

  test('a morphToOne link written as { __type, documentId } is populated with the target fields and __type last', async () => {
    const comment = await create(
      'comments',
      { body: 'nice', subject: { __type: 'api::article.article', documentId: article.documentId } },
      '?status=published',
    );
    const res = await server.call('GET', `/api/comments/${comment.documentId}?populate=subject`);
    expect(res.status).toBe(200);
    const subject = res.body.data.subject;
    expect(subject).toMatchObject({ documentId: article.documentId, title: 'Hello', locale: 'en', __type: 'api::article.article' });
    expect(Object.keys(subject).at(-1)).toBe('__type');
  });

  test('a morphToMany list takes row ids and documentIds of several types and keeps their order', async () => {
    const comment = await create(
      'comments',
      {
        body: 'mixed',
        mentions: [
          { __type: 'api::video.video', id: video2.id },
          { __type: 'api::article.article', documentId: article.documentId },
          { __type: 'api::video.video', documentId: video.documentId },
        ],
      },
      '?status=published',
    );
    const res = await server.call('GET', `/api/comments/${comment.documentId}?${q({ populate: { mentions: true } })}`);
    expect(res.status).toBe(200);
    expect(res.body.data.mentions.map((m: any) => [m.__type, m.documentId])).toEqual([
      ['api::video.video', video2.documentId],
      ['api::article.article', article.documentId],
      ['api::video.video', video.documentId],
    ]);
    expect(res.body.data.mentions[0]).toMatchObject({ title: 'Outro', length: 30 });
  });

  test('populate fragments per type pick the types and their fields; count counts the links', async () => {
    const comment = await create(
      'comments',
      {
        mentions: [
          { __type: 'api::article.article', documentId: article.documentId },
          { __type: 'api::video.video', documentId: video.documentId },
        ],
      },
      '?status=published',
    );
    const onlyVideos = await server.call(
      'GET',
      `/api/comments/${comment.documentId}?${q({ populate: { mentions: { on: { 'api::video.video': { fields: ['title'] } } } } })}`,
    );
    expect(onlyVideos.status).toBe(200);
    expect(onlyVideos.body.data.mentions).toEqual([{ id: video.id, documentId: video.documentId, title: 'Intro', __type: 'api::video.video' }]);
    const count = await server.call('GET', `/api/comments/${comment.documentId}?${q({ populate: { mentions: { count: true } } })}`);
    expect(count.body.data.mentions).toEqual({ count: 2 });
  });

  test('other populate options on a morphTo side are a 400, as Strapi answers', async () => {
    const res = await server.call('GET', `/api/comments?${q({ populate: { mentions: { fields: ['title'] } } })}`);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
  });

  test('a create that publishes costs its polymorphic links at most 4 statements (5 on PostgreSQL): the targets of every type read in one, one insert per link table for both rows, and history reading them back', async () => {
    const counted = async (data: object) => {
      const before = server.instance.db.statementCount;
      await create('comments', data);
      return server.instance.db.statementCount - before;
    };
    const items = {
      mentions: [
        { __type: 'api::article.article', documentId: article.documentId },
        { __type: 'api::video.video', documentId: video.documentId },
      ],
      subject: { __type: 'api::video.video', documentId: video2.documentId },
    };
    // Warm both shapes first (caches, prepared statements).
    await counted({ body: 'warm' });
    await counted({ body: 'warm', ...items });
    const without = await counted({ body: 'plain' });
    const linked = await counted({ body: 'linked', ...items });
    // Read, inserted and copied to the published row attribute by attribute and type by type, they cost 11.
    // History reads the two link tables in one UNION on SQLite, one statement each (sent together) on PostgreSQL.
    expect(linked - without).toBeLessThanOrEqual(onPostgres ? 5 : 4);
  });

  test('connect and disconnect add and remove single links', async () => {
    const comment = await create('comments', { mentions: [{ __type: 'api::video.video', documentId: video.documentId }] });
    const put = await server.call('PUT', `/api/comments/${comment.documentId}?status=draft`, {
      body: {
        data: {
          mentions: { connect: [{ __type: 'api::video.video', id: video2.id }], disconnect: [{ __type: 'api::video.video', documentId: video.documentId }] },
        },
      },
      headers: auth(),
    });
    expect(put.status).toBe(200);
    const res = await server.call('GET', `/api/comments/${comment.documentId}?status=draft&populate=mentions`);
    expect(res.body.data.mentions.map((m: any) => m.documentId)).toEqual([video2.documentId]);
  });

  test('connecting a target the list already holds moves it to the end, as Strapi deletes and re-inserts it, and as relations do', async () => {
    const items = [video, video2].map((v) => ({ __type: 'api::video.video', documentId: v.documentId }));
    const comment = await create('comments', { mentions: items });
    const put = await server.call('PUT', `/api/comments/${comment.documentId}?status=draft`, {
      body: { data: { mentions: { connect: [items[0]] } } },
      headers: auth(),
    });
    expect(put.status).toBe(200);
    const res = await server.call('GET', `/api/comments/${comment.documentId}?status=draft&populate=mentions`);
    expect(res.body.data.mentions.map((m: any) => m.documentId)).toEqual([video2.documentId, video.documentId]);
  });

  test("the morphMany side lists the documents whose morphTo links name it, without populate's own columns", async () => {
    const target = await create('articles', { title: 'Discussed' }, '?status=published');
    const a = await create('comments', { body: 'first', subject: { __type: 'api::article.article', documentId: target.documentId } }, '?status=published');
    const b = await create('comments', { body: 'second', subject: { __type: 'api::article.article', documentId: target.documentId } }, '?status=published');
    const res = await server.call('GET', `/api/articles/${target.documentId}?populate=comments`);
    expect(res.status).toBe(200);
    expect(res.body.data.comments.map((c: any) => c.documentId)).toEqual([a.documentId, b.documentId]);
    // A comment has no attribute needing conversion: its row must still lose populate's own columns.
    for (const comment of res.body.data.comments) expect(Object.keys(comment).filter((k) => k.startsWith('__'))).toEqual([]);
    const videoSide = await server.call('GET', `/api/videos/${video2.documentId}?populate=mentionedIn`);
    expect(videoSide.status).toBe(200);
    expect(videoSide.body.data.mentionedIn.length).toBeGreaterThan(0);
  });

  test('publishing keeps the links, and a published link reaches only a published target', async () => {
    const comment = await create(
      'comments',
      {
        mentions: [
          { __type: 'api::article.article', documentId: draftOnly.documentId },
          { __type: 'api::video.video', documentId: video.documentId },
        ],
      },
      '?status=draft',
    );
    const publish = await server.call('POST', `/api/comments/${comment.documentId}/actions/publish`, { headers: auth() });
    expect(publish.status).toBe(200);
    const published = await server.call('GET', `/api/comments/${comment.documentId}?populate=mentions`);
    // The article has no published version: the published comment's link reaches nothing yet.
    expect(published.body.data.mentions.map((m: any) => m.documentId)).toEqual([video.documentId]);
    const draft = await server.call('GET', `/api/comments/${comment.documentId}?status=draft&populate=mentions`);
    expect(draft.body.data.mentions.map((m: any) => m.documentId)).toEqual([draftOnly.documentId, video.documentId]);
  });

  test('items of a type the caller may not read are left out; a full-access token sees them', async () => {
    const comment = await create(
      'comments',
      {
        mentions: [
          { __type: 'api::secret.secret', documentId: secret.documentId },
          { __type: 'api::video.video', documentId: video.documentId },
        ],
      },
      '?status=published',
    );
    const anonymous = await server.call('GET', `/api/comments/${comment.documentId}?populate=*`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.mentions.map((m: any) => m.__type)).toEqual(['api::video.video']);
    const token = await server.call('GET', `/api/comments/${comment.documentId}?populate=*`, { headers: auth() });
    expect(token.body.data.mentions.map((m: any) => m.__type)).toEqual(['api::secret.secret', 'api::video.video']);
    const fragment = await server.call('GET', `/api/comments/${comment.documentId}?${q({ populate: { mentions: { on: { 'api::secret.secret': true } } } })}`);
    expect(fragment.status).toBe(200);
    expect(fragment.body.data.mentions).toEqual([]);
  });

  test('deleting a target drops the links naming it', async () => {
    const gone = await create('videos', { title: 'Gone' });
    const comment = await create('comments', { mentions: [{ __type: 'api::video.video', documentId: gone.documentId }] }, '?status=published');
    expect((await server.call('DELETE', `/api/videos/${gone.documentId}`, { headers: auth() })).status).toBe(204);
    const table = server.instance.registry.contentType('api::comment.comment')!.attributes.mentions as { linkTable: string };
    const rows = await server.instance.db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table.linkTable} WHERE "targetDocumentId" = '${gone.documentId}'`);
    expect(Number(rows[0]!.n)).toBe(0);
    const res = await server.call('GET', `/api/comments/${comment.documentId}?populate=mentions`);
    expect(res.body.data.mentions).toEqual([]);
  });

  test('@strapi/client writes { __type, id } items and reads them back populated', async () => {
    const client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
    const comments = client.collection('comments');
    const created = await comments.create({ body: 'from the client', mentions: [{ __type: 'api::video.video', id: video.id }] }, {
      status: 'published',
    } as never);
    const read = await comments.findOne(created.data.documentId, { populate: { mentions: { on: { 'api::video.video': { fields: ['title'] } } } } } as never);
    expect(read.data.mentions).toEqual([{ id: video.id, documentId: video.documentId, title: 'Intro', __type: 'api::video.video' }]);
    const listed = await comments.find({ filters: { body: { $eq: 'from the client' } }, populate: { mentions: { count: true } } } as never);
    expect(listed.data.map((c: any) => c.mentions)).toEqual([{ count: 1 }]);
  });

  test('the v4 response format wraps polymorphic items like relations', async () => {
    const comment = await create('comments', { subject: { __type: 'api::video.video', documentId: video.documentId } }, '?status=published');
    const res = await server.call('GET', `/api/comments/${comment.documentId}?populate=subject`, { headers: { 'strapi-response-format': 'v4' } });
    expect(res.body.data.attributes.subject.data).toMatchObject({ id: video.id, attributes: { title: 'Intro', __type: 'api::video.video' } });
  });
});

describe('bad polymorphic input is a 400 that changes nothing', () => {
  const cases: [string, unknown][] = [
    ['an unknown __type', { subject: { __type: 'api::nothing.nothing', id: 1 } }],
    ['a component uid as __type', { subject: { __type: 'shared.seo', id: 1 } }],
    ['an item without __type', { subject: { id: 1 } }],
    ['an item without an id', { subject: { __type: 'api::video.video' } }],
    ['a row id that names no row', { subject: { __type: 'api::video.video', id: 999999 } }],
    ['a documentId that names no document', { mentions: [{ __type: 'api::video.video', documentId: 'nope' }] }],
    ['a list for a morphToOne', { subject: [{ __type: 'api::video.video', id: 1 }] }],
    ['a string item', { mentions: ['abc'] }],
    ['an unknown key', { mentions: [{ __type: 'api::video.video', id: 1, position: { end: true } }] }],
  ];
  for (const [what, data] of cases) {
    test(`${what}`, async () => {
      const before = await server.call('GET', '/api/comments?status=draft&pagination[pageSize]=1', { headers: auth() });
      const res = await server.call('POST', '/api/comments', { body: { data }, headers: auth() });
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      const after = await server.call('GET', '/api/comments?status=draft&pagination[pageSize]=1', { headers: auth() });
      expect(after.body.meta.pagination.total).toBe(before.body.meta.pagination.total);
    });
  }

  test('a value for the morphMany side names the side that holds the links', async () => {
    const res = await server.call('PUT', `/api/articles/${article.documentId}`, { body: { data: { comments: [] } }, headers: auth() });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('api::comment.comment.subject');
  });

  test('filters and sort through a morphTo side are refused as Strapi refuses them', async () => {
    expect((await server.call('GET', `/api/comments?${q({ filters: { subject: { id: { $eq: 1 } } } })}`)).status).toBe(400);
    expect((await server.call('GET', '/api/comments?sort=subject')).status).toBe(400);
  });
});
