/**
 * Request bodies, URLs and string values that used to answer 500 (or Bun's bare 431), or were
 * stored differently from what was sent: each now gets the error envelope, the right status,
 * and leaves nothing behind. Runs on SQLite and, with FOLIO_TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { jsonDepth, MAX_JSON_DEPTH } from '../../src/http/body';
import { HEAD_ROOM, MAX_URL_LENGTH, urlLimitUnder } from '../../src/http/security';
import { MAX_REQUEST_HEAD } from '../../src/http/app';
import { startServer, tempDir, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const json = { 'content-type': 'application/json' };

async function articleCount() {
  const list = await server.call('GET', '/api/articles?status=draft&pagination[pageSize]=1');
  return list.body.meta.pagination.total as number;
}

/** A write that must fail with a 400 ValidationError and change nothing. */
async function refused(method: string, path: string, options: Parameters<TestServer['call']>[2]) {
  const before = await articleCount();
  const response = await server.call(method, path, options);
  expect(response.status).toBe(400);
  expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
  expect(await articleCount()).toBe(before);
  return response.body.error;
}

function expectSecurityHeaders(headers: Headers | Record<string, string>) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  expect(get('content-type')).toBe('application/json; charset=utf-8');
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('x-frame-options')).toBe('SAMEORIGIN');
  expect(get('referrer-policy')).toBe('no-referrer');
  expect(get('content-security-policy')).toContain("default-src 'none'");
}

