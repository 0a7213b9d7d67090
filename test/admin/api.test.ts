/**
 * /admin/api over plain HTTP: first run, login, the session cookie, CSRF, the login rate
 * limit, and that admin sessions and API credentials never open each other's routes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { main } from '../../src/cli/main';
import { AdminAccounts } from '../../src/admin/accounts';

const ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;

/** Logs in; returns the cookie to send and the session's CSRF token. */
async function login(server: TestServer, email: string, password: string) {
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const { data } = (await response.json()) as { data: { csrfToken: string } };
  return { cookie, csrf: data.csrfToken, headers: { cookie, 'x-folio-csrf': data.csrfToken } };
}

describe('admin access', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  test('the first-run form creates a Super Admin from loopback, logs it in, then closes', async () => {
    expect((await server.call('GET', '/admin/api/session')).body.data).toMatchObject({ setupRequired: true, setupNeedsCode: false, user: null });
    const bad = await server.call('POST', '/admin/api/setup', { body: { email: 'not-an-email', password: 'short' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['email', 'password']);
    const made = await server.call('POST', '/admin/api/setup', { body: { email: 'Root@Example.com', password: 'correct horse' } });
    expect(made.status).toBe(200);
    expect(made.body.data.user).toMatchObject({ email: 'root@example.com', role: 'super-admin' });
    const cookie = made.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^folio_admin=[A-Za-z0-9_-]{43};/);
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/admin']) expect(cookie).toContain(attribute);
    expect(cookie).not.toContain('Secure');
    const again = await server.call('POST', '/admin/api/setup', { body: { email: 'other@example.com', password: 'correct horse' } });
    expect(again.status).toBe(403);
    expect(await new AdminAccounts(server.instance.db).count()).toBe(1);
  });

  test('a request through a proxy is not loopback: the first-run form then asks for the code', async () => {
    const other = await startServer({ publicAccess: false });
    try {
      const session = await other.call('GET', '/admin/api/session', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(session.body.data.setupNeedsCode).toBe(true);
      const refused = await other.call('POST', '/admin/api/setup', {
        body: { email: 'a@example.com', password: 'correct horse', code: 'wrong' },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.details.errors[0].path).toEqual(['code']);
      expect(await new AdminAccounts(other.instance.db).count()).toBe(0);
    } finally {
      await other.stop();
    }
  }, 30_000);

  test('setup needs the code whenever anything says the request came through a proxy or from elsewhere, with or without FOLIO_TRUST_PROXY', async () => {
    const cases: Record<string, string>[] = [
      { 'x-real-ip': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { via: '1.1 proxy' },
      { 'x-forwarded-host': 'cms.example' },
      { 'x-forwarded-proto': 'https' },
      { 'cf-connecting-ip': '203.0.113.7' },
      { 'true-client-ip': '203.0.113.7' },
      { host: 'cms.example' },
      { origin: 'https://cms.example' },
      { 'x-forwarded-for': '127.0.0.1' },
    ];
    for (const trustProxy of [false, true]) {
      const other = await startServer({ publicAccess: false, config: { trustProxy } });
      try {
        for (const headers of cases) {
          const session = await other.call('GET', '/admin/api/session', { headers });
          expect({ headers, trustProxy, needsCode: session.body.data.setupNeedsCode }).toEqual({ headers, trustProxy, needsCode: true });
          const refused = await other.call('POST', '/admin/api/setup', { body: { email: 'a@example.com', password: 'correct horse' }, headers });
          expect({ headers, trustProxy, status: refused.status }).toEqual({ headers, trustProxy, status: 403 });
        }
        expect(await new AdminAccounts(other.instance.db).count()).toBe(0);
        // This machine itself, by name: still no code needed.
        const local = await other.call('GET', '/admin/api/session', { headers: { host: `localhost:${new URL(other.url).port}` } });
        expect(local.body.data.setupNeedsCode).toBe(false);
      } finally {
        await other.stop();
      }
    }
  }, 30_000);

  test('a wrong password is a 401 envelope, and the session stores only a hash of the cookie', async () => {
    const wrong = await server.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ data: null, error: { status: 401, name: 'UnauthorizedError' } });
    const { cookie } = await login(server, 'ROOT@example.com', 'correct horse');
    const token = cookie.split('=')[1]!;
    const rows = await server.instance.db.all<{ tokenHash: string }>('SELECT "tokenHash" FROM folio_admin_sessions');
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === new Bun.CryptoHasher('sha256').update(token).digest('hex'))).toBe(true);
  });

  test('every admin write needs the session CSRF token and a same-origin Origin; a refused write changes nothing', async () => {
    const { cookie, headers } = await login(server, 'root@example.com', 'correct horse');
    const body = { data: { title: 'Forged' } };
    expect((await server.call('POST', ARTICLE, { body, headers: { cookie } })).status).toBe(403);
    expect((await server.call('POST', ARTICLE, { body, headers: { cookie, 'x-folio-csrf': 'nope' } })).status).toBe(403);
    expect((await server.call('POST', ARTICLE, { body, headers: { ...headers, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await server.call('POST', '/admin/api/logout', { headers: { cookie } })).status).toBe(403);
    expect((await server.call('GET', ARTICLE, { headers })).body.meta.pagination.total).toBe(0);
    const ok = await server.call('POST', ARTICLE, { body, headers: { ...headers, origin: server.url } });
    expect(ok.status).toBe(201);
  });

  test('an admin session opens nothing on /api, and an API token or user JWT opens nothing under /admin/api', async () => {
    const { headers } = await login(server, 'root@example.com', 'correct horse');
    expect((await server.call('GET', '/api/articles', { headers })).status).toBe(403);
    expect((await server.call('GET', ARTICLE, { headers })).status).toBe(200);
    const bearer = { authorization: `Bearer ${server.tokens.fullAccess}` };
    expect((await server.call('GET', '/api/articles', { headers: bearer })).status).toBe(200);
    const refused = await server.call('GET', ARTICLE, { headers: bearer });
    expect(refused.status).toBe(401);
    expect(refused.body.error.name).toBe('UnauthorizedError');
    expect((await server.call('POST', ARTICLE, { body: { data: { title: 'x' } }, headers: bearer })).status).toBe(401);
    const user = await server.instance.users.create({ email: 'u@example.com', username: 'user1', password: 'user password', role: 'authenticated' });
    const jwt = await server.instance.jwt.issue(user.id, 0);
    expect((await server.call('GET', '/admin/api/schema', { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(401);
  });

  test('saving through the admin writes a draft the public API does not show until it is published', async () => {
    const { headers } = await login(server, 'root@example.com', 'correct horse');
    await server.instance.roles.grant('public', ['api::article.article.find']);
    const created = await server.call('POST', ARTICLE, { body: { data: { title: 'From the admin', views: 3 } }, headers });
    expect(created.status).toBe(201);
    expect(created.body.meta.status).toBe('draft');
    const id = created.body.data.documentId;
    const visible = async () => (await server.call('GET', '/api/articles')).body.data.some((a: { documentId: string }) => a.documentId === id);
    expect(await visible()).toBe(false);
    const published = await server.call('POST', `${ARTICLE}/${id}/actions/publish`, { headers });
    expect(published.body.meta.status).toBe('published');
    expect(await visible()).toBe(true);
    const saved = await server.call('PUT', `${ARTICLE}/${id}`, { body: { data: { title: 'Changed' } }, headers });
    expect(saved.body.meta.status).toBe('modified');
    const list = await server.call('GET', `${ARTICLE}?_q=Changed&sort=title:asc`, { headers });
    expect(list.body.data.map((a: { title: string }) => a.title)).toEqual(['Changed']);
    expect(list.body.meta.status[`${id}:en`]).toBe('modified');
    expect((await server.call('POST', `${ARTICLE}/${id}/actions/unpublish`, { headers })).body.meta.status).toBe('draft');
    expect(await visible()).toBe(false);
  });

  test("publishing with the form's unsaved changes in { data } saves and publishes them in one write; refused, it changes nothing", async () => {
    const { headers } = await login(server, 'root@example.com', 'correct horse');
    await server.instance.roles.grant('public', ['api::article.article.find', 'api::article.article.findOne']);
    const id = (await server.call('POST', ARTICLE, { body: { data: { title: 'Before publishing' } }, headers })).body.data.documentId;
    const published = await server.call('POST', `${ARTICLE}/${id}/actions/publish`, { body: { data: { title: 'As published' } }, headers });
    expect(published.status).toBe(200);
    expect(published.body.meta.status).toBe('published');
    expect(published.body.data.title).toBe('As published');
    expect((await server.call('GET', `/api/articles/${id}`)).body.data.title).toBe('As published');
    // A required title taken away: a 400 naming it, the draft and the published version as they were.
    const refused = await server.call('POST', `${ARTICLE}/${id}/actions/publish`, { body: { data: { title: null } }, headers });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.errors.map((e: { path: string[] }) => e.path[0])).toEqual(['title']);
    const draft = await server.call('GET', `${ARTICLE}/${id}`, { headers });
    expect([draft.body.data.title, draft.body.meta.status]).toEqual(['As published', 'published']);
    expect((await server.call('POST', `${ARTICLE}/${id}/actions/publish`, { body: { data: [] }, headers })).status).toBe(400);
  });

  test('a validation error names the field in details.errors, as the content API does, and writes nothing', async () => {
    const { headers } = await login(server, 'root@example.com', 'correct horse');
    const before = (await server.call('GET', ARTICLE, { headers })).body.meta.pagination.total;
    const bad = await server.call('POST', ARTICLE, { body: { data: { title: 'x'.repeat(201) } }, headers });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: { path: string[] }) => e.path[0])).toEqual(['title']);
    expect((await server.call('GET', ARTICLE, { headers })).body.meta.pagination.total).toBe(before);
    expect((await server.call('GET', `${ARTICLE}?_q=%00`, { headers })).status).toBe(400);
    expect((await server.call('GET', `/admin/api/content/nope`, { headers })).status).toBe(404);
    expect((await server.call('GET', `/admin/api/nothing`, { headers })).status).toBe(404);
  });

  test('logout ends the session on the server: the old cookie opens nothing', async () => {
    const { cookie, headers } = await login(server, 'root@example.com', 'correct horse');
    const out = await server.call('POST', '/admin/api/logout', { headers });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await server.call('GET', ARTICLE, { headers: { cookie } })).status).toBe(401);
  });

  test('login is rate-limited per client: past the limit a 429 with Retry-After, even with the right password', async () => {
    const limited = await startServer({ publicAccess: false, config: { authRateLimit: { max: 3, windowMs: 60_000 } } });
    try {
      await new AdminAccounts(limited.instance.db).create({ email: 'root@example.com', password: 'correct horse' });
      const attempt = () => limited.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password: 'correct horse' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(200);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.body.error.name).toBe('RateLimitError');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.stop();
    }
  }, 30_000);
});

