/**
 * Longhand `status` and `locale` in relation elements: a source without draft & publish
 * (or without i18n) picks which version of the target it links, and may link the same
 * documentId once per status / per locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let post: string;

beforeAll(async () => {
  server = await startServer({ contentTypes: resolve(import.meta.dir, '../fixtures/pinned') });
  post = (await server.call('POST', '/api/posts', { body: { data: { title: 'v1' } } })).body.data.documentId;
  await server.call('PUT', `/api/posts/${post}?status=draft`, { body: { data: { title: 'v2 draft' } } });
  await server.call('PUT', `/api/posts/${post}?locale=fr`, { body: { data: { title: 'fr v1' } } });
});
afterAll(() => server.stop());

const titles = (body: any) => body.data.posts.map((p: any) => p.title);

describe('pinned target versions', () => {
  it('links the published and the draft version of one document side by side', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: { data: { title: 'p', posts: [{ documentId: post, status: 'published' }, { documentId: post, status: 'draft' }] } },
    });
    expect(page.status).toBe(201);
    // A reader of either status sees each pinned version, in the order given.
    expect(titles(page.body)).toEqual(['v1', 'v2 draft']);
  });

  it('follows the reader status when the element pins none', async () => {
    const page = await server.call('POST', '/api/pages', { body: { data: { title: 'q', posts: [post] } } });
    const id = page.body.data.documentId;
    expect(titles((await server.call('GET', `/api/pages/${id}?populate[posts][fields][0]=title`)).body)).toEqual(['v1']);
    expect(titles((await server.call('GET', `/api/pages/${id}?status=draft&populate[posts][fields][0]=title`)).body)).toEqual(['v2 draft']);
  });

  it('links one locale per element and the same document once per locale', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: { data: { title: 'r', posts: [{ documentId: post, locale: 'fr', status: 'published' }, { documentId: post, locale: 'en', status: 'published' }] } },
    });
    expect(page.status).toBe(201);
    expect(titles(page.body)).toEqual(['fr v1', 'v1']);
  });

  it('refuses the same documentId twice with the same pinned status', async () => {
    const before = (await server.call('GET', '/api/pages')).body.meta.pagination.total;
    const page = await server.call('POST', '/api/pages', {
      body: { data: { title: 's', posts: [{ documentId: post, status: 'draft' }, { documentId: post, status: 'draft' }] } },
    });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toContain(post);
    expect((await server.call('GET', '/api/pages')).body.meta.pagination.total).toBe(before);
  });

  it('refuses a pinned status the target does not have', async () => {
    const draftOnly = (await server.call('POST', '/api/posts?status=draft', { body: { data: { title: 'd' } } })).body.data.documentId;
    const page = await server.call('POST', '/api/pages', { body: { data: { title: 't', posts: [{ documentId: draftOnly, status: 'published' }] } } });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toContain(draftOnly);
  });
});

/** A page's posts as `title` strings, read with `query` (e.g. `&status=draft`). */
async function postsOf(page: string, query = '') {
  const res = await server.call('GET', `/api/pages/${page}?populate[posts][fields][0]=title${query}`);
  expect(res.status).toBe(200);
  return titles(res.body);
}

/** Rows of the page → post link table, as (locale, status) pairs of one page's links. */
async function pinsOf(page: string) {
  const rows = await server.instance.db.all<{ targetLocale: string; targetStatus: string }>(
    `SELECT l."targetLocale", l."targetStatus" FROM "pages_posts_lnk" l JOIN pages p ON p.id = l."sourceId" WHERE p."documentId" = ? ORDER BY l.position`,
    [page],
  );
  return rows.map((r) => `${r.targetLocale}/${r.targetStatus || '*'}`);
}