/** One HTTP/1.1 exchange over a raw TCP socket: exactly the bytes given, nothing added by a client. */
function rawRequest(url: string, head: string, chunks: string[] = []): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(head);
      for (const chunk of chunks) socket.write(chunk);
    });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (data) => (received += data));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('JSON nesting depth', () => {
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it(`refuses a body nested 5,000 levels deep with a 400 ValidationError naming the ${MAX_JSON_DEPTH}-level limit`, async () => {
    const error = await refused('POST', '/api/articles', { raw: `{"data":{"title":"deep","meta":${nested(5000)}}}`, headers: json });
    expect(error.message).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it('refuses a body nested 200,000 levels deep (it used to overflow the stack and answer 500)', async () => {
    await refused('POST', '/api/articles', { raw: `{"data":{"title":"deeper","meta":${nested(200_000)}}}`, headers: json });
  });

  it('stores and returns a json value nested 200 levels deep, and one nested as deep as Strapi 5.54.0 stores (4,111 levels)', async () => {
    for (const levels of [200, 4111]) {
      const value = '{"a":'.repeat(levels) + '"leaf"' + '}'.repeat(levels);
      const created = await server.call('POST', '/api/articles', { raw: `{"data":{"title":"deep ${levels}","meta":${value}}}`, headers: json });
      expect(created.status).toBe(201);
      expect(jsonDepth(created.body.data.meta, MAX_JSON_DEPTH)).toBe(levels);
      const id = created.body.data.documentId;
      const updated = await server.call('PUT', `/api/articles/${id}`, { raw: `{"data":{"meta":${value.replace('"leaf"', '"changed"')}}}`, headers: json });
      expect(updated.status).toBe(200);
      const read = await fetch(`${server.url}/api/articles/${id}?fields[0]=meta`);
      expect(read.status).toBe(200);
      const text = await read.text();
      expect(text).toContain('{"a":'.repeat(levels) + '"changed"');
    }
    expect(MAX_JSON_DEPTH).toBe(4111 + 2);
  });

  it('accepts a body exactly at the depth limit and refuses one level more', async () => {
    // The body object and `data` are two levels; the JSON attribute value brings the rest.
    const atLimit = await server.call('POST', '/api/articles', {
      raw: `{"data":{"title":"at the limit","meta":${nested(MAX_JSON_DEPTH - 2)}}}`,
      headers: json,
    });
    expect(atLimit.status).toBe(201);
    expect(jsonDepth(atLimit.body.data.meta, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH - 2);
    await refused('POST', '/api/articles', { raw: `{"data":{"title":"one more","meta":${nested(MAX_JSON_DEPTH - 1)}}}`, headers: json });
  });

  it('measures a value a million levels deep without recursing (no stack overflow), stopping past the cap', () => {
    let value: unknown[] = [];
    for (let i = 1; i < 1_000_000; i++) value = [value];
    expect(jsonDepth(value, MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(jsonDepth({ a: [1, { b: 'x' }], c: {} }, MAX_JSON_DEPTH)).toBe(3);
    expect(jsonDepth('text', MAX_JSON_DEPTH)).toBe(0);
  });
});

describe('URL length', () => {
  it(`answers a URL over ${MAX_URL_LENGTH} characters (20,000, which Bun alone refused with a bare 431) with a 414 envelope and the security headers`, async () => {
    const path = `/api/articles?filters[title][$eq]=${'a'.repeat(20_000)}`;
    const raw = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(raw.status).toBe(414);
    expectSecurityHeaders(raw.headers);
    expect(JSON.parse(raw.body)).toMatchObject({ data: null, error: { status: 414, name: 'URITooLongError', details: { maxLength: MAX_URL_LENGTH } } });

    const fetched = await fetch(server.url + path);
    expect(fetched.status).toBe(414);
    expectSecurityHeaders(fetched.headers);
    expect(((await fetched.json()) as { error: { name: string } }).error.name).toBe('URITooLongError');
  });

  it("keeps Folio's URL limit below Bun's head limit, so every URL Folio refuses gets the envelope", async () => {
    // Bun's head limit as raised (app.ts): URLs over MAX_URL_LENGTH that Bun lets through all reach Folio's 414.
    expect(urlLimitUnder(MAX_REQUEST_HEAD)).toBe(MAX_URL_LENGTH);
    // A head limit that could not be raised (Bun's default 16 KiB, or a lower one): Folio's limit moves below it.
    expect(urlLimitUnder(16 * 1024)).toBe(16 * 1024 - HEAD_ROOM);
    expect(urlLimitUnder(16 * 1024)).toBeLessThan(16 * 1024);
    for (const length of [MAX_URL_LENGTH + 1, 2 * MAX_URL_LENGTH, MAX_REQUEST_HEAD - HEAD_ROOM]) {
      const path = `/api/articles?x=${'c'.repeat(length - '/api/articles?x='.length)}`;
      const raw = await rawRequest(
        server.url,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${'k'.repeat(HEAD_ROOM - 512)}\r\nConnection: close\r\n\r\n`,
      );
      expect(raw.status).toBe(414);
      expect(JSON.parse(raw.body).error.name).toBe('URITooLongError');
    }
  });

  it('serves a URL of exactly the limit as usual, and keeps serving after a refused one', async () => {
    const prefix = '/api/articles?filters[title][$eq]=';
    const atLimit = await server.call('GET', prefix + 'b'.repeat(MAX_URL_LENGTH - prefix.length));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual([]);
    const over = await server.call('GET', prefix + 'b'.repeat(MAX_URL_LENGTH - prefix.length + 1));
    expect(over.status).toBe(414);
    expect((await server.call('GET', '/api/articles')).status).toBe(200);
  });
});

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  it('refuses a documentId with NUL in the path on GET, PUT and DELETE, naming the parameter', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await server.call(method, '/api/articles/abc%00def', method === 'PUT' ? { body: { data: { title: 'x' } } } : {});
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: 'ValidationError', details: { source: 'path', param: 'documentId' } });
    }
  });

  it('refuses NUL in query values and keys: filters, locale, status, sort, fields, populate', async () => {
    const cases: [string, string][] = [
      ['filters[title][$eq]=a%00b', 'filters[title][$eq]'],
      ['filters[$or][0][title][$containsi]=%00', 'filters[$or][0][title][$containsi]'],
      ['filters[ti%00tle][$eq]=x', 'filters[ti\u0000tle]'],
      ['locale=e%00n', 'locale'],
      ['status=draft%00', 'status'],
      ['sort=title%00:asc', 'sort'],
      ['fields[0]=ti%00tle', 'fields[0]'],
      ['populate[cat%00egory]=true', 'populate[cat\u0000egory]'],
    ];
    for (const [query, param] of cases) {
      const response = await server.call('GET', `/api/articles?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: 'ValidationError', details: { source: 'query', param } });
    }
    const write = await refused('POST', '/api/articles?locale=f%00r', { body: { data: { title: 'x' } } });
    expect(write.details).toMatchObject({ source: 'query', param: 'locale' });
  });

  it('refuses NUL in body strings at any depth (attribute, component, dynamic zone, relation id), naming the path', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ title: 'a\u0000b' }, ['title']],
      [{ title: 'ok', seo: { metaTitle: 'meta\u0000' } }, ['seo', 'metaTitle']],
      [
        {
          title: 'ok',
          links: [
            { label: 'fine', url: '/x' },
            { label: '\u0000', url: '/y' },
          ],
        },
        ['links', 1, 'label'],
      ],
      [{ title: 'ok', blocks: [{ __component: 'shared.quote', body: 'q\u0000' }] }, ['blocks', 0, 'body']],
      [{ title: 'ok', body: [{ type: 'paragraph', children: [{ type: 'text', text: 'nul \u0000' }] }] }, ['body', 0, 'children', 0, 'text']],
    ];
    for (const [data, path] of cases) {
      const error = await refused('POST', '/api/articles', { body: { data } });
      expect(error.details.errors).toEqual([expect.objectContaining({ path, message: expect.stringContaining('must not contain NUL characters') })]);
    }
    for (const category of ['ab\u0000c', { connect: [{ documentId: 'x\u0000' }] }, { connect: [{ documentId: 'x', locale: 'e\u0000n' }] }]) {
      const error = await refused('POST', '/api/articles', { body: { data: { title: 'ok', category } } });
      expect(error.message).toContain('must not contain NUL characters');
    }
  });

  it('stores a JSON attribute holding NUL (stored as escaped JSON text) and reads it back exactly', async () => {
    const meta = { 'k\u0000ey': 'va\u0000lue', lone: '\ud800' };
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'json nul', meta } } });
    expect(created.status).toBe(201);
    expect((await server.call('GET', `/api/articles/${created.body.data.documentId}`)).body.data.meta).toEqual(meta);
  });
});

