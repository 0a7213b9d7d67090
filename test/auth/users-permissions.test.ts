/**
 * The users & permissions plugin over HTTP: accounts, logins, passwords and reset codes,
 * JWT expiry, the users and roles APIs, bcrypt imports, rate limits, login timing,
 * security headers and CORS.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SignJWT } from 'jose';
import { logSender, type EmailMessage } from '../../src/auth/email';
import { createLogger } from '../../src/log';
import { DUMMY_HASH } from '../../src/auth/users';
import { startServer, type TestServer } from '../helpers/server';

// Password hashing is slow on a busy machine; tests that log in several times need room.
setDefaultTimeout(30_000);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
});
afterAll(() => server.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const full = () => bearer(server.tokens.fullAccess);
const envelope = (status: number, name: string, message: string) => ({ data: null, error: { status, name, message, details: {} } });
/** Strapi's answer to a confirmation that differs: yup's field error (the value never echoed here). */
const mismatch = {
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: 'Passwords do not match',
    details: { errors: [{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError', value: null }] },
  },
};
const USER_KEYS = ['blocked', 'confirmed', 'createdAt', 'documentId', 'email', 'id', 'provider', 'publishedAt', 'updatedAt', 'username'];
let seq = 0;

const register = (body: Record<string, unknown>, on = server) => on.call('POST', '/api/auth/local/register', { body });
const login = (identifier: string, password: string, on = server) => on.call('POST', '/api/auth/local', { body: { identifier, password } });
/** Registers a fresh user and returns its id, email and JWT. */
async function newUser(password = 'Passw0rd!') {
  const n = ++seq;
  const res = await register({ username: `user${n}`, email: `user${n}@example.com`, password });
  expect(res.status).toBe(200);
  return { id: res.body.user.id as number, email: `user${n}@example.com`, username: `user${n}`, jwt: res.body.jwt as string, password };
}

describe('register, login and the current user', () => {
  it('registers a user, logs in by email in any case and by username, and shows the user at /api/users/me', async () => {
    const reg = await register({ username: 'Alice', email: 'Alice@Example.com', password: 'Passw0rd!' });
    expect(reg.status).toBe(200);
    expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'user']);
    expect(Object.keys(reg.body.user).sort()).toEqual(USER_KEYS);
    expect(reg.body.user).toMatchObject({ username: 'Alice', email: 'alice@example.com', provider: 'local', confirmed: true, blocked: false });
    for (const identifier of ['alice@example.com', 'ALICE@EXAMPLE.COM', 'Alice@example.COM', 'Alice']) {
      const res = await login(identifier, 'Passw0rd!');
      expect(res.status).toBe(200);
      expect(res.body.user).toEqual(reg.body.user);
      expect((await server.call('GET', '/api/users/me', { headers: bearer(res.body.jwt) })).body).toEqual(reg.body.user);
    }
    // The role is left out unless the caller's role may read roles, as Strapi's output sanitizer does.
    const withoutRole = await server.call('GET', '/api/users/me?populate=role', { headers: bearer(reg.body.jwt) });
    expect(withoutRole.body).toEqual(reg.body.user);
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.role.find']);
    try {
      const withRole = await server.call('GET', '/api/users/me?populate=role', { headers: bearer(reg.body.jwt) });
      expect(withRole.body).toMatchObject({ id: reg.body.user.id, role: { type: 'authenticated', name: 'Authenticated' } });
    } finally {
      await server.instance.roles.revoke('authenticated', ['plugin::users-permissions.role.find']);
    }
    expect((await server.call('GET', '/api/users/me')).body).toEqual(envelope(403, 'ForbiddenError', 'Forbidden'));
  });

  it('changes the password: the old one stops working, the new one works', async () => {
    const u = await newUser('Old-passw0rd');
    const change = (body: Record<string, unknown>, jwt = u.jwt) => server.call('POST', '/api/auth/change-password', { body, headers: bearer(jwt) });
    expect((await change({ currentPassword: 'wrong-one', password: 'New-passw0rd', passwordConfirmation: 'New-passw0rd' })).body).toEqual(
      envelope(400, 'ValidationError', 'The provided current password is invalid'),
    );
    expect((await change({ currentPassword: 'Old-passw0rd', password: 'New-passw0rd', passwordConfirmation: 'Other-passw0rd' })).body).toEqual(mismatch);
    expect((await change({ currentPassword: 'Old-passw0rd', password: 'Old-passw0rd', passwordConfirmation: 'Old-passw0rd' })).status).toBe(400);
    const ok = await change({ currentPassword: 'Old-passw0rd', password: 'New-passw0rd', passwordConfirmation: 'New-passw0rd' });
    expect(ok).toMatchObject({ status: 200, body: { user: { id: u.id } } });
    expect((await login(u.email, 'Old-passw0rd')).body).toEqual(envelope(400, 'ValidationError', 'Invalid identifier or password'));
    expect((await login(u.email, 'New-passw0rd')).status).toBe(200);
    expect(
      (
        await server.call('POST', '/api/auth/change-password', {
          body: { currentPassword: 'New-passw0rd', password: 'x-passw0rd', passwordConfirmation: 'x-passw0rd' },
        })
      ).status,
    ).toBe(403);
  });

  it('refuses bad registrations with 400', async () => {
    const cases: Record<string, unknown>[] = [
      { username: 'nomail', password: 'Passw0rd!' },
      { username: 'badmail', email: 'not-an-email', password: 'Passw0rd!' },
      { username: 'shortpw', email: 'shortpw@example.com', password: '12345' },
      { username: 'nopw', email: 'nopw@example.com' },
      { email: 'nouser@example.com', password: 'Passw0rd!' },
    ];
    const seen: string[] = [];
    for (const body of cases) seen.push(`${JSON.stringify(body)} → ${await register(body).then((r) => `${r.status} ${r.body?.error?.name}`)}`);
    expect(seen).toEqual(cases.map((body) => `${JSON.stringify(body)} → 400 ValidationError`));
    const extra = await register({ username: 'extra', email: 'extra@example.com', password: 'Passw0rd!', role: 1, confirmed: true });
    expect(extra.body).toEqual(envelope(400, 'ValidationError', 'Invalid parameters: role, confirmed'));
    expect((await server.call('GET', '/api/users', { headers: full() })).body.map((u: any) => u.username)).not.toContain('extra');
  });

  it('refuses a duplicate email (any case) or username with "Email or Username are already taken"', async () => {
    const u = await newUser();
    for (const body of [
      { username: 'someone-else', email: u.email.toUpperCase(), password: 'Passw0rd!' },
      { username: u.username, email: 'fresh@example.com', password: 'Passw0rd!' },
    ]) {
      expect((await register(body)).body).toEqual(envelope(400, 'ApplicationError', 'Email or Username are already taken'));
    }
  });

  it('creates one account when registrations of one address arrive at once: the others get "already taken", never a 500', async () => {
    const body = (n: number) => ({ username: `racer${n}`, email: 'racer@example.com', password: 'Passw0rd!' });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => register(body(n))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
    for (const a of answers.filter((a) => a.status === 400)) expect(a.body).toEqual(envelope(400, 'ApplicationError', 'Email or Username are already taken'));
    const users = (await server.call('GET', '/api/users', { headers: full() })).body as { email: string }[];
    expect(users.filter((u) => u.email === 'racer@example.com')).toHaveLength(1);
  });

  it('answers a wrong password or an unknown identifier with 400 "Invalid identifier or password"', async () => {
    const u = await newUser();
    for (const [identifier, password] of [
      [u.email, 'wrong-password'],
      ['nobody@example.com', 'Passw0rd!'],
      [u.username, ''],
    ]) {
      expect((await login(identifier!, password!)).body).toEqual(envelope(400, 'ValidationError', 'Invalid identifier or password'));
    }
  });

  it('does not let a blocked user log in', async () => {
    const u = await newUser();
    await server.instance.users.update(u.id, { blocked: true });
    expect((await login(u.email, u.password)).body).toEqual(envelope(400, 'ApplicationError', 'Your account has been blocked by an administrator'));
  });

  it('verifies a bcrypt $2a$ hash imported from Strapi', async () => {
    const u = await newUser();
    const hash = (await Bun.password.hash('Imported-pw1', 'bcrypt')).replace(/^\$2b\$/, '$2a$');
    expect(hash.startsWith('$2a$')).toBe(true);
    await server.instance.db.run('UPDATE folio_users SET "password" = ? WHERE "id" = ?', [hash, u.id]);
    expect((await login(u.email, 'Imported-pw1')).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(400);
  });
});

describe('password reset', () => {
  const forgot = (email: string) => server.call('POST', '/api/auth/forgot-password', { body: { email } });
  const reset = (code: string, password: string, passwordConfirmation = password) =>
    server.call('POST', '/api/auth/reset-password', { body: { code, password, passwordConfirmation } });
  const codeIn = (text: string) => text.match(/\b[0-9a-f]{128}\b/)?.[0];

  it('sends the code through the configured sender, answers {ok:true} for unknown emails too, and the code works once', async () => {
    const u = await newUser();
    const sent: EmailMessage[] = [];
    const original = server.instance.email;
    server.instance.email = { send: async (message) => void sent.push(message) };
    try {
      expect(await forgot('nobody@example.com')).toMatchObject({ status: 200, body: { ok: true } });
      expect(sent).toEqual([]);
      expect(await forgot(u.email.toUpperCase())).toMatchObject({ status: 200, body: { ok: true } });
    } finally {
      server.instance.email = original;
    }
    expect(sent.map((m) => m.to)).toEqual([u.email]);
    const code = codeIn(sent[0]!.text)!;
    expect(code).toBeString();
    expect((await reset(code, 'Reset-pw-1', 'Reset-pw-2')).body).toEqual(mismatch);
    expect((await reset('0'.repeat(128), 'Reset-pw-1')).body).toEqual(envelope(400, 'ValidationError', 'Incorrect code provided'));
    const ok = await reset(code, 'Reset-pw-1');
    expect(ok).toMatchObject({ status: 200, body: { user: { id: u.id } } });
    expect((await server.call('GET', '/api/users/me', { headers: bearer(ok.body.jwt) })).body.id).toBe(u.id);
    expect((await login(u.email, 'Reset-pw-1')).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(400);
    expect((await reset(code, 'Reset-pw-3')).status).toBe(400);
    expect((await login(u.email, 'Reset-pw-3')).status).toBe(400);
  });

  it('writes the mail to the log with the default sender, without its code', async () => {
    const u = await newUser();
    // The log sender writes through the logger (test/auth/email-smtp.test.ts checks the default wiring from `serve`).
    const lines: string[] = [];
    const original = server.instance.email;
    server.instance.email = logSender(createLogger({ sink: { write: (line) => void lines.push(line) } }));
    let logged = '';
    try {
      expect((await forgot(u.email)).body).toEqual({ ok: true });
      logged = lines.join('\n');
    } finally {
      server.instance.email = original;
    }
    expect(logged).toContain(u.email);
    expect(logged).toContain('[redacted]');
    expect(codeIn(logged)).toBeUndefined();
  });

  it('refuses a JWT whose expiry has passed with 401, and accepts the same claims unexpired', async () => {
    const u = await newUser();
    const key = new TextEncoder().encode(server.instance.secrets.jwtSecret);
    const now = Math.floor(Date.now() / 1000);
    const sign = (exp: number) =>
      new SignJWT({ id: u.id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now - 7200)
        .setExpirationTime(exp)
        .sign(key);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(await sign(now + 3600)) })).status).toBe(200);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(await sign(now - 60)) })).body.error).toMatchObject({
      status: 401,
      name: 'UnauthorizedError',
    });
  });
});

