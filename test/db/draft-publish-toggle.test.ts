/**
 * Draft & publish turned off or on for a content type holding documents (Strapi 5's
 * draft-publish migrations, run at start when the schema changed): off deletes the drafts
 * (a document never published goes) and keeps the published versions; on makes a draft of
 * every published version, a full copy. Articles carry components (one with media), media,
 * relations they own (tags, category) and relations other types own to them (a category's
 * `picks`, pinned to a status while articles have draft & publish), read from both sides;
 * lists, `?status=draft` and the totals after each toggle, and `folio migrate --dry-run`'s
 * plan. Runs on SQLite, and on PostgreSQL with FOLIO_TEST_DATABASE_URL.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';
import { runCli } from '../helpers/spawn';
import { makeImage, upload } from '../upload/helpers';

/** One installation: its own copy of the example types (categories gain `picks`) and data dir. */
function installation(articlesWithDraftAndPublish: boolean) {
  const types = tempDir('folio-dp-toggle-types-');
  cpSync(EXAMPLE_CONTENT_TYPES, types, { recursive: true });
  const data = tempDir('folio-dp-toggle-data-');
  const edit = (file: string, change: (schema: any) => void) => {
    const path = join(types, file);
    const schema = JSON.parse(readFileSync(path, 'utf8'));
    change(schema);
    writeFileSync(path, JSON.stringify(schema));
  };
  const setup = {
    types,
    data,
    /** Articles' options.draftAndPublish in the schema file (read at the next start). */
    articles: (on: boolean) => edit('article.json', (s) => (s.options.draftAndPublish = on)),
    /** Tags' (the target of articles' `tags`). */
    tags: (on: boolean) => edit('tag.json', (s) => (s.options.draftAndPublish = on)),
    start: async () => (server = await startServer({ contentTypes: types, dataDir: data })),
    stop: async () => {
      await server?.stop({ keepData: true });
      server = undefined;
    },
    dryRun: () => {
      let database: string | undefined;
      try {
        database = readFileSync(join(data, 'test-database-url'), 'utf8');
      } catch {
        database = undefined; // SQLite: the data dir's file
      }
      return runCli(['migrate', '--dry-run'], { data, contentTypes: types, database });
    },
  };
  // Categories (no draft & publish) own a one-way relation to articles: its links pin a status while articles have it.
  edit('category.json', (s) => (s.attributes.picks = { type: 'relation', relation: 'manyToMany', target: 'api::article.article' }));
  // Articles' links (a repeatable component) name a tag: links held by component rows.
  edit('components/shared/link.json', (s) => (s.attributes.tag = { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' }));
  setup.articles(articlesWithDraftAndPublish);
  cleanup.push(() => rmSync(types, { recursive: true, force: true }));
  return setup;
}

let server: TestServer | undefined;
const cleanup: (() => void)[] = [];

afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const done of cleanup.splice(0)) done();
});

const POPULATE = 'populate[seo][populate]=shareImage&populate[links]=true&populate[tags]=true&populate[category]=true&populate[cover]=true';

async function get(path: string) {
  const res = await server!.call('GET', path);
  expect(res.status).toBe(200);
  return res.body;
}

async function create(plural: string, body: Record<string, unknown>, query = '') {
  const res = await server!.call('POST', `/api/${plural}${query}`, { body: { data: body } });
  expect(res.status).toBe(201);
  return res.body.data.documentId as string;
}

async function uploadImage() {
  const uploaded = await upload(server!.url, {
    files: [{ bytes: await makeImage(2, 2), filename: 'cover.png', type: 'image/png' }],
    headers: { Authorization: `Bearer ${server!.tokens.fullAccess}` },
  });
  expect(uploaded.status).toBe(201);
  return uploaded.body[0].id as number;
}

/** What a list shows of each article, and its total. */
async function articles(query = '') {
  const body = await get(`/api/articles?sort=title&${POPULATE}${query}`);
  return {
    total: body.meta.pagination.total,
    data: body.data.map((a: any) => ({
      title: a.title,
      seo: a.seo && { metaTitle: a.seo.metaTitle, shareImage: a.seo.shareImage?.id ?? null },
      links: a.links.map((l: any) => l.label),
      tags: a.tags.map((t: any) => t.name).sort(),
      category: a.category?.name ?? null,
      cover: a.cover?.id ?? null,
    })),
  };
}

