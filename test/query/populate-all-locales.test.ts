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
