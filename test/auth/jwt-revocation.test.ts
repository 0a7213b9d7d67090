/**
 * A password change or reset takes back every JWT issued before it (401), including ones
 * issued in the same second, while the JWT that change-password or reset-password answers
 * with works. A JWT without `exp` is refused; Strapi's JWTs (no version claim) keep
 * working until the user's password changes.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SignJWT } from 'jose';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

let server: TestServer;
const mails: string[] = [];
beforeAll(async () => {
  server = await startServer({ publicAccess: false, config: { authRateLimit: { max: 10_000, windowMs: 60_000 } } });
  server.instance.email = { send: async (message) => void mails.push(message.text) };
});
afterAll(() => server.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
let seq = 0;

async function newUser() {
  const n = ++seq;
  const res = await server.call('POST', '/api/auth/local/register', { body: { username: `jwt${n}`, email: `jwt${n}@example.com`, password: 'Passw0rd!' } });
  expect(res.status).toBe(200);
  return { id: res.body.user.id as number, email: `jwt${n}@example.com`, jwt: res.body.jwt as string };
}
const login = async (identifier: string, password: string) => {
  const res = await server.call('POST', '/api/auth/local', { body: { identifier, password } });
  expect(res.status).toBe(200);
  return res.body.jwt as string;
};
/** The status GET /api/users/me answers with this JWT. */
const me = async (jwt: string) => (await server.call('GET', '/api/users/me', { headers: bearer(jwt) })).status;
const sign = (claims: Record<string, unknown>, exp?: number) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt();
  return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(new TextEncoder().encode(server.instance.secrets.jwtSecret));
};
const now = () => Math.floor(Date.now() / 1000);

describe('password changes take back earlier JWTs', () => {
  it('refuses every JWT issued before change-password with 401 and accepts the one it answered with', async () => {
    const u = await newUser();
    const loggedIn = await login(u.email, 'Passw0rd!');
    expect([await me(u.jwt), await me(loggedIn)]).toEqual([200, 200]);
    const change = await server.call('POST', '/api/auth/change-password', {
      body: { currentPassword: 'Passw0rd!', password: 'Changed-pw1', passwordConfirmation: 'Changed-pw1' },
      headers: bearer(loggedIn),
    });
    expect(change.status).toBe(200);
    // Register, login and the change usually share one second of `iat`: only the new one works.
    const unauthorized = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid credentials', details: {} } };
    expect((await server.call('GET', '/api/users/me', { headers: bearer(u.jwt) })).body).toEqual(unauthorized);
    expect(await me(loggedIn)).toBe(401);
    expect(await me(change.body.jwt)).toBe(200);
    expect(await me(await login(u.email, 'Changed-pw1'))).toBe(200);
    expect(await me(change.body.jwt)).toBe(200);
  });

  it('refuses every JWT issued before reset-password with 401 and accepts the one it answered with', async () => {
    const u = await newUser();
    const loggedIn = await login(u.email, 'Passw0rd!');
    expect((await server.call('POST', '/api/auth/forgot-password', { body: { email: u.email } })).body).toEqual({ ok: true });
    const code = mails.at(-1)!.match(/\b[0-9a-f]{128}\b/)![0];
    const reset = await server.call('POST', '/api/auth/reset-password', { body: { code, password: 'Reset-pw-9', passwordConfirmation: 'Reset-pw-9' } });
    expect(reset.status).toBe(200);
    expect([await me(u.jwt), await me(loggedIn), await me(reset.body.jwt)]).toEqual([401, 401, 200]);
  });

  it('lets a second change take back the JWT of the first', async () => {
    const u = await newUser();
    const change = async (jwt: string, from: string, to: string) =>
      (
        await server.call('POST', '/api/auth/change-password', {
          body: { currentPassword: from, password: to, passwordConfirmation: to },
          headers: bearer(jwt),
        })
      ).body.jwt as string;
    const first = await change(u.jwt, 'Passw0rd!', 'Second-pw1');
    const second = await change(first, 'Second-pw1', 'Third-pw1');
    expect([await me(u.jwt), await me(first), await me(second)]).toEqual([401, 401, 200]);
  });

  it('leaves other users’ JWTs alone', async () => {
    const a = await newUser();
    const b = await newUser();
    await server.call('POST', '/api/auth/change-password', {
      body: { currentPassword: 'Passw0rd!', password: 'Only-a-pw1', passwordConfirmation: 'Only-a-pw1' },
      headers: bearer(a.jwt),
    });
    expect([await me(a.jwt), await me(b.jwt)]).toEqual([401, 200]);
  });
});

describe('JWT claims', () => {
  it('refuses a correctly signed JWT without exp with 401, and accepts the same claims with one', async () => {
    const u = await newUser();
    expect(await me(await sign({ id: u.id }))).toBe(401);
    expect(await me(await sign({ id: u.id, v: 0 }))).toBe(401);
    expect(await me(await sign({ id: u.id }, now() + 3600))).toBe(200);
  });

  it('accepts a JWT without a version claim, as Strapi issues them, until the password changes', async () => {
    const u = await newUser();
    const strapiStyle = await sign({ id: u.id }, now() + 3600);
    expect(await me(strapiStyle)).toBe(200);
    await server.call('POST', '/api/auth/change-password', {
      body: { currentPassword: 'Passw0rd!', password: 'After-strapi1', passwordConfirmation: 'After-strapi1' },
      headers: bearer(strapiStyle),
    });
    expect(await me(strapiStyle)).toBe(401);
  });

  it('refuses a version claim that is not the user’s current one', async () => {
    const u = await newUser();
    for (const v of [1, -1, 0.5, '0']) expect(await me(await sign({ id: u.id, v }, now() + 3600))).toBe(401);
  });
});
