/**
 * A project's extension of users-permissions (src/extensions/users-permissions/strapi-server.js
 * of test/fixtures/projects/up-extension-js) works as on Strapi 5.54.0, which ran the same src/
 * on a copy of the peer (the answers below are what it gave): a wrapped core action
 * (auth.register refuses usernames starting with "admin", else calls the original), a replaced
 * one (user.me answers the user with its role), an added action and route (PUT /api/user/me →
 * user.updateMe, a grantable permission), a policy on a route whose action stays the plugin's
 * (GET /api/users/count), and login left to Folio's own route. On the code
 * before, the project did not start (`plugin.controllers.auth` was undefined). Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { knownActions } from '../../src/auth/actions';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('up-extension-js') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
/** The keys of Strapi's register and login answers' `user` (sanitized: no password, no tokens). */
const USER_KEYS = ['blocked', 'confirmed', 'createdAt', 'documentId', 'email', 'id', 'provider', 'publishedAt', 'updatedAt', 'username'];
let jwt = '';

describe('a wrapped core action (auth.register)', () => {
  test('the wrapper refuses a username starting with admin with its ApplicationError, and nobody is registered', async () => {
    const refused = await server.call('POST', '/api/auth/local/register', { body: { username: 'Admin-bob', email: 'bob@example.com', password: 'Secret123' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'This username is reserved', details: { field: 'username' } },
    });
    expect(await server.instance.users.count()).toBe(0);
  });

  test('otherwise the original registers the user: a JWT and the sanitized user, as Strapi answers', async () => {
    const registered = await server.call('POST', '/api/auth/local/register', { body: { username: 'bob', email: 'bob@example.com', password: 'Secret123' } });
    expect(registered.status).toBe(200);
    expect(typeof registered.body.jwt).toBe('string');
    expect(Object.keys(registered.body.user).sort()).toEqual(USER_KEYS);
    expect(registered.body.user).toMatchObject({ username: 'bob', email: 'bob@example.com', provider: 'local', confirmed: true, blocked: false });
    jwt = registered.body.jwt;
  });

  test("the original's errors pass through the wrapper as Strapi's do", async () => {
    const taken = await server.call('POST', '/api/auth/local/register', { body: { username: 'bob', email: 'bob@example.com', password: 'Secret123' } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Email or Username are already taken', details: {} } });
    const invalid = await server.call('POST', '/api/auth/local/register', { body: { username: 'carl', email: 'not-an-email', password: 'Secret123' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'email must be a valid email' });
  });
});

describe('an action left alone (auth.callback)', () => {
  test("login is Folio's own route, not the project's, and answers a JWT and the user", async () => {
    expect(server.instance.project!.match('POST', '/api/auth/local')).toBeUndefined();
    const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'bob@example.com', password: 'Secret123' } });
    expect(login.status).toBe(200);
    expect(typeof login.body.jwt).toBe('string');
    expect(Object.keys(login.body.user).sort()).toEqual(USER_KEYS);
    const wrong = await server.call('POST', '/api/auth/local', { body: { identifier: 'bob@example.com', password: 'wrong' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid identifier or password', details: {} } });
  });
});

describe('a replaced core action (user.me)', () => {
  test('GET /api/users/me answers the replacement: the user with its role', async () => {
    const me = await server.call('GET', '/api/users/me', { headers: bearer(jwt) });
    expect(me.status).toBe(200);
    const role = (await server.instance.roles.list()).find((r) => r.type === 'authenticated')!;
    expect(me.body).toEqual({
      id: expect.any(Number),
      username: 'bob',
      email: 'bob@example.com',
      confirmed: true,
      blocked: false,
      role: { id: role.id, name: 'Authenticated', type: 'authenticated' },
    });
  });

  test("without a JWT the route's permission refuses it first (403), as on Strapi", async () => {
    const anonymous = await server.call('GET', '/api/users/me');
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
  });
});

describe('an added action and route (PUT /api/user/me → user.updateMe)', () => {
  test('its action is a grantable permission, refused (403) until granted', async () => {
    expect(knownActions(server.instance.registry)).toContain('plugin::users-permissions.user.updateMe');
    const refused = await server.call('PUT', '/api/user/me', { headers: bearer(jwt), body: { username: 'bobby' } });
    expect(refused.status).toBe(403);
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.user.updateMe']);
  });

  test("granted, it changes the caller's username through the user service", async () => {
    const updated = await server.call('PUT', '/api/user/me', { headers: bearer(jwt), body: { username: 'bobby' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id: expect.any(Number), username: 'bobby', email: 'bob@example.com' });
    expect((await server.call('GET', '/api/users/me', { headers: bearer(jwt) })).body.username).toBe('bobby');
  });

  test('its ctx.badRequest and an anonymous caller answer as on Strapi', async () => {
    const short = await server.call('PUT', '/api/user/me', { headers: bearer(jwt), body: { username: 'a' } });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'username must be at least 3 characters', details: {} } });
    expect((await server.call('PUT', '/api/user/me', { body: { username: 'zzz' } })).status).toBe(403);
  });
});

describe("a policy put on a route whose action stays the plugin's (GET /api/users/count)", () => {
  test("the project's chain runs its policy, then Folio's own count answers", async () => {
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.user.count']);
    const refused = await server.call('GET', '/api/users/count', { headers: bearer(jwt) });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
    const counted = await server.call('GET', '/api/users/count', { headers: { ...bearer(jwt), 'x-count': 'yes' } });
    expect(counted.status).toBe(200);
    expect(counted.body).toBe(1);
    expect((await server.call('GET', '/api/users/count', { headers: { 'x-count': 'yes' } })).status).toBe(403);
  });
});

describe('the form written for Strapi 4 (plugin.controllers.auth.register = …)', () => {
  test('starts, and changes nothing of register, as on Strapi 5.54.0 (its auth controller is a factory); user.me is still replaced', async () => {
    const naive = await startServer({
      contentTypes: copyProject('blog-js', {
        'src/extensions/users-permissions/strapi-server.js': [
          'module.exports = (plugin) => {',
          '  const register = plugin.controllers.auth.register;',
          "  plugin.controllers.auth.register = async (ctx) => { if (ctx.request.body.username.startsWith('admin')) throw new Error('no'); await register(ctx); };",
          '  plugin.controllers.user.me = async (ctx) => { ctx.body = { mine: ctx.state.user.username }; };',
          '  return plugin;',
          '};',
        ].join('\n'),
      }),
    });
    try {
      const registered = await naive.call('POST', '/api/auth/local/register', {
        body: { username: 'administrator', email: 'a1@example.com', password: 'Secret123' },
      });
      expect(registered.status).toBe(200);
      expect(registered.body.user.username).toBe('administrator');
      expect((await naive.call('GET', '/api/users/me', { headers: bearer(registered.body.jwt) })).body).toEqual({ mine: 'administrator' });
    } finally {
      await naive.stop();
    }
  });
});
