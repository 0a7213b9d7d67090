/**
 * Relation filters with Strapi's outer-join meaning: its relation filters are LEFT JOINs, so a
 * document without a related row is compared as a row of NULLs. `filters[category][id][$null]`
 * finds documents without a category; `$not` over a relation condition asks for a related row
 * that does not match, and leaves out documents without one (NOT(NULL) is not true). Each
 * document still appears once and totals count documents. Also: `populate[<repeatable
 * component>][sort]` orders the component's entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;

const url = (path: string, params: object) => `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`;

const post = async (path: string, data: object) => (await seedCreate(server, path, data)).documentId as string;

/** Titles of the articles matching `filters`, and the total the answer counts. */
async function matching(filters: object): Promise<{ titles: string[]; total: number }> {
  const response = await server.call('GET', url('/api/articles', { filters, sort: 'title', fields: ['title'] }));
  expect(response.status).toBe(200);
  return { titles: response.body.data.map((d: any) => d.title), total: response.body.meta.pagination.total };
}
const titles = async (filters: object) => (await matching(filters)).titles;

beforeAll(async () => {
  server = await startServer();
  const tech = await post('/api/categories', { name: 'Tech' });
  const life = await post('/api/categories', { name: 'Life' });
  const [alpha, beta, gamma] = [
    await post('/api/tags', { name: 'alpha' }),
    await post('/api/tags', { name: 'beta' }),
    await post('/api/tags', { name: 'gamma' }),
  ];
  await post('/api/articles', { title: 'A', category: tech, tags: [alpha, beta], seo: { metaTitle: 'a' } });
  await post('/api/articles', { title: 'B', category: life, tags: [alpha] });
  await post('/api/articles', { title: 'C' });
  await post('/api/articles', {
    title: 'D',
    category: tech,
    tags: [gamma],
    links: [
      { label: 'beta', url: '/b' },
      { label: 'alpha', url: '/a' },
      { label: 'gamma', url: '/g' },
    ],
  });
});
afterAll(() => server.stop());

describe('relation filters read as outer joins', () => {
  it('find documents without a related row through $null on a field of the relation', async () => {
    expect(await titles({ category: { id: { $null: true } } })).toEqual(['C']);
    expect(await titles({ category: { name: { $null: true } } })).toEqual(['C']);
    expect(await titles({ tags: { id: { $null: true } } })).toEqual(['C']);
    expect(await titles({ seo: { metaTitle: { $null: true } } })).toEqual(['B', 'C', 'D']);
    expect(await titles({ category: { id: { $notNull: true } } })).toEqual(['A', 'B', 'D']);
  });

  it('keep the link-level forms: $null and $notNull straight on the relation', async () => {
    expect(await titles({ category: { $null: true } })).toEqual(['C']);
    expect(await titles({ tags: { $notNull: true } })).toEqual(['A', 'B', 'D']);
    expect(await titles({ $not: { category: { $null: true } } })).toEqual(['A', 'B', 'D']);
  });

  it('leave out documents without the relation under $not, as NOT(NULL) does', async () => {
    expect(await titles({ $not: { category: { name: 'Tech' } } })).toEqual(['B']);
    expect(await titles({ category: { name: { $not: { $eq: 'Tech' } } } })).toEqual(['B']);
    expect(await titles({ $not: { $not: { category: { name: 'Tech' } } } })).toEqual(['A', 'D']);
    expect(await titles({ $not: { category: { id: { $null: true } } } })).toEqual(['A', 'B', 'D']);
  });

  it('ask under $not for a related row that does not match, on to-many relations too', async () => {
    // A has beta beside alpha; B has only alpha; C has no tags at all.
    expect(await titles({ $not: { tags: { name: 'alpha' } } })).toEqual(['A', 'D']);
    // NOT (alpha AND Tech): a tag other than alpha, or a category other than Tech.
    expect(await titles({ $not: { $and: [{ tags: { name: 'alpha' } }, { category: { name: 'Tech' } }] } })).toEqual(['A', 'B', 'D']);
    expect(await titles({ $not: { $or: [{ tags: { name: 'alpha' } }, { category: { name: 'Tech' } }] } })).toEqual([]);
  });

  it('combine a missing relation with other conditions in $or and $and', async () => {
    expect(await titles({ $or: [{ category: { id: { $null: true } } }, { category: { name: 'Life' } }] })).toEqual(['B', 'C']);
    expect(await titles({ $and: [{ category: { id: { $null: true } } }, { title: { $ne: 'C' } }] })).toEqual([]);
  });

  it('keep each document once and count documents, however many related rows match', async () => {
    expect(await matching({ tags: { name: { $in: ['alpha', 'beta'] } } })).toEqual({ titles: ['A', 'B'], total: 2 });
    expect(await matching({ $not: { tags: { name: 'gamma' } } })).toEqual({ titles: ['A', 'B'], total: 2 });
  });
});

describe('populate[<repeatable component>][sort]', () => {
  const labels = async (populate: object) => {
    const response = await server.call('GET', url('/api/articles', { filters: { title: 'D' }, populate }));
    expect(response.status).toBe(200);
    return response.body.data[0].links.map((l: any) => l.label);
  };

  it('orders the entries, in every sort form, and keeps the stored order without one', async () => {
    expect(await labels({ links: true })).toEqual(['beta', 'alpha', 'gamma']);
    expect(await labels({ links: { sort: 'label' } })).toEqual(['alpha', 'beta', 'gamma']);
    expect(await labels({ links: { sort: ['label:desc'] } })).toEqual(['gamma', 'beta', 'alpha']);
    expect(await labels({ links: { sort: { label: 'desc' }, fields: ['label'] } })).toEqual(['gamma', 'beta', 'alpha']);
  });

  it('refuses a sort key the component does not have', async () => {
    const response = await server.call('GET', url('/api/articles', { populate: { links: { sort: 'nope' } } }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ key: 'nope', param: 'populate' });
  });
});
