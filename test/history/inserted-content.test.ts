/**
 * Content history keeps a create's content from what the create wrote (the row's values from
 * its input, only the tables it wrote read back) and an update's by reading the version whole,
 * one level at a time: both must be exactly what reading the version back gives
 * (query/content.ts documentContents), for every attribute type, nested components, zones of
 * several component types, polymorphic links, single creates and import batches, and when one
 * transaction changes a created document again (another locale, an inverse side, a delete).
 * Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { documentContents } from '../../src/query/content';
import type { ContentType } from '../../src/registry/types';
import { inFlightDuring } from '../helpers/in-flight';
import { ALL_TYPES_CONTENT_TYPES, startServer, type TestServer } from '../helpers/server';
import { makeImage } from '../upload/helpers';

const NESTED = resolve(import.meta.dir, '../fixtures/nested');
const MORPH = resolve(import.meta.dir, '../fixtures/morph');

/** The newest version kept of a document in a locale. */
async function kept(server: TestServer, ct: ContentType, documentId: string, locale?: string) {
  return (await server.instance.history.list(ct, documentId, { locale }))[0];
}

/** The version's content as reading it back gives it now. */
async function readBack(server: TestServer, ct: ContentType, documentId: string, locale = '') {
  return (await documentContents(server.instance.db, ct, [{ documentId, locale }])).get(`${documentId}\u0000${locale}`);
}

/** The kept version holds exactly what reading back gives, keys in the same order. */
async function expectKeptAsRead(server: TestServer, ct: ContentType, documentId: string, locale = '') {
  const version = await kept(server, ct, documentId, ct.localized ? locale : undefined);
  const read = await readBack(server, ct, documentId, locale);
  expect(version).toBeDefined();
  expect(read).toBeDefined();
  expect(JSON.stringify(version!.data)).toBe(JSON.stringify(read!.data));
  expect(version!.status).toBe(read!.status);
  return version!;
}

describe('every attribute type', () => {
  let server: TestServer;
  let ct: ContentType;
  let image: number;
  beforeAll(async () => {
    server = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
    ct = server.instance.registry.contentType('api::showcase.showcase')!;
    const form = new FormData();
    form.append('files', new File([await makeImage(4, 4)], 'one.png', { type: 'image/png' }));
    const response = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    image = ((await response.json()) as { id: number }[])[0]!.id;
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  const full = (targets: string[]) => ({
    aString: 'original',
    aText: 'text',
    aRichText: '# rich',
    anEmail: 'a@example.com',
    anEnumeration: 'beta',
    anInteger: 7,
    aBigInteger: '9007199254740993',
    aFloat: 0.1,
    aDecimal: 2.25,
    aBoolean: true,
    aDate: '2024-02-03',
    aTime: '10:11:12.000',
    aDateTime: '2024-02-03T10:11:12.000Z',
    aJson: { nested: [1, 'two'], z: null, a: 1 },
    aBlocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'hello' }] }],
    aPassword: 'never kept',
    aOneToOne: targets[0],
    aManyToOne: targets[1],
    aOneToMany: [targets[2], targets[3]],
    aManyToMany: [targets[1], targets[0]],
    aSingleMedia: image,
    aMultipleMedia: [image, image],
    aComponent: { label: 'card', count: 1 },
    aRepeatableComponent: [
      { label: 'r1', count: 2 },
      { label: 'r2', count: 3 },
    ],
    aDynamicZone: [
      { __component: 'parts.note', body: 'first' },
      { __component: 'parts.card', label: 'second', count: 4 },
      { __component: 'parts.note', body: 'third' },
    ],
  });

  it('keeps a create as reading it back gives it (single creates, an import batch), and an update the same way', async () => {
    const targets: string[] = [];
    for (let i = 0; i < 4; i++) targets.push((await server.instance.documents.create(ct, { aString: `target ${i}` })).documentId);
    const published = await server.instance.documents.create(ct, full(targets));
    const version = await expectKeptAsRead(server, ct, published.documentId);
    expect(version.status).toBe('published');
    expect(version.data).toMatchObject({
      aBigInteger: '9007199254740993',
      aFloat: 0.1,
      aBoolean: true,
      aJson: { nested: [1, 'two'], z: null, a: 1 },
      aSingleMedia: image,
      aMultipleMedia: [image, image],
      aManyToMany: [{ documentId: targets[1] }, { documentId: targets[0] }],
      aDynamicZone: [
        { __component: 'parts.note', body: 'first' },
        { __component: 'parts.card', label: 'second', count: 4 },
        { __component: 'parts.note', body: 'third' },
      ],
    });
    expect('aPassword' in version.data).toBe(false);

    const small = await server.instance.documents.create(ct, { aString: 'small', aComponent: { label: 'x' } });
    await expectKeptAsRead(server, ct, small.documentId);

    const batch = await server.instance.documents.createMany(ct, [full(targets), { aString: 'plain' }, { ...full(targets), aDynamicZone: [] }]);
    for (const written of batch) await expectKeptAsRead(server, ct, written.documentId);

    await server.instance.documents.update(ct, published.documentId, { aString: 'changed', aRepeatableComponent: [{ label: 'r3' }] });
    const updated = await expectKeptAsRead(server, ct, published.documentId);
    expect(updated.changed).toEqual(['aString', 'aRepeatableComponent']);
  });
});

