/**
 * `_q` served by a substring index (issue #15): an FTS5 trigram table on SQLite, pg_trgm GIN
 * indexes on PostgreSQL. What it finds must be exactly what reading every row finds, i.e.
 * `$containsi` on each searched attribute, for every kind of text, in every combination with
 * filters, sort, pagination, locale and status, after every write path, and after the schema
 * changes; and the index must really be used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qs from 'qs';
import { sql } from '../../src/db/sql';
import { listStatements } from '../../src/query/compile';
import { parseReadQuery } from '../../src/query/parse';
import { EXAMPLE_CONTENT_TYPES, TEST_DATABASE_URL, onPostgres, startServer, type TestServer } from '../helpers/server';
import { createDatabase, queryOnce } from '../helpers/postgres';
import { runCli } from '../helpers/spawn';

let server: TestServer;
const TEXT_FIELDS = ['title', 'slug', 'summary', 'kind'];

/** Texts meant to trip a substring index: case folding beyond ASCII, LIKE and FTS syntax, quotes, surrogate pairs. */
const TEXTS = [
  'Hello World',
  'hello wORLD again',
  'Ünïcödé ÜBER Straße',
  'STRASSE und strasse',
  'ΣΟΦΙΑ σοφία ΟΔΟΣ',
  'İstanbul',
  'istanbul',
  '100% pure',
  '50_50 chance',
  'under_score',
  'quote "double" and \'single\'',
  'emoji 😀😀 fun',
  'ᲐᲑᲒ Mtavruli',
  'აბგ mkhedruli',
  'a%b',
  'a_b',
  'back\\slash',
  'café crème',
  'CAFE',
  'NEAR(x y) AND OR NOT',
  'star* wild?',
  'x"y',
  '',
];
const QUERIES = [
  'world',
  'WORLD',
  'wor',
  'o w',
  'straße',
  'STRASSE',
  'über',
  'σοφ',
  'ΣΟΦ',
  'οδος',
  'ος',
  'İst',
  'ist',
  '100%',
  '%',
  '0%',
  '_',
  '50_',
  'e_s',
  '"double"',
  "'single'",
  'quote "',
  '😀',
  '😀😀',
  'ᲐᲑᲒ',
  'აბგ',
  'back\\',
  'é c',
  'CAFÉ',
  'guide',
  'news',
  'near(',
  'and or',
  'star*',
  'x"y',
  'a%b',
  'a_b',
  'zzz',
  'wo',
  'ab',
];

const get = async (params: object, path = '/api/articles') => {
  const response = await server.call('GET', `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`);
  expect(response.status).toBe(200);
  return { ids: response.body.data.map((d: { id: number }) => d.id), pagination: response.body.meta.pagination };
};

/** The same request with `_q`, and with what `_q` means spelled as `$containsi` filters (the row-reading path). */
async function bothWays(q: string, params: Record<string, unknown> = {}) {
  const filters = (params.filters ?? {}) as object;
  const reference = { $and: [filters, { $or: TEXT_FIELDS.map((f) => ({ [f]: { $containsi: q } })) }] };
  const indexed = await get({ ...params, _q: q });
  const scanned = await get({ ...params, filters: reference });
  return { indexed, scanned };
}

beforeAll(async () => {
  server = await startServer();
  for (const [i, text] of TEXTS.entries()) {
    const data = { title: `T${i} ${text}`, slug: `s-${i}`, summary: i % 2 ? text.toUpperCase() : null, kind: ['news', 'guide', 'opinion'][i % 3] };
    const created = await server.call('POST', `/api/articles${i % 5 === 4 ? '?status=draft' : ''}`, { body: { data } });
    expect(created.status).toBe(201);
    if (i % 3 === 0) {
      const fr = await server.call('PUT', `/api/articles/${created.body.data.documentId}?locale=fr`, {
        body: { data: { title: `FR ${text}`, slug: `fr-${i}` } },
      });
      expect(fr.status).toBe(200);
    }
  }
});
afterAll(() => server.stop());

