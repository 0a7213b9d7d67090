/**
 * How many statements a read costs, counted deterministically (Database.statementCount), and
 * that reading a level's attributes together answers exactly what reading each alone does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { onPostgres, seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
const ATTRIBUTES = ['cover', 'gallery', 'category', 'author', 'tags', 'related', 'seo', 'links', 'blocks', 'localizations'];

const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);

const get = async (params: object) => {
  const response = await server.call('GET', `/api/articles?${qs.stringify(params, { encodeValuesOnly: true })}`);
  expect(response.status).toBe(200);
  return response.body;
};

/** Statements run by one request (after the same request once, so per-process caches are warm). */
async function statementsOf(path: string): Promise<number> {
  expect((await server.call('GET', path)).status).toBe(200);
  const before = server.instance.db.statementCount;
  expect((await server.call('GET', path)).status).toBe(200);
  return server.instance.db.statementCount - before;
}

beforeAll(async () => {
  server = await startServer({ quiet: true });
  const now = new Date().toISOString();
  const file = await server.instance.db.insert(
    'INSERT INTO files ("documentId", "name", "hash", "ext", "mime", "size", "url", "provider", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ['countfile000000000000001', 'pic.png', 'pic_hash', '.png', 'image/png', 1.5, '/uploads/pic.png', 'local', now, now, now],
  );
  const ada = await post('/api/authors', { name: 'Ada', avatar: file });
  const tech = await post('/api/categories', { name: 'Tech', slug: 'tech' });
  const tags = [];
  for (const name of ['alpha', 'beta', 'gamma']) tags.push((await post('/api/tags', { name })).documentId);
  const plain = await post('/api/articles', { title: 'Plain' });
  for (let i = 0; i < 6; i++) {
    await post('/api/articles', {
      title: `Article ${i}`,
      category: tech.documentId,
      author: ada.documentId,
      tags: i % 2 ? [tags[2], tags[0]] : tags,
      cover: file,
      gallery: [file, file],
      related: i % 3 ? [plain.documentId] : [],
      seo: { metaTitle: `Meta ${i}` },
      links: [
        { label: `b${i}`, url: 'https://example.com/b' },
        { label: `a${i}`, url: 'https://example.com/a' },
      ],
      blocks: [
        { __component: 'shared.rich-text', body: `Text ${i}` },
        { __component: 'shared.quote', title: `Quote ${i}` },
        { __component: 'shared.media', file },
        { __component: 'shared.quote', title: `Second ${i}` },
      ],
    });
  }
});
afterAll(() => server.stop());

describe('statements per read', () => {
  it.skipIf(onPostgres)('populate=* on the example articles runs at most 4 statements on SQLite, one change check among them', async () => {
    expect(await statementsOf('/api/articles?populate=*')).toBeLessThanOrEqual(4);
  });

  it.skipIf(onPostgres)('a nested populate costs one statement per level and branch on SQLite', async () => {
    const path = `/api/articles?${qs.stringify({ populate: { author: { populate: ['avatar'] }, category: true, tags: true } }, { encodeValuesOnly: true })}`;
    // Change check, page, the first level (author, category, tags), the author's avatar.
    expect(await statementsOf(path)).toBeLessThanOrEqual(4);
  });
});

describe('reading a level together', () => {
  it('answers for every attribute exactly what populating that attribute alone answers', async () => {
    const all = await get({ populate: '*', sort: 'id' });
    expect(all.data.length).toBe(7);
    for (const name of ATTRIBUTES) {
      const alone = await get({ populate: [name], sort: 'id' });
      expect(all.data.map((d: any) => d[name])).toEqual(alone.data.map((d: any) => d[name]));
    }
    expect(all.data[1].gallery).toHaveLength(2);
    expect(all.data[1].blocks.map((b: any) => b.__component)).toEqual(['shared.rich-text', 'shared.quote', 'shared.media', 'shared.quote']);
  });

  it('keeps a client sort of each attribute when several are read together', async () => {
    const populate = { tags: { sort: 'name:desc' }, links: { sort: 'label:asc' }, category: true, seo: true };
    const together = await get({ populate, sort: 'id' });
    expect(together.data[1].tags.map((t: any) => t.name)).toEqual(['gamma', 'beta', 'alpha']);
    expect(together.data[1].links.map((l: any) => l.label)).toEqual(['a0', 'b0']);
    for (const [name, spec] of Object.entries(populate)) {
      const alone = await get({ populate: { [name]: spec }, sort: 'id' });
      expect(together.data.map((d: any) => d[name])).toEqual(alone.data.map((d: any) => d[name]));
    }
  });
});

describe('the per-request change check', () => {
  it('a write in this process shows in the next total read in the same turn', async () => {
    const { documents, registry } = server.instance;
    const articles = registry.contentType('api::article.article')!;
    const query = {
      status: 'published' as const,
      locale: 'en',
      sort: [],
      populate: {},
      pagination: { mode: 'page' as const, start: 0, limit: 1, withCount: true },
    };
    const before = (await documents.findMany(articles, query)).pagination.total!;
    await documents.create(articles, { title: 'Counted at once' });
    expect((await documents.findMany(articles, query)).pagination.total).toBe(before + 1);
  });
});
