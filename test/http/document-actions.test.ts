/**
 * POST …/actions/publish|unpublish|discard-draft on collection and single types, with
 * locales, and each as its own permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolveActions } from '../../src/auth/actions';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload } from '../upload/helpers';

let server: TestServer;
let auth: Record<string, string>;
beforeAll(async () => {
  server = await startServer();
  auth = { authorization: `Bearer ${server.tokens.fullAccess}` };
});
afterAll(() => server.stop());

const act = (path: string, headers = auth) => server.call('POST', path, { headers });
const get = (path: string) => server.call('GET', path);

describe('document actions on a collection type', () => {
  it('publishes a draft-only document and answers the published version', async () => {
    const draft = (await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Draft only' } } })).body.data;
    expect((await get(`/api/articles/${draft.documentId}`)).status).toBe(404);

    const published = await act(`/api/articles/${draft.documentId}/actions/publish`);
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ documentId: draft.documentId, title: 'Draft only', locale: 'en' });
    expect(published.body.data.publishedAt).toEqual(expect.any(String));
    expect((await get(`/api/articles/${draft.documentId}`)).body.data.title).toBe('Draft only');
  });

  it('unpublishes: the published version goes, the draft stays and is the answer', async () => {
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'Public' } } })).body.data;
    const answer = await act(`/api/articles/${doc.documentId}/actions/unpublish`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ documentId: doc.documentId, title: 'Public', publishedAt: null });
    expect((await get(`/api/articles/${doc.documentId}`)).status).toBe(404);
    expect((await get(`/api/articles/${doc.documentId}?status=draft`)).body.data.title).toBe('Public');
    // Nothing left to unpublish: the same answer, nothing changed.
    expect((await act(`/api/articles/${doc.documentId}/actions/unpublish`)).body.data.title).toBe('Public');
  });

  it('discards the draft: scalars, components, relations and media come back from the published version', async () => {
    const tag = (await server.call('POST', '/api/tags', { body: { data: { name: 'kept-tag' } } })).body.data;
    const other = (await server.call('POST', '/api/tags', { body: { data: { name: 'draft-tag' } } })).body.data;
    const png = await makeImage(4, 4);
    const files = await upload(server.url, {
      files: [
        { bytes: png, filename: 'a.png', type: 'image/png' },
        { bytes: png, filename: 'b.png', type: 'image/png' },
      ],
      headers: auth,
    });
    const [kept, replaced] = files.body.map((f: { id: number }) => f.id);
    const doc = (
      await server.call('POST', '/api/articles', {
        body: {
          data: {
            title: 'Published title',
            cover: kept,
            seo: { metaTitle: 'published seo' },
            tags: [tag.documentId],
            links: [{ label: 'a', url: 'https://a.example' }],
          },
        },
      })
    ).body.data;
    await server.call('PUT', `/api/articles/${doc.documentId}?status=draft`, {
      body: { data: { title: 'Draft title', cover: replaced, seo: { metaTitle: 'draft seo' }, tags: [other.documentId], links: [] } },
    });
    const populate = 'populate[seo]=true&populate[tags]=true&populate[links]=true&populate[cover]=true';
    expect((await get(`/api/articles/${doc.documentId}?status=draft&${populate}`)).body.data.title).toBe('Draft title');

    const answer = await act(`/api/articles/${doc.documentId}/actions/discard-draft`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ title: 'Published title', publishedAt: null });
    const draft = (await get(`/api/articles/${doc.documentId}?status=draft&${populate}`)).body.data;
    const published = (await get(`/api/articles/${doc.documentId}?${populate}`)).body.data;
    expect(draft.title).toBe('Published title');
    expect(draft.seo.metaTitle).toBe('published seo');
    expect(draft.tags.map((t: { name: string }) => t.name)).toEqual(['kept-tag']);
    expect(draft.links.map((l: { label: string }) => l.label)).toEqual(['a']);
    expect(draft.cover.id).toBe(kept);
    expect(published.title).toBe('Published title');
  });

  it('acts on one locale, or on every locale with locale=*', async () => {
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'English' } } })).body.data;
    await server.call('PUT', `/api/articles/${doc.documentId}?locale=fr`, { body: { data: { title: 'Français' } } });

    const fr = await act(`/api/articles/${doc.documentId}/actions/unpublish?locale=fr`);
    expect(fr.status).toBe(200);
    expect(fr.body.data).toMatchObject({ locale: 'fr', title: 'Français', publishedAt: null });
    expect((await get(`/api/articles/${doc.documentId}?locale=fr`)).status).toBe(404);
    expect((await get(`/api/articles/${doc.documentId}?locale=en`)).status).toBe(200);

    const all = await act(`/api/articles/${doc.documentId}/actions/unpublish?locale=*`);
    expect(all.status).toBe(200);
    expect(all.body.data.locale).toBe('en');
    expect((await get(`/api/articles/${doc.documentId}?locale=en`)).status).toBe(404);

    expect((await act(`/api/articles/${doc.documentId}/actions/publish?locale=*`)).status).toBe(200);
    expect((await get(`/api/articles/${doc.documentId}?locale=en`)).body.data.title).toBe('English');
    expect((await get(`/api/articles/${doc.documentId}?locale=fr`)).body.data.title).toBe('Français');
  });

  it('answers 404 for an unknown document or a locale the document lacks, 400 for a bad locale', async () => {
    const doc = (await server.call('POST', '/api/articles', { body: { data: { title: 'Only English' } } })).body.data;
    const unknown = await act('/api/articles/doesnotexist000000000000/actions/publish');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
    expect((await act(`/api/articles/${doc.documentId}/actions/publish?locale=fr`)).status).toBe(404);
    expect((await act(`/api/articles/${doc.documentId}/actions/publish?locale=de`)).status).toBe(404);
    const bad = await act(`/api/articles/${doc.documentId}/actions/publish?locale=${encodeURIComponent('not a locale')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.name).toBe('ValidationError');
    expect((await act(`/api/articles/${doc.documentId}/actions/publish?status=draft`)).status).toBe(400);
  });

  it('refuses to publish a draft that misses a required attribute or repeats a unique value, changing nothing', async () => {
    const first = (await server.call('POST', '/api/articles', { body: { data: { title: 'Unique one', slug: 'taken-slug' } } })).body.data;
    const second = (await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Second', slug: 'taken-slug' } } })).body.data;
    const clash = await act(`/api/articles/${second.documentId}/actions/publish`);
    expect(clash.status).toBe(400);
    expect(clash.body.error.details.errors[0].path).toEqual(['slug']);
    expect((await get(`/api/articles/${second.documentId}`)).status).toBe(404);
    expect((await get(`/api/articles/${first.documentId}`)).status).toBe(200);

    const untitled = (await server.call('POST', '/api/articles?status=draft', { body: { data: { summary: 'no title yet' } } })).body.data;
    const missing = await act(`/api/articles/${untitled.documentId}/actions/publish`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors[0].path).toEqual(['title']);
    expect((await get(`/api/articles/${untitled.documentId}`)).status).toBe(404);
  });

  it('answers 400 on a type without draft & publish, and 405 to other methods', async () => {
    const author = (await server.call('POST', '/api/authors', { body: { data: { name: 'Ann' } } })).body.data;
    const refused = await act(`/api/authors/${author.documentId}/actions/publish`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    expect(refused.body.error.message).toContain('draft & publish');
    expect((await act('/api/global/actions/unpublish')).status).toBe(400);

    const wrongMethod = await server.call('GET', `/api/articles/${author.documentId}/actions/publish`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
  });
});

describe('document actions on a single type', () => {
  it('publishes, unpublishes and discards the draft of the single document, per locale', async () => {
    expect((await act('/api/homepage/actions/publish')).status).toBe(404);
    await server.call('PUT', '/api/homepage?status=draft', { body: { data: { headline: 'Draft home' } } });
    expect((await get('/api/homepage')).status).toBe(404);

    const published = await act('/api/homepage/actions/publish');
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ headline: 'Draft home', locale: 'en' });
    expect((await get('/api/homepage')).body.data.headline).toBe('Draft home');

    await server.call('PUT', '/api/homepage?status=draft', { body: { data: { headline: 'Changed draft' } } });
    const discarded = await act('/api/homepage/actions/discard-draft');
    expect(discarded.body.data).toMatchObject({ headline: 'Draft home', publishedAt: null });

    await server.call('PUT', '/api/homepage?locale=fr', { body: { data: { headline: 'Accueil' } } });
    expect((await act('/api/homepage/actions/unpublish?locale=fr')).body.data).toMatchObject({ locale: 'fr', publishedAt: null });
    expect((await get('/api/homepage?locale=fr')).status).toBe(404);
    expect((await get('/api/homepage')).body.data.headline).toBe('Draft home');
  });
});

describe('document action permissions', () => {
  it('needs its own grant: 403 without it, for the role or a custom token holding another action', async () => {
    const doc = (await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Guarded' } } })).body.data;
    // The test server's public role holds find/create/update/delete, not the actions.
    expect((await act(`/api/articles/${doc.documentId}/actions/publish`, {})).status).toBe(403);
    expect((await act(`/api/articles/${doc.documentId}/actions/publish`, { authorization: `Bearer ${server.tokens.readOnly}` })).status).toBe(403);

    const custom = await server.instance.tokens.create('publisher', 'custom', undefined, undefined, ['api::article.article.publish']);
    const bearer = { authorization: `Bearer ${custom.accessKey}` };
    expect((await act(`/api/articles/${doc.documentId}/actions/publish`, bearer)).status).toBe(200);
    expect((await act(`/api/articles/${doc.documentId}/actions/unpublish`, bearer)).status).toBe(403);

    await server.instance.roles.grant('public', ['api::article.article.unpublish']);
    expect((await act(`/api/articles/${doc.documentId}/actions/unpublish`, {})).status).toBe(200);
    expect((await act(`/api/articles/${doc.documentId}/actions/discard-draft`, {})).status).toBe(403);
  });

  it('names the actions as Strapi would, only for types with draft & publish', () => {
    const { registry } = server.instance;
    expect(resolveActions(registry, ['api::article.article.*'])).toEqual(
      expect.arrayContaining(['api::article.article.publish', 'api::article.article.unpublish', 'api::article.article.discardDraft']),
    );
    expect(resolveActions(registry, ['api::homepage.homepage.discardDraft'])).toEqual(['api::homepage.homepage.discardDraft']);
    expect(() => resolveActions(registry, ['api::author.author.publish'])).toThrow('Unknown action');
  });

  it('lists the action routes in the OpenAPI document', async () => {
    const doc = (await get('/api/openapi.json')).body;
    expect(doc.paths['/api/articles/{documentId}/actions/publish'].post).toBeDefined();
    expect(doc.paths['/api/articles/{documentId}/actions/discard-draft'].post).toBeDefined();
    expect(doc.paths['/api/homepage/actions/unpublish'].post).toBeDefined();
    expect(doc.paths['/api/authors/{documentId}/actions/publish']).toBeUndefined();
  });
});