describe('the users API', () => {
  it('lists, counts, reads, updates and deletes users with a full-access token', async () => {
    const u = await newUser();
    const list = await server.call('GET', '/api/users', { headers: full() });
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.find((x: any) => x.id === u.id)).toMatchObject({ username: u.username, email: u.email });
    for (const user of list.body) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect((await server.call('GET', '/api/users/count', { headers: full() })).body).toBe(list.body.length);
    expect((await server.call('GET', `/api/users/${u.id}`, { headers: full() })).body).toMatchObject({ id: u.id, username: u.username });
    expect(await server.call('PUT', `/api/users/${u.id}`, { body: { username: `${u.username}-renamed` }, headers: full() })).toMatchObject({
      status: 200,
      body: { id: u.id, username: `${u.username}-renamed` },
    });
    expect(await server.call('DELETE', `/api/users/${u.id}`, { headers: full() })).toMatchObject({ status: 200, body: { id: u.id } });
    expect((await server.call('GET', `/api/users/${u.id}`, { headers: full() })).status).toBe(404);
    expect((await server.call('GET', '/api/users/count', { headers: full() })).body).toBe(list.body.length - 1);
    expect((await server.call('GET', '/api/users/me', { headers: bearer(u.jwt) })).status).toBe(401);
  });

  it('counts the users its filters match, as Strapi 5.54.0, and refuses a private or unknown key with 400', async () => {
    const u = await newUser();
    const count = (query: string) => server.call('GET', `/api/users/count${query}`, { headers: full() });
    // Checked on the peer: the count takes the list's filters and ignores sort and unknown parameters.
    expect((await count(`?filters[username][$eq]=${u.username}`)).body).toBe(1);
    expect((await count('?filters[username][$eq]=nobody-at-all')).body).toBe(0);
    expect((await count('?sort=username&foo=1')).body).toBe((await count('')).body);
    expect(await count('?filters[password][$eq]=x')).toMatchObject({
      status: 400,
      body: { error: { name: 'ValidationError', message: 'Invalid key password' } },
    });
    expect(await count('?filters[nope][$eq]=1')).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Invalid key nope' } } });
  });

  it('creates a user with POST /api/users (201) and refuses one without an email with 400', async () => {
    const made = await server.call('POST', '/api/users', {
      body: { username: 'made-by-token', email: 'made@example.com', password: 'Passw0rd!' },
      headers: full(),
    });
    expect(made).toMatchObject({ status: 201, body: { username: 'made-by-token', email: 'made@example.com', blocked: false } });
    const bad = await server.call('POST', '/api/users', { body: { username: 'no-email', password: 'Passw0rd!' }, headers: full() });
    expect(`${bad.status} ${bad.body?.error?.name}`).toBe('400 ValidationError');
  });

  it('forbids the users API to a plain user and to anonymous callers', async () => {
    const u = await newUser();
    for (const headers of [bearer(u.jwt), {}]) {
      for (const [method, path, body] of [
        ['GET', '/api/users'],
        ['GET', '/api/users/count'],
        ['GET', `/api/users/${u.id}`],
        ['PUT', `/api/users/${u.id}`, { username: 'hijack' }],
        ['DELETE', `/api/users/${u.id}`],
      ] as const) {
        expect((await server.call(method, path, { body, headers })).body).toEqual(envelope(403, 'ForbiddenError', 'Forbidden'));
      }
    }
    expect((await server.call('GET', `/api/users/${u.id}`, { headers: full() })).body.username).toBe(u.username);
  });
});