describe('write query parameters', () => {
  it('refuses a write whose populate or fields are invalid before anything is written (it used to store the document, then answer 400)', async () => {
    await refused('POST', '/api/articles?populate=nosuch', { body: { data: { title: 'never stored' } } });
    await refused('POST', '/api/articles?fields[0]=nosuch', { body: { data: { title: 'never stored' } } });
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'before' } } })).body.data;
    await refused('PUT', `/api/articles/${doc.documentId}?populate[nosuch]=true`, { body: { data: { title: 'after' } } });
    expect((await server.call('GET', `/api/articles/${doc.documentId}?status=draft`)).body.data.title).toBe('before');
  });
});

describe('unpaired UTF-16 surrogates', () => {
  it('refuses a lone surrogate (it was stored as U+FFFD and answered 201), naming the path', async () => {
    for (const [data, path] of [
      [{ title: 'a\ud800' }, ['title']],
      [{ title: 'ok', summary: '\udc00 low first' }, ['summary']],
      [{ title: 'ok', seo: { metaTitle: 'x\ud83d' } }, ['seo', 'metaTitle']],
    ] as [Record<string, unknown>, string[]][]) {
      // JSON.stringify writes a lone surrogate as the escape \ud800, exactly what a client sends.
      const error = await refused('POST', '/api/articles', { raw: JSON.stringify({ data }), headers: json });
      expect(error.details.errors).toEqual([expect.objectContaining({ path, message: expect.stringContaining('unpaired UTF-16 surrogates') })]);
    }
  });

  it('stores a proper surrogate pair (an emoji) and reads it back exactly', async () => {
    const title = 'smile \ud83d\ude00 and \u{1f600}';
    const created = await server.call('POST', '/api/articles', { body: { data: { title } } });
    expect(created.status).toBe(201);
    expect((await server.call('GET', `/api/articles/${created.body.data.documentId}`)).body.data.title).toBe(title);
  });
});

