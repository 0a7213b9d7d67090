/**
 * `folio import` writes each batch table by table (documents/write/bulk-insert.ts): a failure found
 * after the batch's rows were inserted (a missing relation target, a unique value taken by an
 * earlier line of the same batch) still rolls the whole batch back, keeps the batches before
 * it and names the line (or the batch's lines) one-by-one creates would have failed at. On
 * SQLite and, with FOLIO_TEST_DATABASE_URL, on PostgreSQL. On SQLite an import loosens the
 * `_q` index's merge policy while it loads (db/search-index.ts): it is back at the default
 * afterwards, whether the import finished or stopped at a bad line, and `_q` finds every line.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { openInstance, type Instance } from '../../src/instance';
import { parseReadQuery } from '../../src/query/parse';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { CONTENT_TYPES, removeTempDirs, runCli, tempDir } from '../helpers/spawn';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];
afterAll(async () => {
  removeTempDirs();
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
});

/** A fresh installation: a data dir and, on PostgreSQL, a database of its own. */
async function installation() {
  const database = ADMIN_URL ? await createDatabase(ADMIN_URL, 'folio_import') : undefined;
  if (database) databases.push(database);
  return { data: join(tempDir(), 'data'), database };
}
type Installation = Awaited<ReturnType<typeof installation>>;

function jsonl(lines: unknown[]): string {
  const file = join(tempDir(), 'lines.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const folioImport = (at: Installation, file: string, type: string, ...args: string[]) => runCli(['import', file, '--type', type, ...args], at);

/** `fn` on the installation opened in this process, closed afterwards (the CLI runs in its own). */
async function opened<T>(at: Installation, fn: (instance: Instance) => Promise<T>): Promise<T> {
  const instance = await openInstance({ ...resolveConfig({ data: at.data, contentTypes: CONTENT_TYPES }), databaseUrl: at.database });
  try {
    return await fn(instance);
  } finally {
    instance.close();
  }
}

/** Rows per table the import writes, and the titles of the articles kept. */
function stored(at: Installation) {
  return opened(at, async (instance) => {
    const count = async (table: string) => Number((await instance.db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${table}"`))!.n);
    const tables = ['articles', 'components_shared_seos', 'components_shared_quotes', 'articles_category_lnk', 'articles_tags_lnk'];
    const counts = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(t)])));
    const titles = (await instance.db.all<{ title: string }>(`SELECT "title" FROM "articles" WHERE "publishedAt" IS NOT NULL ORDER BY "id"`)).map(
      (r) => r.title,
    );
    return { counts, titles };
  });
}

/** Line `n` (1-based) of the articles file. */
const line = (n: number, refs: { category: string; tag: string }) => ({
  title: `Line ${n}`,
  slug: `line-${n}`,
  category: refs.category,
  tags: [refs.tag],
  seo: { metaTitle: `Seo ${n}` },
  blocks: [{ __component: 'shared.quote', title: 'Q', body: `Quote ${n}` }],
});

async function withTargets() {
  const at = await installation();
  expect(folioImport(at, jsonl([{ name: 'News', slug: 'news' }]), 'categories').code).toBe(0);
  expect(folioImport(at, jsonl([{ name: 't' }]), 'tags').code).toBe(0);
  return opened(at, async (instance) => {
    const id = async (table: string) => (await instance.db.get<{ documentId: string }>(`SELECT "documentId" FROM "${table}"`))!.documentId;
    return { at, refs: { category: await id('categories'), tag: await id('tags') } };
  });
}

const FIRST_BATCH = Array.from({ length: 10 }, (_, i) => `Line ${i + 1}`);
const KEPT = { articles: 20, components_shared_seos: 20, components_shared_quotes: 20, articles_category_lnk: 20, articles_tags_lnk: 20 };

describe('folio import, batch by batch', () => {
  test('a missing relation target in the middle of a batch names its line and leaves nothing of that batch', async () => {
    const { at, refs } = await withTargets();
    const lines = Array.from({ length: 25 }, (_, i) => line(i + 1, refs));
    lines[14] = { ...lines[14]!, category: 'nosuchcategory00000000000' };
    const run = folioImport(at, jsonl(lines), 'articles', '--batch', '10');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'line 15: Document with id "nosuchcategory00000000000" not found in locale "en": the relation category points at api::category.category',
    );
    expect(run.stderr).toContain('10 document(s) imported before the failing batch were kept; none of that batch was.');
    const { counts, titles } = await stored(at);
    expect(titles).toEqual(FIRST_BATCH);
    expect(counts).toEqual(KEPT);
  }, 60_000);

  test('a unique value repeated by a later line of the same batch fails that batch as a whole and keeps the batches before it', async () => {
    const { at, refs } = await withTargets();
    const lines = Array.from({ length: 25 }, (_, i) => line(i + 1, refs));
    lines[13] = { ...lines[13]!, slug: 'line-12' };
    const run = folioImport(at, jsonl(lines), 'articles', '--batch', '10');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('lines 11-20: This attribute must be unique');
    const { counts, titles } = await stored(at);
    expect(titles).toEqual(FIRST_BATCH);
    expect(counts).toEqual(KEPT);
  }, 60_000);

  test('the search index finds every imported line and keeps its default merge policy, after a finished import and after a stopped one', async () => {
    const { at, refs } = await withTargets();
    const lines = Array.from({ length: 40 }, (_, i) => line(i + 1, refs));
    // Batches of 2: twenty segments, enough for the index to merge at either policy.
    expect(folioImport(at, jsonl(lines), 'articles', '--batch', '2').code).toBe(0);
    expect(await searchState(at)).toEqual({ automerge: 4, found: 40 });
    const more = Array.from({ length: 10 }, (_, i) => line(i + 41, refs));
    more[7] = { ...more[7]!, category: 'nosuchcategory00000000000' };
    expect(folioImport(at, jsonl(more), 'articles', '--batch', '2').code).toBe(1);
    expect(await searchState(at)).toEqual({ automerge: 4, found: 46 });
  }, 60_000);
});

/** The `_q` index's stored merge policy (SQLite; 4 stands for the default elsewhere) and how many articles `_q=line` finds. */
function searchState(at: Installation) {
  return opened(at, async (instance) => {
    const ct = instance.registry.contentType('api::article.article')!;
    const { defaultLimit, maxLimit } = instance.config;
    const query = parseReadQuery(instance.registry, ct, { _q: 'line', pagination: { pageSize: 100 } }, await instance.locales.defaultCode(), {
      defaultLimit,
      maxLimit,
    });
    const { data } = await instance.documents.findMany(ct, query);
    const stored =
      instance.db.dialect.name === 'sqlite'
        ? await instance.db.get<{ v: number }>(`SELECT v FROM "folio_search_articles_fts_config" WHERE k = 'automerge'`)
        : { v: 4 };
    return { automerge: stored?.v, found: data.length };
  });
}
