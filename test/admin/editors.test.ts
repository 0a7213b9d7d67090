/**
 * /admin/api for the content manager's editors: the schema's components, an entry read with
 * everything its form shows (relations, media, components, dynamic zones), relations saved in
 * the exact order sent, uploads and the media picker, free uid values. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { startServer, type TestServer } from '../helpers/server';

const ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;
const TAG = `/admin/api/content/${encodeURIComponent('api::tag.tag')}`;
// The smallest valid PNG: one transparent pixel.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

describe('admin editors API', () => {
  let server: TestServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const response = await fetch(`${server.url}/admin/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'root@example.com', password: 'correct horse' }),
    });
    const { data } = (await response.json()) as { data: { csrfToken: string } };
    headers = { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken };
  }, 30_000);
  afterAll(() => server.stop());

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, { body, headers });
  const tag = async (name: string) => (await call('POST', TAG, { data: { name } })).body.data.documentId as string;

  async function upload(name: string, bytes: Uint8Array = PNG, type = 'image/png', extra: Record<string, string> = {}) {
    const form = new FormData();
    form.append('files', new File([bytes], name, { type }));
    return fetch(`${server.url}/admin/api/upload`, { method: 'POST', body: form, headers: { ...headers, ...extra } });
  }

  test('the schema carries every component with its attributes, and each type names its main field', async () => {
    const { body } = await call('GET', '/admin/api/schema');
    const seo = body.data.components.find((c: { uid: string }) => c.uid === 'shared.seo');
    expect(seo).toMatchObject({ displayName: 'Seo', category: 'shared' });
    expect(seo.attributes.map((a: { name: string }) => a.name)).toEqual(['metaTitle', 'metaDescription', 'shareImage']);
    const article = body.data.contentTypes.find((c: { uid: string }) => c.uid === 'api::article.article');
    expect(article.mainField).toBe('title');
    expect(article.attributes.find((a: { name: string }) => a.name === 'gallery')).toMatchObject({
      type: 'media',
      multiple: true,
      allowedTypes: ['images', 'videos'],
    });
  });

  test('an uploaded file is stored unattached, then saving an entry with relations in a chosen order, a component and a dynamic zone reads back whole and in that order', async () => {
    const uploaded = await upload('cover.png');
    expect(uploaded.status).toBe(201);
    const [file] = ((await uploaded.json()) as { data: { id: number; name: string }[] }).data;
    expect(file).toMatchObject({ name: 'cover.png', mime: 'image/png' });
    const [a, b, c] = [await tag('Alpha'), await tag('Beta'), await tag('Gamma')];
    const created = await call('POST', ARTICLE, {
      data: {
        title: 'Whole',
        tags: { set: [c, a, b] },
        cover: file!.id,
        seo: { metaTitle: 'Meta' },
        blocks: [
          { __component: 'shared.quote', title: 'Q' },
          { __component: 'shared.media', file: file!.id },
        ],
      },
    });
    expect(created.status).toBe(201);
    const doc = created.body.data;
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(['Gamma', 'Alpha', 'Beta']);
    expect(doc.cover).toMatchObject({ id: file!.id, name: 'cover.png' });
    expect(doc.seo).toMatchObject({ metaTitle: 'Meta', shareImage: null });
    expect(doc.blocks).toMatchObject([
      { __component: 'shared.quote', title: 'Q' },
      { __component: 'shared.media', file: { id: file!.id } },
    ]);
    // A new order through `set` is exactly the saved order.
    const moved = await call('PUT', `${ARTICLE}/${doc.documentId}?locale=en`, { data: { tags: { set: [b, c, a] } } });
    expect(moved.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect((await call('GET', `${ARTICLE}/${doc.documentId}`)).body.data.tags.map((t: { name: string }) => t.name)).toEqual(['Beta', 'Gamma', 'Alpha']);
  });

  test("a media field's picker reads the Media Library's listing: newest first, by name, by several types, paged; bad parameters are 400 envelopes", async () => {
    await upload('zebra-stripes.png');
    const all = await call('GET', '/admin/api/files');
    expect(all.status).toBe(200);
    expect(all.body.data[0].name).toBe('zebra-stripes.png');
    expect(all.body.meta).toEqual({ page: 1, pageSize: 24, hasMore: false });
    const found = await call('GET', '/admin/api/files?q=ZEBRA&type=image,video&page=1');
    expect(found.body.data.map((f: { name: string }) => f.name)).toEqual(['zebra-stripes.png']);
    expect((await call('GET', '/admin/api/files?q=ZEBRA&type=video,audio')).body.data).toEqual([]);
    for (const bad of ['?page=0', '?page=x', '?sort=name', '?q=%00', '?type=image,nope', '?type[0]=image']) {
      const r = await call('GET', `/admin/api/files${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    }
    // One listing: the picker's former route is gone.
    expect((await call('GET', '/admin/api/media-picker')).status).toBe(404);
  });

  test('an upload needs the session and its CSRF token, and a request without files is a 400 that stores nothing', async () => {
    const before = (await call('GET', '/admin/api/files')).body.data.length;
    const form = new FormData();
    form.append('files', new File([PNG], 'x.png', { type: 'image/png' }));
    expect((await fetch(`${server.url}/admin/api/upload`, { method: 'POST', body: form })).status).toBe(401);
    expect((await upload('y.png', PNG, 'image/png', { 'x-folio-csrf': 'wrong' })).status).toBe(403);
    const empty = await fetch(`${server.url}/admin/api/upload`, { method: 'POST', body: new FormData(), headers });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { name: string } }).error.name).toBe('ValidationError');
    expect((await call('GET', '/admin/api/files')).body.data.length).toBe(before);
  });

  test('a uid is the slug of its target field, suffixed while another entry of the locale holds it, and never counts the entry itself', async () => {
    const free = await call('POST', '/admin/api/uid', {
      contentType: 'api::article.article',
      field: 'slug',
      data: { title: 'Ça & Über fooBar!' },
      locale: 'en',
    });
    expect(free.body.data).toBe('ca-and-uber-foo-bar');
    const first = await call('POST', ARTICLE, { data: { title: 'Same', slug: 'same' } });
    await call('POST', ARTICLE, { data: { title: 'Same 1', slug: 'same-1' } });
    expect(
      (await call('POST', '/admin/api/uid', { contentType: 'api::article.article', field: 'slug', data: { title: 'Same' }, locale: 'en' })).body.data,
    ).toBe('same-2');
    expect(
      (
        await call('POST', '/admin/api/uid', {
          contentType: 'api::article.article',
          field: 'slug',
          data: { title: 'Same' },
          locale: 'en',
          documentId: first.body.data.documentId,
        })
      ).body.data,
    ).toBe('same');
    // Another locale's values do not count.
    expect(
      (await call('POST', '/admin/api/uid', { contentType: 'api::article.article', field: 'slug', data: { title: 'Same' }, locale: 'fr' })).body.data,
    ).toBe('same');
    for (const body of [
      { contentType: 'api::article.article', field: 'title' },
      { contentType: 'api::nope.nope', field: 'slug' },
      [1],
      { contentType: 'api::article.article', field: 'slug', data: { title: 'a\u0000b' } },
    ]) {
      const r = await call('POST', '/admin/api/uid', body);
      expect([400, 404]).toContain(r.status);
      expect(r.body.data).toBeNull();
    }
  });
});
