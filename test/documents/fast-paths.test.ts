/**
 * Every fast path of the write side writes what its slow path writes, row for row:
 *  - bulk creates (documents/write/bulk-insert.ts): a batch given to createMany is written table by
 *    table, as creating the same documents one by one writes them;
 *  - a create that publishes inserts its draft and published rows in one statement; with a
 *    lifecycle subscriber on the type it writes them one at a time, each between its events
 *    (documents/write/new-version.ts): the same rows either way.
 * Installations get the same targets, a webhook and the same articles, written each way; then
 * every content, component and link table, the maintained totals (against COUNT too) and the
 * outbox are compared row by row, ids included. documentIds, timestamps and the random
 * fraction of inverse order keys differ by nature, so documentIds are mapped, timestamps
 * masked and inverse keys compared as ranks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { ContentType } from '../../src/registry/types';
import { startServer, tableNames, type TestServer } from '../helpers/server';

let one: TestServer;
let batch: TestServer;
let rowByRow: TestServer;

beforeAll(async () => {
  // History and the audit log are listeners with statements of their own (test/history/, test/audit/): these compare the write path's own.
  const config = { historyDays: 0, auditDays: 0 };
  [one, batch, rowByRow] = await Promise.all([
    startServer({ config, quiet: true }),
    startServer({ config, quiet: true }),
    startServer({ config, quiet: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([one?.stop(), batch?.stop(), rowByRow?.stop()]);
});

const typeOf = (server: TestServer, name: string) => server.instance.registry.contentTypes.find((c) => c.pluralName === name) as ContentType;

/** The same targets and seed article in an installation; their documentIds in creation order. */
async function seed(server: TestServer): Promise<{ categories: string[]; authors: string[]; tags: string[]; seed: string }> {
  const { documents } = server.instance;
  const create = async (type: string, data: Record<string, unknown>) => (await documents.create(typeOf(server, type), data)).documentId;
  const categories = [await create('categories', { name: 'News', slug: 'news' }), await create('categories', { name: 'Guides', slug: 'guides' })];
  const authors = [await create('authors', { name: 'Ada' }), await create('authors', { name: 'Grace' })];
  const tags: string[] = [];
  for (const name of ['t0', 't1', 't2', 't3']) tags.push(await create('tags', { name }));
  // An article already linking the targets: the batch's inverse keys must follow its keys.
  const seedArticle = await create('articles', { title: 'Seed', category: categories[0], tags: [tags[0], tags[1]] });
  return { categories, authors, tags, seed: seedArticle };
}

type Refs = Awaited<ReturnType<typeof seed>>;

/** Article `i`: relations in every shape a body takes them, components and a dynamic zone, unique slugs. */
function article(i: number, r: Refs): Record<string, unknown> {
  const tags = [
    [r.tags[0], r.tags[1], r.tags[2]],
    { connect: [{ documentId: r.tags[1] }, { documentId: r.tags[3], position: { start: true } }, { documentId: r.tags[0], position: { after: r.tags[3] } }] },
    { set: [r.tags[2]] },
  ][i % 3];
  return {
    title: `Batch ${i}`,
    slug: `batch-${i}`,
    views: i,
    kind: ['news', 'guide', 'opinion'][i % 3],
    body: [{ type: 'paragraph', children: [{ type: 'text', text: `Body ${i}` }] }],
    category: r.categories[i % 2],
    ...(i % 2 === 0 ? { author: { connect: [r.authors[(i / 2) % 2]] } } : {}),
    tags,
    ...(i === 7 ? { related: [r.seed] } : {}),
    ...(i % 2 === 0 ? { seo: { metaTitle: `Seo ${i}` } } : {}),
    ...(i % 4 === 0
      ? {
          links: [
            { label: 'a', url: 'https://a.example' },
            { label: 'b', url: 'https://b.example', newTab: true },
          ],
        }
      : {}),
    blocks: [
      { __component: 'shared.quote', title: 'Q', body: `Quote ${i}` },
      ...(i % 3 === 0
        ? [
            { __component: 'shared.rich-text', body: `## ${i}` },
            { __component: 'shared.quote', title: 'Q2' },
          ]
        : []),
    ],
  };
}

const ISO = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d(:\d\d)?)?$/;

/** A value with documentIds mapped to the one-by-one installation's, timestamps masked. */
function normalise(value: unknown, ids: Map<string, string>): unknown {
  if (value instanceof Date) return 'T';
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return ISO.test(value) ? 'T' : (ids.get(value) ?? value);
  if (Array.isArray(value)) return value.map((v) => normalise(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, ids)]));
  return value;
}

