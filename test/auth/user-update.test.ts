/**
 * PUT /api/users/:id when a role holds `user.update`: a user's JWT may edit that user's
 * own profile (username, email) and nothing else. Other accounts, and role, blocked,
 * confirmed and provider, need an API token holding the action (403 otherwise); the
 * password goes through change-password or reset-password (400 here for a user JWT).
 * Every refusal leaves the account as it was.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

const UPDATE = 'plugin::users-permissions.user.update';
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
  await server.instance.roles.grant('authenticated', [UPDATE]);
  await server.instance.roles.create('Staff');
});
afterAll(() => server.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const full = () => bearer(server.tokens.fullAccess);
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
let seq = 0;

async function newUser() {
  const n = ++seq;
  const res = await server.call('POST', '/api/auth/local/register', {
    body: { username: `member${n}`, email: `member${n}@example.com`, password: 'Passw0rd!' },
  });
  expect(res.status).toBe(200);
  return { id: res.body.user.id as number, username: `member${n}`, email: `member${n}@example.com`, jwt: res.body.jwt as string };
}

/** The stored account as only the database shows it: role type and password hash included. */
const stored = (id: number) =>
  server.instance.db.get<Record<string, unknown>>(
    'SELECT u."username", u."email", u."blocked", u."confirmed", u."provider", u."password", r."type" AS "role" FROM folio_users u LEFT JOIN folio_roles r ON r."id" = u."roleId" WHERE u."id" = ?',
    [id],
  );
const put = (id: number, body: unknown, headers: Record<string, string>) => server.call('PUT', `/api/users/${id}`, { body, headers });
const login = (identifier: string, password: string) => server.call('POST', '/api/auth/local', { body: { identifier, password } });

describe('a user JWT with user.update', () => {
  it('changes its own username and email', async () => {
    const u = await newUser();
    const res = await put(u.id, { username: `${u.username}-renamed`, email: `Renamed-${u.email}` }, bearer(u.jwt));
    expect(res).toMatchObject({ status: 200, body: { id: u.id, username: `${u.username}-renamed`, email: `renamed-${u.email}` } });
    expect((await login(`renamed-${u.email}`, 'Passw0rd!')).status).toBe(200);
  });

  it('may not touch another user’s account: 403 for a profile field, blocked or a password, and nothing changes', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const before = await stored(bob.id);
    for (const body of [{ username: 'hijacked' }, { blocked: true }, { password: 'Taken-over1' }, { role: 'staff' }, {}]) {
      expect((await put(bob.id, body, bearer(alice.jwt))).body).toEqual(FORBIDDEN);
    }
    // Even an id that does not exist answers 403, not 404: a user JWT learns nothing about other ids.
    expect((await put(999_999, { username: 'ghost' }, bearer(alice.jwt))).body).toEqual(FORBIDDEN);
    expect(await stored(bob.id)).toEqual(before);
    expect((await login(bob.email, 'Passw0rd!')).status).toBe(200);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(bob.jwt) })).status).toBe(200);
  });

  it('may not change its own role, blocked, confirmed or provider: 403, and nothing changes', async () => {
    const u = await newUser();
    const before = await stored(u.id);
    for (const body of [
      { role: 'staff' },
      { role: 1 },
      { blocked: false },
      { confirmed: false },
      { provider: 'github' },
      { username: `${u.username}-x`, role: 'staff' },
    ]) {
      expect((await put(u.id, body, bearer(u.jwt))).body).toEqual(FORBIDDEN);
    }
    expect(await stored(u.id)).toEqual(before);
    expect(before!.role).toBe('authenticated');
  });

  it('may not set a password here (400 on password, pointing at change-password), and the old one keeps working', async () => {
    const u = await newUser();
    const res = await put(u.id, { password: 'Brand-new-pw1' }, bearer(u.jwt));
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.details.errors).toEqual([
      {
        path: ['password'],
        message: 'password cannot be changed here: use /api/auth/change-password or /api/auth/reset-password',
        name: 'ValidationError',
        value: null,
      },
    ]);
    expect((await login(u.email, 'Brand-new-pw1')).status).toBe(400);
    expect((await login(u.email, 'Passw0rd!')).status).toBe(200);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(u.jwt) })).status).toBe(200);
  });

  it('gives the public role no account to edit, even with user.update granted', async () => {
    const u = await newUser();
    await server.instance.roles.grant('public', [UPDATE]);
    try {
      expect((await put(u.id, { username: 'anonymous-edit' }, {})).body).toEqual(FORBIDDEN);
    } finally {
      await server.instance.roles.revoke('public', [UPDATE]);
    }
    expect((await stored(u.id))!.username).toBe(u.username);
  });
});

