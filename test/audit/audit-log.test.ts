/**
 * The audit log (src/audit/): every content write event (with the document), every settings
 * change (permissions, roles, API tokens, webhooks, locales, users, admin users), every admin
 * login and failed login, with the actor, the client's address and what changed; never a
 * secret. `folio audit` and /admin/api/audit (Super Admins) read it. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import type { AuditEntry } from '../../src/audit/log';
import { startServer, type TestServer } from '../helpers/server';
import { killSpawned, spawnCli } from '../helpers/spawn';
import { makeImage } from '../upload/helpers';

async function folio(server: TestServer, args: string[]) {
  const config = server.instance.config;
  return spawnCli(args, { data: server.dataDir, contentTypes: config.contentTypesDir, database: config.databaseUrl });
}

async function login(server: TestServer, email: string, password = 'correct horse') {
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) return { status: response.status, headers: {} as Record<string, string> };
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const { data } = (await response.json()) as { data: { csrfToken: string } };
  return { status: 200, headers: { cookie, 'x-folio-csrf': data.csrfToken, origin: server.url } };
}

/** Rows newest first, as the admin and the CLI read them. */
const rows = (server: TestServer, filter: Parameters<TestServer['instance']['audit']['list']>[0] = {}) => server.instance.audit.list(filter);
const find = async (server: TestServer, action: string, where: (e: AuditEntry) => boolean = () => true) => (await rows(server, { action })).find(where);

afterEach(killSpawned);

