/**
 * Longhand `status` and `locale` in relation elements: a source without draft & publish
 * (or without i18n) picks which version of the target it links, and may link the same
 * documentId once per status / per locale. As in Strapi 5.54.0 (whose link names that one row),
 * a link pinned to a status is read by readers of that status only; a link that pins none
 * reaches the version of the reader's status.
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
  it('links the published and the draft version of one document side by side, each read by its own status', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: {
        data: {
          title: 'p',
          posts: {
            connect: [
              { documentId: post, status: 'published' },
              { documentId: post, status: 'draft' },
            ],
          },
        },
      },
    });
    expect(page.status).toBe(201);
    // The answer is a published read: the published pin only.
    expect(titles(page.body)).toEqual(['v1']);
    expect(await postsOf(page.body.data.documentId, '&status=draft')).toEqual(['v2 draft']);
  });

  it('follows the reader status when the element pins none', async () => {
    const page = await server.call('POST', '/api/pages', { body: { data: { title: 'q', posts: [post] } } });
    const id = page.body.data.documentId;
    expect(titles((await server.call('GET', `/api/pages/${id}?populate[posts][fields][0]=title`)).body)).toEqual(['v1']);
    expect(titles((await server.call('GET', `/api/pages/${id}?status=draft&populate[posts][fields][0]=title`)).body)).toEqual(['v2 draft']);
  });

  it('links one locale per element and the same document once per locale', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: {
        data: {
          title: 'r',
          posts: [
            { documentId: post, locale: 'fr', status: 'published' },
            { documentId: post, locale: 'en', status: 'published' },
          ],
        },
      },
    });
    expect(page.status).toBe(201);
    expect(titles(page.body)).toEqual(['fr v1', 'v1']);
  });

  it('refuses the same documentId twice with the same pinned status', async () => {
    const before = (await server.call('GET', '/api/pages')).body.meta.pagination.total;
    const page = await server.call('POST', '/api/pages', {
      body: {
        data: {
          title: 's',
          posts: [
            { documentId: post, status: 'draft' },
            { documentId: post, status: 'draft' },
          ],
        },
      },
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
    expect(await postsOf(page)).toEqual(['v1', 'fr v1']);
    expect(await postsOf(page, '&status=draft')).toEqual(['v2 draft', 'fr v1']);
  });

  it('removes only the link a disconnect names by locale and status', async () => {
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'one by one', posts: every() } } })).body.data.documentId;
    const res = await server.call('PUT', `/api/pages/${page}`, {
      body: { data: { posts: { disconnect: [{ documentId: post, locale: 'en', status: 'draft' }] } } },
    });
    expect(res.status).toBe(200);
    expect(await pinsOf(page)).toEqual(['en/published', 'fr/published', 'fr/draft']);
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [{ documentId: post, locale: 'fr', status: 'published' }] } } } });
    expect(await pinsOf(page)).toEqual(['en/published', 'fr/draft']);
    expect(await postsOf(page)).toEqual(['v1']);
    expect(await postsOf(page, '&status=draft')).toEqual(['fr v1']);
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
    expect(await postsOf(page)).toEqual(['v1']);
    expect(await postsOf(page, '&status=draft')).toEqual([]);
  });

  it('refuses a link to both statuses beside a link to one of them in one write', async () => {
    const res = await server.call('POST', '/api/pages', { body: { data: { title: 'overlap', posts: [post, { documentId: post, status: 'draft' }] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(post);
  });

  it('refuses the published version of a draft-only target on create and update, changing nothing', async () => {
    const draftOnly = (await server.call('POST', '/api/posts?status=draft', { body: { data: { title: 'only a draft' } } })).body.data.documentId;
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'before', posts: [{ documentId: post, status: 'published' }] } } })).body
      .data.documentId;
    const links = () => server.instance.db.all('SELECT * FROM "pages_posts_lnk" ORDER BY id');
    const before = { links: await links(), pages: await server.instance.db.all('SELECT * FROM pages ORDER BY id') };
    for (const posts of [
      { connect: [{ documentId: draftOnly, status: 'published' }] },
      {
        connect: [
          { documentId: draftOnly, status: 'draft' },
          { documentId: draftOnly, status: 'published' },
        ],
      },
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
    expect(await postsOf(page)).toEqual(['v1']);
    expect(await postsOf(page, '&status=draft')).toEqual(['only a draft']);
  });

  it('pins the locale and status of a row given by id', async () => {
    const rowOf = async (query: string) => (await server.call('GET', `/api/posts/${post}?${query}`)).body.data.id as number;
    const draftEn = await rowOf('status=draft');
    const publishedFr = await rowOf('locale=fr');
    const page = (await server.call('POST', '/api/pages', { body: { data: { title: 'by id', posts: [draftEn, { id: publishedFr }] } } })).body.data.documentId;
    expect(await pinsOf(page)).toEqual(['en/draft', 'fr/published']);
    expect(await postsOf(page)).toEqual(['fr v1']);
    expect(await postsOf(page, '&status=draft')).toEqual(['v2 draft']);
    await server.call('PUT', `/api/pages/${page}`, { body: { data: { posts: { disconnect: [draftEn] } } } });
    expect(await pinsOf(page)).toEqual(['fr/published']);
  });
});

describe('links pinned to a status of a target without i18n, from a type without draft & publish', () => {
  let note: string;
  beforeAll(async () => {
    note = (await server.call('POST', '/api/notes', { body: { data: { title: 'n v1' } } })).body.data.documentId;
    await server.call('PUT', `/api/notes/${note}?status=draft`, { body: { data: { title: 'n v2 draft' } } });
  });
  const P = 'populate[notes][fields][0]=title&populate[pick][fields][0]=title';
  const read = async (page: string, status: 'draft' | 'published') => {
    const res = await server.call('GET', `/api/pages/${page}?${P}&status=${status}`);
    expect(res.status).toBe(200);
    return { notes: res.body.data.notes.map((n: any) => n.title), pick: res.body.data.pick?.title ?? null };
  };

  it('links only the draft when connect pins the draft: draft readers see it, published readers do not', async () => {
    const created = await server.call('POST', `/api/pages?${P}`, {
      body: { data: { title: 'draft pin', notes: { connect: [{ documentId: note, status: 'draft' }] } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.notes).toEqual([]);
    const page = created.body.data.documentId;
    expect(await read(page, 'draft')).toEqual({ notes: ['n v2 draft'], pick: null });
    expect(await read(page, 'published')).toEqual({ notes: [], pick: null });

    const added = await server.call('PUT', `/api/pages/${page}?${P}`, { body: { data: { notes: { connect: [{ documentId: note, status: 'published' }] } } } });
    expect(added.body.data.notes.map((n: any) => n.title)).toEqual(['n v1']);
    expect(await read(page, 'draft')).toEqual({ notes: ['n v2 draft'], pick: null });

    await server.call('PUT', `/api/pages/${page}`, { body: { data: { notes: { disconnect: [{ documentId: note, status: 'draft' }] } } } });
    expect(await read(page, 'draft')).toEqual({ notes: [], pick: null });
    expect(await read(page, 'published')).toEqual({ notes: ['n v1'], pick: null });
  });

  it('links both statuses of one document in one write, each read by its own status', async () => {
    const page = (
      await server.call('POST', '/api/pages', {
        body: {
          data: {
            title: 'both pins',
            notes: {
              connect: [
                { documentId: note, status: 'draft' },
                { documentId: note, status: 'published' },
              ],
            },
          },
        },
      })
    ).body.data.documentId;
    expect(await read(page, 'draft')).toEqual({ notes: ['n v2 draft'], pick: null });
    expect(await read(page, 'published')).toEqual({ notes: ['n v1'], pick: null });
  });

  it('pins a to-one relation the same way', async () => {
    const created = await server.call('POST', `/api/pages?${P}`, {
      body: { data: { title: 'pick', pick: { connect: [{ documentId: note, status: 'draft' }] } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.pick).toBeNull();
    expect(await read(created.body.data.documentId, 'draft')).toEqual({ notes: [], pick: 'n v2 draft' });
  });

  it('lets filters reach a pinned link whatever the reader status, as Strapi joins it', async () => {
    const page = (
      await server.call('POST', '/api/pages', { body: { data: { title: 'filtered', notes: { connect: [{ documentId: note, status: 'draft' }] } } } })
    ).body.data.documentId;
    const found = await server.call('GET', '/api/pages?filters[notes][title]=n v2 draft&fields[0]=title');
    expect(found.body.data.map((p: any) => p.documentId)).toContain(page);
  });
});