describe('body size limit at the boundary', () => {
  const LIMIT = 1024;
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({ bodyLimit: LIMIT });
  });
  afterAll(() => small.stop());

  /** A valid create body padded with JSON whitespace to exactly `size` bytes. */
  const bodyOf = (size: number, title: string) => {
    const base = JSON.stringify({ data: { title } });
    return base.slice(0, -1) + ' '.repeat(size - base.length) + '}';
  };

  /** POSTs `body` with Transfer-Encoding: chunked, 100-byte chunks, no Content-Length. */
  const chunked = (body: string) => {
    const chunks: string[] = [];
    for (let i = 0; i < body.length; i += 100) {
      const part = body.slice(i, i + 100);
      chunks.push(`${part.length.toString(16)}\r\n${part}\r\n`);
    }
    chunks.push('0\r\n\r\n');
    const head = 'POST /api/articles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n';
    return rawRequest(small.url, head, chunks);
  };

  it('accepts a body of exactly the limit with Content-Length and refuses one byte more with 413', async () => {
    const exact = bodyOf(LIMIT, 'exactly the limit');
    expect(Buffer.byteLength(exact)).toBe(LIMIT);
    expect((await small.call('POST', '/api/articles', { raw: exact, headers: json })).status).toBe(201);
    const over = await small.call('POST', '/api/articles', { raw: bodyOf(LIMIT + 1, 'one byte over'), headers: json });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: expect.any(String), details: {} } });
  });

  it('accepts a chunked body of exactly the limit and refuses one byte more with the 413 envelope', async () => {
    const exact = await chunked(bodyOf(LIMIT, 'chunked at the limit'));
    expect(exact.status).toBe(201);
    const over = await chunked(bodyOf(LIMIT + 1, 'chunked one byte over'));
    expect(over.status).toBe(413);
    expectSecurityHeaders(over.headers);
    expect(JSON.parse(over.body)).toMatchObject({ data: null, error: { status: 413, name: 'PayloadTooLargeError' } });
    const twice = await chunked(bodyOf(2 * LIMIT, 'chunked twice the limit'));
    expect(twice.status).toBe(413);
    const titles = (await small.call('GET', '/api/articles?status=draft')).body.data.map((a: { title: string }) => a.title);
    expect(titles).toContain('chunked at the limit');
    expect(titles).not.toContain('chunked one byte over');
    expect(titles).not.toContain('chunked twice the limit');
  });
});

describe('e-mail attributes', () => {
  it('refuses a 160,000-character e-mail value at once with "must be a valid email"', async () => {
    const response = await server.call('POST', '/api/authors', { body: { data: { name: 'long', email: `${'a'.repeat(80_000)}@${'b.'.repeat(40_000)}com` } } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.errors).toEqual([expect.objectContaining({ path: ['email'], message: 'email must be a valid email' })]);
  });

  it('accepts an address of 254 characters and refuses one of 255 (RFC 5321), as the shared isEmail rule does', async () => {
    const address = (last: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(last)}`;
    expect(address(61)).toHaveLength(254);
    expect((await server.call('POST', '/api/authors', { body: { data: { name: 'fits', email: address(61) } } })).status).toBe(201);
    const over = await server.call('POST', '/api/authors', { body: { data: { name: 'too long', email: address(62) } } });
    expect(over.status).toBe(400);
    expect(over.body.error.details.errors[0]).toMatchObject({ path: ['email'], message: 'email must be a valid email' });
  });

  it('never runs a schema regex over a value longer than maxLength: a backtracking pattern on 100,000 characters answers at once', async () => {
    // `^(a+)+$` takes exponential time on "aaaa…!"; if it ever ran on this value the test would hang.
    const dir = tempDir();
    writeFileSync(
      join(dir, 'gadget.json'),
      JSON.stringify({
        kind: 'collectionType',
        collectionName: 'gadgets',
        info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
        options: { draftAndPublish: false },
        attributes: { code: { type: 'string', regex: '^(a+)+$', maxLength: 30 } },
      }),
    );
    const gadgets = await startServer({ contentTypes: dir });
    try {
      const response = await gadgets.call('POST', '/api/gadgets', { body: { data: { code: `${'a'.repeat(100_000)}!` } } });
      expect(response.status).toBe(400);
      expect(response.body.error.details.errors[0]).toMatchObject({ path: ['code'], message: 'code must be at most 30 characters' });
      expect((await gadgets.call('POST', '/api/gadgets', { body: { data: { code: 'aaa' } } })).status).toBe(201);
    } finally {
      await gadgets.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