describe('the audit log', () => {
  let server: TestServer;
  let superAdmin: Record<string, string>;
  const secrets: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse', role: 'super-admin' });
    secrets.push('correct horse', server.tokens.fullAccess, server.tokens.readOnly);
    superAdmin = (await login(server, 'root@example.com')).headers;
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  it('records each event of a content write with the document, the actor and the client address, in the write', async () => {
    const token = { authorization: `Bearer ${server.tokens.fullAccess}` };
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Audited' } }, headers: token });
    const id = created.body.data.documentId;
    const events = (await rows(server)).filter((e) => e.documentId === id);
    expect(events.map((e) => [e.action, e.type, e.locale, e.actor, e.ip]).reverse()).toEqual([
      ['entry.create', 'api::article.article', 'en', { kind: 'token', name: 'test-full' }, '127.0.0.1'],
      ['entry.publish', 'api::article.article', 'en', { kind: 'token', name: 'test-full' }, '127.0.0.1'],
    ]);
    expect(events[0]!.details).toEqual({ status: 'published' });
    expect((await server.call('DELETE', `/api/articles/${id}?locale=*`)).status).toBe(204);
    expect(await find(server, 'entry.delete', (e) => e.documentId === id)).toMatchObject({ locale: '*', actor: { kind: 'public', name: null } });

    const refused = await server.call('PUT', `/api/articles/${id}`, { body: { data: { title: 'x' } } });
    expect(refused.status).toBe(404);
    expect((await rows(server)).filter((e) => e.documentId === id && e.action === 'entry.update')).toEqual([]);

    const form = new FormData();
    form.append('files', new File([await makeImage(4, 4)], 'dot.png', { type: 'image/png' }));
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: token });
    const [file] = (await uploaded.json()) as { id: number; documentId: string }[];
    expect(await find(server, 'media.create')).toMatchObject({
      type: 'plugin::upload.file',
      documentId: file!.documentId,
      details: { id: file!.id, name: 'dot.png' },
      actor: { kind: 'token', name: 'test-full' },
    });
  });

  it('records settings changes from the admin by the admin, with what changed', async () => {
    const put = (path: string, body: unknown) => server.call('PUT', path, { body, headers: superAdmin });
    const post = (path: string, body: unknown) => server.call('POST', path, { body, headers: superAdmin });
    const admin = { kind: 'admin', name: 'root@example.com' };

    const role = await server.call('GET', '/admin/api/settings/roles/authenticated', { headers: superAdmin });
    const enabled = role.body.data.sections.flatMap((s: { actions: { action: string; enabled: boolean }[] }) =>
      s.actions.filter((a) => a.enabled).map((a) => a.action),
    );
    expect((await put('/admin/api/settings/roles/authenticated', { actions: [...enabled, 'api::tag.tag.find', 'api::tag.tag.findOne'] })).status).toBe(200);
    expect(await find(server, 'permissions.grant', (e) => e.actor.name === admin.name)).toMatchObject({
      actor: admin,
      ip: '127.0.0.1',
      type: 'role',
      details: { role: 'authenticated', actions: ['api::tag.tag.find', 'api::tag.tag.findOne'] },
    });
    expect((await put('/admin/api/settings/roles/authenticated', { actions: [...enabled, 'api::tag.tag.find'] })).status).toBe(200);
    expect(await find(server, 'permissions.revoke', (e) => e.actor.name === admin.name)).toMatchObject({
      details: { role: 'authenticated', actions: ['api::tag.tag.findOne'] },
    });

    const token = await post('/admin/api/settings/tokens', { name: 'deploy', type: 'custom', actions: ['api::article.article.find'], lifespanDays: 7 });
    expect(token.status).toBe(201);
    secrets.push(token.body.data.accessKey);
    expect(await find(server, 'api-token.create')).toMatchObject({
      actor: admin,
      details: { name: 'deploy', tokenType: 'custom', lifespanDays: 7, actions: ['api::article.article.find'] },
    });
    const regenerated = await post(`/admin/api/settings/tokens/${token.body.data.id}/regenerate`, {});
    secrets.push(regenerated.body.data.accessKey);
    expect(await find(server, 'api-token.regenerate')).toMatchObject({ actor: admin, details: { name: 'deploy' } });
    expect((await server.call('DELETE', `/admin/api/settings/tokens/${token.body.data.id}`, { headers: superAdmin })).status).toBe(204);
    expect(await find(server, 'api-token.delete')).toMatchObject({ actor: admin, details: { name: 'deploy' } });

    secrets.push('webhook-shared-secret', 'Bearer header-credential', 'url-password');
    const hook = await post('/admin/api/settings/webhooks', {
      name: 'builds',
      url: 'https://ci:url-password@ci.example/hook',
      events: ['entry.publish'],
      secret: 'webhook-shared-secret',
      headers: ['Authorization: Bearer header-credential'],
    });
    expect(hook.status).toBe(201);
    expect(await find(server, 'webhook.create')).toMatchObject({
      actor: admin,
      details: { name: 'builds', url: 'https://ci.example/hook', events: ['entry.publish'], signed: true, headers: ['Authorization'] },
    });
    await put('/admin/api/settings/webhooks/builds', { url: 'https://ci.example/other', events: ['entry.create'], secret: 'webhook-shared-secret' });
    expect(await find(server, 'webhook.update')).toMatchObject({
      details: { url: 'https://ci.example/other', events: ['entry.create'], replaced: ['secret'] },
    });
    await server.call('DELETE', '/admin/api/settings/webhooks/builds', { headers: superAdmin });
    expect(await find(server, 'webhook.delete')).toMatchObject({ details: { name: 'builds' } });

    await post('/admin/api/settings/locales', { code: 'de', name: 'German' });
    await put('/admin/api/settings/locales/de/default', {});
    await put('/admin/api/settings/locales/en/default', {});
    await server.call('DELETE', '/admin/api/settings/locales/de', { headers: superAdmin });
    expect(
      (await rows(server))
        .filter((e) => e.type === 'locale' && e.actor.name === admin.name)
        .map((e) => [e.action, e.locale])
        .reverse(),
    ).toEqual([
      ['locale.create', 'de'],
      ['locale.update', 'de'],
      ['locale.update', 'en'],
      ['locale.delete', 'de'],
    ]);

    secrets.push('editor password 1');
    const editor = await post('/admin/api/settings/admins', { email: 'ed@example.com', password: 'editor password 1', role: 'editor' });
    await put(`/admin/api/settings/admins/${editor.body.data.id}`, { role: 'super-admin' });
    await server.call('DELETE', `/admin/api/settings/admins/${editor.body.data.id}`, { headers: superAdmin });
    expect(
      (await rows(server))
        .filter((e) => e.type === 'admin-user' && e.action.startsWith('admin-user.'))
        .map((e) => [e.action, e.details.email, e.details.role])
        .reverse(),
    ).toEqual([
      ['admin-user.create', 'ed@example.com', 'editor'],
      ['admin-user.update', 'ed@example.com', 'super-admin'],
      ['admin-user.delete', 'ed@example.com', undefined],
    ]);

    secrets.push('user password 1');
    const user = await server.instance.users.create({ username: 'blockme', email: 'blockme@example.com', password: 'user password 1' });
    await put(`/admin/api/settings/users/${user.id}`, { blocked: true });
    expect(await find(server, 'user.update', (e) => e.details.username === 'blockme')).toMatchObject({
      actor: admin,
      details: { fields: ['blocked'], blocked: true },
    });
  });

  it("records changes through the content API and the CLI, and an account's password changes without the password or the code", async () => {
    const token = { authorization: `Bearer ${server.tokens.fullAccess}` };
    const role = await server.call('POST', '/api/users-permissions/roles', { body: { name: 'Reviewers', description: 'r' }, headers: token });
    expect(role.status).toBe(200);
    expect(await find(server, 'role.create', (e) => e.details.role === 'reviewers')).toMatchObject({
      actor: { kind: 'token', name: 'test-full' },
      ip: '127.0.0.1',
    });

    secrets.push('first password 1', 'second password 2', 'third password 3');
    const registered = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'reg', email: 'reg@example.com', password: 'first password 1' },
    });
    expect(await find(server, 'user.create', (e) => e.details.username === 'reg')).toMatchObject({
      actor: { kind: 'public', name: null },
      type: 'plugin::users-permissions.user',
    });
    const changed = await server.call('POST', '/api/auth/change-password', {
      body: { currentPassword: 'first password 1', password: 'second password 2', passwordConfirmation: 'second password 2' },
      headers: { authorization: `Bearer ${registered.body.jwt}` },
    });
    expect(changed.status).toBe(200);
    expect(await find(server, 'user.update', (e) => e.actor.name === 'reg')).toMatchObject({ details: { fields: ['password'] } });
    const code = await server.instance.users.createResetCode((await server.instance.users.findByEmail('reg@example.com'))!.id);
    secrets.push(code);
    const reset = await server.call('POST', '/api/auth/reset-password', {
      body: { code, password: 'third password 3', passwordConfirmation: 'third password 3' },
    });
    expect(reset.status).toBe(200);

    const grant = await folio(server, ['permissions', 'grant', 'public', 'plugin::upload.content-api.find']);
    expect(grant.code).toBe(0);
    const created = await folio(server, ['token', 'create', '--name', 'from-cli', '--type', 'read-only']);
    expect(created.code).toBe(0);
    const key = created.stdout.match(/[0-9a-f]{64,}/)?.[0];
    expect(key).toBeDefined();
    secrets.push(key!);
    expect(await find(server, 'api-token.create', (e) => e.details.name === 'from-cli')).toMatchObject({ actor: { kind: 'cli', name: null }, ip: null });
  }, 30_000);

  it('records admin logins and failed logins with the address and the email tried', async () => {
    await login(server, 'root@example.com');
    expect((await login(server, 'root@example.com', 'wrong password 9')).status).toBe(401);
    secrets.push('wrong password 9');
    expect((await rows(server, { action: 'admin.login' }))[0]).toMatchObject({ actor: { kind: 'admin', name: 'root@example.com' }, ip: '127.0.0.1' });
    expect((await rows(server, { action: 'admin.login-failed' }))[0]).toMatchObject({
      actor: { kind: 'public', name: null },
      ip: '127.0.0.1',
      details: { email: 'root@example.com' },
    });
  });

  it('never holds a secret: passwords, token keys, reset codes, webhook secrets and header values', async () => {
    const all = JSON.stringify(await server.instance.db.all('SELECT * FROM folio_audit'));
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
  });

  it('is read by folio audit (--since, --actor, --json) and by Super Admins only at /admin/api/audit', async () => {
    const all = await folio(server, ['audit', '--json']);
    expect(all.code).toBe(0);
    const parsed = JSON.parse(all.stdout) as Omit<AuditEntry, 'id'>[];
    expect(parsed.length).toBe((await server.instance.audit.list({ limit: 500 })).length);
    expect(Object.keys(parsed[0]!).sort()).toEqual(['action', 'actor', 'at', 'details', 'documentId', 'ip', 'locale', 'type']);
    const byAdmin = JSON.parse((await folio(server, ['audit', '--actor', 'root@example.com', '--json'])).stdout) as AuditEntry[];
    expect(byAdmin.length).toBeGreaterThan(5);
    expect(byAdmin.every((e) => e.actor.name === 'root@example.com')).toBe(true);
    const byCli = (await folio(server, ['audit', '--actor', 'cli'])).stdout.trim().split('\n');
    expect(byCli.length).toBe(2);
    expect(byCli[0]).toMatch(/^\S+Z\tcli\tapi-token\.create\tapi-token\t-\t-\t-\t\{"name":"from-cli","tokenType":"read-only"\}$/);
    expect(byCli[1]).toMatch(/\tcli\tpermissions\.grant\trole\t-\t-\t-\t\{"role":"public","actions":\["plugin::upload\.content-api\.find"\]\}$/);
    const later = await folio(server, ['audit', '--since', new Date(Date.now() + 60_000).toISOString()]);
    expect(later.stdout.trim()).toBe('no audit rows');
    expect((await folio(server, ['audit', '--since', 'yesterday-ish'])).code).toBe(2);

    const page = await server.call('GET', '/admin/api/audit?limit=3&actor=root@example.com', { headers: superAdmin });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(3);
    expect(page.body.meta).toMatchObject({ hasMore: true, enabled: true, days: 90 });
    const next = await server.call('GET', `/admin/api/audit?limit=3&actor=root@example.com&before=${page.body.data[2].id}`, { headers: superAdmin });
    expect(next.body.data[0].id).toBeLessThan(page.body.data[2].id);
    expect((await server.call('GET', '/admin/api/audit?bogus=1', { headers: superAdmin })).status).toBe(400);
    expect((await server.call('GET', '/admin/api/audit?since=never', { headers: superAdmin })).status).toBe(400);
    expect((await server.call('GET', '/admin/api/audit')).status).toBe(401);
    await new AdminAccounts(server.instance.db).create({ email: 'viewer@example.com', password: 'correct horse', role: 'editor' });
    expect((await server.call('GET', '/admin/api/audit', { headers: (await login(server, 'viewer@example.com')).headers })).status).toBe(403);
  }, 30_000);

  it('forgets rows older than FOLIO_AUDIT_DAYS, and logs nothing with FOLIO_AUDIT_DAYS=0', async () => {
    const [newest] = await rows(server, { limit: 1 });
    await server.instance.db.run(`UPDATE folio_audit SET "at" = '2000-01-01T00:00:00.000Z' WHERE "id" < ${newest!.id}`);
    expect(await server.instance.audit.prune()).toBeGreaterThan(10);
    expect((await rows(server)).map((e) => e.id)).toEqual([newest!.id]);

    const off = await startServer({ config: { auditDays: 0 } });
    try {
      await off.call('POST', '/api/articles', { body: { data: { title: 'Not logged' } } });
      await off.instance.roles.grant('authenticated', ['api::tag.tag.find']);
      expect(Number((await off.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_audit'))!.n)).toBe(0);
    } finally {
      await off.stop();
    }
  }, 30_000);
});
