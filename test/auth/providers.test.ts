/**
 * Signing in through a provider (`/api/connect/:provider`, Strapi 5.54's grant-style flow),
 * with Strapi's answers: the browser goes to the provider with the key, scope, callback and a
 * state; the provider's callback keeps its tokens on the server and sends the browser on to
 * the front end's callback URL with an empty query; `GET /api/auth/:provider/callback` with the
 * same cookie answers `{ jwt, user }`, creating the user (`provider`, `confirmed: true`) or
 * finding it. The provider is a fake Keycloak over HTTPS with a self-signed certificate,
 * trusted through NODE_EXTRA_CA_CERTS, so Folio serves from a child process (both engines).
 * No provider secret or token appears in an answer or a log line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startFakeProvider, type FakeProvider } from '../helpers/oauth-provider';
import { killSpawned, removeTempDirs, type CliOptions } from '../helpers/spawn';
import { browserSignIn, CLIENT, frontEndCallback, FRONT_CALLBACK, get, serveWithProvider, type FolioWithProvider } from './provider-flow';

setDefaultTimeout(60_000);

const TEST_DATABASE_URL = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];
let provider: FakeProvider;
let served: FolioWithProvider;

/** Where a spawned server keeps its data: a PostgreSQL database of its own when the tests run on PostgreSQL. */
async function installation(): Promise<CliOptions> {
  if (!TEST_DATABASE_URL) return {};
  const url = await createDatabase(TEST_DATABASE_URL, 'folio_providers');
  databases.push(url);
  return { database: url };
}

beforeAll(async () => {
  provider = startFakeProvider(CLIENT);
  served = await serveWithProvider(provider, await installation());
});
afterAll(async () => {
  await served.folio.stop().catch(() => {});
  provider.close();
  await killSpawned();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
  removeTempDirs();
});

const call = (method: string, path: string, options: Parameters<FolioWithProvider['folio']['call']>[2] = {}) => served.folio.call(method, path, options);
const asToken = () => ({ authorization: `Bearer ${served.token}` });

