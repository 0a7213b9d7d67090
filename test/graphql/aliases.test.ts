/**
 * One field asked several times at a level with different arguments (aliases): each alias
 * gets its own rows for every parent, inside components too, and each distinct set of
 * arguments is one batched read, so the statements do not grow with the rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;

const QUERY = `query($n: Int) { pages(sort: "title", pagination: { limit: $n }) {
  title
  seo {
    asc: alternates(sort: "rank") { label related { name } }
    desc: alternates(sort: "rank:desc", pagination: { limit: 1 }) { label }
    high: alternates(filters: { rank: { gte: 2 } }) { label }
    alternates { label }
  }
} }`;

const WRITERS = `query($n: Int) { writers(sort: "name", pagination: { limit: $n }) {
  name
  first: pages(sort: "title", pagination: { limit: 1 }) { title }
  last: pages(sort: "title:desc") { title }
} }`;

beforeAll(async () => {
  server = await startServer({ contentTypes: resolve(import.meta.dir, '../fixtures/nested'), config: { answerCacheBytes: 0 } });
  const ann = (await seedCreate(server, '/api/writers', { name: 'Ann' })).documentId;
  const bo = (await seedCreate(server, '/api/writers', { name: 'Bo' })).documentId;
  await seedCreate(server, '/api/writers', { name: 'Cy' });
  await seedCreate(server, '/api/writers', { name: 'Di' });
  for (let i = 0; i < 6; i++) {
    await seedCreate(server, '/api/pages', {
      title: `Page ${i}`,
      writer: i % 2 ? ann : bo,
      seo: {
        metaTitle: `m${i}`,
        alternates: [
          { label: `p${i} rank 2`, rank: 2, related: i % 2 ? ann : bo },
          { label: `p${i} rank ${i + 3}`, rank: i + 3 },
          { label: `p${i} rank 1`, rank: 1, related: ann },
        ],
      },
    });
  }
}, 60_000);
afterAll(() => server.stop());

describe('GraphQL aliases of one field with different arguments', () => {
  it('answers each alias its own rows for every parent, inside a component', async () => {
    const { status, body } = await gql(server, QUERY, { n: 6 });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    body.data.pages.forEach((page: any, i: number) => {
      expect(page.title).toBe(`Page ${i}`);
      expect(page.seo.asc).toEqual([
        { label: `p${i} rank 1`, related: { name: 'Ann' } },
        { label: `p${i} rank 2`, related: { name: i % 2 ? 'Ann' : 'Bo' } },
        { label: `p${i} rank ${i + 3}`, related: null },
      ]);
      expect(page.seo.desc).toEqual([{ label: `p${i} rank ${i + 3}` }]);
      expect(page.seo.high).toEqual([{ label: `p${i} rank 2` }, { label: `p${i} rank ${i + 3}` }]);
      expect(page.seo.alternates).toEqual([{ label: `p${i} rank 2` }, { label: `p${i} rank ${i + 3}` }, { label: `p${i} rank 1` }]);
    });
  });

  it('answers aliases of a to-many relation with different arguments on every row', async () => {
    const { body } = await gql(server, WRITERS, { n: 4 });
    expect(body.data.writers.map((w: any) => [w.name, w.first.map((p: any) => p.title), w.last.map((p: any) => p.title)])).toEqual([
      ['Ann', ['Page 1'], ['Page 5', 'Page 3', 'Page 1']],
      ['Bo', ['Page 0'], ['Page 4', 'Page 2', 'Page 0']],
      ['Cy', [], []],
      ['Di', [], []],
    ]);
  });

  it('reads each distinct set of arguments once per level, whatever the number of rows', async () => {
    const count = async (query: string, n: number, list: string) => {
      expect((await gql(server, query, { n })).status).toBe(200);
      const before = server.instance.db.statementCount;
      const { body } = await gql(server, query, { n });
      expect(body.data[list]).toHaveLength(n);
      return server.instance.db.statementCount - before;
    };
    expect(await count(QUERY, 6, 'pages')).toBe(await count(QUERY, 1, 'pages'));
    expect(await count(WRITERS, 4, 'writers')).toBe(await count(WRITERS, 1, 'writers'));
  });
});
