/**
 * Refresh-token sessions (users-permissions `jwtManagement: 'refresh'`), with Strapi 5.54's
 * answers: login and register answer a short-lived access `jwt` and a `refreshToken`;
 * `POST /api/auth/refresh` rotates it, `POST /api/auth/logout` ends sessions, `GET
 * /api/auth/sessions` lists them, `DELETE /api/auth/sessions/:id` ends one; idle and absolute
 * lifespans; the httpOnly cookie mode. In the default legacy-support mode these routes are 404.
 * Sessions survive a restart, only the refresh token's hash is stored, and logout, a password
 * change and a block end them (their access tokens too: Folio is stricter than Strapi there).
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { startServer, tempDir, type StartOptions, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const servers: TestServer[] = [];
let server: TestServer;

async function start(config: StartOptions['config'] = {}, dataDir?: string) {
  const s = await startServer({ publicAccess: false, dataDir, config: { authRateLimit: { max: 10_000, windowMs: 60_000 }, ...config } });
  servers.push(s);
  return s;
}

beforeAll(async () => {
  server = await start({ usersPermissions: { jwtManagement: 'refresh' } });
});
afterAll(async () => {
  for (const s of servers) await s.stop();
});

let seq = 0;
const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
async function signUp(s: TestServer, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name = `sess${++seq}`;
  const res = await s.call('POST', '/api/auth/local/register', {
    body: { username: name, email: `${name}@example.com`, password: 'Passw0rd!', ...extra },
    headers,
  });
  expect(res.status).toBe(200);
  return { name, ...res.body, headers: res.headers } as { name: string; jwt: string; refreshToken: string; user: { id: number }; headers: Headers };
}
const login = (s: TestServer, identifier: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/auth/local', { body: { identifier, password: 'Passw0rd!', ...extra }, headers });
const refresh = (s: TestServer, refreshToken?: string, headers: Record<string, string> = {}) =>
  s.call('POST', '/api/auth/refresh', { body: refreshToken === undefined ? {} : { refreshToken }, headers });
const me = (s: TestServer, jwt: string) => s.call('GET', '/api/users/me', { headers: bearer(jwt) });

describe('legacy-support mode (the default)', () => {
  it('answers a plain JWT, and 404 on refresh, logout and sessions, as Strapi', async () => {
    const legacy = await start();
    const u = await signUp(legacy);
    expect(
      Object.keys(u)
        .filter((k) => k !== 'headers' && k !== 'name')
        .sort(),
    ).toEqual(['jwt', 'user']);
    expect(decodeJwt(u.jwt)).toMatchObject({ id: u.user.id });
    expect((await refresh(legacy, 'x')).body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    expect((await legacy.call('POST', '/api/auth/logout', { headers: bearer(u.jwt) })).status).toBe(404);
    expect((await legacy.call('GET', '/api/auth/sessions', { headers: bearer(u.jwt) })).status).toBe(404);
    // Without a user, the route's action decides first (the public role has no auth.logout).
    expect((await legacy.call('POST', '/api/auth/logout')).status).toBe(403);
  });
});

describe('refresh mode', () => {
  it('answers an access jwt of 600 s and a refresh token shaped as Strapi’s, on login and register', async () => {
    const u = await signUp(server);
    expect(u.refreshToken).toBeString();
    const access = decodeJwt(u.jwt);
    expect(Object.keys(access).sort()).toEqual(['exp', 'iat', 'sessionId', 'type', 'userId']);
    expect(access).toMatchObject({ userId: String(u.user.id), type: 'access' });
    expect(access.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(access.exp! - access.iat!).toBe(600);
    const refreshClaims = decodeJwt(u.refreshToken);
    expect(Object.keys(refreshClaims).sort()).toEqual(['exp', 'sessionId', 'type', 'userId']);
    expect(refreshClaims).toMatchObject({ userId: String(u.user.id), sessionId: access.sessionId, type: 'refresh' });
    expect(Math.abs(refreshClaims.exp! - (Date.now() / 1000 + 14 * 24 * 3600))).toBeLessThan(60);
    const logged = await login(server, u.name);
    expect(Object.keys(logged.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect((await me(server, logged.body.jwt)).body.id).toBe(u.user.id);
    // Only access tokens open anything: not the refresh token, not a legacy JWT.
    expect((await me(server, u.refreshToken)).status).toBe(401);
    expect((await me(server, await server.instance.jwt.issue(u.user.id, 0))).status).toBe(401);
  });

  it('stores only the refresh token’s hash', async () => {
    const u = await signUp(server);
    const rows = await server.instance.db.all<Record<string, unknown>>('SELECT * FROM folio_user_sessions WHERE "userId" = ?', [u.user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(u.refreshToken).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(u.refreshToken);
  });

  it('rotates on refresh: a new pair, the old refresh token refused, the previous access token still good', async () => {
    const u = await signUp(server);
    const first = await refresh(server, u.refreshToken);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['jwt', 'refreshToken']);
    expect(first.body.refreshToken).not.toBe(u.refreshToken);
    expect(decodeJwt(first.body.jwt).sessionId).not.toBe(decodeJwt(u.jwt).sessionId);
    expect(await refresh(server, u.refreshToken)).toMatchObject({
      status: 401,
      body: { error: { name: 'UnauthorizedError', message: 'Invalid refresh token' } },
    });
    expect((await me(server, first.body.jwt)).status).toBe(200);
    expect((await me(server, u.jwt)).status).toBe(200);
    expect((await refresh(server, first.body.refreshToken)).status).toBe(200);
  });

  it('answers a missing refresh token with 400 and anything else with 401', async () => {
    const u = await signUp(server);
    expect((await refresh(server)).body).toEqual({
      data: null,
      error: { status: 400, name: 'BadRequestError', message: 'Missing refresh token', details: {} },
    });
    expect((await server.call('POST', '/api/auth/refresh')).status).toBe(400);
    for (const token of ['abc', u.jwt, `${u.refreshToken}x`, 'a\u0000b']) expect((await refresh(server, token)).status).toBe(401);
  });

  it('lists the sessions, the current first, with the device and never a token', async () => {
    const u = await signUp(server, {}, { 'user-agent': CHROME });
    const second = await login(server, u.name, { deviceId: 'phone-1' });
    const list = await server.call('GET', '/api/auth/sessions', { headers: bearer(second.body.jwt) });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    const [current, other] = list.body.data;
    expect(current).toMatchObject({ id: decodeJwt(second.body.jwt).sessionId, deviceId: 'phone-1', current: true });
    expect(current).not.toHaveProperty('deviceName');
    expect(other).toMatchObject({ id: decodeJwt(u.jwt).sessionId, deviceName: 'Chrome on Linux', current: false });
    expect(other.deviceId).toMatch(/^[0-9a-f-]{36}$/);
    for (const entry of list.body.data)
      expect(Object.keys(entry).sort()).toEqual(['current', 'deviceId', ...(entry.deviceName ? ['deviceName'] : []), 'id', 'lastActiveAt', 'loginAt'].sort());
    expect(JSON.stringify(list.body)).not.toContain(u.refreshToken);
  });

  it('ends one session with DELETE /api/auth/sessions/:id, only the caller’s', async () => {
    const u = await signUp(server);
    const other = await signUp(server);
    const id = decodeJwt(u.jwt).sessionId as string;
    expect(await server.call('DELETE', `/api/auth/sessions/${id}`, { headers: bearer(other.jwt) })).toMatchObject({
      status: 404,
      body: { error: { message: 'Session not found' } },
    });
    expect(await server.call('DELETE', '/api/auth/sessions/nope', { headers: bearer(other.jwt) })).toMatchObject({ status: 404 });
    const second = await login(server, u.name);
    expect(await server.call('DELETE', `/api/auth/sessions/${id}`, { headers: bearer(second.body.jwt) })).toMatchObject({ status: 200, body: { data: {} } });
    expect((await refresh(server, u.refreshToken)).status).toBe(401);
    expect((await me(server, u.jwt)).status).toBe(401);
    expect((await me(server, second.body.jwt)).status).toBe(200);
  });

  it('ends the current session on logout, a device’s with deviceId, every one with scope all', async () => {
    const u = await signUp(server);
    const a = await login(server, u.name, { deviceId: 'laptop' });
    const b = await login(server, u.name, { deviceId: 'laptop' });
    const c = await login(server, u.name, { deviceId: 'tablet' });
    expect(await server.call('POST', '/api/auth/logout', { headers: bearer(u.jwt) })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await refresh(server, u.refreshToken)).status).toBe(401);
    expect((await me(server, u.jwt)).status).toBe(401);
    expect((await me(server, a.body.jwt)).status).toBe(200);
    await server.call('POST', '/api/auth/logout', { headers: bearer(c.body.jwt), body: { deviceId: 'laptop' } });
    expect([(await refresh(server, a.body.refreshToken)).status, (await refresh(server, b.body.refreshToken)).status]).toEqual([401, 401]);
    const tablet = await refresh(server, c.body.refreshToken);
    expect(tablet.status).toBe(200);
    const d = await login(server, u.name);
    await server.call('POST', '/api/auth/logout', { headers: bearer(d.body.jwt), body: { scope: 'all' } });
    expect((await refresh(server, tablet.body.refreshToken)).status).toBe(401);
    expect((await server.call('GET', '/api/auth/sessions', { headers: bearer(tablet.body.jwt) })).status).toBe(401);
  });

  it('ends every session on a password change, answering a new one in the body', async () => {
    const u = await signUp(server);
    const other = await login(server, u.name);
    const change = await server.call('POST', '/api/auth/change-password', {
      headers: { ...bearer(u.jwt), 'x-strapi-refresh-cookie': 'httpOnly' },
      body: { currentPassword: 'Passw0rd!', password: 'Passw0rd!2', passwordConfirmation: 'Passw0rd!2' },
    });
    expect(change.status).toBe(200);
    expect(Object.keys(change.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(change.headers.get('set-cookie')).toBeNull();
    for (const token of [u.refreshToken, other.body.refreshToken]) expect((await refresh(server, token)).status).toBe(401);
    for (const jwt of [u.jwt, other.body.jwt]) expect((await me(server, jwt)).status).toBe(401);
    expect((await me(server, change.body.jwt)).status).toBe(200);
    expect((await refresh(server, change.body.refreshToken)).status).toBe(200);
    // The session a password change opens records no login (as Strapi's).
    const list = await server.call('GET', '/api/auth/sessions', { headers: bearer(change.body.jwt) });
    expect(list.body.data[0]).not.toHaveProperty('loginAt');
  });

  it('ends every session when the user is blocked', async () => {
    const u = await signUp(server);
    await server.instance.users.update(u.user.id, { blocked: true });
    await server.instance.users.update(u.user.id, { blocked: false });
    expect((await refresh(server, u.refreshToken)).status).toBe(401);
    expect((await me(server, u.jwt)).status).toBe(401);
  });
});

describe('lifespans', () => {
  it('refuses a refresh token past its idle window, and any after the session’s absolute end', async () => {
    const s = await start({
      usersPermissions: { jwtManagement: 'refresh', sessions: { accessTokenLifespan: 60, idleRefreshTokenLifespan: 3600, maxRefreshTokenLifespan: 7200 } },
    });
    const clock = { t: Date.now() };
    s.instance.sessions.now = () => clock.t;
    const u = await signUp(s);
    expect(decodeJwt(u.jwt).exp! - decodeJwt(u.jwt).iat!).toBe(60);
    const idle = await login(s, u.name);
    clock.t += 50 * 60_000;
    const r1 = await refresh(s, u.refreshToken);
    expect(r1.status).toBe(200);
    clock.t += 50 * 60_000;
    const r2 = await refresh(s, r1.body.refreshToken);
    expect(r2.status).toBe(200);
    // 100 minutes after its login, untouched for over an hour: idle.
    expect((await refresh(s, idle.body.refreshToken)).status).toBe(401);
    clock.t += 25 * 60_000;
    // 125 minutes after the login: past the two hours the session may live, however fresh its token.
    expect((await refresh(s, r2.body.refreshToken)).status).toBe(401);
    // The access token itself expires after its 60 s.
    expect((await me(s, r2.body.jwt)).status).toBe(401);
  });
});

describe('the httpOnly cookie mode', () => {
  it('sets strapi_up_refresh on X-Strapi-Refresh-Cookie: httpOnly, reads it on refresh and clears it on logout', async () => {
    const u = await signUp(server);
    const cookieMode = { 'x-strapi-refresh-cookie': 'httpOnly' };
    const res = await login(server, u.name, {}, cookieMode);
    expect(Object.keys(res.body).sort()).toEqual(['jwt', 'user']);
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/^strapi_up_refresh=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; SameSite=Lax; HttpOnly$/);
    const token = set.slice('strapi_up_refresh='.length, set.indexOf(';'));
    const rotated = await server.call('POST', '/api/auth/refresh', { headers: { ...cookieMode, cookie: `other=1; strapi_up_refresh=${token}` } });
    expect(Object.keys(rotated.body)).toEqual(['jwt']);
    const next = rotated.headers.get('set-cookie')!;
    expect(next).toStartWith('strapi_up_refresh=');
    expect(next).not.toContain(token);
    // The cookie wins over a body's token.
    const newToken = next.slice('strapi_up_refresh='.length, next.indexOf(';'));
    const out = await server.call('POST', '/api/auth/logout', {
      headers: { ...cookieMode, ...bearer(rotated.body.jwt), cookie: `strapi_up_refresh=${newToken}` },
    });
    expect(out.body).toEqual({ ok: true });
    expect(out.headers.get('set-cookie')).toBe('strapi_up_refresh=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax; HttpOnly');
    expect((await refresh(server, newToken)).status).toBe(401);
  });

  it('uses the cookie for every login with sessions.httpOnly, with sessions.cookie’s name, path, sameSite, maxAge and secure (register answers in the body, as Strapi’s)', async () => {
    const s = await start({
      usersPermissions: {
        jwtManagement: 'refresh',
        sessions: { httpOnly: true, cookie: { name: 'rt', path: '/api/auth', sameSite: 'strict', maxAge: 3_600_000, secure: true } },
      },
    });
    const u = await signUp(s);
    expect(u.refreshToken).toBeString();
    expect(u.headers.get('set-cookie')).toBeNull();
    const res = await login(s, u.name);
    expect(Object.keys(res.body).sort()).toEqual(['jwt', 'user']);
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/^rt=[\w.-]+; Path=\/api\/auth; Max-Age=3600; Expires=[^;]+ GMT; SameSite=Strict; Secure; HttpOnly$/);
    const token = set.slice(3, set.indexOf(';'));
    expect((await s.call('POST', '/api/auth/refresh', { headers: { cookie: `rt=${token}` } })).status).toBe(200);
  });
});

describe('across a restart', () => {
  it('keeps sessions: the refresh and access tokens still work', async () => {
    const dataDir = tempDir();
    const first = await start({ usersPermissions: { jwtManagement: 'refresh' } }, dataDir);
    const u = await signUp(first);
    await first.stop({ keepData: true });
    servers.splice(servers.indexOf(first), 1);
    const second = await start({ usersPermissions: { jwtManagement: 'refresh' } }, dataDir);
    expect((await me(second, u.jwt)).status).toBe(200);
    expect((await refresh(second, u.refreshToken)).status).toBe(200);
  });
});
