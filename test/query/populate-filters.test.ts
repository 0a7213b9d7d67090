/**
 * `filters` and `sort` where Strapi applies them beyond relations: on a populated repeatable
 * component, on populated media, on `localizations`, and `filters[localizations]` (any
 * version of the document, itself included, in any status), as the Strapi 5.54.0 peer answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let article = '';

const get = async (path: string, params: object) => {
  const response = await server.call('GET', `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`);
  expect(response.status).toBe(200);
  return response.body.data;
};

beforeAll(async () => {
  server = await startServer();
  const now = new Date().toISOString();
  const file = (name: string, mime: string) =>
    server.instance.db.insert(
      'INSERT INTO files ("documentId", "name", "hash", "ext", "mime", "size", "url", "provider", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [`${name.replace(/\W/g, '').padEnd(24, '0')}`, name, name, '.png', mime, 1, `/uploads/${name}`, 'local', now, now, now],
    );
  const pic = await file('pic.png', 'image/png');
  const clip = await file('clip.mp4', 'video/mp4');
  const another = await file('another.png', 'image/png');
  article = (
    await seedCreate(server, '/api/articles', {
      title: 'One',
      gallery: [pic, clip, another],
      links: [
        { label: 'a', url: '/a' },
        { label: 'b', url: '/b', newTab: true },
        { label: 'c', url: '/c', newTab: true },
      ],
    })
  ).documentId;
  expect((await server.call('PUT', `/api/articles/${article}?locale=fr`, { body: { data: { title: 'Un' } } })).status).toBe(200);
  await seedCreate(server, '/api/articles', { title: 'Two' });
  expect((await server.call('PUT', `/api/articles/${article}?status=draft`, { body: { data: { title: 'One (edited)' } } })).status).toBe(200);
});
afterAll(() => server.stop());

describe('filters and sort in populate beyond relations', () => {
  it('filters and sorts a populated repeatable component', async () => {
    const data = await get(`/api/articles/${article}`, { populate: { links: { filters: { newTab: { $eq: true } }, sort: ['label:desc'] } } });
    expect(data.links.map((l: { label: string }) => l.label)).toEqual(['c', 'b']);
  });

  it('filters and sorts populated media, keeping the link order otherwise', async () => {
    const images = await get(`/api/articles/${article}`, { populate: { gallery: { filters: { mime: { $startsWith: 'image/' } } } } });
    expect(images.gallery.map((f: { name: string }) => f.name)).toEqual(['pic.png', 'another.png']);
    const sorted = await get(`/api/articles/${article}`, { populate: { gallery: { sort: ['name'] } } });
    expect(sorted.gallery.map((f: { name: string }) => f.name)).toEqual(['another.png', 'clip.mp4', 'pic.png']);
  });

  it('filters populated localizations', async () => {
    const data = await get(`/api/articles/${article}`, { populate: { localizations: { filters: { title: { $eq: 'nope' } } } } });
    expect(data.localizations).toEqual([]);
    const fr = await get(`/api/articles/${article}`, { populate: { localizations: { filters: { locale: { $eq: 'fr' } } } } });
    expect(fr.localizations.map((l: { title: string }) => l.title)).toEqual(['Un']);
  });
});

describe('filters[localizations]', () => {
  it('matches a document by any of its versions, itself and drafts included', async () => {
    const titles = async (filters: object, locale?: string) =>
      (await get('/api/articles', { filters, sort: 'title', ...(locale ? { locale } : {}) })).map((a: { title: string }) => a.title);
    expect(await titles({ localizations: { title: { $eq: 'Un' } } })).toEqual(['One']);
    expect(await titles({ localizations: { title: { $eq: 'One' } } })).toEqual(['One']);
    expect(await titles({ localizations: { title: { $eq: 'One (edited)' } } })).toEqual(['One']);
    expect(await titles({ localizations: { locale: { $eq: 'en' } } }, 'fr')).toEqual(['Un']);
    expect(await titles({ localizations: { locale: { $eq: 'de' } } })).toEqual([]);
  });
});