const titles = (list: { title: string }[]) => list.map((a) => a.title).sort();

/** Each article's links (component rows) with the tag each names (null: none a reader of that status sees), by title. */
async function linkTags(query = '') {
  const body = await get(`/api/articles?sort=title&populate[links][populate]=tag${query}`);
  return body.data.map((a: any) => [a.title, a.links.map((l: any) => l.tag?.name ?? null)]);
}

/** Rows in a table, by a condition (the storage under the API: nothing left behind). */
async function rows(table: string, where = '1 = 1') {
  const row = await server!.instance.db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`);
  return Number(row?.n);
}

/** An image, the tag "reef", the category "Sea" and the article "Alpha" linking them all (a component's link to the tag too). */
async function seedAlpha() {
  const image = await uploadImage();
  const ids: Record<string, string> = {};
  ids.tag = await create('tags', { name: 'reef' });
  ids.category = await create('categories', { name: 'Sea' });
  ids.alpha = await create('articles', {
    title: 'Alpha',
    seo: { metaTitle: 'alpha meta', shareImage: image },
    links: [{ label: 'home', url: 'https://example.com', tag: ids.tag }],
    tags: [ids.tag],
    category: ids.category,
    cover: image,
  });
  return { ids, image };
}

/** Articles with draft & publish: one published and edited since, one never published; a category picking them by status. */
async function seedWithDraftAndPublish() {
  const { ids, image } = await seedAlpha();
  // The draft moves on from the published version.
  const edited = await server!.call('PUT', `/api/articles/${ids.alpha}?status=draft`, {
    body: { data: { title: 'Alpha edited', seo: { metaTitle: 'draft meta' } } },
  });
  expect(edited.status).toBe(200);
  ids.beta = await create('articles', { title: 'Beta', tags: [ids.tag], category: ids.category, cover: image }, '?status=draft');
  ids.picker = await create('categories', {
    name: 'Picks',
    picks: {
      connect: [
        { documentId: ids.alpha, status: 'draft' },
        { documentId: ids.alpha, status: 'published' },
        { documentId: ids.beta, status: 'draft' },
      ],
    },
  });
  expect((await articles()).total).toBe(1);
  expect((await articles('&status=draft')).total).toBe(2);
  return { ids, image };
}

/** Articles without draft & publish: one linking the tag's draft (a pin), one linking the tag plainly; a category picking one. */
async function seedWithoutDraftAndPublish() {
  const { ids, image } = await seedAlpha();
  ids.gamma = await create('articles', {
    title: 'Gamma',
    seo: { metaTitle: 'gamma meta', shareImage: image },
    links: [
      { label: 'one', url: 'https://example.com/1', tag: ids.tag },
      { label: 'two', url: 'https://example.com/2', tag: { connect: [{ documentId: ids.tag, status: 'draft' }] } },
    ],
    tags: { connect: [{ documentId: ids.tag, status: 'draft' }] },
    category: ids.category,
    cover: image,
  });
  ids.picker = await create('categories', { name: 'Picks', picks: [ids.alpha] });
  return { ids, image };
}

describe('draft & publish turned off for a type holding documents', () => {
  it('keeps the published versions whole, with their components, relations and media, and lists each document once', async () => {
    const site = installation(true);
    await site.start();
    const { ids, image } = await seedWithDraftAndPublish();
    await site.stop();

    site.articles(false);
    await site.start();
    const alpha = { title: 'Alpha', seo: { metaTitle: 'alpha meta', shareImage: image }, links: ['home'], tags: ['reef'], category: 'Sea', cover: image };
    expect(await articles()).toEqual({ total: 1, data: [alpha] });
    // The published version linked the tag's published version (as Strapi's row did): a reader of drafts sees the document, not the link.
    expect(await articles('&status=draft')).toEqual({ total: 1, data: [{ ...alpha, tags: [] }] });
    expect((await get(`/api/articles/${ids.alpha}`)).data.title).toBe('Alpha');
    // Its components' links too.
    expect(await linkTags()).toEqual([['Alpha', ['reef']]]);
    expect(await linkTags('&status=draft')).toEqual([['Alpha', [null]]]);
    expect((await get('/api/articles?filters[tags][name][$eq]=reef')).meta.pagination.total).toBe(1);

    // Written again, it stays one version.
    expect((await server!.call('PUT', `/api/articles/${ids.alpha}`, { body: { data: { title: 'Alpha again' } } })).status).toBe(200);
    expect(await articles()).toEqual({ total: 1, data: [{ ...alpha, title: 'Alpha again' }] });
  });

  it('deletes a document never published, and a locale never published, with what the drafts owned', async () => {
    const site = installation(true);
    await site.start();
    const { ids } = await seedWithDraftAndPublish();
    expect((await server!.call('PUT', `/api/articles/${ids.alpha}?locale=fr&status=draft`, { body: { data: { title: 'Alpha fr' } } })).status).toBe(200);
    await site.stop();

    site.articles(false);
    await site.start();
    expect((await server!.call('GET', `/api/articles/${ids.beta}`)).status).toBe(404);
    expect((await server!.call('GET', `/api/articles/${ids.alpha}?locale=fr`)).status).toBe(404);
    expect((await articles('&locale=fr')).total).toBe(0);
    expect(titles((await articles()).data)).toEqual(['Alpha']);
    // Nothing the drafts owned is left behind: component rows, media links, relation links.
    expect(await rows('articles')).toBe(1);
    expect(await rows('components_shared_seos')).toBe(1);
    expect(await rows('components_shared_links')).toBe(1);
    expect(await rows('files_related_mph', `"relatedType" = 'api::article.article'`)).toBe(1);
    expect(await rows('articles_tags_lnk')).toBe(1);
  });

  it('shows each article once from the other side of its relations, and drops the links pinned to a draft', async () => {
    const site = installation(true);
    await site.start();
    const { ids } = await seedWithDraftAndPublish();
    await site.stop();

    site.articles(false);
    await site.start();
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles`)).data.articles)).toEqual(['Alpha']);
    // The tag's draft was linked by the articles' drafts only, which are gone.
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles&status=draft`)).data.articles)).toEqual([]);
    expect(titles((await get(`/api/categories/${ids.category}?populate=articles`)).data.articles)).toEqual(['Alpha']);
    // The links pinned to a draft went with it; the one pinned to the published version stays.
    expect(titles((await get(`/api/categories/${ids.picker}?populate=picks`)).data.picks)).toEqual(['Alpha']);
    expect(await rows('categories_picks_lnk')).toBe(1);
  });
});

describe('release entries after draft & publish is turned off', () => {
  it("leaves the type's documents out of every release, as Strapi's content-releases does", async () => {
    const site = installation(true);
    await site.start();
    const { ids } = await seedWithDraftAndPublish();
    const { releases, registry } = server!.instance;
    await releases.create({ name: 'spring' });
    await releases.add('spring', { type: registry.contentType('api::article.article')!, documentId: ids.alpha, action: 'unpublish' });
    await releases.add('spring', { type: registry.contentType('api::tag.tag')!, documentId: ids.tag, action: 'publish' });
    await site.stop();

    site.articles(false);
    await site.start();
    expect((await server!.instance.releases.show('spring')).entries.map((e) => e.documentId)).toEqual([ids.tag]);
    expect((await server!.instance.releases.publish('spring')).status).toBe('done');
  });
});

describe('draft & publish turned off for the target of a relation', () => {
  it("drops the links the other type's drafts held to its drafts, and keeps those its published versions hold", async () => {
    const site = installation(true);
    await site.start();
    const { ids } = await seedWithDraftAndPublish();
    await site.stop();

    site.tags(false);
    await site.start();
    expect((await get('/api/tags')).meta.pagination.total).toBe(1);
    expect((await articles()).data.map((a: { tags: string[] }) => a.tags)).toEqual([['reef']]);
    // Strapi's draft rows linked the tag's draft row, which is gone.
    expect((await articles('&status=draft')).data.map((a: { tags: string[] }) => a.tags)).toEqual([[], []]);
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles`)).data.articles)).toEqual(['Alpha']);
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles&status=draft`)).data.articles)).toEqual([]);
    expect(await rows('articles_tags_lnk')).toBe(1);
    // The same for the links component rows hold: those under the drafts went.
    expect(await linkTags()).toEqual([['Alpha', ['reef']]]);
    expect(await linkTags('&status=draft')).toEqual([
      ['Alpha edited', [null]],
      ['Beta', []],
    ]);
  });
});

describe('draft & publish turned on for a type holding documents', () => {
  it('gives every published version a draft that is a full copy: components, relations and media', async () => {
    const site = installation(false);
    await site.start();
    const { image } = await seedWithoutDraftAndPublish();
    await site.stop();

    site.articles(true);
    await site.start();
    const expected = {
      total: 2,
      data: [
        { title: 'Alpha', seo: { metaTitle: 'alpha meta', shareImage: image }, links: ['home'], tags: ['reef'], category: 'Sea', cover: image },
        { title: 'Gamma', seo: { metaTitle: 'gamma meta', shareImage: image }, links: ['one', 'two'], tags: ['reef'], category: 'Sea', cover: image },
      ],
    };
    // Gamma's published version keeps its link to the tag's draft, which published readers do not see (as Strapi's row kept it).
    expect(await articles()).toEqual({ total: 2, data: [expected.data[0], { ...expected.data[1], tags: [] }] });
    // The drafts link drafts.
    expect(await articles('&status=draft')).toEqual(expected);
    // The same for the links component rows hold: Gamma's second link named the tag's draft.
    expect(await linkTags()).toEqual([
      ['Alpha', ['reef']],
      ['Gamma', ['reef', null]],
    ]);
    expect(await linkTags('&status=draft')).toEqual([
      ['Alpha', ['reef']],
      ['Gamma', ['reef', 'reef']],
    ]);
    expect(await rows('articles')).toBe(4);
    expect(await rows('components_shared_links')).toBe(6);
  });

  it('makes a draft of every locale', async () => {
    const site = installation(false);
    await site.start();
    const { ids } = await seedWithoutDraftAndPublish();
    expect((await server!.call('PUT', `/api/articles/${ids.alpha}?locale=fr`, { body: { data: { title: 'Alpha fr' } } })).status).toBe(200);
    await site.stop();

    site.articles(true);
    await site.start();
    expect(titles((await articles('&locale=fr')).data)).toEqual(['Alpha fr']);
    expect(titles((await articles('&locale=fr&status=draft')).data)).toEqual(['Alpha fr']);
    expect((await articles('&locale=*&status=draft')).total).toBe(3);
  });

  it('makes drafts that are versions of their own: writing one leaves the published version as it was', async () => {
    const site = installation(false);
    await site.start();
    const { ids, image } = await seedWithoutDraftAndPublish();
    await site.stop();

    site.articles(true);
    await site.start();
    const edited = await server!.call('PUT', `/api/articles/${ids.gamma}?status=draft`, {
      body: { data: { title: 'Gamma draft', seo: { metaTitle: 'draft meta' }, links: [] } },
    });
    expect(edited.status).toBe(200);
    expect((await articles()).data[1]).toEqual({
      title: 'Gamma',
      seo: { metaTitle: 'gamma meta', shareImage: image },
      links: ['one', 'two'],
      tags: [],
      category: 'Sea',
      cover: image,
    });
    expect((await articles('&status=draft')).data[1]).toMatchObject({ title: 'Gamma draft', seo: { metaTitle: 'draft meta', shareImage: null }, links: [] });
    // A new document is a draft until published.
    await create('articles', { title: 'Delta' }, '?status=draft');
    expect((await articles()).total).toBe(2);
    expect((await articles('&status=draft')).total).toBe(3);
  });

  it('shows the drafts from the other side of their relations to drafts, the published versions to published readers', async () => {
    const site = installation(false);
    await site.start();
    const { ids } = await seedWithoutDraftAndPublish();
    await site.stop();

    site.articles(true);
    await site.start();
    // Gamma's published version links the tag's draft only.
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles`)).data.articles)).toEqual(['Alpha']);
    expect(titles((await get(`/api/tags/${ids.tag}?populate=articles&status=draft`)).data.articles)).toEqual(['Alpha', 'Gamma']);
    expect(titles((await get(`/api/categories/${ids.category}?populate=articles`)).data.articles)).toEqual(['Alpha', 'Gamma']);
    expect(titles((await get(`/api/categories/${ids.picker}?populate=picks`)).data.picks)).toEqual(['Alpha']);
  });
});

