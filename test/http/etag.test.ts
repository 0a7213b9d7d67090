/**
 * HTTP caching (issue 16): every 200 GET of the content API carries a strong ETag of its
 * exact body, `If-None-Match` with a current tag answers 304 with an empty body, and a write
 * changes the tag. Files under /uploads carry an ETag and Last-Modified and answer 304 to
 * either validator. Error envelopes and writes never carry a tag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload, UPLOAD_ACTIONS } from '../upload/helpers';

let server: TestServer;
let documentId: string;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Cached', slug: 'cached' } } });
  expect(created.status).toBe(201);
  documentId = created.body.data.documentId;
});
afterAll(() => server.stop());

/** A raw fetch (an empty 304 body shows as '' and 0 bytes). */
async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(server.url + path, { method, headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, text: new TextDecoder().decode(bytes), size: bytes.length };
}

describe('ETag on the content API', () => {
  it('tags a list, a document, a single type, locales and the OpenAPI document, and answers 304 with an empty body to If-None-Match', async () => {
    await server.call('PUT', '/api/global', { body: { data: { siteName: 'Site' } } });
    for (const path of ['/api/articles', `/api/articles/${documentId}`, '/api/global', '/api/i18n/locales', '/api/openapi.json', '/api/upload/files']) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
      const again = await get(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('content-type')).toBeNull();
    }
  });

  it('gives HEAD the same tag as GET and a 304 for a current one', async () => {
    const body = await get('/api/articles');
    const head = await get('/api/articles', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(body.headers.get('etag'));
    expect((await get('/api/articles', { 'if-none-match': body.headers.get('etag')! }, 'HEAD')).status).toBe(304);
  });

  it('changes the tag of the document and of the list after a write, and answers 200 to the old tag', async () => {
    const before = { one: await get(`/api/articles/${documentId}`), list: await get('/api/articles') };
    const updated = await server.call('PUT', `/api/articles/${documentId}`, { body: { data: { title: 'Cached, then changed' } } });
    expect(updated.status).toBe(200);
    for (const [path, old] of [
      [`/api/articles/${documentId}`, before.one],
      ['/api/articles', before.list],
    ] as const) {
      const after = await get(path, { 'if-none-match': old.headers.get('etag')! });
      expect(after.status).toBe(200);
      expect(after.text).toContain('Cached, then changed');
      expect(after.headers.get('etag')).not.toBe(old.headers.get('etag'));
    }
  });

  it('reads If-None-Match as a list compared weakly, and *; other tags and garbage get the full answer', async () => {
    const etag = (await get('/api/articles')).headers.get('etag')!;
    for (const header of [`"other", ${etag}`, `W/${etag}`, `"a",W/"b" ,  ${etag}`, '*']) {
      expect((await get('/api/articles', { 'if-none-match': header })).status).toBe(304);
    }
    for (const header of ['"other"', 'W/"other", "x"', etag.slice(1, -1), 'garbage', '""']) {
      const res = await get('/api/articles', { 'if-none-match': header });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).data.length).toBeGreaterThan(0);
    }
  });

  it('keeps authenticated answers out of shared caches: Vary names Authorization, and Cache-Control is private with a token', async () => {
    const anonymous = await get('/api/articles');
    expect(anonymous.headers.get('vary')).toContain('Authorization');
    expect(anonymous.headers.get('cache-control')).toBe('no-cache');
    const withToken = await get('/api/articles', { authorization: `Bearer ${server.tokens.readOnly}` });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('private, no-cache');
    expect(withToken.headers.get('vary')).toContain('Authorization');
    const notModified = await get('/api/articles', { authorization: `Bearer ${server.tokens.readOnly}`, 'if-none-match': withToken.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('private, no-cache');
    expect(notModified.headers.get('vary')).toContain('Authorization');
  });

  it('keeps Origin in Vary beside Authorization when CORS names its origins', async () => {
    const cors = await startServer({ config: { corsOrigins: ['http://app.test'] } });
    try {
      const res = await fetch(`${cors.url}/api/articles`, { headers: { origin: 'http://app.test' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).not.toBeNull();
      const vary = (res.headers.get('vary') ?? '').split(',').map((v) => v.trim());
      expect(vary).toEqual(expect.arrayContaining(['Origin', 'Authorization', 'Strapi-Response-Format']));
      const again = await fetch(`${cors.url}/api/articles`, { headers: { origin: 'http://app.test', 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
      expect(again.headers.get('vary')).toContain('Origin');
      // A front end on that origin may send the validator and read the tag, the request id and which images got no formats.
      expect(res.headers.get('access-control-expose-headers')).toBe('ETag, X-Request-Id, Retry-After, X-Folio-Formats-Skipped');
      const preflight = await fetch(`${cors.url}/api/articles`, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    } finally {
      await cors.stop();
    }
  });

  it('tags the v4 response format differently from v5 and names Strapi-Response-Format in Vary', async () => {
    const v5 = await get(`/api/articles/${documentId}`);
    const v4 = await get(`/api/articles/${documentId}`, { 'strapi-response-format': 'v4' });
    expect(v4.text).not.toBe(v5.text);
    expect(v4.headers.get('etag')).not.toBe(v5.headers.get('etag'));
    expect(v5.headers.get('vary')).toContain('Strapi-Response-Format');
    expect((await get(`/api/articles/${documentId}`, { 'strapi-response-format': 'v4', 'if-none-match': v5.headers.get('etag')! })).status).toBe(200);
  });

  it('never tags an error envelope, even for If-None-Match: *, while the same route tags its 200', async () => {
    expect((await get(`/api/articles/${documentId}`)).headers.get('etag')).not.toBeNull();
    for (const path of ['/api/articles/nope', '/api/articles?filters[nope][$eq]=1', '/api/nothing']) {
      const res = await get(path, { 'if-none-match': '*' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(JSON.parse(res.text).error.status).toBe(res.status);
      expect(res.headers.get('etag')).toBeNull();
    }
  });

  it('never tags the answer of a write, only the reads that follow it', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Write', slug: 'write' } } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeNull();
    expect((await get(`/api/articles/${created.body.data.documentId}`)).headers.get('etag')).not.toBeNull();
    const updated = await server.call('PUT', `/api/articles/${created.body.data.documentId}`, {
      body: { data: { title: 'Write 2' } },
      headers: { 'if-none-match': '*' },
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('etag')).toBeNull();
  });
});

describe('ETag and Last-Modified on /uploads', () => {
  it('serves a file with an ETag, its modification time as Last-Modified and a public Cache-Control', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: await makeImage(20, 10), filename: 'tagged.png', type: 'image/png' }] })).body;
    const when = new Date('2026-01-02T03:04:05Z');
    utimesSync(join(server.dataDir, 'uploads', file.url.slice('/uploads/'.length)), when, when);
    for (const method of ['GET', 'HEAD']) {
      const res = await get(file.url, {}, method);
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/);
      expect(res.headers.get('last-modified')).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
      expect(res.headers.get('cache-control')).toStartWith('public, max-age=');
    }
  });

  it('answers 304 with an empty body to a current If-None-Match or If-Modified-Since, and the file to an older date', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: await makeImage(30, 10), filename: 'cond.png', type: 'image/png' }] })).body;
    const first = await get(file.url);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const current: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': `"x", W/${etag}` },
      { 'if-modified-since': lastModified },
      { 'if-modified-since': new Date().toUTCString() },
    ];
    for (const headers of current) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(file.url, headers, method);
        expect(res.status).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('content-length') ?? '0').toBe('0');
      }
    }
    // An older date, a stale tag (which wins over a current date), and a date that is not one.
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const stale: Record<string, string>[] = [
      { 'if-modified-since': older },
      { 'if-none-match': '"stale"', 'if-modified-since': lastModified },
      { 'if-modified-since': 'yesterday' },
    ];
    for (const headers of stale) {
      const res = await get(file.url, headers);
      expect(res.status).toBe(200);
      expect(res.size).toBe(Number(res.headers.get('content-length')));
    }
  });

  it('gives a replaced file, under the same URL, a new tag: the old tag gets no 304 there', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: await makeImage(40, 10), filename: 'swap.png', type: 'image/png' }] })).body;
    const before = (await get(file.url)).headers.get('etag')!;
    const replaced = await upload(server.url, {
      query: `?id=${file.id}`,
      files: [{ bytes: await makeImage(41, 12), filename: 'swap.png', type: 'image/png' }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.url).toBe(file.url);
    const after = await get(file.url, { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('gives a missing file the 404 envelope without a tag, where a stored one has a tag', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: await makeImage(50, 10), filename: 'here.png', type: 'image/png' }] })).body;
    expect((await get(file.url)).headers.get('etag')).not.toBeNull();
    const res = await get('/uploads/missing_0123456789.png', { 'if-none-match': '*' });
    expect(res.status).toBe(404);
    expect(res.headers.get('etag')).toBeNull();
  });
});
