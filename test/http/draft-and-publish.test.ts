import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('draft and publish over REST', () => {
  it('creates a draft and a published version and answers 201 with the published one', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Hello', views: 10 } } });
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({});
    const doc = created.body.data;
    expect(doc.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(doc.publishedAt).toEqual(expect.any(String));
    expect(doc).toMatchObject({ title: 'Hello', views: 10, kind: 'news', featured: false, locale: 'en', slug: null });

    const draft = await server.call('GET', `/api/articles/${doc.documentId}?status=draft`);
    expect(draft.status).toBe(200);
    expect(draft.body.data.publishedAt).toBeNull();
    expect(draft.body.data.id).not.toBe(doc.id);
    expect(draft.body.data.documentId).toBe(doc.documentId);
  });

  it('creates only the draft with status=draft, which the published read does not see', async () => {
    const created = await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Only a draft' } } });
    expect(created.status).toBe(201);
    expect(created.body.data.publishedAt).toBeNull();
    const id = created.body.data.documentId;
    expect((await server.call('GET', `/api/articles/${id}`)).status).toBe(404);
    expect((await server.call('GET', `/api/articles/${id}?status=draft`)).body.data.title).toBe('Only a draft');
  });

  it('republishes on PUT with a new row id, and PUT status=draft changes only the draft', async () => {
    const created = (await server.call('POST', '/api/articles', { body: { data: { title: 'v1', summary: 'kept' } } })).body.data;
    const updated = await server.call('PUT', `/api/articles/${created.documentId}`, { body: { data: { title: 'v2' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'v2', summary: 'kept', documentId: created.documentId });
    expect(updated.body.data.id).not.toBe(created.id);

    const draftOnly = await server.call('PUT', `/api/articles/${created.documentId}?status=draft`, { body: { data: { title: 'v3' } } });
    expect(draftOnly.body.data).toMatchObject({ title: 'v3', publishedAt: null });
    expect((await server.call('GET', `/api/articles/${created.documentId}`)).body.data.title).toBe('v2');
    expect((await server.call('GET', `/api/articles/${created.documentId}?status=draft`)).body.data.title).toBe('v3');
  });

  it('deletes every version of the locale and answers 204 even for an unknown documentId', async () => {
    const created = (await server.call('POST', '/api/articles', { body: { data: { title: 'doomed' } } })).body.data;
    const deleted = await server.call('DELETE', `/api/articles/${created.documentId}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect((await server.call('GET', `/api/articles/${created.documentId}`)).status).toBe(404);
    expect((await server.call('GET', `/api/articles/${created.documentId}?status=draft`)).status).toBe(404);
    expect((await server.call('DELETE', '/api/articles/doesnotexist000000000000')).status).toBe(204);
  });
});
