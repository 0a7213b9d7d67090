/**
 * The inverse side of a relation read from a type without i18n: a tag linked from the `en`
 * and the `fr` version of one article lists both versions, each with its own locale.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let tag: string;

beforeAll(async () => {
  server = await startServer();
  tag = (await server.call('POST', '/api/tags', { body: { data: { name: 'shared' } } })).body.data.documentId;
  const en = await server.call('POST', '/api/articles', { body: { data: { title: 'English', slug: 'english', tags: [tag] } } });
  expect(en.status).toBe(201);
  const fr = await server.call('PUT', `/api/articles/${en.body.data.documentId}?locale=fr`, {
    body: { data: { title: 'Français', slug: 'francais', tags: [tag] } },
  });
  expect(fr.status).toBe(200);
});

afterAll(() => server.stop());

test('a tag lists the article versions of every locale that link to it, each with its locale', async () => {
  const query = qs.stringify({ populate: { articles: { fields: ['title', 'locale'] } } });
  const res = await server.call('GET', `/api/tags/${tag}?${query}`);
  expect(res.status).toBe(200);
  const articles = (res.body.data.articles as { title: string; locale: string }[]).map((a) => `${a.locale}:${a.title}`).sort();
  expect(articles).toEqual(['en:English', 'fr:Français']);
});

test('a filter through the inverse side finds the tag by the French version too', async () => {
  const query = qs.stringify({ filters: { articles: { title: { $eq: 'Français' } } } });
  const res = await server.call('GET', `/api/tags?${query}`);
  expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['shared']);
});
