/**
 * An admin's own account and the home page's lists over /admin/api: the name an admin gives
 * themselves, a password change that needs the current password and ends their other
 * sessions, and the recent drafts and publications across types and locales. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { startServer, type TestServer } from '../helpers/server';

async function login(server: TestServer, email: string, password: string) {
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) return { status: response.status, headers: {} as Record<string, string> };
  const { data } = (await response.json()) as { data: { csrfToken: string } };
  return { status: 200, headers: { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken } };
}

describe('the admin profile and the home page', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  test('an admin (an Editor too) names themselves; the session says so; bad names are 400s naming the field', async () => {
    const { headers } = await login(server, 'ed@example.com', 'editor password');
    expect((await server.call('GET', '/admin/api/me', { headers })).body.data).toEqual({
      id: 2,
      email: 'ed@example.com',
      role: 'editor',
      firstname: null,
      lastname: null,
    });
    const put = await server.call('PUT', '/admin/api/me', { body: { firstname: ' Ada ', lastname: 'Lovelace' }, headers });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace' });
    expect((await server.call('GET', '/admin/api/session', { headers })).body.data.user).toMatchObject({
      email: 'ed@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
    });
    const bad = await server.call('PUT', '/admin/api/me', { body: { firstname: 'x'.repeat(101), lastname: 3 }, headers });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['firstname', 'lastname']);
    expect((await server.call('GET', '/admin/api/me', { headers })).body.data.firstname).toBe('Ada');
    // No CSRF token, no change; no session, 401.
    expect((await server.call('PUT', '/admin/api/me', { body: { firstname: 'Eve' }, headers: { cookie: headers.cookie! } })).status).toBe(403);
    expect((await server.call('PUT', '/admin/api/me', { body: { firstname: 'Eve' } })).status).toBe(401);
  });

  test('a password change needs the current password, keeps this session and ends the others', async () => {
    const mine = await login(server, 'root@example.com', 'correct horse');
    const other = await login(server, 'root@example.com', 'correct horse');
    const wrong = await server.call('PUT', '/admin/api/me/password', {
      body: { currentPassword: 'not it', password: 'a new password' },
      headers: mine.headers,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.errors).toEqual([{ path: ['currentPassword'], message: 'The current password is not right' }]);
    const short = await server.call('PUT', '/admin/api/me/password', { body: { currentPassword: 'correct horse', password: 'short' }, headers: mine.headers });
    expect(short.body.error.details.errors[0].path).toEqual(['password']);
    expect(
      (await server.call('PUT', '/admin/api/me/password', { body: { currentPassword: 'correct horse', password: 'a new password' }, headers: mine.headers }))
        .status,
    ).toBe(204);
    expect((await server.call('GET', '/admin/api/me', { headers: mine.headers })).status).toBe(200);
    expect((await server.call('GET', '/admin/api/me', { headers: other.headers })).status).toBe(401);
    expect((await login(server, 'root@example.com', 'correct horse')).status).toBe(401);
    expect((await login(server, 'root@example.com', 'a new password')).status).toBe(200);
  });

  test('the home page lists the latest drafts (draft or modified) and the latest publications, across types and locales', async () => {
    const { headers } = await login(server, 'root@example.com', 'a new password');
    const article = (title: string, query = '') =>
      server.call('POST', `/admin/api/content/api::article.article${query}`, { body: { data: { title } }, headers });
    const draft = (await article('A fresh draft')).body.data.documentId;
    const live = (await article('Live story')).body.data.documentId;
    await server.call('POST', `/admin/api/content/api::article.article/${live}/actions/publish`, { headers });
    const changed = (await article('Changed after publishing')).body.data.documentId;
    await server.call('POST', `/admin/api/content/api::article.article/${changed}/actions/publish`, { headers });
    await server.call('PUT', `/admin/api/content/api::article.article/${changed}`, { body: { data: { summary: 'edited' } }, headers });
    await server.call('PUT', `/admin/api/content/api::article.article/${draft}?locale=fr`, { body: { data: { title: 'Un brouillon' } }, headers });
    await server.call('POST', '/admin/api/content/api::tag.tag', { body: { data: { name: 'A tag' } }, headers });

    const { data } = (await server.call('GET', '/admin/api/recent', { headers })).body;
    expect(data.drafts.map((d: { title: string; locale: string | null; status: string }) => [d.title, d.locale, d.status])).toEqual([
      ['A tag', null, 'draft'],
      ['Un brouillon', 'fr', 'draft'],
      ['Changed after publishing', 'en', 'modified'],
      ['A fresh draft', 'en', 'draft'],
    ]);
    expect(data.published.map((d: { title: string; type: string }) => [d.title, d.type])).toEqual([
      ['Changed after publishing', 'Article'],
      ['Live story', 'Article'],
    ]);
    expect(data.drafts[1]).toMatchObject({ uid: 'api::article.article', documentId: draft, type: 'Article' });
    expect(data.drafts[0]).toMatchObject({ uid: 'api::tag.tag', type: 'Tag' });
    expect((await server.call('GET', '/admin/api/recent')).status).toBe(401);
  });
});