describe('folio admin create', () => {
  test('creates an admin who can log in, an editor with --role editor; a bad role is an error', async () => {
    const server = await startServer({ publicAccess: false });
    try {
      const args = [
        '--data',
        server.dataDir,
        '--content-types',
        server.instance.config.contentTypesDir,
        ...(server.instance.config.databaseUrl ? ['--database', server.instance.config.databaseUrl] : []),
      ];
      expect(await main(['admin', 'create', '--email', 'ed@example.com', '--password', 'editor password', '--role', 'editor', ...args])).toBe(0);
      expect(await main(['admin', 'create', '--email', 'x@example.com', '--password', 'editor password', '--role', 'owner', ...args])).toBe(1);
      expect(await main(['admin', 'create', '--email', 'x@example.com', ...args])).toBe(2);
      const { headers } = await login(server, 'ed@example.com', 'editor password');
      const session = await server.call('GET', '/admin/api/session', { headers });
      expect(session.body.data.user).toMatchObject({ email: 'ed@example.com', role: 'editor' });
      expect((await server.call('GET', ARTICLE, { headers })).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('the first load', () => {
  test('the page loads only its own script and style sheet: under 60 KB compressed at first, under 300 KB with the rich-text editor chunk', async () => {
    const server = await startServer({ publicAccess: false });
    try {
      const page = await fetch(`${server.url}/admin/content/x`);
      const html = await page.text();
      const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toStartWith('/admin/assets/');
      for (const m of html.matchAll(/<link[^>]*href="([^"]+)"/g)) expect(m[1]!).toStartWith('/admin/assets/');
      const script = await fetch(`${server.url}${scripts[0]}`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
      expect(script.headers.get('content-encoding')).toBe('gzip');
      const compressed = (await script.arrayBuffer()).byteLength;
      expect(compressed).toBeGreaterThan(1000);
      // What every page loads first stays small: the rich-text editor is a chunk of its own.
      expect(compressed).toBeLessThan(60 * 1024);
      const text = Bun.gunzipSync(
        new Uint8Array(
          await (await fetch(`${server.url}${scripts[0]}`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit)).arrayBuffer(),
        ),
      );
      const chunks = [...new TextDecoder().decode(text).matchAll(/"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!).filter((name) => !scripts[0]!.endsWith(name));
      expect(chunks.some((name) => name.startsWith('rich-editor-'))).toBe(true);
      let total = compressed;
      for (const name of new Set(chunks)) {
        const chunk = await fetch(`${server.url}/admin/assets/${name}`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
        expect(chunk.status).toBe(200);
        expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        total += (await chunk.arrayBuffer()).byteLength;
      }
      // Everything, the editor included, under the cap.
      expect(total).toBeLessThan(300 * 1024);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
