import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
const allowed = (headers: Headers) => (headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
const STACK_FRAME = /\bat\s[^\n"]*\.ts:\d+/;

function expectEnvelope(response: { status: number; body: any }, status: number, name?: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ data: null, error: { status, name: name ?? expect.any(String), message: expect.any(String), details: expect.any(Object) } });
}

describe('generated routes', () => {
  it.each([
    ['articles', { title: 'Route test' }, { title: 'Route test (edited)' }],
    ['authors', { name: 'Route author' }, { name: 'Route author (edited)' }],
    ['categories', { name: 'Route category' }, { name: 'Route category (edited)' }],
    ['tags', { name: 'route-tag' }, { name: 'route-tag-edited' }],
  ])('serves list, create, get, update and delete for the collection %s', async (plural, create, update) => {
    const created = await server.call('POST', `/api/${plural}`, { body: { data: create } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ data: expect.objectContaining(create), meta: {} });
    const id = created.body.data.documentId;

    const list = await server.call('GET', `/api/${plural}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: any) => d.documentId)).toContain(id);
    expect((await server.call('GET', `/api/${plural}/${id}`)).body).toEqual({ data: expect.objectContaining({ documentId: id, ...create }), meta: {} });

    const updated = await server.call('PUT', `/api/${plural}/${id}`, { body: { data: update } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ documentId: id, ...update });

    const deleted = await server.call('DELETE', `/api/${plural}/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await server.call('GET', `/api/${plural}/${id}`)).body).toEqual(notFound);
  });

  it.each([
    ['homepage', { headline: 'Welcome' }, { headline: 'Welcome back' }],
    ['global', { siteName: 'Folio' }, { siteName: 'Folio 2' }],
  ])('serves the single type %s: 404 before the first PUT, PUT creates with 200 and then updates the same document', async (singular, first, second) => {
    expect((await server.call('GET', `/api/${singular}`)).body).toEqual(notFound);
    expect((await server.call('GET', `/api/${singular}`)).status).toBe(404);

    const created = await server.call('PUT', `/api/${singular}`, { body: { data: first } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ data: expect.objectContaining(first), meta: {} });
    const id = created.body.data.documentId;
    expect(id).toMatch(/^[a-z0-9]{24}$/);

    const read = await server.call('GET', `/api/${singular}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ documentId: id, ...first });

    const updated = await server.call('PUT', `/api/${singular}`, { body: { data: second } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ documentId: id, ...second });
    expect((await server.call('GET', `/api/${singular}`)).body.data).toMatchObject({ documentId: id, ...second });

    const deleted = await server.call('DELETE', `/api/${singular}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await server.call('GET', `/api/${singular}`)).body).toEqual(notFound);
  });

  it('answers 405 with the JSON envelope and an Allow header for a method the path does not serve', async () => {
    const post = await server.call('POST', '/api/homepage', { body: { data: { headline: 'x' } } });
    expectEnvelope(post, 405, 'MethodNotAllowedError');
    expect(allowed(post.headers)).toEqual(expect.arrayContaining(['GET', 'PUT', 'DELETE']));
    expect(allowed(post.headers)).not.toContain('POST');
    expect((await server.call('GET', '/api/homepage')).status).toBe(404);

    const patch = await server.call('PATCH', '/api/articles/xfq65kfdaih9hdtvph0n7v50', { body: { data: { title: 'x' } } });
    expectEnvelope(patch, 405, 'MethodNotAllowedError');
    expect(allowed(patch.headers)).toEqual(expect.arrayContaining(['GET', 'PUT', 'DELETE']));
    expect(allowed(patch.headers)).not.toContain('PATCH');

    const collection = await server.call('DELETE', '/api/articles');
    expectEnvelope(collection, 405, 'MethodNotAllowedError');
    expect(allowed(collection.headers)).toEqual(expect.arrayContaining(['GET', 'POST']));
  });

  it('answers 404 with the envelope for unknown routes and unknown documentIds', async () => {
    for (const path of ['/api/nosuchtype', '/nosuchpath', '/api/nosuchtype/abc', '/api', '/api/articles/abc/def']) {
      const response = await server.call('GET', path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFound);
    }
    expect((await server.call('GET', '/api/articles/doesnotexist000000000000')).body).toEqual(notFound);
    const put = await server.call('PUT', '/api/articles/doesnotexist000000000000', { body: { data: { title: 'x' } } });
    expect(put.status).toBe(404);
    expect(put.body).toEqual(notFound);
    expect((await server.call('GET', '/api/articles?status=draft&filters[title][$eq]=x')).body.data).toEqual([]);
  });

  it('lists only published rows with the default pagination meta', async () => {
    for (const name of ['p1', 'p2', 'p3']) await server.call('POST', '/api/tags', { body: { data: { name } } });
    const draft = (await server.call('POST', '/api/tags?status=draft', { body: { data: { name: 'only-draft' } } })).body.data;
    const list = await server.call('GET', '/api/tags');
    expect(list.status).toBe(200);
    const total = list.body.data.length;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(list.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: Math.ceil(total / 25), total } });
    expect(list.body.data.map((t: any) => t.documentId)).not.toContain(draft.documentId);
    for (const tag of list.body.data) expect(tag.publishedAt).toEqual(expect.any(String));
    const drafts = await server.call('GET', '/api/tags?status=draft');
    expect(drafts.body.meta.pagination.total).toBe(total + 1);
  });

  it('answers application/json; charset=utf-8 on successes and errors alike', async () => {
    const responses = [
      await server.call('GET', '/api/articles'),
      await server.call('POST', '/api/authors', { body: { data: { name: 'ct' } } }),
      await server.call('POST', '/api/authors', { body: { data: {} } }),
      await server.call('GET', '/nosuchpath'),
      await server.call('PATCH', '/api/articles'),
      await server.call('GET', '/api/i18n/locales'),
    ];
    for (const r of responses) expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('body size limit', () => {
  it('answers 413 PayloadTooLargeError for a body over the limit, with or without content-length, and keeps serving', async () => {
    const small = await startServer({ bodyLimit: 1024 });
    try {
      const body = JSON.stringify({ data: { title: 'big', summary: 'x'.repeat(5000) } });
      const big = await small.call('POST', '/api/articles', { raw: body, headers: { 'content-type': 'application/json' } });
      expectEnvelope(big, 413, 'PayloadTooLargeError');

      const bytes = new TextEncoder().encode(body);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 500) controller.enqueue(bytes.slice(i, i + 500));
          controller.close();
        },
      });
      const chunked = await fetch(`${small.url}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      const chunkedBody = await chunked.json();
      expect(chunkedBody).toMatchObject({ data: null, error: { status: 413, name: 'PayloadTooLargeError', details: {} } });

      const list = await small.call('GET', '/api/articles?status=draft');
      expect(list.status).toBe(200);
      expect(list.body.meta.pagination.total).toBe(0);
      expect((await small.call('POST', '/api/articles', { body: { data: { title: 'fits' } } })).status).toBe(201);
    } finally {
      await small.stop();
    }
  });
});

describe('system routes', () => {
  it('publishes an OpenAPI 3.1 document generated from the content types', async () => {
    const response = await server.call('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/articles', '/api/articles/{documentId}', '/api/homepage']));
    expect(doc.paths['/api/articles']).toHaveProperty('get');
    expect(doc.paths['/api/articles']).toHaveProperty('post');
    expect(doc.paths['/api/homepage']).not.toHaveProperty('post');
    const input = doc.components.schemas.ArticleInput;
    expect(input.additionalProperties).toBe(false);
    const title = input.properties.title;
    const maxLength = title.maxLength ?? (title.anyOf ?? title.oneOf ?? []).find((s: any) => s.maxLength !== undefined)?.maxLength;
    expect(maxLength).toBe(200);
    expect(input.properties).not.toHaveProperty('documentId');
  });

  it('answers the health check with 204 and no body', async () => {
    const response = await fetch(`${server.url}/_health`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('lists the locales as a bare array with the default flagged', async () => {
    const response = await server.call('GET', '/api/i18n/locales');
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body).toHaveLength(2);
    expect(response.body.find((l: any) => l.code === 'en')).toMatchObject({ code: 'en', isDefault: true, name: expect.any(String) });
    expect(response.body.find((l: any) => l.code === 'fr')).toMatchObject({ code: 'fr', isDefault: false, name: 'French (fr)' });
  });
});

describe('malformed input', () => {
  const deep = 'filters' + '[a]'.repeat(30) + '=1';
  const bodies: (string | Uint8Array)[] = [
    '{"data":',
    '{',
    '[',
    'nul',
    '{"data": {"title": }}',
    '{"data":{"title":"x"}}}',
    "{'data':{}}",
    'data[title]=x',
    '',
    'null',
    '[]',
    '"string"',
    '42',
    '{"data":[]}',
    '{"data":[{"title":"x"}]}',
    '{"data":"title"}',
    '{"data":null}',
    '{"data":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
    '{"data":{"title":{"nested":{"deep":[1,2,{"x":null}]}}}}',
    '{"data":{"title":["a"]}}',
    '{"data":{"title":"x","views":1e400}}',
    '{"data":{"title":"x","views":99999999999999999999999}}',
    '{"data":{"title":"x","rating":"NaN"}}',
    '{"data":{"tïtle💥":"x"}}',
    '{"data":{"title":"x","kind":"néws"}}',
    '{"data":{"__proto__":{"title":"x"}}}',
    '{"data":{"constructor":1}}',
    '{"data":{"title":"x","publishDate":"not-a-date"}}',
    '{"data":{"title":"x","seo":"str"}}',
    '{"data":{"title":"x","links":{"a":1}}}',
    '{"data":{"title":"x","blocks":[{"__component":"nope.nope"}]}}',
    '{"data":{"title":"x","tags":{"connect":[{"garbage":{"deep":true}}]}}}',
    '{"data":{"title":"x","author":{"connect":["doesnotexist000000000000"]}}}',
    '{"data":{"title":"x","body":"not blocks"}}',
    new Uint8Array([0x7b, 0x22, 0x64, 0xff, 0xfe, 0x00, 0x7d]),
  ];
  const queries = [
    'pagination[page]=abc',
    'pagination[pageSize]=abc',
    'pagination[start]=abc',
    'pagination[page]=1&pagination[limit]=2',
    'status=bogus',
    'sort=title:up',
    'sort=nope',
    'sort[0][title]=sideways',
    'fields[0]=nope',
    'fields[0]=author',
    'populate=nope',
    'populate[title]=true',
    'populate[author][populate][nope]=true',
    'filters[title][$nope]=1',
    'filters[nope][$eq]=1',
    'foo=bar',
    'filters=abc',
    'filters[views][$eq]=abc',
    'filters[id][$eq]=abc',
    'fïelds=1',
    deep,
  ];

  /** Returns what is wrong with the answer to one malformed request, or nothing. */
  async function problem(response: Response, label: string): Promise<string | undefined> {
    const text = await response.text();
    if (response.status < 400 || response.status >= 500) return `${label} -> ${response.status} ${text.slice(0, 200)}`;
    if (STACK_FRAME.test(text)) return `${label} -> stack trace in ${text.slice(0, 200)}`;
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return `${label} -> not JSON: ${text.slice(0, 200)}`;
    }
    const e = body?.error;
    const ok =
      body?.data === null &&
      e?.status === response.status &&
      typeof e.name === 'string' &&
      typeof e.message === 'string' &&
      e.details !== null &&
      typeof e.details === 'object';
    return ok ? undefined : `${label} -> not the envelope: ${text.slice(0, 200)}`;
  }

  it(`answers ${bodies.length} malformed bodies and ${queries.length} malformed queries with a 4xx envelope, never a 500 or a stack trace`, async () => {
    expect(bodies.length + queries.length).toBeGreaterThanOrEqual(30);
    const before = (await server.call('GET', '/api/articles?status=draft')).body.meta.pagination.total;
    const problems: (string | undefined)[] = [];
    for (const body of bodies) {
      const label = typeof body === 'string' ? `POST ${body.slice(0, 60)}` : 'POST invalid utf-8';
      problems.push(await problem(await fetch(`${server.url}/api/articles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), label));
    }
    for (const query of queries) problems.push(await problem(await fetch(`${server.url}/api/articles?${query}`), `GET ?${query}`));
    for (const path of ['/api/articles/%E0%A4%A', '/api/art%C3%ADcles', '/api/articles/' + 'x'.repeat(5000)]) {
      problems.push(await problem(await fetch(`${server.url}${path}`), `GET ${path.slice(0, 40)}`));
    }
    expect(problems.filter(Boolean)).toEqual([]);
    expect((await server.call('GET', '/api/articles?status=draft')).body.meta.pagination.total).toBe(before);
    expect((await server.call('GET', '/api/articles')).status).toBe(200);
  });
});
