import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** Totals of every list the failed writes could touch (drafts included for draft & publish types). */
async function snapshot() {
  const total = async (path: string) => (await server.call('GET', `${path}${path.includes('?') ? '&' : '?'}pagination[pageSize]=1`)).body.meta.pagination.total;
  return {
    articles: await total('/api/articles'),
    articleDrafts: await total('/api/articles?status=draft'),
    authors: await total('/api/authors'),
    tags: await total('/api/tags'),
    tagDrafts: await total('/api/tags?status=draft'),
  };
}

/** Runs a write that must fail and checks that no list changed because of it. */
async function rejected(method: string, path: string, options: Parameters<TestServer['call']>[2]) {
  const before = await snapshot();
  const response = await server.call(method, path, options);
  expect(await snapshot()).toEqual(before);
  return response;
}

type FieldError = { path: string[]; message?: string; value: unknown };
function expectValidation(response: { status: number; body: any }, errors: FieldError[], message?: string) {
  expect(response.status).toBe(400);
  expect(response.body.data).toBeNull();
  expect(response.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
  expect(response.body.error.message).toBe(message ?? errors[0]!.message ?? response.body.error.message);
  const got = response.body.error.details.errors;
  expect(got).toHaveLength(errors.length);
  errors.forEach((e, i) => {
    expect(got[i]).toMatchObject({ path: e.path, name: 'ValidationError', value: e.value });
    expect(got[i].message).toBe(e.message ?? got[i].message);
    expect(typeof got[i].message).toBe('string');
  });
}

const invalidKey = (key: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: `Invalid key ${key}`, details: { key, path: null, source: 'body' } },
});
const missingData = { data: null, error: { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} } };

describe('field validation on create and update', () => {
  it('rejects a create without a required attribute, naming the attribute and the null value', async () => {
    const article = await rejected('POST', '/api/articles', { body: { data: { summary: 'no title' } } });
    expectValidation(article, [{ path: ['title'], message: 'title must be a `string` type, but the final value was: `null`.', value: null }]);
    const author = await rejected('POST', '/api/authors', { body: { data: { bio: 'nameless' } } });
    expectValidation(author, [{ path: ['name'], message: 'name must be a `string` type, but the final value was: `null`.', value: null }]);
  });

  it('rejects null for a required attribute on update and keeps the stored value', async () => {
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'Keep me' } } })).body.data;
    const response = await rejected('PUT', `/api/articles/${doc.documentId}`, { body: { data: { title: null } } });
    expectValidation(response, [{ path: ['title'], value: null }]);
    expect((await server.call('GET', `/api/articles/${doc.documentId}`)).body.data.title).toBe('Keep me');
    expect((await server.call('GET', `/api/articles/${doc.documentId}?status=draft`)).body.data.title).toBe('Keep me');
  });

  it('enforces maxLength: 201 characters are refused, 200 are accepted', async () => {
    const long = 'x'.repeat(201);
    expectValidation(await rejected('POST', '/api/articles', { body: { data: { title: long } } }), [
      { path: ['title'], message: 'title must be at most 200 characters', value: long },
    ]);
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'y'.repeat(200) } } })).status).toBe(201);
  });

  it('enforces min on integers: -1 is refused, 0 is accepted', async () => {
    expectValidation(await rejected('POST', '/api/articles', { body: { data: { title: 'neg', views: -1 } } }), [
      { path: ['views'], message: 'views must be greater than or equal to 0', value: -1 },
    ]);
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'zero', views: 0 } } })).body.data.views).toBe(0);
  });

  it("refuses a value outside the enumeration with Strapi's message", async () => {
    const response = await rejected('POST', '/api/articles', { body: { data: { title: 'ok', kind: 'poem' } } });
    expectValidation(response, [{ path: ['kind'], message: 'kind must be one of the following values: news, guide, opinion, ', value: 'poem' }]);
  });

  it('enforces regex: "red" is refused as a tag color, "#A1b2C3" is accepted', async () => {
    const response = await rejected('POST', '/api/tags', { body: { data: { name: 'bad color', color: 'red' } } });
    expectValidation(response, [{ path: ['color'], message: 'color must match the following: "/^#[0-9a-fA-F]{6}$/"', value: 'red' }]);
    expect((await server.call('POST', '/api/tags', { body: { data: { name: 'good color', color: '#A1b2C3' } } })).status).toBe(201);
  });

  it('enforces the email format on author.email', async () => {
    const response = await rejected('POST', '/api/authors', { body: { data: { name: 'E', email: 'not-an-email' } } });
    expectValidation(response, [{ path: ['email'], message: 'email must be a valid email', value: 'not-an-email' }]);
  });

  it('enforces unique on published tags and authors, but not against the document itself', async () => {
    const tag = await server.call('POST', '/api/tags', { body: { data: { name: 'alpha' } } });
    expect(tag.status).toBe(201);
    expectValidation(await rejected('POST', '/api/tags', { body: { data: { name: 'alpha' } } }), [
      { path: ['name'], message: 'This attribute must be unique', value: 'alpha' },
    ]);
    const republished = await server.call('PUT', `/api/tags/${tag.body.data.documentId}`, { body: { data: { name: 'alpha', color: '#000000' } } });
    expect(republished.status).toBe(200);

    expect((await server.call('POST', '/api/authors', { body: { data: { name: 'A', email: 'same@example.com' } } })).status).toBe(201);
    const dup = await rejected('POST', '/api/authors', { body: { data: { name: 'B', email: 'same@example.com' } } });
    expectValidation(dup, [{ path: ['email'], message: 'This attribute must be unique', value: 'same@example.com' }]);
  });

  it('does not enforce unique between drafts', async () => {
    const first = await server.call('POST', '/api/tags?status=draft', { body: { data: { name: 'twin' } } });
    const second = await server.call('POST', '/api/tags?status=draft', { body: { data: { name: 'twin' } } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.data.documentId).not.toBe(second.body.data.documentId);
  });

  it('refuses values of the wrong type for integers and booleans', async () => {
    expectValidation(await rejected('POST', '/api/articles', { body: { data: { title: 't', views: 'abc' } } }), [{ path: ['views'], value: 'abc' }]);
    expectValidation(await rejected('POST', '/api/articles', { body: { data: { title: 't', views: 1.5 } } }), [
      { path: ['views'], message: 'views must be an integer', value: 1.5 },
    ]);
    expectValidation(await rejected('POST', '/api/articles', { body: { data: { title: 't', featured: 'maybe' } } }), [{ path: ['featured'], value: 'maybe' }]);
  });

  it('accepts a numeric string for an integer and stores the number, as Strapi does (yup strict: false)', async () => {
    const response = await server.call('POST', '/api/articles', { body: { data: { title: 'stringly', views: '5' } } });
    expect(response.status).toBe(201);
    expect(response.body.data.views).toBe(5);
  });

  it('says "N errors occurred" and lists every error in attribute order when several fail', async () => {
    const response = await rejected('POST', '/api/articles', { body: { data: { views: -1, summary: 'no title' } } });
    expectValidation(
      response,
      [
        { path: ['title'], message: 'title must be a `string` type, but the final value was: `null`.', value: null },
        { path: ['views'], message: 'views must be greater than or equal to 0', value: -1 },
      ],
      '2 errors occurred',
    );
    const three = await rejected('POST', '/api/articles', { body: { data: { title: 'z'.repeat(300), views: -2, kind: 'poem' } } });
    expect(three.body.error.message).toBe('3 errors occurred');
    expect(three.body.error.details.errors.map((e: any) => e.path[0])).toEqual(['title', 'kind', 'views']);
  });
});