/** Every table a document write touches, as comparable rows. */
async function snapshot(server: TestServer, ids: Map<string, string>): Promise<Record<string, unknown[]>> {
  const db = server.instance.db;
  const out: Record<string, unknown[]> = {};
  // Folio's own tables besides these are written by other work too (the webhook deliverer in the background).
  const skipped = (table: string) => table.startsWith('folio_') && table !== 'folio_counts' && table !== 'folio_outbox';
  for (const table of await tableNames(server)) {
    if (skipped(table)) continue;
    if (table === 'folio_counts') {
      // On PostgreSQL a key's count is spread over slots by backend: compare the sums.
      const rows = await db.all<Record<string, unknown>>(
        `SELECT "contentTable", "locale", "published", SUM("n") AS n FROM "folio_counts" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      out[table] = rows.map((r) => normalise(r, ids));
      continue;
    }
    if (table === 'sqlite_sequence') {
      out[table] = (await db.all<{ name: string; seq: number }>(`SELECT * FROM sqlite_sequence ORDER BY "name"`)).filter((r) => !skipped(r.name));
      continue;
    }
    const rows = (await db.all<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY "id"`)).map((r) => normalise(r, ids) as Record<string, unknown>);
    if (table === 'folio_outbox') {
      out[table] = rows.map((r) => ({ event: r.event, uid: r.uid, body: normalise(JSON.parse(String(r.body)), ids) }));
      continue;
    }
    if (table.endsWith('_lnk')) {
      // Inverse keys carry a random fraction: compare each link's rank in its target's list.
      const byTarget = new Map<string, Record<string, unknown>[]>();
      for (const r of rows) byTarget.set(`${r.targetDocumentId}\0${r.targetLocale}`, [...(byTarget.get(`${r.targetDocumentId}\0${r.targetLocale}`) ?? []), r]);
      for (const list of byTarget.values()) {
        [...list].sort((a, b) => (String(a.inversePosition) < String(b.inversePosition) ? -1 : 1)).forEach((r, rank) => (r.inversePosition = rank));
      }
    }
    out[table] = rows;
  }
  return out;
}

describe('bulk creates', () => {
  test('a batch creates exactly the rows, links, component rows, totals and events that creating its documents one by one creates', async () => {
    const [r1, r2] = [await seed(one), await seed(batch)];
    const ids = new Map<string, string>();
    const pair = (a: string[], b: string[]) => b.forEach((id, i) => ids.set(id, a[i]!));
    pair([...r1.categories, ...r1.authors, ...r1.tags, r1.seed], [...r2.categories, ...r2.authors, ...r2.tags, r2.seed]);

    const articles = typeOf(one, 'articles');
    const mine: string[] = [];
    const oneByOne = async (numbers: number[], status?: 'draft') => {
      for (const i of numbers) mine.push((await one.instance.documents.create(articles, article(i, r1), { status })).documentId);
    };
    const { documents, db } = batch.instance;
    const inBatch = (numbers: number[], status?: 'draft') =>
      documents.createMany(
        typeOf(batch, 'articles'),
        numbers.map((i) => article(i, r2)),
        { status },
      );

    const first = Array.from({ length: 12 }, (_, i) => i);
    await oneByOne(first);
    const before = db.statementCount;
    const written = await inBatch(first);
    // Table by table: a handful of statements for the whole batch (one by one it is about ten per document).
    expect(db.statementCount - before).toBeLessThanOrEqual(20);

    // A type without draft & publish or i18n (one row per document), a unique email and a to-one relation.
    const writer = (i: number, r: Refs) => ({ name: `Writer ${i}`, email: `w${i}@example.com`, mentor: r.authors[i % 2] });
    for (const i of [0, 1, 2]) mine.push((await one.instance.documents.create(typeOf(one, 'authors'), writer(i, r1))).documentId);
    written.push(
      ...(await documents.createMany(
        typeOf(batch, 'authors'),
        [0, 1, 2].map((i) => writer(i, r2)),
      )),
    );

    // With a webhook listening, each document's events are recorded as its create records them.
    for (const server of [one, batch]) {
      // Nothing listens on port 9: deliveries fail in the background; the outbox keeps what was recorded.
      await server.instance.webhooks.create({ name: 'all', url: 'http://127.0.0.1:9/hook', events: ['entry.create', 'entry.publish'] });
    }
    await oneByOne([12, 13, 14], 'draft');
    await oneByOne([15, 16]);
    written.push(...(await inBatch([12, 13, 14], 'draft')), ...(await inBatch([15, 16])));
    pair(
      mine,
      written.map((w) => w.documentId),
    );

    const expected = await snapshot(one, new Map());
    const actual = await snapshot(batch, ids);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    // A draft and a published version per published article and the seed, a draft per draft.
    expect(expected.articles!.length).toBe(15 * 2 + 3);
    expect(expected.folio_outbox!.length).toBe(3 + 2 * 2);
    for (const table of Object.keys(expected)) expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
  });
});

