/**
 * What account fields may hold, on every route that takes them: e-mail, username and
 * password are capped before any pattern runs (a 160,000-character address once held the
 * server for half a minute), and a login body without its fields, or with operator
 * objects in them, is a 400 naming the field, as Strapi's yup validation answers.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
  // No reset mail in the test log.
  server.instance.email = { send: async () => {} };
});
afterAll(() => server.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const full = () => bearer(server.tokens.fullAccess);
let seq = 0;

/** The `details.errors` entries of a 400 ValidationError, as `path: message`. */
function fieldErrors(res: { status: number; body: any }): string[] {
  expect(res.body?.data).toBeNull();
  expect(`${res.status} ${res.body?.error?.name}`).toBe('400 ValidationError');
  return (res.body.error.details.errors as { path: string[]; message: string; name: string }[]).map((e) => {
    expect(e.name).toBe('ValidationError');
    return `${e.path.join('.')}: ${e.message}`;
  });
}

async function newUser() {
  const n = ++seq;
  const res = await server.call('POST', '/api/auth/local/register', { body: { username: `valid${n}`, email: `valid${n}@example.com`, password: 'Passw0rd!' } });
  expect(res.status).toBe(200);
  return { id: res.body.user.id as number, username: `valid${n}`, email: `valid${n}@example.com`, jwt: res.body.jwt as string };
}

const userCount = () => server.instance.users.count();

describe('e-mail addresses', () => {
  it('refuses 40,000- and 160,000-character addresses with 400 on email, long before a backtracking pattern could finish', async () => {
    const before = await userCount();
    // The first shape took the old pattern quadratic time (160,000: ~10–30 s); the second passed it and was stored.
    for (const email of ['a@' + '.'.repeat(40_000) + ' ', 'a@' + '.'.repeat(160_000) + ' ', 'a'.repeat(40_000) + '@example.com']) {
      const started = performance.now();
      const res = await server.call('POST', '/api/auth/local/register', { body: { username: `long${++seq}`, email, password: 'Passw0rd!' } });
      // A bound far from both sides (a capped check answers in milliseconds), not a ratio.
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(fieldErrors(res)).toEqual(['email: email must be at most 254 characters']);
      expect(res.body.error.details.errors[0].value).toBeNull();
    }
    expect(await userCount()).toBe(before);
  });

  it('accepts an address of exactly 254 characters and refuses one of 255', async () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(at254.length).toBe(254);
    const ok = await server.call('POST', '/api/auth/local/register', { body: { username: 'exactly254', email: at254, password: 'Passw0rd!' } });
    expect(ok.status).toBe(200);
    const res = await server.call('POST', '/api/auth/local/register', { body: { username: 'over254', email: `x${at254}`, password: 'Passw0rd!' } });
    expect(fieldErrors(res)).toEqual(['email: email must be at most 254 characters']);
  });
});

describe('username and password on register', () => {
  it('refuses a username outside 3–254 characters or with a NUL, and a password under 6 characters or over 72 bytes, naming each field', async () => {
    const before = await userCount();
    const cases: [Record<string, unknown>, string[]][] = [
      [{ username: 'u'.repeat(255), email: 'u255@example.com', password: 'Passw0rd!' }, ['username: username must be at most 254 characters']],
      [{ username: 'ab', email: 'ab@example.com', password: 'Passw0rd!' }, ['username: username must be at least 3 characters']],
      [{ username: 'nul\u0000user', email: 'nul@example.com', password: 'Passw0rd!' }, ['username: username must not contain NUL characters']],
      // Strapi's limit on new passwords: 72 bytes of UTF-8 (bcrypt's), 24 three-byte characters and one more are 75.
      [{ username: 'longpw', email: 'longpw@example.com', password: 'p'.repeat(73) }, ['password: Password must be less than 73 bytes']],
      [{ username: 'longpw', email: 'longpw@example.com', password: '€'.repeat(25) }, ['password: Password must be less than 73 bytes']],
      // In the order Strapi's schema reports them.
      [
        { username: 'x'.repeat(300), email: 'y'.repeat(300), password: 'z'.repeat(100_000) },
        ['email: email must be at most 254 characters', 'username: username must be at most 254 characters', 'password: Password must be less than 73 bytes'],
      ],
      [
        { username: 12345, email: ['a@b.co'], password: { $gt: '' } },
        ['email: email must be a `string` type', 'username: username must be a `string` type', 'password: password must be a `string` type'],
      ],
    ];
    for (const [body, expected] of cases) expect(fieldErrors(await server.call('POST', '/api/auth/local/register', { body }))).toEqual(expected);
    expect(await userCount()).toBe(before);
    // At the limits, both are fine.
    const edge = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'e'.repeat(254), email: 'edge@example.com', password: 'é'.repeat(36) },
    });
    expect(edge.status).toBe(200);
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'edge@example.com', password: 'é'.repeat(36) } })).status).toBe(200);
  });

  it('never echoes a password back in an error', async () => {
    const res = await server.call('POST', '/api/auth/local/register', { body: { username: 'echo', email: 'echo@example.com', password: 'short' } });
    expect(fieldErrors(res)).toEqual(['password: password must be at least 6 characters']);
    expect(JSON.stringify(res.body)).not.toContain('short');
  });
});