describe('validation of drafts', () => {
  it('skips required, min and regex for drafts', async () => {
    const article = await server.call('POST', '/api/articles?status=draft', { body: { data: { views: -1 } } });
    expect(article.status).toBe(201);
    expect(article.body.data).toMatchObject({ title: null, views: -1, publishedAt: null });
    const tag = await server.call('POST', '/api/tags?status=draft', { body: { data: { color: 'red' } } });
    expect(tag.status).toBe(201);
    expect(tag.body.data).toMatchObject({ name: null, color: 'red', publishedAt: null });
  });

  it('still enforces maxLength on drafts, on create and on update', async () => {
    const long = 'd'.repeat(201);
    expectValidation(await rejected('POST', '/api/articles?status=draft', { body: { data: { title: long } } }), [
      { path: ['title'], message: 'title must be at most 200 characters', value: long },
    ]);
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'short' } } })).body.data;
    expectValidation(await rejected('PUT', `/api/articles/${doc.documentId}?status=draft`, { body: { data: { title: long } } }), [
      { path: ['title'], value: long },
    ]);
    expect((await server.call('GET', `/api/articles/${doc.documentId}?status=draft`)).body.data.title).toBe('short');
  });

  it('validates a draft fully when a later PUT publishes it', async () => {
    const draft = (await server.call('POST', '/api/articles?status=draft', { body: { data: { summary: 'untitled draft' } } })).body.data;
    const response = await rejected('PUT', `/api/articles/${draft.documentId}`, { body: { data: { summary: 'publish me' } } });
    expectValidation(response, [{ path: ['title'], value: null }]);
    expect((await server.call('GET', `/api/articles/${draft.documentId}`)).status).toBe(404);
  });
});

