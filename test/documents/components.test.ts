/**
 * Components and dynamic zones on the example content: every shape, media inside
 * components, validation paths, full replacement on write, copies per version and locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload, UPLOAD_ACTIONS } from '../upload/helpers';

let server: TestServer;
let fileId: number;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  const uploaded = await upload(server.url, { files: [{ bytes: await makeImage(8, 8), filename: 'dot.png', type: 'image/png' }] });
  fileId = uploaded.body[0].id;
});
afterAll(() => server.stop());

const blocks = () => [
  { __component: 'shared.quote', title: 'Q', body: 'To be' },
  { __component: 'shared.rich-text', body: '## Markdown' },
  { __component: 'shared.media', file: fileId },
];

async function create(data: Record<string, unknown>, query = '') {
  const response = await server.call('POST', `/api/articles${query}`, { body: { data: { title: 'components', ...data } } });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('components and dynamic zones', () => {
  it('round-trips a single component, a repeatable one and a dynamic zone with all three allowed components', async () => {
    const doc = await create({
      seo: { metaTitle: 'S', shareImage: fileId },
      links: [
        { label: 'a', url: 'https://a' },
        { label: 'b', url: 'https://b', newTab: true },
      ],
      blocks: blocks(),
    });
    const read = (
      await server.call(
        'GET',
        `/api/articles/${doc.documentId}?populate[seo][populate]=*&populate[links]=true&populate[blocks][on][shared.media][populate]=file&populate[blocks][on][shared.quote]=true&populate[blocks][on][shared.rich-text]=true`,
      )
    ).body.data;
    expect(read.seo).toMatchObject({ id: expect.any(Number), metaTitle: 'S', metaDescription: null, shareImage: { id: fileId, name: 'dot.png' } });
    expect(read.links).toEqual([
      { id: expect.any(Number), label: 'a', url: 'https://a', newTab: false },
      { id: expect.any(Number), label: 'b', url: 'https://b', newTab: true },
    ]);
    expect(read.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.rich-text', 'shared.media']);
    expect(read.blocks[0]).toEqual({ id: expect.any(Number), __component: 'shared.quote', title: 'Q', body: 'To be' });
    expect(read.blocks[2].file).toMatchObject({ id: fileId, mime: 'image/png' });
  });

  it('leaves components out unless populated, and populate=* does not reach media inside them', async () => {
    const doc = await create({ seo: { metaTitle: 'S', shareImage: fileId }, blocks: blocks() });
    const plain = (await server.call('GET', `/api/articles/${doc.documentId}`)).body.data;
    expect('seo' in plain || 'blocks' in plain || 'links' in plain).toBe(false);
    const star = (await server.call('GET', `/api/articles/${doc.documentId}?populate=*`)).body.data;
    expect(star.seo).toEqual({ id: expect.any(Number), metaTitle: 'S', metaDescription: null });
    expect(star.blocks[2]).toEqual({ id: expect.any(Number), __component: 'shared.media' });
  });

  it('gives the draft and the published version components of their own', async () => {
    const doc = await create({ seo: { metaTitle: 'S' } });
    const published = (await server.call('GET', `/api/articles/${doc.documentId}?populate=seo`)).body.data.seo;
    const draft = (await server.call('GET', `/api/articles/${doc.documentId}?status=draft&populate=seo`)).body.data.seo;
    expect(published.metaTitle).toBe('S');
    expect(draft.metaTitle).toBe('S');
    expect(draft.id).not.toBe(published.id);
    await server.call('PUT', `/api/articles/${doc.documentId}?status=draft`, { body: { data: { seo: { metaTitle: 'Draft only' } } } });
    expect((await server.call('GET', `/api/articles/${doc.documentId}?populate=seo`)).body.data.seo.metaTitle).toBe('S');
    expect((await server.call('GET', `/api/articles/${doc.documentId}?status=draft&populate=seo`)).body.data.seo.metaTitle).toBe('Draft only');
  });

  it('replaces a component value whole on update, and clears with null and []', async () => {
    const doc = await create({ seo: { metaTitle: 'S', metaDescription: 'D' }, links: [{ label: 'a', url: 'u' }], blocks: blocks() });
    const path = `/api/articles/${doc.documentId}?populate[seo]=true&populate[links]=true&populate[blocks]=true`;
    const replaced = (await server.call('PUT', path, { body: { data: { seo: { metaTitle: 'T' }, links: [{ label: 'b', url: 'v' }] } } })).body.data;
    // Whole replacement: the description not sent is gone; untouched fields (blocks) stay.
    expect(replaced.seo).toMatchObject({ metaTitle: 'T', metaDescription: null });
    expect(replaced.links.map((l: any) => l.label)).toEqual(['b']);
    expect(replaced.blocks).toHaveLength(3);
    const cleared = (await server.call('PUT', path, { body: { data: { seo: null, links: [], blocks: [] } } })).body.data;
    expect(cleared).toMatchObject({ seo: null, links: [], blocks: [] });
  });

  it('leaves no orphan component rows after replacing and deleting', async () => {
    const count = async (table: string) => Number((await server.instance.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`))!.n);
    const before = await count('components_shared_quotes');
    const doc = await create({ blocks: blocks() });
    expect(await count('components_shared_quotes')).toBe(before + 2); // draft and published
    await server.call('PUT', `/api/articles/${doc.documentId}`, { body: { data: { blocks: [] } } });
    expect(await count('components_shared_quotes')).toBe(before);
    await server.call('PUT', `/api/articles/${doc.documentId}`, { body: { data: { blocks: blocks() } } });
    await server.call('DELETE', `/api/articles/${doc.documentId}`);
    expect(await count('components_shared_quotes')).toBe(before);
  });

  it('reports validation errors inside components with their full path', async () => {
    const response = await server.call('POST', '/api/articles', {
      body: { data: { title: 'bad', seo: { metaDescription: 'no title' }, links: [{ label: 'ok', url: 'u' }, { label: 'no url' }] } },
    });
    expect(response.status).toBe(400);
    const paths = response.body.error.details.errors.map((e: any) => e.path);
    expect(paths).toEqual([
      ['seo', 'metaTitle'],
      ['links', 1, 'url'],
    ]);
  });

  it('refuses an unknown __component, a component not allowed in the zone, an id inside a component and unknown keys', async () => {
    const count = (await server.call('GET', '/api/articles?status=draft')).body.meta.pagination.total;
    const cases: [unknown, RegExp][] = [
      [{ blocks: [{ __component: 'shared.nope' }] }, /blocks\[0\]\.__component must be one of/],
      [{ blocks: [{ __component: 'shared.seo', metaTitle: 'x' }] }, /must be one of/],
      [{ blocks: [{ title: 'no kind' }] }, /must be one of/],
      [{ seo: { id: 3, metaTitle: 'x' } }, /Invalid key id/],
      [{ seo: { metaTitle: 'x', nope: 1 } }, /Invalid key nope/],
      [{ seo: 'not an object' }, /must be an object/],
      [{ links: { label: 'x' } }, /must be an array/],
    ];
    for (const [data, message] of cases) {
      const response = await server.call('POST', '/api/articles', { body: { data: { title: 'bad', ...(data as object) } } });
      expect(response.status).toBe(400);
      expect(response.body.error.message + JSON.stringify(response.body.error.details)).toMatch(message);
    }
    expect((await server.call('GET', '/api/articles?status=draft')).body.meta.pagination.total).toBe(count);
  });

  it('refuses a file whose type the media attribute does not allow', async () => {
    const uploaded = await upload(server.url, { files: [{ bytes: 'plain text', filename: 'notes.txt', type: 'text/plain' }] });
    expect(uploaded.status).toBe(201);
    const response = await server.call('POST', '/api/articles', { body: { data: { title: 'x', cover: uploaded.body[0].id } } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.errors[0].path).toEqual(['cover']);
  });

  it('copies non-localized components to a new locale and keeps localized ones per locale', async () => {
    const doc = await create({ seo: { metaTitle: 'EN' }, links: [{ label: 'shared', url: 'u' }] });
    const fr = await server.call('PUT', `/api/articles/${doc.documentId}?locale=fr&populate[seo]=true&populate[links]=true`, {
      body: { data: { title: 'FR', seo: { metaTitle: 'FR' } } },
    });
    expect(fr.status).toBe(200);
    expect(fr.body.data.seo.metaTitle).toBe('FR');
    expect(fr.body.data.links.map((l: any) => l.label)).toEqual(['shared']);
    await server.call('PUT', `/api/articles/${doc.documentId}`, { body: { data: { links: [{ label: 'changed', url: 'u' }] } } });
    const again = (await server.call('GET', `/api/articles/${doc.documentId}?locale=fr&populate[seo]=true&populate[links]=true`)).body.data;
    expect(again.links.map((l: any) => l.label)).toEqual(['changed']);
    expect(again.seo.metaTitle).toBe('FR');
  });
});

describe('publishing a draft checks the components it holds', () => {
  // A draft may hold components that miss required values (drafts skip those checks).
  const incompleteDraft = async () => {
    const response = await server.call('POST', '/api/articles?status=draft', {
      body: {
        data: { title: 'incomplete', seo: { metaDescription: 'no title yet' }, blocks: [{ __component: 'shared.quote', body: 'q' }], links: [{ label: 'a' }] },
      },
    });
    expect(response.status).toBe(201);
    return response.body.data.documentId as string;
  };
  const isPublished = async (documentId: string) => (await server.call('GET', `/api/articles/${documentId}`)).status === 200;

  it('a PUT that publishes without resending the components is a 400 naming each missing value, and publishes nothing', async () => {
    const documentId = await incompleteDraft();
    const response = await server.call('PUT', `/api/articles/${documentId}`, { body: { data: { summary: 'now publish' } } });
    expect(response.status).toBe(400);
    const paths = response.body.error.details.errors.map((e: any) => e.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['seo.metaTitle', 'links.0.url']));
    expect(await isPublished(documentId)).toBe(false);
    const draft = await server.call('GET', `/api/articles/${documentId}?status=draft`);
    expect(draft.body.data.summary).toBeNull();
  });

  it('the publish action refuses the same draft', async () => {
    const documentId = await incompleteDraft();
    const response = await server.call('POST', `/api/articles/${documentId}/actions/publish`, {
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.errors.map((e: any) => e.path.join('.'))).toContain('seo.metaTitle');
    expect(await isPublished(documentId)).toBe(false);
  });

  it('a PUT that resends complete components publishes', async () => {
    const documentId = await incompleteDraft();
    const response = await server.call('PUT', `/api/articles/${documentId}`, {
      body: { data: { seo: { metaTitle: 'T' }, links: [{ label: 'a', url: 'https://a' }] } },
    });
    expect(response.status).toBe(200);
    expect(await isPublished(documentId)).toBe(true);
  });

  it('a draft PUT still accepts the incomplete components', async () => {
    const documentId = await incompleteDraft();
    const response = await server.call('PUT', `/api/articles/${documentId}?status=draft`, { body: { data: { summary: 'still a draft' } } });
    expect(response.status).toBe(200);
  });
});
