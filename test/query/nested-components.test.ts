/**
 * Components inside components (page → seo → meta / alternates): sort, filters and
 * populate follow the path through both levels, and writes store and copy both levels.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import qs from 'qs';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

const NESTED = resolve(import.meta.dir, '../fixtures/nested');

let server: TestServer;
const ids: Record<string, string> = {};

async function create(path: string, data: Record<string, unknown>) {
  const res = await server.call('POST', path, { body: { data } });
  expect(res.status).toBe(201);
  return res.body.data.documentId as string;
}

const titles = async (query: Record<string, unknown>) => {
  const res = await server.call('GET', `/api/pages?${qs.stringify(query, { encodeValuesOnly: true })}`);
  expect(res.status).toBe(200);
  return (res.body.data as { title: string }[]).map((d) => d.title);
};

beforeAll(async () => {
  server = await startServer({ contentTypes: NESTED });
  ids.ada = await create('/api/writers', { name: 'Ada' });
  ids.bo = await create('/api/writers', { name: 'Bo' });
  const page = (title: string, rank: number, label: string, related: string, alternates: string[]) => ({
    title,
    seo: { metaTitle: `${title} meta`, meta: { rank, label, related }, alternates: alternates.map((l, i) => ({ rank: i, label: l })) },
  });
  ids.gamma = await create('/api/pages', { ...page('gamma', 3, 'third', ids.bo!, ['g1']), writer: ids.ada });
  ids.alpha = await create('/api/pages', { ...page('alpha', 1, 'first', ids.ada!, ['a1', 'shared']), writer: ids.bo });
  ids.beta = await create('/api/pages', page('beta', 2, 'second', ids.bo!, []));
  ids.plain = await create('/api/pages', { title: 'plain' });
});

afterAll(() => server.stop());

describe('sort through a component inside a component', () => {
  test('orders ascending by the nested value, documents without it first', async () => {
    expect(await titles({ sort: 'seo.meta.rank:asc' })).toEqual(['plain', 'alpha', 'beta', 'gamma']);
  });

  test('orders descending by the nested value, documents without it last', async () => {
    expect(await titles({ sort: 'seo.meta.rank:desc' })).toEqual(['gamma', 'beta', 'alpha', 'plain']);
  });

  test('orders by a nested text value with the object form of sort', async () => {
    expect(await titles({ sort: { seo: { meta: { label: 'desc' } } } })).toEqual(['gamma', 'beta', 'alpha', 'plain']);
  });

  test('orders by a relation value first (documents without one first) and a nested value second', async () => {
    expect(await titles({ sort: ['writer.name:asc', 'seo.meta.rank:desc'] })).toEqual(['beta', 'plain', 'gamma', 'alpha']);
  });
});

describe('filters through a component inside a component', () => {
  test('match a single nested component value', async () => {
    expect(await titles({ filters: { seo: { meta: { rank: { $gte: 2 } } } }, sort: 'title' })).toEqual(['beta', 'gamma']);
  });

  test('match any entry of a repeatable nested component, each document once', async () => {
    expect(await titles({ filters: { seo: { alternates: { label: { $in: ['a1', 'shared', 'g1'] } } } }, sort: 'title' })).toEqual(['alpha', 'gamma']);
  });

  test('follow a relation held by the nested component', async () => {
    expect(await titles({ filters: { seo: { meta: { related: { name: { $eq: 'Bo' } } } } }, sort: 'title' })).toEqual(['beta', 'gamma']);
  });

  test('combine nested conditions with $or and $not', async () => {
    const filters = { $or: [{ seo: { meta: { rank: 1 } } }, { $not: { seo: { meta: { rank: { $notNull: true } } } } }] };
    expect(await titles({ filters, sort: 'title' })).toEqual(['alpha', 'plain']);
  });
});

describe('populate through a component inside a component', () => {
  test('populates both levels and the relation inside the nested component', async () => {
    const query = { filters: { title: 'alpha' }, populate: { seo: { populate: { meta: { populate: ['related'] }, alternates: true } } } };
    const res = await server.call('GET', `/api/pages?${qs.stringify(query, { encodeValuesOnly: true })}`);
    expect(res.status).toBe(200);
    const seo = res.body.data[0].seo;
    expect(seo.metaTitle).toBe('alpha meta');
    expect(seo.meta).toMatchObject({ rank: 1, label: 'first', related: { name: 'Ada' } });
    expect(seo.alternates.map((a: { label: string }) => a.label)).toEqual(['a1', 'shared']);
  });

  test('populate[seo][populate]=* fills the nested components one level down, without their relations', async () => {
    const res = await server.call('GET', `/api/pages/${ids.gamma}?populate[seo][populate]=*`);
    expect(res.status).toBe(200);
    expect(res.body.data.seo.meta).toMatchObject({ rank: 3, label: 'third' });
    expect(res.body.data.seo.meta.related).toBeUndefined();
    expect(res.body.data.seo.alternates).toHaveLength(1);
  });

  test('populate[seo][populate][meta][fields] narrows the nested component fields', async () => {
    const res = await server.call('GET', `/api/pages/${ids.beta}?${qs.stringify({ populate: { seo: { populate: { meta: { fields: ['rank'] } } } } })}`);
    expect(res.status).toBe(200);
    expect(res.body.data.seo.meta).toEqual({ id: expect.any(Number), rank: 2 });
  });

  test('populates a nested component of a related document reached through a relation', async () => {
    await server.call('PUT', `/api/writers/${ids.bo}`, { body: { data: { profile: { metaTitle: 'Bo', meta: { rank: 9, label: 'writer' } } } } });
    const query = { filters: { title: 'alpha' }, populate: { writer: { populate: { profile: { populate: ['meta'] } } } } };
    const res = await server.call('GET', `/api/pages?${qs.stringify(query, { encodeValuesOnly: true })}`);
    expect(res.body.data[0].writer.profile.meta).toMatchObject({ rank: 9, label: 'writer' });
  });
});

describe('writes of a component inside a component', () => {
  test('an update replaces both levels and a draft keeps its own copy until published', async () => {
    const id = await create('/api/pages', { title: 'versions', seo: { meta: { rank: 5, label: 'v1' }, alternates: [{ label: 'x' }] } });
    const draftOnly = { seo: { meta: { rank: 6, label: 'v2' }, alternates: [] } };
    expect((await server.call('PUT', `/api/pages/${id}?status=draft`, { body: { data: draftOnly } })).status).toBe(200);
    const deep = 'populate[seo][populate][meta]=true&populate[seo][populate][alternates]=true';
    const published = await server.call('GET', `/api/pages/${id}?${deep}`);
    const draft = await server.call('GET', `/api/pages/${id}?status=draft&${deep}`);
    expect(published.body.data.seo.meta).toMatchObject({ rank: 5, label: 'v1' });
    expect(published.body.data.seo.alternates).toHaveLength(1);
    expect(draft.body.data.seo.meta).toMatchObject({ rank: 6, label: 'v2' });
    expect(draft.body.data.seo.alternates).toEqual([]);
    expect((await server.call('PUT', `/api/pages/${id}`, { body: { data: {} } })).status).toBe(200);
    const republished = await server.call('GET', `/api/pages/${id}?${deep}`);
    expect(republished.body.data.seo.meta).toMatchObject({ rank: 6, label: 'v2' });
  });

  test('a new locale gets its own nested components', async () => {
    const id = await create('/api/pages', { title: 'english', seo: { meta: { rank: 7, label: 'en' } } });
    const fr = await server.call('PUT', `/api/pages/${id}?locale=fr`, { body: { data: { title: 'français', seo: { meta: { rank: 8, label: 'fr' } } } } });
    expect(fr.status).toBe(200);
    const read = async (locale: string) => (await server.call('GET', `/api/pages/${id}?locale=${locale}&populate[seo][populate]=meta`)).body.data.seo.meta;
    expect(await read('en')).toMatchObject({ rank: 7, label: 'en' });
    expect(await read('fr')).toMatchObject({ rank: 8, label: 'fr' });
  });

  test('an unknown key inside the nested component is refused with its path, and nothing is written', async () => {
    const before = (await server.call('GET', '/api/pages?pagination[withCount]=true')).body.meta.pagination.total;
    const res = await server.call('POST', '/api/pages', { body: { data: { title: 'bad', seo: { meta: { rank: 1, nope: true } } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toContain('nope');
    expect((await server.call('GET', '/api/pages?pagination[withCount]=true')).body.meta.pagination.total).toBe(before);
  });
});
