/**
 * Details of the account routes where Folio used to differ from Strapi 5.54:
 * - a blocked account's forgot-password sends no mail and answers `{ ok: true }`;
 * - a new password over 72 bytes is "Password must be less than 73 bytes", before the code;
 * - register, forgot-password and send-email-confirmation are limited per path, client
 *   address and the body's e-mail (another address from the same client is not limited);
 *   login, reset-password and change-password per path and address; the confirmation link not;
 * - `/api/users/me?populate=role` leaves the role out unless the caller's role may read roles,
 *   and `fields` and `filters` apply;
 * - register takes `register.allowedFields` and gives `advanced.default_role`; the local
 *   provider can be turned off (`grant.email.enabled`).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

setDefaultTimeout(30_000);

let smtp: TestSmtpServer;
let server: TestServer;
const others: TestServer[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({ publicAccess: false, config: { smtpUrl: smtp.url(), authRateLimit: { max: 10_000, windowMs: 60_000 } } });
});
afterAll(async () => {
  await server.stop();
  for (const other of others) await other.stop();
  await smtp.close();
});

async function start(config: Parameters<typeof startServer>[0] = {}) {
  const other = await startServer({ publicAccess: false, ...config });
  others.push(other);
  return other;
}

const register = (s: TestServer, name: string, extra: Record<string, unknown> = {}) =>
  s.call('POST', '/api/auth/local/register', { body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!', ...extra } });
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('forgot-password', () => {
  it('sends a blocked account no mail and answers { ok: true } all the same', async () => {
    const user = (await register(server, 'blocky')).body.user;
    await server.instance.users.update(user.id, { blocked: true });
    const before = smtp.received.length;
    expect(await server.call('POST', '/api/auth/forgot-password', { body: { email: 'blocky@example.com' } })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    await settle();
    expect(smtp.received.length).toBe(before);
    await server.instance.users.update(user.id, { blocked: false });
    expect((await server.call('POST', '/api/auth/forgot-password', { body: { email: 'blocky@example.com' } })).body).toEqual({ ok: true });
    await smtp.waitFor(before + 1);
  });

  it('refuses keys other than email as Strapi’s schema does', async () => {
    const res = await server.call('POST', '/api/auth/forgot-password', { body: { email: 'blocky@example.com', x: 1 } });
    expect(res).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'this field has unspecified keys: x' } } });
  });
});

describe('new passwords', () => {
  it('are at most 72 bytes, checked before the reset code is looked up', async () => {
    const long = 'é'.repeat(37);
    const reset = await server.call('POST', '/api/auth/reset-password', { body: { code: 'not-a-code', password: long, passwordConfirmation: long } });
    expect(reset).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Password must be less than 73 bytes' } } });
    expect(JSON.stringify(reset.body)).not.toContain('é');
    const fits = 'é'.repeat(36);
    expect(
      (await server.call('POST', '/api/auth/reset-password', { body: { code: 'not-a-code', password: fits, passwordConfirmation: fits } })).body.error.message,
    ).toBe('Incorrect code provided');
    const reg = await server.call('POST', '/api/auth/local/register', { body: { username: 'longpw', email: 'longpw@example.com', password: 'x'.repeat(73) } });
    expect(reg.body.error.message).toBe('Password must be less than 73 bytes');
  });
});

describe('rate limits', () => {
  it('count register, forgot-password and send-email-confirmation per client, path and the body’s e-mail', async () => {
    const limited = await start({ config: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    for (const path of ['/api/auth/forgot-password', '/api/auth/send-email-confirmation']) {
      const send = (email: string) => limited.call('POST', path, { body: { email } });
      expect([(await send('a@example.com')).status, (await send('A@Example.com')).status, (await send('a@example.com')).status]).toEqual([200, 200, 429]);
      // Another address from the same client has a budget of its own.
      expect((await send('b@example.com')).status).toBe(200);
    }
    const reg = (name: string, email = `${name}@example.com`) =>
      limited.call('POST', '/api/auth/local/register', { body: { username: name, email, password: 'Passw0rd!' } });
    expect([
      (await reg('reg1', 'same@example.com')).status,
      (await reg('reg2', 'same@example.com')).status,
      (await reg('reg3', 'same@example.com')).status,
    ]).toEqual([200, 400, 429]);
    expect((await reg('reg4')).status).toBe(200);
  });

  it('count login, reset-password and change-password per client and path, whatever the body says', async () => {
    const limited = await start({ config: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    const login = (identifier: string) => limited.call('POST', '/api/auth/local', { body: { identifier, password: 'x', email: `${identifier}@example.com` } });
    expect([(await login('u1')).status, (await login('u2')).status, (await login('u3')).status]).toEqual([400, 400, 429]);
    const reset = (email: string) =>
      limited.call('POST', '/api/auth/reset-password', { body: { code: 'c', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!', email } });
    expect([(await reset('a@x.co')).status, (await reset('b@x.co')).status, (await reset('c@x.co')).status]).toEqual([400, 400, 429]);
  });

  it('leave the confirmation link alone', async () => {
    const limited = await start({ config: { authRateLimit: { max: 1, windowMs: 60_000 } } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/api/auth/email-confirmation?confirmation=x${i}`, { redirect: 'manual' })).status);
    expect(statuses).toEqual([400, 400, 400, 400]);
  });
});

describe('/api/users/me', () => {
  it('leaves the role out unless the caller’s role may read roles, and applies fields and filters', async () => {
    const reg = await register(server, 'meuser');
    const auth = { authorization: `Bearer ${reg.body.jwt}` };
    const me = (query: string) => server.call('GET', `/api/users/me${query}`, { headers: auth });
    expect((await me('?populate=role')).body).toEqual(reg.body.user);
    expect((await me('?populate=*')).body).toEqual(reg.body.user);
    expect((await me('?fields=username')).body).toEqual({ id: reg.body.user.id, documentId: reg.body.user.documentId, username: 'meuser' });
    expect((await me('?fields[0]=username&populate=role')).body).toEqual({ id: reg.body.user.id, documentId: reg.body.user.documentId, username: 'meuser' });
    expect((await me('?fields=password')).body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key password' });
    expect((await me('?populate=nope')).body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key nope' });
    // Filters that leave the caller out: 204, no body.
    const filtered = await me(`?filters[id]=${reg.body.user.id + 1000}`);
    expect([filtered.status, filtered.body]).toEqual([204, null]);
    // Unknown parameters are ignored on /me, as Strapi does.
    expect((await me('?foo=1')).body).toEqual(reg.body.user);
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.role.find']);
    try {
      expect((await me('?populate=role')).body.role).toMatchObject({ type: 'authenticated', name: 'Authenticated' });
    } finally {
      await server.instance.roles.revoke('authenticated', ['plugin::users-permissions.role.find']);
    }
  });
});

describe('register', () => {
  it('takes the attributes register.allowedFields names and refuses any other key', async () => {
    const project = await start({
      contentTypes: resolve(import.meta.dir, '../fixtures/strapi-project'),
      config: { usersPermissions: { register: { allowedFields: ['nickname'] } } },
    });
    const res = await register(project, 'nick', { nickname: 'Nicky' });
    expect(res.status).toBe(200);
    expect(res.body.user.nickname).toBe('Nicky');
    expect((await register(project, 'nick2', { favoriteColor: '#ffffff' })).body.error).toMatchObject({
      name: 'ValidationError',
      message: 'Invalid parameters: favoriteColor',
    });
  });

  it('gives advanced.default_role, and refuses when that role does not exist', async () => {
    const other = await start({ config: { usersPermissions: { advanced: { default_role: 'members' } } } });
    expect((await register(other, 'norole')).body.error).toMatchObject({ name: 'ApplicationError', message: 'Impossible to find the default role' });
    await other.instance.roles.create('Members');
    const res = await register(other, 'member');
    expect(res.status).toBe(200);
    expect((await other.instance.users.role(res.body.user.id))?.type).toBe('members');
  });

  it('refuses a username that is another account’s e-mail, as Strapi does', async () => {
    await register(server, 'crossed');
    const res = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'crossed@example.com', email: 'other-crossed@example.com', password: 'Passw0rd!' },
    });
    expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: 'Email or Username are already taken' });
  });
});

describe('the local provider', () => {
  it('refuses logins with "This provider is disabled" when grant.email.enabled is false', async () => {
    const other = await start({ config: { usersPermissions: { grant: { email: { enabled: false } } } } });
    await register(other, 'local1');
    expect((await other.call('POST', '/api/auth/local', { body: { identifier: 'local1', password: 'Passw0rd!' } })).body.error).toMatchObject({
      name: 'ApplicationError',
      message: 'This provider is disabled',
    });
  });
});

describe('bad input', () => {
  it('never answers 500: NUL characters and odd types in every account route are 400s', async () => {
    const nul = 'a\u0000b';
    const calls: [string, string, unknown][] = [
      ['POST', '/api/auth/local', { identifier: nul, password: nul }],
      ['POST', '/api/auth/local/register', { username: nul, email: `${nul}@example.com`, password: 'Passw0rd!' }],
      ['POST', '/api/auth/forgot-password', { email: `${nul}@example.com` }],
      ['POST', '/api/auth/send-email-confirmation', { email: `${nul}@example.com` }],
      ['POST', '/api/auth/send-email-confirmation', { email: { $ne: '' } }],
      ['POST', '/api/auth/reset-password', { code: nul, password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.call(method, path, { body });
      expect(`${path} ${res.status}`).toBe(`${path} 400`);
    }
    const link = await fetch(`${server.url}/api/auth/email-confirmation?confirmation=a%00b`, { redirect: 'manual' });
    expect(link.status).toBe(400);
  });
});