describe('an installation whose schema snapshot predates the draft & publish flag', () => {
  /** The snapshot as an older Folio wrote it: no content type records draftAndPublish. */
  async function forgetTheFlag() {
    const db = server!.instance.db;
    const shapes = await db.all<{ uid: string; shape: string }>('SELECT "uid", "shape" FROM "folio_schema_snapshot"');
    for (const { uid, shape } of shapes) {
      const { draftAndPublish: _, ...older } = JSON.parse(shape);
      await db.run('UPDATE "folio_schema_snapshot" SET "shape" = ? WHERE "uid" = ?', [JSON.stringify(older), uid]);
    }
  }

  it('tells a change from the rows: drafts in a type without draft & publish, published versions without a draft in one with it', async () => {
    const site = installation(true);
    await site.start();
    const { ids } = await seedWithDraftAndPublish();
    await forgetTheFlag();
    await site.stop();

    site.articles(false);
    await site.start();
    expect(titles((await articles()).data)).toEqual(['Alpha']);
    expect((await server!.call('GET', `/api/articles/${ids.beta}`)).status).toBe(404);
    await forgetTheFlag();
    await site.stop();

    site.articles(true);
    await site.start();
    expect(titles((await articles('&status=draft')).data)).toEqual(['Alpha']);
    await site.stop();
    // Once recorded, a start with nothing changed plans nothing for it.
    await site.start();
    expect(server!.instance.syncPlan.filter((step) => step.description.includes('drafts'))).toEqual([]);
  });
});

