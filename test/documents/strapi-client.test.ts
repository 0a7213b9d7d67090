/**
 * A front end's view: the real `@strapi/client` package and `qs`-built URLs against a
 * private Folio (no public grants), authenticated with API tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { HTTPAuthorizationError, HTTPBadRequestError, HTTPForbiddenError, HTTPNotFoundError, strapi } from '@strapi/client';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';
import { rejection } from '../helpers/rejection';

let server: TestServer;
let client: ReturnType<typeof strapi>;
beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
});
afterAll(() => server.stop());

/** The same request a front end would make by hand: a qs query string and a bearer token. */
async function fetchWithQs(path: string, query: object, token = server.tokens.fullAccess) {
  const response = await fetch(`${server.url}/api${path}?${qs.stringify(query, { encodeValuesOnly: true })}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('@strapi/client against Folio', () => {
  let category: any;
  const titles = ['Client A', 'Client B', 'Client C'];
  const created: any[] = [];

  beforeAll(async () => {
    category = (await client.collection('categories').create({ name: 'Client category' })).data;
    for (const title of [...titles].reverse()) {
      created.push((await client.collection('articles').create({ title, views: 3, category: category.documentId })).data);
    }
  });

  it('creates a published article and answers it in the Strapi envelope', async () => {
    const response: any = await client.collection('articles').create({ title: 'From the client', featured: true });
    expect(response.meta).toEqual({});
    expect(response.data).toMatchObject({ title: 'From the client', featured: true, kind: 'news', locale: 'en' });
    expect(response.data.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(response.data.publishedAt).toEqual(expect.any(String));
  });

  it('finds with filters, sort, fields, populate and pagination, paging through the results', async () => {
    const query = {
      filters: { title: { $startsWith: 'Client ' } },
      sort: ['title:asc'],
      fields: ['title'],
      populate: { category: { fields: ['name'] } },
      pagination: { page: 1, pageSize: 2 },
    };
    const first: any = await client.collection('articles').find(query);
    expect(first.data).toEqual(
      ['Client A', 'Client B'].map((title) => ({
        id: expect.any(Number),
        documentId: expect.any(String),
        title,
        category: { id: expect.any(Number), documentId: category.documentId, name: 'Client category' },
      })),
    );
    expect(first.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });

    const second: any = await client.collection('articles').find({ ...query, pagination: { page: 2, pageSize: 2 } });
    expect(second.data.map((a: any) => a.title)).toEqual(['Client C']);
  });

  it('answers a qs-built URL exactly as it answers the client', async () => {
    const query = { filters: { views: { $eq: 3 } }, sort: 'title:desc', fields: ['title', 'views'], populate: '*', pagination: { start: 0, limit: 2 } };
    const viaClient = await client.collection('articles').find(query);
    const viaQs = await fetchWithQs('/articles', query);
    expect(viaQs.status).toBe(200);
    expect(viaQs.body).toEqual(viaClient);
    expect(viaQs.body.meta.pagination).toEqual({ start: 0, limit: 2, total: 3 });
    expect(viaQs.body.data.map((a: any) => a.title)).toEqual(['Client C', 'Client B']);
  });

  it('finds one document by documentId with populate', async () => {
    const target = created[0];
    const response: any = await client.collection('articles').findOne(target.documentId, { populate: ['category'], fields: ['title'] });
    expect(response.data).toEqual({
      id: target.id,
      documentId: target.documentId,
      title: target.title,
      category: expect.objectContaining({ documentId: category.documentId, name: 'Client category' }),
    });
  });

  it('updates a document, republishing it, and updates only the draft with status=draft', async () => {
    const target = created[1];
    const updated: any = await client.collection('articles').update(target.documentId, { title: 'Client B (edited)' });
    expect(updated.data).toMatchObject({ documentId: target.documentId, title: 'Client B (edited)', views: 3 });
    expect(updated.data.publishedAt).toEqual(expect.any(String));

    const draft: any = await client.collection('articles').update(target.documentId, { title: 'Client B (draft)' }, { status: 'draft' });
    expect(draft.data).toMatchObject({ title: 'Client B (draft)', publishedAt: null });
    expect(((await client.collection('articles').findOne(target.documentId)) as any).data.title).toBe('Client B (edited)');
    expect(((await client.collection('articles').findOne(target.documentId, { status: 'draft' })) as any).data.title).toBe('Client B (draft)');
  });

  it('deletes a document, after which findOne rejects with HTTPNotFoundError', async () => {
    const doomed: any = await client.collection('articles').create({ title: 'Client doomed' });
    expect(await client.collection('articles').delete(doomed.data.documentId)).toBeUndefined();
    const error = await rejection(client.collection('articles').findOne(doomed.data.documentId));
    expect(error).toBeInstanceOf(HTTPNotFoundError);
    expect(await error.response.json()).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
  });

  it('surfaces a validation failure as HTTPBadRequestError carrying the Strapi error body', async () => {
    const error = await rejection(client.collection('articles').create({ summary: 'no title' }));
    expect(error).toBeInstanceOf(HTTPBadRequestError);
    const body = await error.response.json();
    expect(body.data).toBeNull();
    expect(body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(body.error.details.errors[0].path).toEqual(['title']);
  });

  it('works with a single type: update creates, find reads, locales are separate, delete removes', async () => {
    const homepage = client.single('homepage');
    expect(await rejection(homepage.find())).toBeInstanceOf(HTTPNotFoundError);

    const en: any = await homepage.update({ headline: 'Welcome', featuredArticles: [created[0].documentId] });
    expect(en.data).toMatchObject({ headline: 'Welcome', locale: 'en' });
    const found: any = await homepage.find({ populate: { featuredArticles: { fields: ['title'] } } });
    expect(found.data.featuredArticles).toEqual([{ id: expect.any(Number), documentId: created[0].documentId, title: created[0].title }]);

    const fr: any = await homepage.update({ headline: 'Bienvenue' }, { locale: 'fr' });
    expect(fr.data).toMatchObject({ documentId: en.data.documentId, headline: 'Bienvenue', locale: 'fr' });
    expect(((await homepage.find()) as any).data.headline).toBe('Welcome');

    expect(await homepage.delete()).toBeUndefined();
    expect(await rejection(homepage.find())).toBeInstanceOf(HTTPNotFoundError);
    expect(((await homepage.find({ locale: 'fr' })) as any).data.headline).toBe('Bienvenue');
  });
});

describe('@strapi/client authentication against a private Folio', () => {
  it('is refused with HTTPForbiddenError without a token, since the public role has no grant', async () => {
    const anonymous = strapi({ baseURL: `${server.url}/api` });
    const error = await rejection(anonymous.collection('articles').find());
    expect(error).toBeInstanceOf(HTTPForbiddenError);
    expect((await error.response.json()).error).toMatchObject({ status: 403, name: 'ForbiddenError' });
  });

  it('is refused with HTTPAuthorizationError with an unknown token', async () => {
    const stranger = strapi({ baseURL: `${server.url}/api`, auth: 'not-a-real-token' });
    const error = await rejection(stranger.collection('articles').find());
    expect(error).toBeInstanceOf(HTTPAuthorizationError);
    expect((await error.response.json()).error).toMatchObject({ status: 401, name: 'UnauthorizedError' });
  });

  it('can read but not write with a read-only token', async () => {
    const reader = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.readOnly });
    const listed: any = await reader.collection('articles').find({ pagination: { pageSize: 1 } });
    expect(listed.meta.pagination.pageSize).toBe(1);
    expect(await rejection(reader.collection('articles').create({ title: 'nope' }))).toBeInstanceOf(HTTPForbiddenError);
    expect(await rejection(reader.single('homepage').update({ headline: 'nope' }))).toBeInstanceOf(HTTPForbiddenError);
    const viaQs = await fetchWithQs('/articles', { fields: ['title'] }, server.tokens.readOnly);
    expect(viaQs.status).toBe(200);
  });
});