describe('nested components and polymorphic links', () => {
  it('keeps components inside components with their relations, as reading back gives them', async () => {
    const server = await startServer({ contentTypes: NESTED });
    try {
      const writers = server.instance.registry.contentType('api::writer.writer')!;
      const pages = server.instance.registry.contentType('api::page.page')!;
      const ann = await server.instance.documents.create(writers, { name: 'Ann', profile: { metaTitle: 'p', meta: { rank: 1, related: null } } });
      const bob = await server.instance.documents.create(writers, { name: 'Bob' });
      const page = await server.instance.documents.create(pages, {
        title: 'Nested',
        writer: ann.documentId,
        seo: {
          metaTitle: 'm',
          meta: { rank: 1, label: 'one', related: bob.documentId },
          alternates: [
            { rank: 2, label: 'two', related: ann.documentId },
            { rank: 3, label: 'three' },
          ],
        },
      });
      const version = await expectKeptAsRead(server, pages, page.documentId, 'en');
      expect(version.data.seo).toEqual({
        metaTitle: 'm',
        meta: { rank: 1, label: 'one', related: { documentId: bob.documentId } },
        alternates: [
          { rank: 2, label: 'two', related: { documentId: ann.documentId } },
          { rank: 3, label: 'three', related: null },
        ],
      });
      await expectKeptAsRead(server, writers, ann.documentId);
      // One transaction whose creates hold the same component flat (known from the input) and nested (read).
      const mixed = await server.instance.documents.createMany(pages, [
        { title: 'Flat', seo: { metaTitle: 'flat' } },
        { title: 'Deep', seo: { metaTitle: 'deep', meta: { rank: 5, related: bob.documentId } } },
        { title: 'None' },
      ]);
      for (const written of mixed) await expectKeptAsRead(server, pages, written.documentId, 'en');
      const draft = await server.instance.documents.create(pages, { title: 'Draft', seo: { meta: { rank: 4 } } }, { status: 'draft' });
      expect((await expectKeptAsRead(server, pages, draft.documentId, 'en')).status).toBe('draft');
      await server.instance.documents.update(pages, page.documentId, { title: 'Again' }, { locale: 'en' });
      await expectKeptAsRead(server, pages, page.documentId, 'en');
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('keeps polymorphic links in their order', async () => {
    const server = await startServer({ contentTypes: MORPH });
    try {
      const articles = server.instance.registry.contentType('api::article.article')!;
      const videos = server.instance.registry.contentType('api::video.video')!;
      const comments = server.instance.registry.contentType('api::comment.comment')!;
      const article = await server.instance.documents.create(articles, { title: 'Hello' });
      const video = await server.instance.documents.create(videos, { title: 'Intro', length: 90 });
      const comment = await server.instance.documents.create(comments, {
        body: 'mixed',
        subject: { __type: 'api::video.video', documentId: video.documentId },
        mentions: [
          { __type: 'api::video.video', documentId: video.documentId },
          { __type: 'api::article.article', documentId: article.documentId, locale: 'en' },
        ],
      });
      const version = await expectKeptAsRead(server, comments, comment.documentId);
      expect(version.data.mentions).toEqual([
        { __type: 'api::video.video', documentId: video.documentId },
        { __type: 'api::article.article', documentId: article.documentId, locale: 'en' },
      ]);
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('many creates at once, and a create changed again in its own transaction', () => {
  let server: TestServer;
  let articles: ContentType;
  let categories: ContentType;
  beforeAll(async () => {
    server = await startServer();
    articles = server.instance.registry.contentType('api::article.article')!;
    categories = server.instance.registry.contentType('api::category.category')!;
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  const inOne = <T>(fn: (within: Parameters<Parameters<TestServer['instance']['documents']['pipeline']['run']>[1]>[0]) => Promise<T>) =>
    server.instance.documents.pipeline.run({}, fn);

  it('keeps an import batch past the rows one statement names (chunks of 500), as reading back gives it, and reads many documents at once as one by one', async () => {
    const tags: string[] = [];
    for (const name of ['b1', 'b2'])
      tags.push((await server.instance.documents.create(server.instance.registry.contentType('api::tag.tag')!, { name })).documentId);
    const batch = await server.instance.documents.createMany(
      articles,
      Array.from({ length: 1_200 }, (_, i) => ({
        title: `Many ${i}`,
        tags: i % 2 ? tags : [tags[1]],
        seo: { metaTitle: `m${i}` },
        blocks: [{ __component: 'shared.quote', title: `q${i}` }],
      })),
    );
    const sample = [batch[0]!, batch[599]!, batch[1_199]!];
    for (const written of sample) await expectKeptAsRead(server, articles, written.documentId, 'en');
    const all = await documentContents(
      server.instance.db,
      articles,
      batch.map((w) => ({ documentId: w.documentId, locale: 'en' })),
    );
    expect(all.size).toBe(1_200);
    for (const written of sample) {
      const one = await readBack(server, articles, written.documentId, 'en');
      expect(JSON.stringify(all.get(`${written.documentId}\u0000en`))).toBe(JSON.stringify(one));
    }
    expect(all.get(`${batch[1_199]!.documentId}\u0000en`)!.data).toMatchObject({
      title: 'Many 1199',
      tags: [{ documentId: tags[0] }, { documentId: tags[1] }],
      seo: { metaTitle: 'm1199' },
    });
  }, 60_000);

  it('keeps the links a create inserted in their order, a pinned one included, as reading back gives them, in draft and published creates', async () => {
    const tagType = server.instance.registry.contentType('api::tag.tag')!;
    const tags: string[] = [];
    for (const name of ['o1', 'o2', 'o3', 'o4']) tags.push((await server.instance.documents.create(tagType, { name })).documentId);
    const category = (await server.instance.documents.create(categories, { name: 'Ordered', slug: 'ordered' })).documentId;
    const data = {
      title: 'Ordered links',
      category: { documentId: category, locale: 'en' },
      // Positions move the order away from the order given: the kept list must follow the keys.
      tags: {
        connect: [
          { documentId: tags[0] },
          { documentId: tags[1], position: { start: true } },
          { documentId: tags[2], position: { before: tags[0] } },
          { documentId: tags[3] },
        ],
      },
    };
    for (const status of ['published', 'draft'] as const) {
      const created = await server.instance.documents.create(articles, data, { status });
      const version = await expectKeptAsRead(server, articles, created.documentId, 'en');
      expect(version.data.tags).toEqual([{ documentId: tags[1] }, { documentId: tags[2] }, { documentId: tags[0] }, { documentId: tags[3] }]);
      expect(version.data.category).toEqual({ documentId: category, locale: 'en' });
    }
  });

  it('keeps a bulk batch (to-one and positioned to-many links, components, a zone of three tables, another locale) from what it wrote, reading none of it back, as reading back gives it, published and draft', async () => {
    const tagType = server.instance.registry.contentType('api::tag.tag')!;
    const tags: string[] = [];
    for (const name of ['x1', 'x2', 'x3']) tags.push((await server.instance.documents.create(tagType, { name })).documentId);
    const category = (await server.instance.documents.create(categories, { name: 'Bulk', slug: 'bulk' })).documentId;
    await server.instance.documents.update(categories, category, { name: 'Vrac' }, { locale: 'fr' });
    const body = (i: number) => ({
      title: `Bulk ${i}`,
      views: i,
      featured: i % 2 === 0,
      meta: { i, list: [1, 'two'] },
      category,
      // Positions move the order away from the order given: the kept list follows the keys.
      tags: { connect: [{ documentId: tags[0] }, { documentId: tags[1] }, { documentId: tags[2], position: { before: tags[0] } }] },
      seo: { metaTitle: `s${i}` },
      links: [
        { label: 'a', url: 'https://a.example' },
        { label: 'b', url: 'https://b.example', newTab: true },
      ],
      blocks: [
        { __component: 'shared.quote', title: 'q', body: `quoted ${i}` },
        { __component: 'shared.rich-text', body: `## ${i}` },
        { __component: 'shared.media' },
        { __component: 'shared.quote', title: 'q2' },
      ],
    });
    const batches = [
      { status: 'published', locale: 'en' },
      { status: 'draft', locale: 'en' },
      { status: 'published', locale: 'fr' },
    ] as const;
    for (const { status, locale } of batches) {
      const bodies = [body(1), { title: 'Bare' }, body(2), { title: 'Empty parts', tags: [], blocks: [], links: [], seo: null }];
      const { result: batch, sent } = await inFlightDuring(server.instance.db, () =>
        server.instance.documents.createMany(articles, bodies, { status, locale }),
      );
      // Its rows are only inserted: no component table and no list of links by their source is read.
      expect(sent.map((s) => s.text).filter((text) => /^\s*SELECT/i.test(text) && /FROM "components_|WHERE "sourceId" IN/.test(text))).toEqual([]);
      for (const written of batch) await expectKeptAsRead(server, articles, written.documentId, locale);
      const first = await expectKeptAsRead(server, articles, batch[0]!.documentId, locale);
      expect(first.status).toBe(status);
      expect(first.data).toMatchObject({
        tags: [{ documentId: tags[2] }, { documentId: tags[0] }, { documentId: tags[1] }],
        category: { documentId: category },
        links: [
          { label: 'a', newTab: false },
          { label: 'b', newTab: true },
        ],
        blocks: [
          { __component: 'shared.quote' },
          { __component: 'shared.rich-text' },
          { __component: 'shared.media', file: null },
          { __component: 'shared.quote', body: null },
        ],
      });
      const bare = await expectKeptAsRead(server, articles, batch[1]!.documentId, locale);
      expect(bare.data).toMatchObject({ tags: [], category: null, seo: null, links: [], blocks: [] });
    }
  }, 30_000);

  it('keeps what another locale of it changed (its shared attributes) after the create', async () => {
    const id = await inOne(async (within) => {
      const created = await server.instance.documents.create(articles, { title: 'Shared', views: 1 }, { within });
      await server.instance.documents.update(articles, created.documentId, { title: 'Partagé', views: 5 }, { locale: 'fr', within });
      return created.documentId;
    });
    const en = await expectKeptAsRead(server, articles, id, 'en');
    expect(en.data.views).toBe(5);
  });

  it('keeps links another document wrote to it from an inverse side in the same transaction', async () => {
    const id = await inOne(async (within) => {
      const created = await server.instance.documents.create(articles, { title: 'Linked later' }, { within });
      await server.instance.documents.create(categories, { name: 'Later', slug: 'later', articles: [created.documentId] }, { within });
      return created.documentId;
    });
    const version = await expectKeptAsRead(server, articles, id, 'en');
    expect(version.data.category).toMatchObject({ documentId: expect.any(String) });
  });

  it('keeps nothing of a document created and deleted in one transaction', async () => {
    const id = await inOne(async (within) => {
      const created = await server.instance.documents.create(articles, { title: 'Gone' }, { within });
      await server.instance.documents.delete(articles, created.documentId, { within });
      return created.documentId;
    });
    expect(await server.instance.history.list(articles, id)).toEqual([]);
  });
});