describe('an API token with user.update', () => {
  it('sets role, blocked, confirmed and provider of any account', async () => {
    const u = await newUser();
    const res = await put(u.id, { role: 'staff', blocked: true, confirmed: false, provider: 'local' }, full());
    expect(res).toMatchObject({ status: 200, body: { id: u.id, blocked: true, confirmed: false, provider: 'local' } });
    expect(await stored(u.id)).toMatchObject({ role: 'staff', blocked: 1, confirmed: 0 });
    expect((await server.call('GET', '/api/users/me', { headers: bearer(u.jwt) })).status).toBe(401);
    expect((await put(u.id, { blocked: false }, full())).status).toBe(200);
  });

  it('sets a password, stored hashed, and the account’s earlier JWTs stop working', async () => {
    const u = await newUser();
    expect((await put(u.id, { password: 'Set-by-admin1' }, full())).status).toBe(200);
    const hash = String((await stored(u.id))!.password);
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(hash).not.toContain('Set-by-admin1');
    expect((await login(u.email, 'Set-by-admin1')).status).toBe(200);
    expect((await login(u.email, 'Passw0rd!')).status).toBe(400);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(u.jwt) })).status).toBe(401);
  });

  it('works for a custom token holding user.update, and is 403 for one without it', async () => {
    const u = await newUser();
    const withIt = (await server.instance.tokens.create('users-admin', 'custom', undefined, undefined, [UPDATE])).accessKey;
    const without = (await server.instance.tokens.create('users-reader', 'custom', undefined, undefined, ['plugin::users-permissions.user.find'])).accessKey;
    expect((await put(u.id, { blocked: true }, bearer(without))).body).toEqual(FORBIDDEN);
    expect((await stored(u.id))!.blocked).toBe(0);
    expect((await put(u.id, { blocked: true }, bearer(withIt))).body).toMatchObject({ id: u.id, blocked: true });
  });

  it('answers values of the wrong type with 400 naming the field, and changes nothing', async () => {
    const u = await newUser();
    const before = await stored(u.id);
    for (const [body, path] of [
      [{ blocked: 'yes' }, 'blocked'],
      [{ confirmed: 1 }, 'confirmed'],
      [{ role: { $ne: null } }, 'role'],
      [{ provider: '' }, 'provider'],
    ] as const) {
      const res = await put(u.id, body, full());
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([[path]]);
    }
    expect((await put(u.id, { role: 'no-such-role' }, full())).body.error).toMatchObject({
      status: 400,
      name: 'ValidationError',
      message: 'Unknown role "no-such-role"',
    });
    expect(await stored(u.id)).toEqual(before);
  });
});

describe('DELETE /api/users/:id when a role holds user.destroy', () => {
  it('lets a user JWT delete only its own account: another account is 403 and stays', async () => {
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.user.destroy']);
    const alice = await newUser();
    const bob = await newUser();
    expect((await server.call('DELETE', `/api/users/${bob.id}`, { headers: bearer(alice.jwt) })).body).toEqual(FORBIDDEN);
    expect(await stored(bob.id)).toBeDefined();
    expect((await server.call('DELETE', `/api/users/${alice.id}`, { headers: bearer(alice.jwt) })).status).toBe(200);
    expect(await stored(alice.id)).toBeUndefined();
    expect((await server.call('DELETE', `/api/users/${bob.id}`, { headers: full() })).status).toBe(200);
    expect(await stored(bob.id)).toBeUndefined();
  });
});
