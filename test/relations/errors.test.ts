/**
 * Rejected relation writes: each answers 400 ValidationError and changes nothing — the
 * content tables, every link table and the lists a client reads are the same afterwards,
 * even when the same body also changes a scalar (the whole write is one transaction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { relationSeed } from '../helpers/seed';
import { startServer, tableNames, type TestServer } from '../helpers/server';

let server: TestServer;
const t: Record<string, string> = {};
let A: string; // an article linked to alpha, beta
let row: { draft: number; published: number };
let au1: string;
let au2: string;
let cat: string;
const MISSING = 'nosuchdocument0000000000';

const { create } = relationSeed(() => server);

beforeAll(async () => {
  server = await startServer();
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) t[name] = await create('tags', { name });
  cat = await create('categories', { name: 'News' });
  au1 = await create('authors', { name: 'Ann' });
  au2 = await create('authors', { name: 'Bob', mentor: au1 });
  A = await create('articles', { title: 'kept', tags: [t.alpha, t.beta], category: cat, author: au1, related: [] });
  const rows = await server.instance.db.all<{ id: number; publishedAt: string | null }>(
    'SELECT id, "publishedAt" FROM articles WHERE "documentId" = ? ORDER BY id',
    [A],
  );
  row = { draft: rows.find((r) => r.publishedAt === null)!.id, published: rows.find((r) => r.publishedAt !== null)!.id };
});
afterAll(() => server.stop());

/** Every content table, link table and the media link table, row by row. */
async function dump(): Promise<Record<string, unknown[]>> {
  const db = server.instance.db;
  const tables = (await tableNames(server))
    .filter((name) => name.endsWith('_lnk') || ['articles', 'tags', 'authors', 'categories', 'homepages', 'files_related_mph'].includes(name))
    .map((name) => ({ name }));
  expect(tables.map((x) => x.name)).toContain('articles_tags_lnk');
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) out[name] = await db.all(`SELECT * FROM "${name}" ORDER BY id`);
  return out;
}

async function names(path: string, attr: string, field: string): Promise<unknown> {
  const res = await server.call('GET', `/api/${path}${path.includes('?') ? '&' : '?'}populate[${attr}][fields][0]=${field}`);
  const v = res.body.data?.[attr];
  return Array.isArray(v) ? v.map((x: any) => x[field]) : (v?.[field] ?? v);
}

/** What a client reads: both versions of A's relations and the tags' inverse lists. */
const views = async () => ({
  published: await names(`articles/${A}`, 'tags', 'name'),
  draft: await names(`articles/${A}?status=draft`, 'tags', 'name'),
  category: await names(`articles/${A}`, 'category', 'name'),
  author: await names(`articles/${A}`, 'author', 'name'),
  alpha: await names(`tags/${t.alpha}`, 'articles', 'title'),
  mentor: await names(`authors/${au2}`, 'mentor', 'name'),
});

/** Sends the write, expects a 400 ValidationError whose message mentions `mention`, and that nothing changed. */
async function expectRejected(method: 'PUT' | 'POST', path: string, data: Record<string, unknown>, mention: string[] = []): Promise<string> {
  const before = await dump();
  const seen = await views();
  const res = await server.call(method, `/api/${path}`, { body: { data } });
  expect({ request: `${method} ${path} ${JSON.stringify(data)}`, status: res.status, name: res.body?.error?.name }).toEqual({
    request: `${method} ${path} ${JSON.stringify(data)}`,
    status: 400,
    name: 'ValidationError',
  });
  expect(res.body.data).toBeNull();
  for (const text of mention) expect(res.body.error.message).toContain(text);
  expect(await dump()).toEqual(before);
  expect(await views()).toEqual(seen);
  return res.body.error.message;
}

const update = (data: Record<string, unknown>, mention?: string[]) => expectRejected('PUT', `articles/${A}`, { title: 'changed', ...data }, mention);

