/**
 * How documents sit in the SQLite file (docs/deploy.md "Storage"; spec §2, §4, §9): restarts keep
 * everything, one row per version, component rows and links follow their owners, relation
 * writes are checked before anything is written, each write is one transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer, onPostgres } from '../helpers/server';

async function post(server: TestServer, path: string, data: Record<string, unknown>) {
  const created = await server.call('POST', path, { body: { data } });
  expect(created.status).toBe(201);
  return created.body.data;
}

describe('restarting over the same data dir', () => {
  it('reads back every document, relation, component and dynamic zone item unchanged, with no schema change', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    let before: any;
    let category: any;
    try {
      category = await post(first, '/api/categories', { name: 'Tech', slug: 'tech', position: 1 });
      const author = await post(first, '/api/authors', { name: 'Ada Lovelace', email: 'ada@example.com' });
      const tags = [];
      for (const name of ['alpha', 'beta', 'gamma']) tags.push(await post(first, '/api/tags', { name, color: '#336699' }));
      const article = await post(first, '/api/articles', {
        title: 'Persisted',
        category: category.documentId,
        author: author.documentId,
        tags: [tags[2].documentId, tags[0].documentId, tags[1].documentId],
        seo: { metaTitle: 'Kept', metaDescription: 'Across restarts' },
        blocks: [
          { __component: 'shared.quote', title: 'Q', body: 'To be' },
          { __component: 'shared.rich-text', body: '## Markdown' },
        ],
      });
      before = (await first.call('GET', `/api/articles/${article.documentId}?populate=*`)).body;
      expect(before.data.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha', 'beta']);
    } finally {
      await first.stop({ keepData: true });
    }

    const second = await startServer({ dataDir });
    try {
      expect(second.instance.syncPlan.filter((s) => s.sql).length).toBe(0);
      const after = await second.call('GET', `/api/articles/${before.data.documentId}?populate=*`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before);
      expect(after.body.data.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.rich-text']);
      const cat = await second.call('GET', `/api/categories/${category.documentId}`);
      expect(cat.body.data).toEqual(category);
    } finally {
      await second.stop();
    }
  });
});

// The file, its pragmas and its raw rows are SQLite's; PostgreSQL runs the API tests instead.
describe.skipIf(onPostgres)('the SQLite file', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  const count = async (sql: string, params: (string | number)[] = []) => Number((await server.instance.db.get<{ n: number }>(sql, params))?.n);
  const versions = (documentId: string) =>
    server.instance.db.all<{ id: number; locale: string; draft: number }>(
      'SELECT id, locale, ("publishedAt" IS NULL) AS draft FROM "articles" WHERE "documentId" = ? ORDER BY locale, draft',
      [documentId],
    );
  const orphanSeos = () =>
    count(`SELECT count(*) AS n FROM "components_shared_seos" c WHERE c."__ownerType" = 'api::article.article'
           AND NOT EXISTS (SELECT 1 FROM "articles" a WHERE a.id = c."__ownerId")`);
  const tagNames = async (documentId: string, query = '') =>
    (await server.call('GET', `/api/articles/${documentId}?populate[tags]=true${query}`)).body.data.tags.map((t: any) => t.name);

  it('lives at <dataDir>/folio.db in WAL mode with foreign keys on', async () => {
    expect(existsSync(join(server.dataDir, 'folio.db'))).toBe(true);
    expect(await server.instance.db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(await server.instance.db.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    expect(await server.instance.db.transaction((tx) => tx.get('PRAGMA foreign_keys'))).toEqual({ foreign_keys: 1 });
  });

  it('stores exactly one draft row and one published row per locale for a published document', async () => {
    const created = await post(server, '/api/articles', { title: 'Rows' });
    expect(await versions(created.documentId)).toEqual([
      { id: expect.any(Number), locale: 'en', draft: 0 },
      { id: expect.any(Number), locale: 'en', draft: 1 },
    ]);
    await server.call('PUT', `/api/articles/${created.documentId}?locale=fr`, { body: { data: { title: 'Lignes' } } });
    const rows = await versions(created.documentId);
    expect(rows.map((r) => [r.locale, r.draft])).toEqual([
      ['en', 0],
      ['en', 1],
      ['fr', 0],
      ['fr', 1],
    ]);
  });

  it('republishes on PUT by replacing the published row, leaving no extra row and no orphan component', async () => {
    const created = await post(server, '/api/articles', { title: 'Republish', seo: { metaTitle: 'One' } });
    const [published, draft] = await versions(created.documentId);
    for (const title of ['Two', 'Three']) {
      const put = await server.call('PUT', `/api/articles/${created.documentId}`, { body: { data: { title, seo: { metaTitle: title } } } });
      expect(put.status).toBe(200);
    }
    const rows = await versions(created.documentId);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.id).toBe(draft!.id);
    expect(rows[0]!.id).not.toBe(published!.id);
    const ids = rows.map((r) => r.id);
    expect(await count(`SELECT count(*) AS n FROM "components_shared_seos" WHERE "__ownerType" = 'api::article.article' AND "__ownerId" IN (?, ?)`, ids)).toBe(
      2,
    );
    expect(await orphanSeos()).toBe(0);
  });

  it('deletes the component rows of a deleted document', async () => {
    const created = await post(server, '/api/articles', { title: 'With seo', seo: { metaTitle: 'Gone soon' }, links: [{ label: 'L', url: 'u' }] });
    const ids = (await versions(created.documentId)).map((r) => r.id);
    const owned = (table: string) => count(`SELECT count(*) AS n FROM "${table}" WHERE "__ownerType" = 'api::article.article' AND "__ownerId" IN (?, ?)`, ids);
    expect(await owned('components_shared_seos')).toBe(2);
    expect(await owned('components_shared_links')).toBe(2);
    expect((await server.call('DELETE', `/api/articles/${created.documentId}`)).status).toBe(204);
    expect(await owned('components_shared_seos')).toBe(0);
    expect(await owned('components_shared_links')).toBe(0);
    expect(await orphanSeos()).toBe(0);
  });

  it('drops the links that point at a deleted document and keeps the document that linked to it', async () => {
    const keep = await post(server, '/api/tags', { name: 'keep-me' });
    const doomed = await post(server, '/api/tags', { name: 'doomed' });
    const article = await post(server, '/api/articles', { title: 'Linked', tags: [doomed.documentId, keep.documentId] });
    expect(await tagNames(article.documentId)).toEqual(['doomed', 'keep-me']);

    expect((await server.call('DELETE', `/api/tags/${doomed.documentId}`)).status).toBe(204);
    expect(await tagNames(article.documentId)).toEqual(['keep-me']);
    expect(await tagNames(article.documentId, '&status=draft')).toEqual(['keep-me']);
    expect(await count('SELECT count(*) AS n FROM "articles_tags_lnk" WHERE "targetDocumentId" = ?', [doomed.documentId])).toBe(0);
  });
});

describe('relation writes', () => {
  let server: TestServer;
  let tags: any[];
  let categories: any[];
  let author: any;
  beforeAll(async () => {
    server = await startServer();
    tags = [];
    for (const name of ['t1', 't2', 't3']) tags.push(await post(server, '/api/tags', { name }));
    categories = [await post(server, '/api/categories', { name: 'One' }), await post(server, '/api/categories', { name: 'Two' })];
    author = await post(server, '/api/authors', { name: 'Grace' });
  });
  afterAll(() => server.stop());

  const articleRows = async () => Number((await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "articles"'))?.n);
  const populated = async (documentId: string, query = '') =>
    (await server.call('GET', `/api/articles/${documentId}?populate[category]=true&populate[author]=true&populate[tags]=true${query}`)).body.data;

  it('connects a bare documentId to a to-one relation and an array to a to-many, keeping the given order', async () => {
    const created = await post(server, '/api/articles', {
      title: 'Relations',
      category: categories[0].documentId,
      author: author.documentId,
      tags: [tags[2].documentId, tags[0].documentId, tags[1].documentId],
    });
    const found = await populated(created.documentId);
    expect(found.category).toMatchObject({ documentId: categories[0].documentId, name: 'One' });
    expect(found.author).toMatchObject({ documentId: author.documentId, name: 'Grace' });
    expect(found.tags.map((t: any) => t.name)).toEqual(['t3', 't1', 't2']);

    await server.call('PUT', `/api/articles/${created.documentId}`, {
      body: { data: { tags: [tags[1].documentId, tags[2].documentId], category: categories[1].documentId } },
    });
    const changed = await populated(created.documentId);
    expect(changed.tags.map((t: any) => t.name)).toEqual(['t2', 't3']);
    expect(changed.category.name).toBe('Two');
  });

  it('shows the draft the same links as the published version', async () => {
    const created = await post(server, '/api/articles', { title: 'Both', category: categories[1].documentId, tags: [tags[1].documentId, tags[0].documentId] });
    const published = await populated(created.documentId);
    const draft = await populated(created.documentId, '&status=draft');
    expect(draft.publishedAt).toBeNull();
    expect(draft.tags.map((t: any) => t.documentId)).toEqual(published.tags.map((t: any) => t.documentId));
    expect(draft.tags.map((t: any) => t.name)).toEqual(['t2', 't1']);
    expect(draft.category.documentId).toBe(published.category.documentId);
  });

  it('clears a to-one relation with null and a to-many relation with []', async () => {
    const created = await post(server, '/api/articles', {
      title: 'Clear',
      category: categories[0].documentId,
      author: author.documentId,
      tags: [tags[0].documentId],
    });
    const put = await server.call('PUT', `/api/articles/${created.documentId}`, { body: { data: { category: null, tags: [] } } });
    expect(put.status).toBe(200);
    const found = await populated(created.documentId);
    expect(found.category).toBeNull();
    expect(found.tags).toEqual([]);
    expect(found.author.documentId).toBe(author.documentId);
  });

  it('refuses a relation to a documentId that does not exist with a 400 ValidationError and writes nothing', async () => {
    const rowsBefore = await articleRows();
    const seosBefore = Number((await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "components_shared_seos"'))?.n);
    const response = await server.call('POST', '/api/articles', {
      body: { data: { title: 'Dangling', seo: { metaTitle: 'x' }, category: 'doesnotexist0000000000000' } },
    });
    expect(response.status).toBe(400);
    expect(response.body.data).toBeNull();
    expect(response.body.error.name).toBe('ValidationError');
    expect(await articleRows()).toBe(rowsBefore);
    expect(Number((await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "components_shared_seos"'))?.n)).toBe(seosBefore);
  });

  it('names the missing target: the relation, the type it points at and the documentId (a locale only for a type with i18n)', async () => {
    const response = await server.call('POST', '/api/articles', { body: { data: { title: 'bad author', author: 'nosuchdocument0000000000' } } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Document with id "nosuchdocument0000000000" not found: the relation author points at api::author.author, which has no such document',
        details: { path: ['author'], type: 'api::author.author', documentId: 'nosuchdocument0000000000', locale: null },
      },
    });
  });

  it('leaves no draft row behind when a create fails on a missing target after valid ones', async () => {
    const response = await server.call('POST', '/api/articles', {
      body: { data: { title: 'Half written', tags: [tags[0].documentId, 'nosuchtag000000000000000'] } },
    });
    expect(response.status).toBe(400);
    const rows = await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "articles" WHERE "title" = ?', ['Half written']);
    expect(rows?.n).toBe(0);
    const links = await server.instance.db.get<{ n: number }>(
      'SELECT count(*) AS n FROM "articles_tags_lnk" l WHERE NOT EXISTS (SELECT 1 FROM "articles" a WHERE a.id = l."sourceId")',
    );
    expect(links?.n).toBe(0);
  });

  it('leaves the document untouched when an update names a missing target', async () => {
    const created = await post(server, '/api/articles', { title: 'Stable', tags: [tags[0].documentId] });
    const response = await server.call('PUT', `/api/articles/${created.documentId}`, {
      body: { data: { title: 'Changed', tags: [tags[1].documentId, 'nosuchtag000000000000000'] } },
    });
    expect(response.status).toBe(400);
    for (const status of ['', '&status=draft']) {
      const found = await populated(created.documentId, status);
      expect(found.title).toBe('Stable');
      expect(found.tags.map((t: any) => t.name)).toEqual(['t1']);
    }
  });
});