describe('_q through the index', () => {
  it('finds exactly what reading every row finds, for text of every kind, long and short searches alike', async () => {
    for (const q of QUERIES) {
      const { indexed, scanned } = await bothWays(q, { pagination: { pageSize: 100 } });
      expect({ q, ...indexed }).toEqual({ q, ...scanned });
    }
    // The data set is not trivial: searches find something, and not everything.
    expect((await get({ _q: 'world' })).ids.length).toBe(2);
    expect((await get({ _q: 'straße' })).ids.length).toBe(1);
    expect((await get({ _q: 'ΣΟΦ', status: 'draft' })).ids.length).toBe(1);
  });

  it('finds the same with filters, sort, pagination, locale and status', async () => {
    const variants: Record<string, unknown>[] = [
      { filters: { kind: { $eq: 'guide' } } },
      { sort: 'title:desc', pagination: { page: 2, pageSize: 2 } },
      { sort: ['kind:asc', 'title:asc'], pagination: { start: 1, limit: 3 } },
      { locale: 'fr' },
      { locale: '*', sort: 'title' },
      { status: 'draft', pagination: { pageSize: 100 } },
      { status: 'draft', locale: 'fr', filters: { $not: { title: { $startsWith: 'FR' } } } },
    ];
    for (const params of variants) {
      for (const q of ['a', 'o w', 'the', 'str', 'ΣΟΦ', '%', 'fr ', 'istanbul']) {
        const { indexed, scanned } = await bothWays(q, params);
        expect({ q, params, ...indexed }).toEqual({ q, params, ...scanned });
      }
    }
  });

  it('matches id and numbers only when the search is a number, as Strapi does', async () => {
    const one = await server.call('POST', '/api/articles', { body: { data: { title: 'Numbered', views: 987654 } } });
    const id = String(one.body.data.id);
    expect((await get({ _q: '987654' })).ids).toEqual([one.body.data.id]);
    expect((await get({ _q: id })).ids).toContain(one.body.data.id);
    expect((await get({ _q: `x${id}` })).ids).toEqual([]);
  });

  it('stays right through update, draft writes, publish, localization and delete', async () => {
    const found = async (q: string, params: object = {}) => (await get({ _q: q, ...params })).ids.length;
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Zebracorn first', summary: 'Quokka' } } });
    const doc = created.body.data.documentId;
    expect(await found('zebracorn')).toBe(1);
    expect(await found('quokka', { status: 'draft' })).toBe(1);

    expect((await server.call('PUT', `/api/articles/${doc}`, { body: { data: { title: 'Okapiary second' } } })).status).toBe(200);
    expect(await found('zebracorn')).toBe(0);
    expect(await found('okapiary')).toBe(1);
    expect(await found('quokka')).toBe(1);

    // A draft-only write changes the draft; the published version keeps its text until published.
    expect((await server.call('PUT', `/api/articles/${doc}?status=draft`, { body: { data: { title: 'Narwhalish third' } } })).status).toBe(200);
    expect(await found('narwhalish')).toBe(0);
    expect(await found('narwhalish', { status: 'draft' })).toBe(1);
    expect(await found('okapiary')).toBe(1);
    expect((await server.call('PUT', `/api/articles/${doc}`, { body: { data: {} } })).status).toBe(200);
    expect(await found('narwhalish')).toBe(1);
    expect(await found('okapiary')).toBe(0);

    expect((await server.call('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { title: 'Ornithorynque' } } })).status).toBe(200);
    expect(await found('ornithorynque', { locale: 'fr' })).toBe(1);
    expect(await found('ornithorynque')).toBe(0);

    expect((await server.call('DELETE', `/api/articles/${doc}?locale=*`)).status).toBe(204);
    for (const q of ['narwhalish', 'quokka', 'ornithorynque']) {
      expect(await found(q, { locale: '*' })).toBe(0);
      expect(await found(q, { locale: '*', status: 'draft' })).toBe(0);
    }
  });

  it('finds documents written by folio import', async () => {
    const file = join(server.dataDir, 'import.jsonl');
    writeFileSync(file, `${JSON.stringify({ title: 'Imported Capybarine one' })}\n${JSON.stringify({ title: 'Imported two', summary: 'capybarine' })}\n`);
    // The server's own database: a second process writes into it.
    const database = onPostgres ? readFileSync(join(server.dataDir, 'test-database-url'), 'utf8') : undefined;
    const run = runCli(['import', file, '--type', 'articles'], { data: server.dataDir, database });
    expect(run.code).toBe(0);
    expect((await get({ _q: 'CAPYBARINE' })).ids.length).toBe(2);
  });
});

describe('index entries a published version shares with its draft', () => {
  /** Every search of `words`, drafts and published versions of every locale, finds what reading the rows finds. */
  const expectExact = async (words: string[]) => {
    for (const q of words)
      for (const status of ['draft', 'published']) {
        const { indexed, scanned } = await bothWays(q, { status, locale: '*', pagination: { pageSize: 100 } });
        expect({ q, status, ids: indexed.ids }).toEqual({ q, status, ids: scanned.ids });
      }
  };
  const call = async (method: string, path: string, data?: object) => {
    const headers = { authorization: `Bearer ${server.tokens.fullAccess}` };
    const response = await server.call(method, path, { headers, ...(data ? { body: { data } } : {}) });
    expect({ method, path, status: response.status }).toEqual({ method, path, status: response.status < 300 ? response.status : 200 });
    return response.body?.data;
  };

  it('finds exactly what reading the rows finds through every write that moves a version away from its draft or back', async () => {
    const words = ['wombatique', 'quollish', 'numbatty', 'bilbyan', 'potoroo'];
    const a = await call('POST', '/api/articles', { title: 'Wombatique one', summary: 'quollish' });
    const b = await call('POST', '/api/articles', { title: 'Wombatique two', kind: 'news' });
    await call('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'Wombatique fr' });
    await expectExact(words);
    // The draft moves on: the published version keeps (and is found by) the text they shared.
    await call('PUT', `/api/articles/${a.documentId}?status=draft`, { title: 'Numbatty one' });
    await expectExact(words);
    await call('POST', `/api/articles/${a.documentId}/actions/publish`);
    await expectExact(words);
    await call('PUT', `/api/articles/${a.documentId}?status=draft`, { summary: 'bilbyan' });
    await call('POST', `/api/articles/${a.documentId}/actions/discard-draft`);
    await expectExact(words);
    // Written again with the values it has: nothing moves.
    await call('PUT', `/api/articles/${b.documentId}`, { title: 'Wombatique two' });
    await expectExact(words);
    await call('POST', `/api/articles/${b.documentId}/actions/unpublish`);
    await expectExact(words);
    await call('POST', `/api/articles/${b.documentId}/actions/publish`);
    await call('DELETE', `/api/articles/${a.documentId}?locale=fr`);
    await expectExact(words);
    // Project code may write the rows directly: draft and published in one statement, a draft alone, a draft removed.
    const { db } = server.instance;
    await db.run(sql`UPDATE articles SET title = 'Potoroo both' WHERE ${sql.id('documentId')} = ${b.documentId}`);
    await expectExact(words);
    await db.run(sql`UPDATE articles SET title = 'Bilbyan draft' WHERE ${sql.id('documentId')} = ${b.documentId} AND ${sql.id('publishedAt')} IS NULL`);
    await expectExact(words);
    // Published again (sharing the draft's entry), then the draft goes alone.
    await call('POST', `/api/articles/${b.documentId}/actions/publish`);
    await db.run(sql`DELETE FROM articles WHERE ${sql.id('documentId')} = ${b.documentId} AND ${sql.id('publishedAt')} IS NULL`);
    await expectExact(words);
    expect((await get({ _q: 'bilbyan draft' })).ids.length).toBe(1);
    await call('DELETE', `/api/articles/${a.documentId}`);
    await call('DELETE', `/api/articles/${b.documentId}`);
    await expectExact(words);
  });

  it.skipIf(onPostgres)(
    'indexes a published version equal to its draft once (SQLite): a create that publishes, a publish and an import add one entry a document',
    async () => {
      const { db } = server.instance;
      const entries = async () => (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.id('folio_search_articles_fts')}`))!.n;
      const rows = async () => (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM articles`))!.n;
      const [entriesBefore, rowsBefore] = [await entries(), await rows()];
      const created = await call('POST', '/api/articles', { title: 'Quokkaesque published' });
      expect([(await rows()) - rowsBefore, (await entries()) - entriesBefore]).toEqual([2, 1]);
      // A draft of its own text: its own entry, and the published version takes its own before the draft's changes.
      await call('PUT', `/api/articles/${created.documentId}?status=draft`, { title: 'Quokkaesque edited' });
      expect((await entries()) - entriesBefore).toBe(2);
      // Published again: equal to the draft, its entry goes with the old version.
      await call('POST', `/api/articles/${created.documentId}/actions/publish`);
      expect((await entries()) - entriesBefore).toBe(1);
      const file = join(server.dataDir, 'shared-entries.jsonl');
      writeFileSync(file, Array.from({ length: 20 }, (_, i) => JSON.stringify({ title: `Quokkaesque imported ${i}` })).join('\n') + '\n');
      expect(runCli(['import', file, '--type', 'articles'], { data: server.dataDir }).code).toBe(0);
      expect([(await rows()) - rowsBefore, (await entries()) - entriesBefore]).toEqual([42, 21]);
      expect((await get({ _q: 'quokkaesque imported', pagination: { pageSize: 100 } })).ids.length).toBe(20);
      expect((await get({ _q: 'quokkaesque imported', status: 'draft', pagination: { pageSize: 100 } })).ids.length).toBe(20);
      await call('DELETE', `/api/articles/${created.documentId}`);
      expect((await entries()) - entriesBefore).toBe(20);
    },
  );
});

describe('the query plan', () => {
  it('reads the index (SQLite: the FTS5 table; PostgreSQL: a bitmap scan of the trigram indexes)', async () => {
    const fresh = await startServer();
    try {
      const { db, registry } = fresh.instance;
      const ct = registry.contentType('api::article.article')!;
      const statement = (q: string) => listStatements(db.dialect, registry, ct, parseReadQuery(registry, ct, { _q: q }, 'en')).count;
      if (db.dialect.name === 'sqlite') {
        const plan = async (q: string) => (await db.all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${statement(q)}`)).map((r) => r.detail).join('\n');
        expect(await plan('hello')).toContain('folio_search_articles_fts');
        // Two characters: no trigram to look up, the rows are read.
        expect(await plan('he')).not.toContain('folio_search_articles_fts');
        return;
      }
      // On a table this small the planner would rather read the locale's own indexes: they go,
      // inside a transaction that is then rolled back, leaving only the trigram indexes to choose.
      const rollback = new Error('rollback');
      let plan = '';
      await db
        .transaction(async (tx) => {
          const others = await tx.all<{ indexname: string }>(
            sql`SELECT indexname FROM pg_indexes WHERE tablename = 'articles' AND indexname NOT LIKE 'folio_search_%' AND indexname <> 'articles_pkey'`,
          );
          for (const { indexname } of others) await tx.run(sql`DROP INDEX ${sql.id(indexname)}`);
          await tx.run('SET LOCAL enable_seqscan = off');
          plan = (await tx.all<{ 'QUERY PLAN': string }>(sql`EXPLAIN ${statement('hello')}`)).map((r) => r['QUERY PLAN']).join('\n');
          throw rollback;
        })
        .catch((error) => {
          if (error !== rollback) throw error;
        });
      expect(plan).toMatch(/Bitmap Index Scan on folio_search_articles_title_/);
      expect(plan).toMatch(/Bitmap Index Scan on folio_search_articles_summary_/);
    } finally {
      await fresh.stop();
    }
  });
});

describe('_q after schema changes', () => {
  it('stops searching a text attribute removed from the schema, and searches it again from the stored rows when it comes back', async () => {
    const types = mkdtempSync(join(tmpdir(), 'folio-search-types-'));
    cpSync(EXAMPLE_CONTENT_TYPES, types, { recursive: true });
    const schemaFile = join(types, 'tag.json');
    const original = readFileSync(schemaFile, 'utf8');
    let tags = await startServer({ contentTypes: types });
    const dataDir = tags.dataDir;
    const search = async (q: string) => (await tags.call('GET', `/api/tags?_q=${encodeURIComponent(q)}`)).body.data.map((d: { name: string }) => d.name);
    try {
      expect((await tags.call('POST', '/api/tags', { body: { data: { name: 'lagoon', color: '#c0ffee' } } })).status).toBe(201);
      expect(await search('c0ffee')).toEqual(['lagoon']);
      await tags.stop({ keepData: true });

      const schema = JSON.parse(original);
      delete schema.attributes.color;
      writeFileSync(schemaFile, JSON.stringify(schema));
      tags = await startServer({ contentTypes: types, dataDir });
      expect(await search('c0ffee')).toEqual([]);
      expect(await search('lagoon')).toEqual(['lagoon']);
      // Written while the attribute was gone: its column keeps the old value.
      expect((await tags.call('POST', '/api/tags', { body: { data: { name: 'reef' } } })).status).toBe(201);
      await tags.stop({ keepData: true });

      writeFileSync(schemaFile, original);
      tags = await startServer({ contentTypes: types, dataDir });
      expect(await search('c0ffee')).toEqual(['lagoon']);
      expect(await search('reef')).toEqual(['reef']);
    } finally {
      await tags.stop();
      rmSync(types, { recursive: true, force: true });
    }
  });
});

describe.skipIf(onPostgres)('the SQLite index across upgrades and draft & publish changes', () => {
  const entries = async (s: TestServer, table: string) =>
    (await s.instance.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.id(`folio_search_${table}_fts`)}`))!.n;
  const names = async (s: TestServer, q: string, status = 'published') =>
    (await s.call('GET', `/api/tags?_q=${encodeURIComponent(q)}&status=${status}`)).body.data.map((d: { name: string }) => d.name).sort();

  it('keeps an index whose triggers gave every version its own entry: only the triggers are replaced, nothing is indexed again', async () => {
    let s = await startServer();
    const dataDir = s.dataDir;
    try {
      // The triggers of the release before, which indexed the published copy again.
      const { db } = s.instance;
      const fts = sql.id('folio_search_tags_fts');
      const values = sql.raw('new."id", folio_lower(new."name"), folio_lower(new."color")');
      for (const event of ['insert', 'update', 'delete']) await db.run(sql`DROP TRIGGER ${sql.id(`folio_search_tags_${event}`)}`);
      await db.run(sql`CREATE TRIGGER "folio_search_tags_insert" AFTER INSERT ON "tags" BEGIN INSERT INTO ${fts}(rowid, c0, c1) VALUES (${values}); END`);
      await db.run(
        sql`CREATE TRIGGER "folio_search_tags_update" AFTER UPDATE OF "id", "name", "color" ON "tags" BEGIN DELETE FROM ${fts} WHERE rowid = old."id"; INSERT INTO ${fts}(rowid, c0, c1) VALUES (${values}); END`,
      );
      await db.run(sql`CREATE TRIGGER "folio_search_tags_delete" AFTER DELETE ON "tags" BEGIN DELETE FROM ${fts} WHERE rowid = old."id"; END`);
      for (const name of ['lagoon one', 'lagoon two']) expect((await s.call('POST', '/api/tags', { body: { data: { name } } })).status).toBe(201);
      const before = await entries(s, 'tags');
      await s.stop({ keepData: true });

      s = await startServer({ dataDir });
      expect(await entries(s, 'tags')).toBe(before);
      const insert = await s.instance.db.get<{ sql: string }>(sql`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'folio_search_tags_insert'`);
      expect(insert!.sql).toContain('NOT EXISTS');
      expect((await s.call('POST', '/api/tags', { body: { data: { name: 'lagoon three' } } })).status).toBe(201);
      expect(await entries(s, 'tags')).toBe(before + 1);
      expect(await names(s, 'lagoon')).toEqual(['lagoon one', 'lagoon three', 'lagoon two']);
      expect(await names(s, 'lagoon', 'draft')).toEqual(['lagoon one', 'lagoon three', 'lagoon two']);
    } finally {
      await s.stop();
    }
  });

  it('indexes a type again when it leaves draft & publish: every version on its own entry, found as reading the rows finds it', async () => {
    const types = mkdtempSync(join(tmpdir(), 'folio-search-types-'));
    cpSync(EXAMPLE_CONTENT_TYPES, types, { recursive: true });
    const schemaFile = join(types, 'tag.json');
    let s = await startServer({ contentTypes: types });
    const dataDir = s.dataDir;
    try {
      for (const name of ['atoll one', 'atoll two']) expect((await s.call('POST', '/api/tags', { body: { data: { name } } })).status).toBe(201);
      expect(await entries(s, 'tags')).toBe(2);
      await s.stop({ keepData: true });
      const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
      schema.options.draftAndPublish = false;
      writeFileSync(schemaFile, JSON.stringify(schema));
      s = await startServer({ contentTypes: types, dataDir });
      const scanned = (await s.call('GET', '/api/tags?filters[name][$containsi]=atoll')).body.data.map((d: { name: string }) => d.name).sort();
      expect(scanned.length).toBeGreaterThan(0);
      expect(await names(s, 'atoll')).toEqual(scanned);
      const rows = (await s.instance.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM tags`))!.n;
      expect(await entries(s, 'tags')).toBe(rows);
    } finally {
      await s.stop();
      rmSync(types, { recursive: true, force: true });
    }
  });
});

describe.if(onPostgres)('PostgreSQL without the right to install pg_trgm', () => {
  it('starts anyway with a warning naming the extension, and searches without the index', async () => {
    const role = `folio_nopriv_${Date.now().toString(36)}`;
    const url = await createDatabase(TEST_DATABASE_URL!, 'folio_test_nopriv');
    await queryOnce(TEST_DATABASE_URL!, `CREATE ROLE ${role} LOGIN PASSWORD 'nopriv'`);
    let limited: TestServer | undefined;
    try {
      // Tables in the public schema, but no CREATE on the database: pg_trgm (a trusted extension) cannot be installed.
      await queryOnce(url, `GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
      const asRole = new URL(url);
      asRole.username = role;
      asRole.password = 'nopriv';
      limited = await startServer({ config: { databaseUrl: asRole.toString() } });
      expect(limited.instance.syncPlan.filter((s) => !s.sql && s.description.includes('pg_trgm'))).toHaveLength(1);
      expect((await limited.call('POST', '/api/articles', { body: { data: { title: 'Platypus' } } })).status).toBe(201);
      expect((await limited.call('GET', '/api/articles?_q=ATYP')).body.data.map((d: { title: string }) => d.title)).toEqual(['Platypus']);
    } finally {
      // stop() drops the database (the admin connection does that), then the role can go.
      if (limited) await limited.stop();
      await queryOnce(TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      await queryOnce(TEST_DATABASE_URL!, `DROP ROLE IF EXISTS ${role}`);
    }
  });
});