describe('relation write errors change nothing', () => {
  it('starts from the expected state', async () => {
    expect(await views()).toEqual({
      published: ['alpha', 'beta'],
      draft: ['alpha', 'beta'],
      category: 'News',
      author: 'Ann',
      alpha: ['kept'],
      mentor: 'Ann',
    });
  });

  it('rejects the same documentId twice in one connect, with or without positions', async () => {
    await update({ tags: { connect: [t.gamma, t.gamma] } }, [t.gamma]);
    await update({ tags: { connect: [t.gamma, { documentId: t.gamma }] } }, [t.gamma]);
    await update(
      {
        tags: {
          connect: [
            { documentId: t.delta, position: { start: true } },
            { documentId: t.delta, position: { end: true } },
          ],
        },
      },
      [t.delta],
    );
    await update({ tags: { connect: [t.alpha, { documentId: t.alpha, position: { after: t.beta } }] } }, [t.alpha]);
    await update({ tags: { connect: [t.gamma, t.gamma], disconnect: [t.alpha] } }, [t.gamma]);
    await expectRejected('POST', 'articles', { title: 'dup', tags: { connect: [t.gamma, t.gamma] } }, [t.gamma]);
  });

  it('rejects the same article twice in one connect on the inverse side (tag.articles)', async () => {
    await expectRejected('PUT', `tags/${t.alpha}`, { color: '#000000', articles: { connect: [A, { documentId: A, position: { start: true } }] } }, [A]);
  });

  it('rejects a target that does not exist in connect, set, disconnect and shorthand on update', async () => {
    await update({ tags: { connect: [MISSING] } }, [MISSING]);
    await update({ tags: { connect: [t.gamma, { documentId: MISSING, position: { start: true } }] } }, [MISSING]);
    await update({ tags: { set: [t.gamma, MISSING] } }, [MISSING]);
    await update({ tags: { disconnect: [MISSING] } }, [MISSING]);
    await update({ tags: MISSING }, [MISSING]);
    await update({ tags: [t.gamma, MISSING] }, [MISSING]);
    await update({ tags: { documentId: MISSING } }, [MISSING]);
    await expectRejected('PUT', `articles/${A}?status=draft`, { tags: [MISSING] }, [MISSING]);
  });

  it('rejects a to-one target that does not exist and keeps the current one', async () => {
    await update({ category: MISSING }, [MISSING]);
    await update({ category: { connect: [MISSING] } }, [MISSING]);
    await update({ author: { set: [MISSING] } }, [MISSING]);
    await expectRejected('PUT', `authors/${au2}`, { bio: 'changed', mentor: MISSING }, [MISSING]);
    await expectRejected('PUT', `authors/${au2}`, { mentor: { connect: [au1, MISSING] } }, [MISSING]);
  });

  it('rejects a target that does not exist on the inverse side', async () => {
    await expectRejected('PUT', `tags/${t.alpha}`, { articles: { connect: [MISSING] } }, [MISSING]);
    await expectRejected('PUT', `authors/${au1}`, { articles: [A, MISSING] }, [MISSING]);
    await expectRejected('PUT', `categories/${cat}`, { articles: { set: [MISSING] } }, [MISSING]);
  });

  it('rejects an unknown target on create and leaves no row behind, draft or published', async () => {
    const count = async () => (await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM articles'))!.n;
    const n = await count();
    await expectRejected('POST', 'articles', { title: 'bad author', author: MISSING }, [MISSING]);
    await expectRejected('POST', 'articles?status=draft', { title: 'bad tag', tags: { connect: [t.alpha, MISSING] } }, [MISSING]);
    await expectRejected('POST', 'articles?status=draft', { title: 'bad related', related: [MISSING] }, [MISSING]);
    await expectRejected('POST', 'tags', { name: 'orphan', articles: [MISSING] }, [MISSING]);
    await expectRejected('POST', 'authors', { name: 'orphan', mentor: { connect: [MISSING] } }, [MISSING]);
    expect(await count()).toBe(n);
    const orphans = await server.instance.db.get<{ n: number }>(`SELECT count(*) AS n FROM articles WHERE title IN ('bad author', 'bad tag', 'bad related')`);
    expect(orphans!.n).toBe(0);
  });

  it('rejects a target that exists only in another locale', async () => {
    const frOnly = await create('categories', { name: 'Seulement' }, '?locale=fr');
    await update({ category: frOnly }, [frOnly]);
    await update({ category: { connect: [frOnly] } }, [frOnly]);
  });

  it('rejects before or after naming a tag that is not in the list', async () => {
    await update({ tags: { connect: [{ documentId: t.gamma, position: { before: t.delta } }] } }, [t.delta]);
    await update({ tags: { connect: [{ documentId: t.gamma, position: { after: MISSING } }] } }, [MISSING]);
    // The anchor is connected later in the same request: too late.
    await update({ tags: { connect: [{ documentId: t.gamma, position: { after: t.delta } }, t.delta] } }, [t.delta]);
    await expectRejected('PUT', `tags/${t.alpha}`, { articles: { connect: [{ documentId: A, position: { before: MISSING } }] } }, [MISSING]);
  });

  it('rejects a position object with zero keys or with two keys', async () => {
    await update({ tags: { connect: [{ documentId: t.gamma, position: {} }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { start: true, end: true } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { before: t.alpha, after: t.beta } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { start: true, before: t.alpha } }] } });
  });

  it('rejects start or end that is not true, and an anchor that is neither a documentId nor a row id', async () => {
    await update({ tags: { connect: [{ documentId: t.gamma, position: { start: false } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { start: 'true' } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { end: 1 } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { before: 1.5 } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { after: true } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { before: '' } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { middle: true } }] } });
  });

  it('rejects options other than { strict: boolean }, and anchor pins beside start or end', async () => {
    await update({ tags: { connect: [t.gamma], options: 'strict' } });
    await update({ tags: { connect: [t.gamma], options: { strict: 1 } } });
    await update({ tags: { connect: [t.gamma], options: { strict: true, other: true } } });
    await update({ tags: { options: { strict: true } } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { start: true, locale: 'fr' } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { end: true, status: 'draft' } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { after: t.alpha, locale: 3 } }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: { after: t.alpha, status: 'modified' } }] } });
  });

  it('rejects a connect, disconnect or set that is neither a target nor a list of targets', async () => {
    await update({ tags: { connect: {} } });
    await update({ tags: { connect: false } });
    await update({ tags: { connect: [t.gamma], disconnect: {} } });
    await update({ tags: { set: '' } });
    await update({ tags: { set: {} } });
    await update({ tags: {} });
    await update({ tags: true });
    await update({ tags: { connect: [{ documentId: t.gamma, position: 'start' }] } });
    await update({ tags: { connect: [{ documentId: t.gamma, position: 1 }] } });
  });

  it('rejects set combined with connect or with disconnect', async () => {
    await update({ tags: { set: [t.gamma], connect: [t.delta] } });
    await update({ tags: { set: [t.gamma], disconnect: [t.alpha] } });
    await update({ category: { set: [cat], connect: [cat] } });
    await expectRejected('PUT', `tags/${t.alpha}`, { articles: { set: [A], disconnect: [A] } });
  });

  it('rejects connect, disconnect and set on a media attribute', async () => {
    await update({ cover: { connect: [1] } });
    await update({ cover: { connect: [{ id: 1 }] } });
    await update({ gallery: { connect: [1, 2] } });
    await update({ gallery: { set: [1] } });
    await update({ gallery: { disconnect: [1] } });
  });

  it('rejects malformed elements: a number that is not a row id, an object without documentId or id, an empty documentId', async () => {
    await update({ tags: { connect: [4.2] } });
    await update({ tags: { connect: [-42] } });
    await update({ tags: { connect: [t.gamma, {}] } });
    await update({ tags: { connect: [{ documentId: '' }] } });
    await update({ tags: { connect: [{ documentId: 7 }] } });
    await update({ tags: { connect: [null] } });
    await update({ tags: { set: [[t.gamma]] } });
    await update({ tags: { disconnect: [true] } });
    await update({ tags: 4.2 });
    await update({ tags: '' });
    await update({ tags: [t.gamma, -3] });
    await update({ category: 0.5 });
    await update({ category: { documentId: '' } });
  });

  it('names documentIds in its messages, never an internal row id', async () => {
    const ids = [row.draft, row.published].map(String);
    const rowIdsOf = async (doc: string) =>
      (await server.instance.db.all<{ id: number }>('SELECT id FROM tags WHERE "documentId" = ?', [doc])).map((r) => String(r.id));
    const noRowId = (message: string, rowIds: string[]) => {
      for (const id of rowIds) expect(message).not.toMatch(new RegExp(`(id |[":])${id}\\b`));
    };
    const dup = await update(
      {
        tags: {
          connect: [
            { documentId: t.delta, position: { start: true } },
            { documentId: t.delta, position: { end: true } },
          ],
        },
      },
      [t.delta],
    );
    noRowId(dup, await rowIdsOf(t.delta));
    const anchor = await update({ tags: { connect: [{ documentId: t.gamma, position: { before: t.delta } }] } }, [t.gamma, t.delta]);
    noRowId(anchor, [...(await rowIdsOf(t.gamma)), ...(await rowIdsOf(t.delta))]);
    const inverse = await expectRejected('PUT', `tags/${t.alpha}`, { articles: { connect: [A, A] } }, [A]);
    noRowId(inverse, ids);
  });
});
