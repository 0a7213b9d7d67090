/**
 * A list over every locale (`locale=*`) populates the inverse side of a relation per
 * version: each locale of a category shows the articles of that locale.
 */
import { afterAll, beforeAll, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

it('populates each locale version of a list over every locale with that locale’s inverse links', async () => {
  const category = (await server.call('POST', '/api/categories', { body: { data: { name: 'Tech', slug: 'tech' } } })).body.data.documentId;
  await server.call('PUT', `/api/categories/${category}?locale=fr`, { body: { data: { name: 'Technique' } } });
  await server.call('POST', '/api/articles', { body: { data: { title: 'English one', category } } });
  await server.call('POST', '/api/articles?locale=fr', { body: { data: { title: 'Le français', category } } });

  for (const fields of ['', '&fields[0]=name']) {
    const list = await server.call('GET', `/api/categories?locale=*&populate[articles][fields][0]=title&sort=id${fields}`);
    expect(list.status).toBe(200);
    const byName = Object.fromEntries(list.body.data.map((c: any) => [c.name, c.articles.map((a: any) => a.title)]));
    expect(byName).toEqual({ Tech: ['English one'], Technique: ['Le français'] });
  }
});

it('lists every other locale of each version in localizations, in a one-locale list and in a list over every locale', async () => {
  const a = (await server.call('POST', '/api/articles', { body: { data: { title: 'en version' } } })).body.data.documentId;
  await server.call('PUT', `/api/articles/${a}?locale=fr`, { body: { data: { title: 'version fr' } } });
  const query = `filters[documentId][$eq]=${a}&populate[localizations][fields][0]=title&fields[0]=title&sort=id`;
  const all = (await server.call('GET', `/api/articles?locale=*&${query}`)).body.data;
  expect(all.map((d: any) => [d.title, d.localizations.map((l: any) => l.title)])).toEqual([
    ['en version', ['version fr']],
    ['version fr', ['en version']],
  ]);
  const en = (await server.call('GET', `/api/articles?${query}`)).body.data;
  expect(en.map((d: any) => [d.title, d.localizations.map((l: any) => l.title)])).toEqual([['en version', ['version fr']]]);
});
