/**
 * /admin/api/settings over plain HTTP (an admin session cookie + CSRF): only a Super Admin
 * reaches it, every bad input is a 400 envelope naming its field and changes nothing, and
 * each setting takes effect on the content API at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { startServer, type TestServer } from '../helpers/server';

const S = '/admin/api/settings';

async function login(server: TestServer, email: string, password: string) {
  const response = await server.call('POST', '/admin/api/login', { body: { email, password } });
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, 'x-folio-csrf': response.body.data.csrfToken as string };
}

describe('admin settings API', () => {
  let server: TestServer;
  let root: Record<string, string>;
  let editor: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
    root = await login(server, 'root@example.com', 'correct horse');
    editor = await login(server, 'ed@example.com', 'editor password');
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  test('an Editor gets 403 on every settings route, reads and writes alike, and a refused write changes nothing', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `${S}/roles`],
      ['POST', `${S}/roles`, { name: 'Sneaky' }],
      ['GET', `${S}/roles/public`],
      ['PUT', `${S}/roles/public`, { actions: ['api::article.article.find'] }],
      ['DELETE', `${S}/roles/authenticated`],
      ['GET', `${S}/tokens`],
      ['POST', `${S}/tokens`, { name: 'x', type: 'full-access' }],
      ['DELETE', `${S}/tokens/1`],
      ['GET', `${S}/locales`],
      ['POST', `${S}/locales`, { code: 'de' }],
      ['PUT', `${S}/locales/fr/default`],
      ['DELETE', `${S}/locales/fr`],
      ['GET', `${S}/webhooks`],
      ['POST', `${S}/webhooks`, { name: 'w', url: 'http://127.0.0.1:9/', events: ['entry.create'] }],
      ['GET', `${S}/users`],
      ['PUT', `${S}/users/1`, { blocked: true }],
      ['GET', `${S}/admins`],
      ['POST', `${S}/admins`, { email: 'new@example.com', password: 'long enough', role: 'super-admin' }],
      ['PUT', `${S}/admins/2`, { role: 'super-admin' }],
      ['DELETE', `${S}/admins/1`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await server.call(method, path, { body, headers: editor });
      expect([method, path, answer.status]).toEqual([method, path, 403]);
      expect(answer.body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
    }
    expect((await server.call('GET', `${S}/roles`, { headers: root })).status).toBe(200);
    expect(await server.instance.roles.find('sneaky')).toBeUndefined();
    expect([...(await server.instance.roles.actions('public'))]).not.toContain('api::article.article.find');
    expect(await server.instance.locales.exists('de')).toBe(false);
    expect((await new AdminAccounts(server.instance.db).list()).map((a) => [a.email, a.role])).toEqual([
      ['root@example.com', 'super-admin'],
      ['ed@example.com', 'editor'],
    ]);
    // Without a session: 401; a Super Admin without the CSRF token: 403.
    expect((await server.call('GET', `${S}/roles`)).status).toBe(401);
    expect((await server.call('POST', `${S}/locales`, { body: { code: 'de' }, headers: { cookie: root.cookie! } })).status).toBe(403);
  });

  test('saving a role grants exactly the checked actions, at once on the API; an unknown action is a 400 that changes nothing', async () => {
    expect((await server.call('GET', '/api/articles')).status).toBe(403);
    const page = await server.call('GET', `${S}/roles/public`, { headers: root });
    const article = page.body.data.sections.find((s: { label: string }) => s.label === 'Article');
    expect(article.actions.map((a: { name: string }) => a.name)).toEqual([
      'find',
      'findOne',
      'create',
      'update',
      'delete',
      'publish',
      'unpublish',
      'discardDraft',
    ]);
    const kept = page.body.data.sections.flatMap((s: { actions: { action: string; enabled: boolean }[] }) =>
      s.actions.filter((a) => a.enabled).map((a) => a.action),
    );
    const bad = await server.call('PUT', `${S}/roles/public`, { body: { actions: [...kept, 'api::nope.nope.find'] }, headers: root });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['actions']);
    expect((await server.call('PUT', `${S}/roles/public`, { body: { actions: 'everything' }, headers: root })).status).toBe(400);
    expect((await server.call('GET', '/api/articles')).status).toBe(403);
    const saved = await server.call('PUT', `${S}/roles/public`, { body: { actions: [...kept, 'api::article.article.find'] }, headers: root });
    expect(saved.status).toBe(200);
    expect((await server.call('GET', '/api/articles')).status).toBe(200);
    expect((await server.call('GET', '/api/articles/x')).status).toBe(403);
    // Login (a default public grant) still works: the grants not touched stay.
    expect([...(await server.instance.roles.actions('public'))]).toContain('plugin::users-permissions.auth.callback');
    expect((await server.call('PUT', `${S}/roles/nobody`, { body: { actions: [] }, headers: root })).status).toBe(404);
  });

  test('custom roles are created and deleted; the built-in roles cannot be deleted', async () => {
    expect((await server.call('POST', `${S}/roles`, { body: { name: '' }, headers: root })).body.error.details.errors[0].path).toEqual(['name']);
    const made = await server.call('POST', `${S}/roles`, { body: { name: 'Reviewers', description: 'Read drafts' }, headers: root });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ type: 'reviewers', name: 'Reviewers' });
    expect((await server.call('POST', `${S}/roles`, { body: { name: 'Reviewers' }, headers: root })).status).toBe(400);
    expect((await server.call('DELETE', `${S}/roles/public`, { headers: root })).status).toBe(400);
    expect((await server.call('DELETE', `${S}/roles/reviewers`, { headers: root })).status).toBe(204);
    expect(await server.instance.roles.find('reviewers')).toBeUndefined();
  });

  test('a token is created with its key shown once; the key works on /api, regenerate replaces it and revoke ends it; bad input names its field', async () => {
    for (const [body, field] of [
      [{ name: 'ci', type: 'owner' }, 'type'],
      [{ name: 'ci', type: 'read-only', lifespanDays: -3 }, 'lifespanDays'],
      [{ name: 'ci', type: 'custom', actions: [] }, 'actions'],
      [{ name: 'ci', type: 'custom', actions: ['api::nope.nope.find'] }, 'actions'],
      [{ name: 'test-full', type: 'read-only' }, 'name'],
      [{ name: 'x\u0000', type: 'read-only' }, 'name'],
    ] as const) {
      const answer = await server.call('POST', `${S}/tokens`, { body, headers: root });
      expect([field, answer.status, answer.body.error.details.errors[0].path]).toEqual([field, 400, [field]]);
    }
    expect((await server.instance.tokens.list()).map((t) => t.name).sort()).toEqual(['test-full', 'test-read']);
    const made = await server.call('POST', `${S}/tokens`, {
      body: { name: 'ci', type: 'custom', actions: ['api::article.article.find'], lifespanDays: 7 },
      headers: root,
    });
    expect(made.status).toBe(201);
    const key = made.body.data.accessKey as string;
    expect(made.body.data.expiresAt).toBeString();
    const list = await server.call('GET', `${S}/tokens`, { headers: root });
    expect(JSON.stringify(list.body)).not.toContain(key);
    const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
    expect((await server.call('GET', '/api/articles', { headers: bearer(key) })).status).toBe(200);
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'x' } }, headers: bearer(key) })).status).toBe(403);
    const again = await server.call('POST', `${S}/tokens/${made.body.data.id}/regenerate`, { headers: root });
    expect((await server.call('GET', '/api/articles', { headers: bearer(key) })).status).toBe(401);
    expect((await server.call('GET', '/api/articles', { headers: bearer(again.body.data.accessKey) })).status).toBe(200);
    expect((await server.call('DELETE', `${S}/tokens/${made.body.data.id}`, { headers: root })).status).toBe(204);
    expect((await server.call('GET', '/api/articles', { headers: bearer(again.body.data.accessKey) })).status).toBe(401);
    expect((await server.call('DELETE', `${S}/tokens/abc`, { headers: root })).status).toBe(404);
  });

  test('locales are added, made default and removed; the default locale cannot be removed; a bad code is a 400', async () => {
    await server.instance.roles.grant('public', ['plugin::i18n.locales.listLocales']);
    const codes = async () => (await server.call('GET', '/api/i18n/locales')).body.map((l: { code: string }) => l.code);
    expect((await server.call('POST', `${S}/locales`, { body: { code: 'not a code' }, headers: root })).body.error.details.errors[0].path).toEqual(['code']);
    expect((await server.call('POST', `${S}/locales`, { body: { code: 'fr' }, headers: root })).status).toBe(400);
    expect((await server.call('POST', `${S}/locales`, { body: { code: 'de', name: 'German (de)' }, headers: root })).status).toBe(201);
    expect(await codes()).toContain('de');
    expect((await server.call('PUT', `${S}/locales/de/default`, { headers: root })).status).toBe(200);
    expect(await server.instance.locales.defaultCode()).toBe('de');
    expect((await server.call('DELETE', `${S}/locales/de`, { headers: root })).status).toBe(400);
    await server.call('PUT', `${S}/locales/en/default`, { headers: root });
    expect((await server.call('DELETE', `${S}/locales/de`, { headers: root })).status).toBe(204);
    expect(await codes()).not.toContain('de');
    expect((await server.call('DELETE', `${S}/locales/zz`, { headers: root })).status).toBe(404);
  });

  test('a blocked user cannot log in until unblocked; a user gets another role; search finds by email', async () => {
    const user = await server.instance.users.create({ email: 'reader@example.com', username: 'reader', password: 'reader password', role: 'authenticated' });
    const loginAs = () => server.call('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'reader password' } });
    expect((await loginAs()).status).toBe(200);
    const found = await server.call('GET', `${S}/users?q=READER@`, { headers: root });
    expect(found.body.data.map((u: { email: string }) => u.email)).toEqual(['reader@example.com']);
    expect(found.body.data[0].role.type).toBe('authenticated');
    expect((await server.call('PUT', `${S}/users/${user.id}`, { body: { blocked: 'yes' }, headers: root })).status).toBe(400);
    expect((await server.call('PUT', `${S}/users/${user.id}`, { body: { role: 'public' }, headers: root })).status).toBe(400);
    expect((await server.call('PUT', `${S}/users/${user.id}`, { body: { blocked: true }, headers: root })).body.data.blocked).toBe(true);
    expect((await loginAs()).status).toBe(400);
    await server.call('PUT', `${S}/users/${user.id}`, { body: { blocked: false }, headers: root });
    expect((await loginAs()).status).toBe(200);
    await server.instance.roles.create('Members');
    expect((await server.call('PUT', `${S}/users/${user.id}`, { body: { role: 'members' }, headers: root })).body.data.role.type).toBe('members');
    expect((await server.call('PUT', `${S}/users/999999`, { body: { blocked: true }, headers: root })).status).toBe(404);
  });

  test("admin users: create an Editor, change roles, delete; never the last Super Admin, and a deleted admin's session ends", async () => {
    const ids = async () => (await server.call('GET', `${S}/admins`, { headers: root })).body.data;
    const [me] = await ids();
    expect((await server.call('PUT', `${S}/admins/${me.id}`, { body: { role: 'editor' }, headers: root })).status).toBe(400);
    expect((await server.call('DELETE', `${S}/admins/${me.id}`, { headers: root })).status).toBe(400);
    expect(
      (await server.call('POST', `${S}/admins`, { body: { email: 'bad', password: 'x', role: 'owner' }, headers: root })).body.error.details.errors
        .map((e: { path: string[] }) => e.path[0])
        .sort(),
    ).toEqual(['email', 'password', 'role']);
    const made = await server.call('POST', `${S}/admins`, {
      body: { email: 'second@example.com', password: 'second password', role: 'editor' },
      headers: root,
    });
    expect(made.body.data).toMatchObject({ email: 'second@example.com', role: 'editor' });
    const second = await login(server, 'second@example.com', 'second password');
    expect((await server.call('GET', `${S}/roles`, { headers: second })).status).toBe(403);
    expect((await server.call('PUT', `${S}/admins/${made.body.data.id}`, { body: { role: 'super-admin' }, headers: root })).body.data.role).toBe('super-admin');
    expect((await server.call('GET', `${S}/roles`, { headers: second })).status).toBe(200);
    // Now two Super Admins: one may step down.
    expect((await server.call('PUT', `${S}/admins/${made.body.data.id}`, { body: { role: 'editor' }, headers: root })).status).toBe(200);
    expect((await server.call('DELETE', `${S}/admins/${made.body.data.id}`, { headers: root })).status).toBe(204);
    expect((await server.call('GET', '/admin/api/schema', { headers: second })).status).toBe(401);
  });

  test('a webhook is edited without losing its log; bad input names its field', async () => {
    const bad = await server.call('POST', `${S}/webhooks`, { body: { name: 'hook', url: 'ftp://x', events: ['entry.create'] }, headers: root });
    expect(bad.body.error.details.errors[0].path).toEqual(['url']);
    expect((await server.call('POST', `${S}/webhooks`, { body: { name: 'hook', url: 'http://127.0.0.1:9/', events: ['nope'] }, headers: root })).status).toBe(
      400,
    );
    expect(
      (
        await server.call('POST', `${S}/webhooks`, {
          body: { name: 'hook', url: 'http://127.0.0.1:9/', events: ['entry.create'], secret: 's3cret' },
          headers: root,
        })
      ).status,
    ).toBe(201);
    // Port 9 (discard) refuses the connection: a failed attempt in the log.
    const tested = await server.call('POST', `${S}/webhooks/hook/test`, { headers: root });
    expect(tested.body.data.status).toBeNull();
    const edited = await server.call('PUT', `${S}/webhooks/hook`, {
      body: { url: 'http://127.0.0.1:9/other', events: ['entry.update', 'media.create'] },
      headers: root,
    });
    expect(edited.body.data).toMatchObject({ url: 'http://127.0.0.1:9/other', events: ['entry.update', 'media.create'], signed: true });
    const log = await server.call('GET', `${S}/webhooks/hook/deliveries`, { headers: root });
    expect(log.body.data.map((a: { event: string }) => a.event)).toEqual(['trigger-test']);
    expect((await server.call('GET', `${S}/webhooks/nope/deliveries`, { headers: root })).status).toBe(404);
    expect((await server.call('DELETE', `${S}/webhooks/hook`, { headers: root })).status).toBe(204);
    expect(await server.instance.webhooks.list()).toEqual([]);
  });
});