describe('the roles API', () => {
  const tree = (entries: [string, string, string][], out: Record<string, any> = {}) => {
    for (const [api, controller, action] of entries) ((out[api] ??= { controllers: {} }).controllers[controller] ??= {})[action] = { enabled: true };
    return out;
  };
  const roleByName = async (name: string) =>
    (await server.call('GET', '/api/users-permissions/roles', { headers: full() })).body.roles.find((r: any) => r.name === name);

  it('lists roles with nb_users and shows one role with its permission tree', async () => {
    await newUser();
    const { body } = await server.call('GET', '/api/users-permissions/roles', { headers: full() });
    const authenticated = body.roles.find((r: any) => r.type === 'authenticated');
    const count = (await server.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_users WHERE "roleId" = ?', [authenticated.id]))!.n;
    expect(authenticated.nb_users).toBe(count);
    expect(body.roles.find((r: any) => r.type === 'public').nb_users).toBe(0);
    const one = await server.call('GET', `/api/users-permissions/roles/${authenticated.id}`, { headers: full() });
    expect(one.body.role).toMatchObject({ id: authenticated.id, type: 'authenticated' });
    expect(one.body.role.permissions['plugin::users-permissions'].controllers.user.me.enabled).toBe(true);
    expect(one.body.role.permissions['api::article'].controllers.article.find.enabled).toBe(false);
    const perms = await server.call('GET', '/api/users-permissions/permissions', { headers: full() });
    expect(Object.keys(perms.body.permissions['api::tag'].controllers.tag).sort()).toEqual([
      'create',
      'delete',
      'discardDraft',
      'find',
      'findOne',
      'publish',
      'unpublish',
      'update',
    ]);
    expect(perms.body.permissions['api::global'].controllers.global).toHaveProperty('update');
  });

  it('creates a role from a permission tree, updates it, and on delete moves its users to authenticated', async () => {
    const created = await server.call('POST', '/api/users-permissions/roles', {
      body: {
        name: 'Readers',
        description: 'read articles',
        permissions: tree([
          ['api::article', 'article', 'find'],
          ['api::article', 'article', 'findOne'],
          ['plugin::users-permissions', 'user', 'me'],
        ]),
      },
      headers: full(),
    });
    expect(created.body).toEqual({ ok: true });
    const role = await roleByName('Readers');
    expect(role).toMatchObject({ type: 'readers', nb_users: 0 });
    const u = await newUser();
    expect((await server.call('PUT', `/api/users/${u.id}`, { body: { role: role.id }, headers: full() })).status).toBe(200);
    const can = async (method: string, path: string, body?: unknown) => (await server.call(method, path, { body, headers: bearer(u.jwt) })).status;
    expect(await can('GET', '/api/articles')).toBe(200);
    expect(await can('GET', '/api/articles/nonexistent000000000000')).toBe(404);
    expect(await can('POST', '/api/articles', { data: { title: 'no' } })).toBe(403);
    expect(await can('GET', '/api/tags')).toBe(403);
    expect(await can('POST', '/api/auth/change-password', { currentPassword: u.password, password: 'Other-pw-1', passwordConfirmation: 'Other-pw-1' })).toBe(
      403,
    );

    const updated = await server.call('PUT', `/api/users-permissions/roles/${role.id}`, {
      body: {
        name: 'Tag readers',
        permissions: tree([
          ['api::tag', 'tag', 'find'],
          ['plugin::users-permissions', 'user', 'me'],
        ]),
      },
      headers: full(),
    });
    expect(updated.body).toEqual({ ok: true });
    expect(await roleByName('Tag readers')).toMatchObject({ id: role.id, nb_users: 1 });
    expect(await can('GET', '/api/tags')).toBe(200);
    expect(await can('GET', '/api/articles')).toBe(403);

    expect((await server.call('DELETE', `/api/users-permissions/roles/${role.id}`, { headers: full() })).body).toEqual({ ok: true });
    expect((await server.call('GET', `/api/users-permissions/roles/${role.id}`, { headers: full() })).status).toBe(404);
    expect((await server.call('GET', `/api/users/${u.id}?populate=role`, { headers: full() })).body.role.type).toBe('authenticated');
    expect(await can('GET', '/api/tags')).toBe(403);
  });

  it('keeps the public and authenticated roles, and forbids the roles API to plain users', async () => {
    const u = await newUser();
    for (const type of ['public', 'authenticated']) {
      const role = (await server.call('GET', '/api/users-permissions/roles', { headers: full() })).body.roles.find((r: any) => r.type === type);
      expect((await server.call('DELETE', `/api/users-permissions/roles/${role.id}`, { headers: full() })).status).toBe(400);
    }
    for (const [method, path] of [
      ['GET', '/api/users-permissions/roles'],
      ['GET', '/api/users-permissions/roles/1'],
      ['DELETE', '/api/users-permissions/roles/1'],
      ['GET', '/api/users-permissions/permissions'],
    ]) {
      expect((await server.call(method!, path!, { headers: bearer(u.jwt) })).status).toBe(403);
    }
    expect((await server.call('POST', '/api/users-permissions/roles', { body: { name: 'Sneaky' }, headers: bearer(u.jwt) })).status).toBe(403);
    expect(await roleByName('Sneaky')).toBeUndefined();
  });
});

describe('abuse limits', () => {
  it('answers the 4th login in a window with 429 RateLimitError and a Retry-After of the seconds left in the window', async () => {
    const limited = await startServer({ publicAccess: false, config: { authRateLimit: { max: 3, windowMs: 60_000 } } });
    try {
      await limited.instance.users.create({ username: 'rl-user', email: 'rl@example.com', password: 'Passw0rd!' });
      // Sent together, so all four arrive well inside the window however slow password hashing is.
      const answers = await Promise.all([1, 2, 3, 4].map(() => login('rl@example.com', 'wrong-password', limited)));
      expect(answers.map((r) => r.status).sort()).toEqual([400, 400, 400, 429]);
      const tooMany = answers.find((r) => r.status === 429)!;
      expect(tooMany.body).toEqual(envelope(429, 'RateLimitError', 'Too many requests, please try again later.'));
      // Whole seconds until the window (60 s, opened by the first of these) resets.
      expect(tooMany.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(tooMany.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // The count is per path: another auth route is not affected. (test/auth/rate-limit.test.ts
      // crosses the window's end with an injected clock.)
      expect((await limited.call('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } })).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });

  it('verifies one password per failed login: the stored hash for a wrong password, a dummy hash of the same cost for an unknown user', async () => {
    const u = await newUser();
    const users = server.instance.users;
    const original = users.passwords;
    const verified: string[] = [];
    users.passwords = { hash: original.hash, verify: (password, hash) => (verified.push(hash), original.verify(password, hash)) };
    try {
      expect((await login(u.email, 'Wrong-passw0rd')).status).toBe(400);
      expect((await login('ghost@example.com', 'Wrong-passw0rd')).status).toBe(400);
    } finally {
      users.passwords = original;
    }
    const stored = (await server.instance.db.get<{ password: string }>('SELECT "password" FROM folio_users WHERE "id" = ?', [u.id]))!.password;
    expect(verified).toEqual([stored, DUMMY_HASH]);
    // The same algorithm and cost parameters as a password hashed now, so both checks cost the same.
    const cost = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(cost(DUMMY_HASH)).toBe(cost(stored));
    expect(cost(DUMMY_HASH)).toBe(cost(await Bun.password.hash('any')));
  });
});

describe('headers', () => {
  it('sends the security headers on a 200, a 404 and a 401', async () => {
    const responses = [
      await server.call('GET', '/api/articles', { headers: full() }),
      await server.call('GET', '/api/no-such-route'),
      await server.call('GET', '/api/articles', { headers: bearer('invalid-token') }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 401]);
    for (const { headers } of responses) {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('x-frame-options')).toMatch(/^(DENY|SAMEORIGIN)$/);
      expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });

  it('allows any origin by default and answers a preflight with 204 and the allowed methods and headers', async () => {
    expect(
      (await server.call('GET', '/api/articles', { headers: { ...full(), origin: 'https://any.example' } })).headers.get('access-control-allow-origin'),
    ).toBe('*');
    const preflight = await fetch(`${server.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b.*\bDELETE\b|\bDELETE\b.*\bPOST\b/);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization.*content-type|content-type.*authorization/);
  });
});

describe('configuration', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startServer({ publicAccess: false, config: { allowRegister: false, corsOrigins: ['https://app.example'] } });
  });
  afterAll(() => closed.stop());

  it('refuses registration with 400 when it is turned off, while login keeps working', async () => {
    const res = await register({ username: 'late', email: 'late@example.com', password: 'Passw0rd!' }, closed);
    expect(res.body).toEqual(envelope(400, 'ApplicationError', 'Register action is currently disabled'));
    expect(await closed.instance.users.count()).toBe(0);
    await closed.instance.users.create({ username: 'early', email: 'early@example.com', password: 'Passw0rd!' });
    expect((await login('early', 'Passw0rd!', closed)).status).toBe(200);
  });

  it('echoes an allowed origin and gives no allow-origin header to another', async () => {
    const allowed = await closed.call('GET', '/api/articles', { headers: { ...bearer(closed.tokens.fullAccess), origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('vary')?.toLowerCase()).toContain('origin');
    const other = await closed.call('GET', '/api/articles', { headers: { ...bearer(closed.tokens.fullAccess), origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${closed.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
