/**
 * A request's statements go out together where one does not need another's answer (issue
 * #21): a list asks for its total beside its page; on PostgreSQL a populate level's reads
 * (one per attribute: relations, components, media) are all sent before any has answered,
 * and a write sends its listeners check beside its version insert, so the client pipelines
 * them instead of paying a round trip each, one after the other. SQLite already reads a
 * level in one UNION ALL statement, and has no round trips to save.
 *
 * Observed on the real database around real HTTP requests (../helpers/in-flight.ts: which
 * statements were in flight when each was sent; nothing is timed). The answers are checked
 * too: each read's rows must still land on its own attribute.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inFlightDuring as watch } from '../helpers/in-flight';
import { onPostgres, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let category: string;
let author: string;
const tags: string[] = [];
let article: string;

const created = async (path: string, data: Record<string, unknown>) => {
  const response = await server.call('POST', path, { body: { data } });
  expect(response.status).toBe(201);
  return response.body.data.documentId as string;
};

/** A GET, and what was in flight while it ran (../helpers/in-flight.ts). */
const inFlightDuring = async (path: string) => {
  const { result: response, sent } = await watch(server.instance.db, () => server.call('GET', path));
  return { response, sent };
};

/** Populate's reads name each row's parent (`__parent`). */
const isPopulateRead = (text: string) => text.includes('__parent');

beforeAll(async () => {
  server = await startServer();
  category = await created('/api/categories', { name: 'News', slug: 'news' });
  author = await created('/api/authors', { name: 'Ada' });
  for (const name of ['one', 'two', 'three']) tags.push(await created('/api/tags', { name }));
  article = await created('/api/articles', {
    title: 'Read together',
    category,
    author,
    tags,
    seo: { metaTitle: 'Seo title' },
  });
});
afterAll(() => server.stop());

describe.if(onPostgres)('statements of one read in flight together (PostgreSQL)', () => {
  test('a list sends the query for its total before its page has answered, and the total is right', async () => {
    // A write first: a total is kept until the next commit, and this list must count.
    await created('/api/categories', { name: 'Fresh', slug: 'fresh' });
    const { response, sent } = await inFlightDuring('/api/categories');
    expect(response.status).toBe(200);
    const total = sent.find((s) => s.text.includes('folio_counts'));
    expect(total).toBeDefined();
    expect(total!.beside.some((text) => text.includes('FROM "categories"') && text.includes('LIMIT'))).toBe(true);
    expect(response.body.meta.pagination.total).toBe(2);
    expect(response.body.data).toHaveLength(2);
  });

  test('populate=* sends every read of a level before the first has answered, and each lands on its attribute', async () => {
    const { response, sent } = await inFlightDuring(`/api/articles/${article}?populate=*`);
    expect(response.status).toBe(200);
    // category, author, tags, related articles, seo, the dynamic zone's component tables, cover, gallery…
    const reads = sent.filter((s) => isPopulateRead(s.text));
    expect(reads.length).toBeGreaterThanOrEqual(5);
    // The last of the level was sent while all the others were still unanswered.
    expect(reads.at(-1)!.beside.filter(isPopulateRead)).toHaveLength(reads.length - 1);
    const data = response.body.data;
    expect(data.category.documentId).toBe(category);
    expect(data.author.documentId).toBe(author);
    expect(data.tags.map((t: { documentId: string }) => t.documentId)).toEqual(tags);
    expect(data.seo.metaTitle).toBe('Seo title');
    expect(data.related).toEqual([]);
  });
});

describe('the same answers on either engine', () => {
  test('a create naming a missing target is refused with the same error, and nothing of it is written', async () => {
    const before = (await server.call('GET', '/api/articles?filters[title][$eq]=Never written')).body.meta.pagination.total;
    const response = await server.call('POST', '/api/articles', {
      body: { data: { title: 'Never written', category, tags: [tags[0], 'missing0000000000000000000'] } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(
      'Document with id "missing0000000000000000000" not found: the relation tags points at api::tag.tag, which has no such document',
    );
    expect((await server.call('GET', '/api/articles?filters[title][$eq]=Never written')).body.meta.pagination.total).toBe(before);
  });

  test('a populated list answers each article with its own relations and the right total', async () => {
    const other = await created('/api/articles', { title: 'Other', category, tags: [tags[2]] });
    const { response } = await inFlightDuring('/api/articles?populate[category]=true&populate[tags]=true&sort=title');
    expect(response.status).toBe(200);
    expect(response.body.meta.pagination.total).toBe(2);
    const [first, second] = response.body.data;
    expect(first.documentId).toBe(other);
    expect(first.tags.map((t: { documentId: string }) => t.documentId)).toEqual([tags[2]]);
    expect(second.documentId).toBe(article);
    expect(second.tags.map((t: { documentId: string }) => t.documentId)).toEqual(tags);
    expect([first.category.documentId, second.category.documentId]).toEqual([category, category]);
  });
});

describe.if(onPostgres)('statements of one write in flight together (PostgreSQL)', () => {
  test('a create sends its version insert while the listeners check is still unanswered, and is answered as before', async () => {
    const body = { data: { title: 'Written together', category, tags } };
    const { result: response, sent } = await watch(server.instance.db, () => server.call('POST', '/api/articles', { body }));
    expect(response.status).toBe(201);
    const insert = sent.find((s) => s.text.startsWith('INSERT INTO "articles"'));
    expect(insert).toBeDefined();
    expect(insert!.beside.some((text) => text.includes('folio_webhooks'))).toBe(true);
    expect(response.body.data.title).toBe('Written together');
  });

  test('a create sends its version insert while its relation targets are still being read, and links them as before', async () => {
    const body = { data: { title: 'Targets read early', category, author, tags } };
    const { result: response, sent } = await watch(server.instance.db, () => server.call('POST', '/api/articles', { body }));
    expect(response.status).toBe(201);
    const insert = sent.find((s) => s.text.startsWith('INSERT INTO "articles"'))!;
    // The target read: each target version with the last key of its inverse list.
    expect(insert.beside.some((text) => text.includes('"categories" v') && text.includes('inversePosition'))).toBe(true);
    const read = (await server.call('GET', `/api/articles/${response.body.data.documentId}?populate=*`)).body.data;
    expect(read.category.documentId).toBe(category);
    expect(read.author.documentId).toBe(author);
    expect(read.tags.map((t: { documentId: string }) => t.documentId)).toEqual(tags);
    const tag = await server.call('GET', `/api/tags/${tags[1]}?populate[articles][fields][0]=title`);
    expect(tag.body.data.articles.at(-1).title).toBe('Targets read early');
  });

  test('an update sends its first read while the listeners check is still unanswered', async () => {
    const { result: response, sent } = await watch(server.instance.db, () =>
      server.call('PUT', `/api/articles/${article}`, { body: { data: { title: 'Read together, again' } } }),
    );
    expect(response.status).toBe(200);
    const check = sent.findIndex((s) => s.text.includes('folio_webhooks'));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(sent[check + 1]!.beside.some((text) => text.includes('folio_webhooks'))).toBe(true);
    expect(response.body.data.title).toBe('Read together, again');
    await server.call('PUT', `/api/articles/${article}`, { body: { data: { title: 'Read together' } } });
  });
});