describe('the provider flow', () => {
  it('sends the browser to the provider with its key, scope, callback and a state, and back to the front end with an empty query', async () => {
    provider.user = { preferred_username: 'ada', email: 'Ada@Example.com', email_verified: true };
    const before = provider.requests.length;
    const { jar, start, back } = await browserSignIn(served.folio);
    const authorize = new URL(start.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`https://${provider.subdomain}/protocol/openid-connect/auth`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      client_id: CLIENT.clientId,
      response_type: 'code',
      redirect_uri: `${served.folio.url}/api/connect/keycloak/callback`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    // The session cookie: httpOnly, for the API only, holding a random key (its state stays on the server).
    expect(start.setCookie).toMatch(/^folio_connect=[A-Za-z0-9_-]{43}; Path=\/api; Max-Age=600; Expires=[^;]+; SameSite=Lax; HttpOnly$/);
    expect(back.location).toBe(FRONT_CALLBACK);
    // The code was traded with the secret, at the token endpoint only.
    const token = provider.requests.slice(before).find((r) => r.path.endsWith('/token'))!;
    expect(token.form).toMatchObject({
      grant_type: 'authorization_code',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      redirect_uri: `${served.folio.url}/api/connect/keycloak/callback`,
    });

    const signedIn = await frontEndCallback(served.folio, jar);
    expect(signedIn.status).toBe(200);
    expect(Object.keys(signedIn.body).sort()).toEqual(['jwt', 'user']);
    expect(signedIn.body.user).toMatchObject({ username: 'ada', email: 'ada@example.com', provider: 'keycloak', confirmed: true, blocked: false });
    expect((await call('GET', '/api/users/me', { headers: { authorization: `Bearer ${signedIn.body.jwt}` } })).body.id).toBe(signedIn.body.user.id);
    const withRole = await call('GET', `/api/users/${signedIn.body.user.id}?populate=role`, { headers: asToken() });
    expect(withRole.body.role.type).toBe('authenticated');
    // Asked again with the same cookie (a front end's effect running twice), the same account.
    expect((await frontEndCallback(served.folio, jar)).body.user.id).toBe(signedIn.body.user.id);

    // A second sign-in finds the account instead of making another.
    const again = await browserSignIn(served.folio);
    expect((await frontEndCallback(served.folio, again.jar)).body.user.id).toBe(signedIn.body.user.id);
  });

  it('gives a taken username four digits, as Strapi does', async () => {
    provider.user = { preferred_username: 'ada', email: 'other-ada@example.com', email_verified: true };
    const { jar } = await browserSignIn(served.folio);
    expect((await frontEndCallback(served.folio, jar)).body.user.username).toMatch(/^ada\d{4}$/);
  });

  it('refuses an address registered locally: "Email is already taken."', async () => {
    const local = await call('POST', '/api/auth/local/register', { body: { username: 'localgrace', email: 'grace@example.com', password: 'Passw0rd!' } });
    expect(local.status).toBe(200);
    provider.user = { preferred_username: 'grace', email: 'grace@example.com', email_verified: true };
    const { jar } = await browserSignIn(served.folio);
    const res = await frontEndCallback(served.folio, jar);
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Email is already taken.', details: {} } });
  });

  it('refuses an address the provider has not verified, and a blocked account', async () => {
    provider.user = { preferred_username: 'unverified', email: 'unverified@example.com', email_verified: false };
    let flow = await browserSignIn(served.folio);
    expect((await frontEndCallback(served.folio, flow.jar)).body.error).toMatchObject({ name: 'ApplicationError', message: 'Email not verified by Keycloak' });
    provider.user = { preferred_username: 'blocky', email: 'blocky@example.com', email_verified: true };
    flow = await browserSignIn(served.folio);
    const user = (await frontEndCallback(served.folio, flow.jar)).body.user;
    expect((await call('PUT', `/api/users/${user.id}`, { headers: asToken(), body: { blocked: true } })).status).toBe(200);
    flow = await browserSignIn(served.folio);
    expect((await frontEndCallback(served.folio, flow.jar)).body.error).toMatchObject({
      name: 'ApplicationError',
      message: 'Your account has been blocked by an administrator',
    });
  });

  it('answers ?access_token= without the provider session with 400', async () => {
    const res = await get(`${served.folio.url}/api/auth/keycloak/callback?access_token=${provider.accessTokens[0]}`, new Map());
    expect(res.body).toEqual({
      data: null,
      error: { status: 400, name: 'ApplicationError', message: 'OAuth authentication requires a completed provider session', details: {} },
    });
  });

  it('answers a disabled or unknown provider with "This provider is disabled"', async () => {
    for (const path of ['/api/connect/github', '/api/connect/myspace', '/api/auth/github/callback', '/api/connect/github/callback']) {
      const res = await get(served.folio.url + path, new Map());
      expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ApplicationError', message: 'This provider is disabled', details: {} } });
    }
  });

  it('sends the provider’s refusal, a wrong state or a bad code to the front end as ?error=', async () => {
    provider.denyNext = 'access_denied';
    const denied = await browserSignIn(served.folio);
    expect(denied.back.location).toBe(`${FRONT_CALLBACK}?error=access_denied&error_description=The+user+said+no`);
    expect((await frontEndCallback(served.folio, denied.jar)).body.error.message).toBe('OAuth authentication requires a completed provider session');

    const jar = new Map<string, string>();
    await get(`${served.folio.url}/api/connect/keycloak`, jar);
    const mismatch = await get(`${served.folio.url}/api/connect/keycloak/callback?code=abc&state=wrong`, jar);
    expect(mismatch.location).toBe(`${FRONT_CALLBACK}?error=oauth_error&error_description=OAuth2+state+mismatch`);
    const noSession = await get(`${served.folio.url}/api/connect/keycloak/callback?code=abc&state=x`, new Map());
    expect(noSession.location).toBe(`${FRONT_CALLBACK}?error=oauth_error&error_description=OAuth2+state+mismatch`);
    const start = await get(`${served.folio.url}/api/connect/keycloak`, jar);
    const state = new URL(start.location!).searchParams.get('state');
    const badCode = await get(`${served.folio.url}/api/connect/keycloak/callback?code=not-a-code&state=${state}`, jar);
    expect(badCode.location).toBe(`${FRONT_CALLBACK}?error=oauth_error&error_description=Code+not+valid`);
    const noCode = await get(`${served.folio.url}/api/connect/keycloak/callback`, jar);
    expect(noCode.location).toBe(`${FRONT_CALLBACK}?error=oauth_error&error_description=OAuth2+missing+code+parameter`);
  });

  it('takes a front end’s own ?callback= on the configured origin and path, and refuses any other', async () => {
    provider.user = { preferred_username: 'cally', email: 'cally@example.com', email_verified: true };
    const own = `${FRONT_CALLBACK}?lang=fr`;
    const flow = await browserSignIn(served.folio, `?callback=${encodeURIComponent(own)}`);
    // Strapi replaces the callback's query with the flow's (empty on success).
    expect(flow.back.location).toBe(FRONT_CALLBACK);
    const refused = await get(`${served.folio.url}/api/connect/keycloak?callback=${encodeURIComponent('https://evil.example/x')}`, new Map());
    expect(refused.body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid callback URL provided', details: { callback: 'https://evil.example/x' } },
    });
  });

  it('never shows the provider’s secret or tokens in an answer, a cookie or a log line', async () => {
    provider.user = { preferred_username: 'secretive', email: 'secretive@example.com', email_verified: true };
    const { jar, start, atProvider, back } = await browserSignIn(served.folio);
    const answer = await frontEndCallback(served.folio, jar);
    const seen = [start, atProvider, back, answer].map((r) => `${r.location} ${r.setCookie} ${r.text}`).join('\n') + [...jar.values()].join(' ');
    const logs = served.folio.stdout() + served.folio.stderr();
    for (const secret of [CLIENT.clientSecret, ...provider.accessTokens]) {
      expect(seen).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('trust', () => {
  it('refuses the provider’s self-signed certificate without NODE_EXTRA_CA_CERTS', async () => {
    const untrusting = await serveWithProvider(provider, { ...(await installation()), trust: false });
    try {
      const { back } = await browserSignIn(untrusting.folio);
      const location = new URL(back.location!);
      expect(location.searchParams.get('error')).toBe('oauth_error');
      expect(location.searchParams.get('error_description')).toStartWith('The provider could not be reached');
    } finally {
      await untrusting.folio.stop();
    }
  });
});

describe('refresh mode', () => {
  it('answers a session’s tokens, as a login does', async () => {
    const refreshing = await serveWithProvider(provider, { ...(await installation()), extraConfig: { jwtManagement: 'refresh' } });
    try {
      provider.user = { preferred_username: 'rory', email: 'rory@example.com', email_verified: true };
      const { jar } = await browserSignIn(refreshing.folio);
      const res = await frontEndCallback(refreshing.folio, jar);
      expect(Object.keys(res.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect((await refreshing.folio.call('POST', '/api/auth/refresh', { body: { refreshToken: res.body.refreshToken } })).status).toBe(200);
    } finally {
      await refreshing.folio.stop();
    }
  });
});

afterEach(() => {
  provider.denyNext = undefined;
});
