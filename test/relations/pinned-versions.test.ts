/**
 * Longhand `status` and `locale` in relation elements: a source without draft & publish
 * (or without i18n) picks which version of the target it links, and may link the same
 * documentId once per status / per locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let post: string;

beforeAll(async () => {
  server = await startServer({ contentTypes: resolve(import.meta.dir, '../fixtures/pinned') });
  post = (await server.call('POST', '/api/posts', { body: { data: { title: 'v1' } } })).body.data.documentId;
  await server.call('PUT', `/api/posts/${post}?status=draft`, { body: { data: { title: 'v2 draft' } } });
  await server.call('PUT', `/api/posts/${post}?locale=fr`, { body: { data: { title: 'fr v1' } } });
});
afterAll(() => server.stop());

const titles = (body: any) => body.data.posts.map((p: any) => p.title);

describe('pinned target versions', () => {
  it('links the published and the draft version of one document side by side', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: { data: { title: 'p', posts: [{ documentId: post, status: 'published' }, { documentId: post, status: 'draft' }] } },
    });
    expect(page.status).toBe(201);
    // A reader of either status sees each pinned version, in the order given.
    expect(titles(page.body)).toEqual(['v1', 'v2 draft']);
  });

  it('follows the reader status when the element pins none', async () => {
    const page = await server.call('POST', '/api/pages', { body: { data: { title: 'q', posts: [post] } } });
    const id = page.body.data.documentId;
    expect(titles((await server.call('GET', `/api/pages/${id}?populate[posts][fields][0]=title`)).body)).toEqual(['v1']);
    expect(titles((await server.call('GET', `/api/pages/${id}?status=draft&populate[posts][fields][0]=title`)).body)).toEqual(['v2 draft']);
  });

  it('links one locale per element and the same document once per locale', async () => {
    const page = await server.call('POST', '/api/pages?populate[posts][fields][0]=title', {
      body: { data: { title: 'r', posts: [{ documentId: post, locale: 'fr', status: 'published' }, { documentId: post, locale: 'en', status: 'published' }] } },
    });
    expect(page.status).toBe(201);
    expect(titles(page.body)).toEqual(['fr v1', 'v1']);
  });

  it('refuses the same documentId twice with the same pinned status', async () => {
    const before = (await server.call('GET', '/api/pages')).body.meta.pagination.total;
    const page = await server.call('POST', '/api/pages', {
      body: { data: { title: 's', posts: [{ documentId: post, status: 'draft' }, { documentId: post, status: 'draft' }] } },
    });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toContain(post);
    expect((await server.call('GET', '/api/pages')).body.meta.pagination.total).toBe(before);
  });

  it('refuses a pinned status the target does not have', async () => {
    const draftOnly = (await server.call('POST', '/api/posts?status=draft', { body: { data: { title: 'd' } } })).body.data.documentId;
    const page = await server.call('POST', '/api/pages', { body: { data: { title: 't', posts: [{ documentId: draftOnly, status: 'published' }] } } });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toContain(draftOnly);
  });
});