describe('shape of the request body', () => {
  it('refuses an unknown attribute key', async () => {
    const response = await rejected('POST', '/api/articles', { body: { data: { title: 'unknown attribute', nope: 1 } } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidKey('nope'));
  });

  it.each(['id', 'documentId', 'createdAt'])('refuses the non-writable key %s on create and on update', async (key) => {
    const created = await rejected('POST', '/api/articles', {
      body: { data: { title: 'x', [key]: key === 'id' ? 1 : key === 'createdAt' ? '2020-01-01T00:00:00.000Z' : 'abcdefghijklmnopqrstuvwx' } },
    });
    expect(created.status).toBe(400);
    expect(created.body).toEqual(invalidKey(key));
    const doc = (await server.call('POST', '/api/authors', { body: { data: { name: `holder ${key}` } } })).body.data;
    const updated = await rejected('PUT', `/api/authors/${doc.documentId}`, { body: { data: { name: 'changed', [key]: doc[key] } } });
    expect(updated.body).toEqual(invalidKey(key));
    expect((await server.call('GET', `/api/authors/${doc.documentId}`)).body.data.name).toBe(`holder ${key}`);
  });

  it.each([
    ['no data key', { title: 'not wrapped in data' }],
    ['data as an array', { data: [{ title: 'x' }] }],
    ['data as a string', { data: 'title' }],
    ['data as null', { data: null }],
    ['an array body', [{ data: { title: 'x' } }]],
  ])('answers Missing "data" payload for %s', async (_, body) => {
    const response = await rejected('POST', '/api/articles', { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(missingData);
  });

  it('answers Missing "data" payload for a text/plain body, also on update; for JSON sent so, with the header to add', async () => {
    const response = await rejected('POST', '/api/articles', { raw: '{"data":{"title":"as text"}}', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      ...missingData.error,
      message: `Missing "data" payload in the request body (the body looks like JSON but was sent as text/plain: add the header Content-Type: application/json, e.g. curl -H 'Content-Type: application/json' -d '{"data":{…}}')`,
    });
    const doc = (await server.call('POST', '/api/authors', { body: { data: { name: 'plain' } } })).body.data;
    expect((await server.call('PUT', `/api/authors/${doc.documentId}`, { raw: 'hello', headers: { 'content-type': 'text/plain' } })).body).toEqual(missingData);
  });

  it('answers 400 SyntaxError with empty details for malformed JSON', async () => {
    for (const raw of ['{"data":', '{"data":{"title":"x",}}', "{'data':{}}"]) {
      const response = await rejected('POST', '/api/articles', { raw, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
      expect(response.body.error).toMatchObject({ status: 400, name: 'SyntaxError', details: {} });
      expect(response.body.error.message).toEqual(expect.any(String));
    }
  });
});

describe('private attributes', () => {
  it('stores a private attribute but never returns it, not even through populate', async () => {
    const created = await server.call('POST', '/api/authors', { body: { data: { name: 'Ada', email: 'ada@example.com', internalNotes: 'secret' } } });
    expect(created.status).toBe(201);
    expect(created.body.data).not.toHaveProperty('internalNotes');
    const id = created.body.data.documentId;
    const stored = await server.instance.db.get<{ internalNotes: string }>('SELECT "internalNotes" FROM authors WHERE "documentId" = ?', [id]);
    expect(stored?.internalNotes).toBe('secret');

    const updated = await server.call('PUT', `/api/authors/${id}`, { body: { data: { internalNotes: 'more secret' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).not.toHaveProperty('internalNotes');
    expect((await server.instance.db.get<{ internalNotes: string }>('SELECT "internalNotes" FROM authors WHERE "documentId" = ?', [id]))?.internalNotes).toBe(
      'more secret',
    );

    const one = await server.call('GET', `/api/authors/${id}`);
    expect(one.body.data).toMatchObject({ name: 'Ada' });
    expect(one.body.data).not.toHaveProperty('internalNotes');
    const list = await server.call('GET', '/api/authors?pagination[pageSize]=100');
    expect(list.body.data.find((a: any) => a.documentId === id)).toBeDefined();
    for (const author of list.body.data) expect(author).not.toHaveProperty('internalNotes');

    const article = (await server.call('POST', '/api/articles', { body: { data: { title: 'By Ada', author: { connect: [id] } } } })).body.data;
    for (const query of ['populate[author]=true', 'populate=*', 'populate[author][populate]=*']) {
      const populated = await server.call('GET', `/api/articles/${article.documentId}?${query}`);
      expect(populated.status).toBe(200);
      expect(populated.body.data.author).toMatchObject({ documentId: id, name: 'Ada' });
      expect(populated.body.data.author).not.toHaveProperty('internalNotes');
    }
    const fromAuthor = await server.call('GET', `/api/authors/${id}?populate=*`);
    expect(JSON.stringify(fromAuthor.body)).not.toContain('more secret');
  });

  it('refuses to filter, sort or select on a private attribute', async () => {
    for (const query of ['filters[internalNotes][$eq]=secret', 'sort=internalNotes:asc', 'fields[0]=internalNotes']) {
      const response = await server.call('GET', `/api/authors?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key internalNotes' });
    }
  });
});