describe('the same caps on the other account routes', () => {
  it('applies them to POST /api/users and PUT /api/users/:id with a full-access token, changing nothing', async () => {
    const before = await userCount();
    const created = await server.call('POST', '/api/users', {
      body: { username: 'made', email: 'm'.repeat(40_000) + '@example.com', password: 'Passw0rd!' },
      headers: full(),
    });
    expect(fieldErrors(created)).toEqual(['email: email must be at most 254 characters']);
    expect(await userCount()).toBe(before);
    const u = await newUser();
    for (const [body, expected] of [
      [{ username: 'n'.repeat(255) }, ['username: username must be at most 254 characters']],
      [{ email: 'a@' + '.'.repeat(160_000) + ' ' }, ['email: email must be at most 254 characters']],
      [{ password: 'p'.repeat(129) }, ['password: password must be at most 128 characters']],
      [{ username: null }, ['username: username must be a `string` type']],
    ] as const) {
      expect(fieldErrors(await server.call('PUT', `/api/users/${u.id}`, { body, headers: full() }))).toEqual([...expected]);
    }
    expect((await server.call('GET', `/api/users/${u.id}`, { headers: full() })).body).toMatchObject({ username: u.username, email: u.email });
  });

  it('applies them to forgot-password, which used to answer {ok:true} to any text', async () => {
    for (const [email, expected] of [
      ['a@' + '.'.repeat(160_000) + ' ', 'email: email must be at most 254 characters'],
      ['not-an-email', 'email: email must be a valid email'],
      [{ $ne: '' }, 'email: email must be a `string` type'],
      [undefined, 'email: email is a required field'],
    ] as const) {
      expect(fieldErrors(await server.call('POST', '/api/auth/forgot-password', { body: { email } }))).toEqual([expected]);
    }
    expect((await server.call('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } })).body).toEqual({ ok: true });
  });

  it('applies them to reset-password and change-password before any password is hashed or checked', async () => {
    const reset = await server.call('POST', '/api/auth/reset-password', {
      body: { code: 'c'.repeat(100_000), password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' },
    });
    expect(fieldErrors(reset)).toEqual(['code: code must be at most 256 characters']);
    const missing = await server.call('POST', '/api/auth/reset-password', { body: { password: 'Passw0rd!' } });
    // In the order Strapi's schema reports them: passwordConfirmation, code, then password (its checks finish last).
    expect(fieldErrors(missing)).toEqual(['passwordConfirmation: passwordConfirmation is a required field', 'code: code is a required field']);
    const u = await newUser();
    const change = (body: Record<string, unknown>) => server.call('POST', '/api/auth/change-password', { body, headers: bearer(u.jwt) });
    expect(fieldErrors(await change({ currentPassword: 'c'.repeat(100_000), password: 'New-passw0rd', passwordConfirmation: 'New-passw0rd' }))).toEqual([
      'currentPassword: currentPassword must be at most 128 characters',
    ]);
    const long = 'p'.repeat(73);
    expect(fieldErrors(await change({ currentPassword: 'Passw0rd!', password: long, passwordConfirmation: long }))).toEqual([
      'password: Password must be less than 73 bytes',
    ]);
    expect(fieldErrors(await change({ currentPassword: 'Passw0rd!', password: { $ne: '' }, passwordConfirmation: 'x' }))).toEqual([
      'passwordConfirmation: Passwords do not match',
      'password: password must be a `string` type',
    ]);
    // Nothing changed: the old password still logs in.
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: u.email, password: 'Passw0rd!' } })).status).toBe(200);
  });
});

describe('the login body', () => {
  const login = (body: unknown) => server.call('POST', '/api/auth/local', { body });

  it('answers a missing identifier or password with 400 "<field> is a required field" at that path', async () => {
    expect(fieldErrors(await login({ password: 'Passw0rd!' }))).toEqual(['identifier: identifier is a required field']);
    expect(fieldErrors(await login({ identifier: 'someone' }))).toEqual(['password: password is a required field']);
    const both = await login({});
    expect(both.body.error.message).toBe('2 errors occurred');
    expect(fieldErrors(both)).toEqual(['identifier: identifier is a required field', 'password: password is a required field']);
    expect(fieldErrors(await login({ identifier: null, password: 'Passw0rd!' }))).toEqual(['identifier: identifier is a required field']);
    for (const raw of [undefined, '[]', '"text"']) {
      const res = await server.call('POST', '/api/auth/local', raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } });
      expect(fieldErrors(res)).toEqual(['identifier: identifier is a required field', 'password: password is a required field']);
    }
  });

  it('answers operator objects and other non-strings with 400 at that path', async () => {
    await newUser();
    const one = await login({ identifier: { $ne: '' }, password: 'Passw0rd!' });
    expect(one.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'identifier must be a `string` type' });
    expect(one.body.error.details.errors).toEqual([
      { path: ['identifier'], message: 'identifier must be a `string` type', name: 'ValidationError', value: { $ne: '' } },
    ]);
    const other = await login({ identifier: 'valid1@example.com', password: { $ne: '' } });
    expect(other.body.error.details.errors).toEqual([
      { path: ['password'], message: 'password must be a `string` type', name: 'ValidationError', value: null },
    ]);
    expect(fieldErrors(await login({ identifier: ['a'], password: 42 }))).toEqual([
      'identifier: identifier must be a `string` type',
      'password: password must be a `string` type',
    ]);
  });

  it('caps the identifier at 254 and the password at 128 characters', async () => {
    expect(fieldErrors(await login({ identifier: 'i'.repeat(255), password: 'Passw0rd!' }))).toEqual(['identifier: identifier must be at most 254 characters']);
    expect(fieldErrors(await login({ identifier: 'someone', password: 'p'.repeat(1_000_000) }))).toEqual(['password: password must be at most 128 characters']);
  });
});