describe('links pinned to a version: one per locale and status, and disconnected one by one', () => {
  const every = () => [
    { documentId: post, locale: 'en', status: 'published' },
    { documentId: post, locale: 'en', status: 'draft' },
    { documentId: post, locale: 'fr', status: 'published' },
    { documentId: post, locale: 'fr', status: 'draft' },
  ];

  it('links the same documentId once per locale and once per status in one write', async () => {
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'all four', posts: { connect: every() } } } })).body.data.documentId;
    expect(await pinsOf(page)).toEqual(['en/published', 'en/draft', 'fr/published', 'fr/draft']);
    expect(await postsOf(page)).toEqual(['v1', 'v2 draft', 'fr v1', 'fr v1']);
  });

  it('removes only the link a disconnect names by locale and status', async () => {
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'one by one', posts: every() } } })).body.data.documentId;
    const res = await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [{ documentId: post, locale: 'en', status: 'draft' }] } } } });
    expect(res.status).toBe(200);
    expect(await pinsOf(page)).toEqual(['en/published', 'fr/published', 'fr/draft']);
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [{ documentId: post, locale: 'fr', status: 'published' }] } } } });
    expect(await pinsOf(page)).toEqual(['en/published', 'fr/draft']);
    expect(await postsOf(page)).toEqual(['v1', 'fr v1']);
  });

  it('removes every version of a locale when a disconnect names no status', async () => {
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'no status', posts: every() } } })).body.data.documentId;
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [{ documentId: post, locale: 'fr' }] } } } });
    expect(await pinsOf(page)).toEqual(['en/published', 'en/draft']);
  });

  it('keeps the other status when a disconnect names one status of a link to both', async () => {
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'both', posts: [post] } } })).body.data.documentId;
    expect(await pinsOf(page)).toEqual(['en/*']);
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [{ documentId: post, status: 'draft' }] } } } });
    expect(await pinsOf(page)).toEqual(['en/published']);
    expect(await postsOf(page, '&status=draft')).toEqual(['v1']);
  });

  it('refuses a link to both statuses beside a link to one of them in one write', async () => {
    const res = await server.call('POST', '/api/pages', { body: { data: { title: 'overlap', posts: [post, { documentId: post, status: 'draft' }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(post);
  });

  it('refuses the published version of a draft-only target on create and update, changing nothing', async () => {
    const draftOnly = (await server.call('POST', '/api/posts?status=draft', { body: { data: { title: 'only a draft' } } })).body.data.documentId;
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'before', posts: [{ documentId: post, status: 'published' }] } } })).body.data.documentId;
    const links = () => server.instance.db.all('SELECT * FROM "pages_posts_lnk" ORDER BY id');
    const before = { links: await links(), pages: await server.instance.db.all('SELECT * FROM pages ORDER BY id') };
    for (const posts of [
      { connect: [{ documentId: draftOnly, status: 'published' }] },
      { connect: [{ documentId: draftOnly, status: 'draft' }, { documentId: draftOnly, status: 'published' }] },
      [{ documentId: draftOnly, locale: 'en', status: 'published' }],
    ]) {
      const res = await server.call('PUT', `/api/pages/${page}`, { body: { data: { title: 'after', posts } } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(draftOnly);
      const created = await server.call('POST', '/api/pages', { body: { data: { title: 'never', posts } } });
      expect(created.status).toBe(400);
    }
    expect({ links: await links(), pages: await server.instance.db.all('SELECT * FROM pages ORDER BY id') }).toEqual(before);
    // The draft itself may be pinned.
    const ok = await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { connect: [{ documentId: draftOnly, status: 'draft' }] } } } });
    expect(ok.status).toBe(200);
    expect(await postsOf(page)).toEqual(['v1', 'only a draft']);
  });

  it('pins the locale and status of a row given by id', async () => {
    const rowOf = async (query: string) => (await server.call('GET', `/api/posts/${post}?${query}`)).body.data.id as number;
    const draftEn = await rowOf('status=draft');
    const publishedFr = await rowOf('locale=fr');
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'by id', posts: [draftEn, { id: publishedFr }] } } })).body.data.documentId;
    expect(await pinsOf(page)).toEqual(['en/draft', 'fr/published']);
    expect(await postsOf(page)).toEqual(['v2 draft', 'fr v1']);
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [draftEn] } } } });
    expect(await pinsOf(page)).toEqual(['fr/published']);
  });
});