describe('folio migrate --dry-run after draft & publish changed', () => {
  it('lists the drafts it would delete, warning about documents never published, and the drafts it would make', async () => {
    const site = installation(true);
    await site.start();
    await seedWithDraftAndPublish();
    await site.stop();

    site.articles(false);
    const off = site.dryRun();
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/^warning: draft & publish is off for api::article\.article now .*: 1 version\(s\) never published go with the drafts$/m);
    expect(off.stdout).toMatch(/^would delete 2 drafts of api::article\.article /m);
    await site.start();
    await site.stop();

    site.articles(true);
    const on = site.dryRun();
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/^would make drafts of 1 published versions of api::article\.article /m);
    // Two runs of the CLI besides two starts: more than bun's default 5 s when the machine is busy.
  }, 60_000);
});

/** The sort indexes of the articles table (list_idx and the version key aside), each with whether it covers published versions only. */
async function sortIndexes() {
  const db = server!.instance.db;
  const found =
    db.dialect.name === 'sqlite'
      ? await db.all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'articles' AND sql IS NOT NULL")
      : await db.all<{ name: string; sql: string }>(
          "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'articles' AND schemaname = current_schema()",
        );
  return Object.fromEntries(
    found
      .filter((i) => i.name.endsWith('_idx') && !i.name.endsWith('list_idx'))
      .map((i) => [i.name, /\bWHERE\b/i.test(i.sql)])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

describe('sort indexes after draft & publish changed', () => {
  it('covers every version once it is off, and the published versions only once it is on again', async () => {
    const site = installation(true);
    await site.start();
    await seedWithDraftAndPublish();
    const partial = await sortIndexes();
    expect(Object.keys(partial).length).toBeGreaterThan(3);
    expect(Object.values(partial).every(Boolean)).toBe(true);
    await site.stop();

    site.articles(false);
    await site.start();
    const whole = await sortIndexes();
    // The publishedAt index goes: a type without draft & publish does not sort by it.
    expect(Object.keys(whole)).toEqual(Object.keys(partial).filter((name) => !name.includes('publishedAt')));
    expect(Object.values(whole).some(Boolean)).toBe(false);
    expect(titles((await articles('&sort=createdAt')).data)).toEqual(['Alpha']);
    await site.stop();

    site.articles(true);
    await site.start();
    expect(await sortIndexes()).toEqual(partial);
  });
});
