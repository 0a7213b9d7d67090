/**
 * What the edit view's side panel reads with a document over /admin/api: its badge, when its
 * published version was published, and every locale version with its own badge and dates;
 * and the schema's defaults, which a new entry's form starts from. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { startServer, type TestServer } from '../helpers/server';

const ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;
const GLOBAL = `/admin/api/content/${encodeURIComponent('api::global.global')}`;
const HOMEPAGE = `/admin/api/content/${encodeURIComponent('api::homepage.homepage')}`;

describe('the edit view side panel over /admin/api', () => {
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
  afterAll(() => server.stop(), 30_000);

  const call = (method: string, path: string, body?: unknown) => server.call(method, path, { body, headers });

  test('a document is read with each locale version: its badge, when it was saved and published', async () => {
    const made = await call('POST', `${ARTICLE}?locale=en`, { data: { title: 'Panel EN' } });
    expect(made.status).toBe(201);
    const id = made.body.data.documentId;
    expect(made.body.meta).toMatchObject({ status: 'draft', publishedAt: null, availableLocales: [{ locale: 'en', status: 'draft', publishedAt: null }] });

    expect((await call('PUT', `${ARTICLE}/${id}?locale=fr`, { data: { title: 'Panel FR' } })).status).toBe(200);
    const published = await call('POST', `${ARTICLE}/${id}/actions/publish?locale=fr`);
    expect(published.body.meta.status).toBe('published');
    expect(typeof published.body.meta.publishedAt).toBe('string');

    const en = await call('GET', `${ARTICLE}/${id}?locale=en`);
    const versions = en.body.meta.availableLocales;
    expect(versions.map((v: { locale: string; status: string }) => [v.locale, v.status])).toEqual([
      ['en', 'draft'],
      ['fr', 'published'],
    ]);
    expect(versions[1].publishedAt).toBe(published.body.meta.publishedAt);
    expect(typeof versions[0].updatedAt).toBe('string');

    // Saved after publishing: modified, still published at the same time.
    await call('PUT', `${ARTICLE}/${id}?locale=fr`, { data: { title: 'Panel FR, edited' } });
    const fr = await call('GET', `${ARTICLE}/${id}?locale=fr`);
    expect(fr.body.meta).toMatchObject({ status: 'modified', publishedAt: published.body.meta.publishedAt });
    expect(fr.body.meta.availableLocales.find((v: { locale: string }) => v.locale === 'fr').status).toBe('modified');
  });

  test('a single type is read with when it was published; one without draft & publish has no badge', async () => {
    expect((await call('PUT', `${HOMEPAGE}/single`, { data: { headline: 'Home' } })).status).toBe(200);
    const published = await call('POST', `${HOMEPAGE}/single/actions/publish`);
    expect(published.status).toBe(200);
    expect(published.body.meta.status).toBe('published');
    expect(typeof published.body.meta.publishedAt).toBe('string');
    expect(published.body.meta.availableLocales.map((v: { locale: string }) => v.locale)).toEqual(['en']);

    const saved = await call('PUT', `${GLOBAL}/single`, { data: { siteName: 'Site' } });
    expect(saved.status).toBe(200);
    expect(saved.body.meta).toEqual({
      status: null,
      publishedAt: null,
      previewUrl: null,
      createdBy: { kind: 'admin', name: 'root@example.com' },
      updatedBy: { kind: 'admin', name: 'root@example.com' },
    });
  });

  test('a document is read with who created it and who wrote it last, as history keeps them, in each locale', async () => {
    const made = await call('POST', `${ARTICLE}?locale=en`, { data: { title: 'By whom' } });
    const id = made.body.data.documentId;
    expect(made.body.meta).toMatchObject({ createdBy: { kind: 'admin', name: 'root@example.com' }, updatedBy: { kind: 'admin', name: 'root@example.com' } });
    // Written since through the content API with a token: the last writer is the token.
    const put = await server.call('PUT', `/api/articles/${id}?locale=en`, {
      body: { data: { title: 'By whom, edited' } },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    expect(put.status).toBe(200);
    const en = await call('GET', `${ARTICLE}/${id}?locale=en`);
    expect(en.body.meta).toMatchObject({ createdBy: { kind: 'admin', name: 'root@example.com' }, updatedBy: { kind: 'token', name: 'test-full' } });
    // Another locale has its own: created by the token.
    await server.call('PUT', `/api/articles/${id}?locale=fr`, {
      body: { data: { title: 'Par qui' } },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    const fr = await call('GET', `${ARTICLE}/${id}?locale=fr`);
    expect(fr.body.meta).toMatchObject({ createdBy: { kind: 'token', name: 'test-full' }, updatedBy: { kind: 'token', name: 'test-full' } });
  });

  test("the schema carries each attribute's default, never a password's", async () => {
    const { body } = await call('GET', '/admin/api/schema');
    const article = body.data.contentTypes.find((c: { uid: string }) => c.uid === 'api::article.article');
    const attribute = (name: string) => article.attributes.find((a: { name: string }) => a.name === name);
    expect(attribute('kind').default).toBe('news');
    expect(attribute('featured').default).toBe(false);
    expect(attribute('title').default).toBeUndefined();
  });
});