describe('creates with lifecycle subscribers', () => {
  test('write row by row exactly the rows, links, component rows, totals and events the one-statement create writes', async () => {
    // `one` already holds the articles the batch test created one by one; this installation
    // writes the same, from the same seed, with a subscriber on articles (each row between its events).
    const fired: string[] = [];
    rowByRow.instance.documents.hooks.subscribe({ models: ['api::article.article'], afterCreate: (e) => void fired.push(e.action) });
    const r1 = await seedRefs(one);
    const r3 = await seed(rowByRow);
    const ids = new Map<string, string>();
    [...r3.categories, ...r3.authors, ...r3.tags, r3.seed].forEach((id, i) => ids.set(id, [...r1.categories, ...r1.authors, ...r1.tags, r1.seed][i]!));
    const mine = await articleIds(one);
    const { documents } = rowByRow.instance;
    const articles = typeOf(rowByRow, 'articles');
    const made: string[] = [];
    for (const i of Array.from({ length: 12 }, (_, i) => i)) made.push((await documents.create(articles, article(i, r3))).documentId);
    for (const i of [0, 1, 2])
      made.push(
        (await documents.create(typeOf(rowByRow, 'authors'), { name: `Writer ${i}`, email: `w${i}@example.com`, mentor: r3.authors[i % 2] })).documentId,
      );
    await rowByRow.instance.webhooks.create({ name: 'all', url: 'http://127.0.0.1:9/hook', events: ['entry.create', 'entry.publish'] });
    for (const i of [12, 13, 14]) made.push((await documents.create(articles, article(i, r3), { status: 'draft' })).documentId);
    for (const i of [15, 16]) made.push((await documents.create(articles, article(i, r3))).documentId);
    made.forEach((id, i) => ids.set(id, mine[i]!));
    // The seed and 14 published articles: draft and published rows; 3 drafts.
    expect(fired.length).toBe(15 * 2 + 3);

    const expected = await snapshot(one, new Map());
    const actual = await snapshot(rowByRow, ids);
    for (const table of Object.keys(expected)) expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
  });

  test('keep the maintained totals equal to COUNT', async () => {
    for (const server of [one, batch, rowByRow]) {
      const { db } = server.instance;
      for (const [published, where] of [
        [1, '"publishedAt" IS NOT NULL'],
        [0, '"publishedAt" IS NULL'],
      ] as const) {
        const counted = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "articles" WHERE ${where}`))!.n);
        const kept = Number(
          (await db.get<{ n: number }>(
            `SELECT COALESCE(SUM("n"), 0) AS n FROM "folio_counts" WHERE "contentTable" = 'articles' AND "published" = ${published}`,
          ))!.n,
        );
        expect({ published, kept }).toEqual({ published, kept: counted });
      }
    }
  });
});

/** The targets seeded in an installation, by creation order (the seed made them first). */
async function seedRefs(server: TestServer): Promise<Refs> {
  const ids = async (table: string) =>
    (await server.instance.db.all<{ documentId: string }>(`SELECT "documentId" FROM "${table}" GROUP BY "documentId" ORDER BY MIN("id")`)).map(
      (r) => r.documentId,
    );
  const [categories, authors, tags, articles] = [await ids('categories'), await ids('authors'), await ids('tags'), await ids('articles')];
  return { categories: categories.slice(0, 2), authors: authors.slice(0, 2), tags: tags.slice(0, 4), seed: articles[0]! };
}

/** The documentIds an installation's articles and later authors were created with, in order (seed excluded). */
async function articleIds(server: TestServer): Promise<string[]> {
  const rows = await server.instance.db.all<{ documentId: string; t: string }>(
    `SELECT "documentId", 'a' AS t, MIN("id") AS first FROM "articles" GROUP BY "documentId" UNION ALL SELECT "documentId", 'w' AS t, MIN("id") AS first FROM "authors" GROUP BY "documentId" ORDER BY t, first`,
  );
  const articles = rows
    .filter((r) => r.t === 'a')
    .slice(1)
    .map((r) => r.documentId);
  const writers = rows
    .filter((r) => r.t === 'w')
    .slice(2)
    .map((r) => r.documentId);
  // Creation order: 12 articles, 3 writers, then 5 more articles.
  return [...articles.slice(0, 12), ...writers, ...articles.slice(12)];
}
