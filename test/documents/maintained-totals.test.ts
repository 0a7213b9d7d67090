/**
 * Maintained list totals (issue #21, "Scale"): a list filtered only by locale and status reads
 * its total from `folio_counts`, kept by triggers on the content tables. After every write path
 * the total must be exactly what counting the rows gives, for every status and locale, on
 * types with and without draft & publish and i18n; a database from before the counts gets
 * them computed once; on PostgreSQL two instances creating concurrently keep them exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from '../../src/db/sql';
import { onPostgres, startServer, type TestServer } from '../helpers/server';
import { cliOutput } from '../helpers/spawn';

let server: TestServer;

async function call(
  method: string,
  path: string,
  data?: object,
  expected = method === 'POST' && !path.includes('/actions/') ? 201 : method === 'DELETE' ? 204 : 200,
) {
  const headers = { authorization: `Bearer ${server.tokens.fullAccess}` };
  const response = await server.call(method, path, data ? { body: { data }, headers } : { headers });
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body?.data;
}

/** Every list scope a maintained total answers: status × locale (the default locale, another, all). */
const SCOPES = ['published', 'draft'].flatMap((status) => ['en', 'fr', '*'].map((locale) => ({ status, locale })));

/** What the API says the total is, and what counting the rows gives, for every scope of every type. */
async function totals(target = server) {
  const said: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const [plural, table, draftAndPublish, localized] of [
    ['articles', 'articles', true, true],
    ['tags', 'tags', true, false],
    ['categories', 'categories', false, true],
  ] as const) {
    for (const { status, locale } of SCOPES) {
      const key = `${plural} ${status} ${locale}`;
      const response = await target.call('GET', `/api/${plural}?status=${status}&locale=${encodeURIComponent(locale)}&pagination[pageSize]=1`);
      expect(response.status).toBe(200);
      said[key] = response.body.meta.pagination.total;
      const conditions = [
        draftAndPublish ? sql.raw(status === 'draft' ? '"publishedAt" IS NULL' : '"publishedAt" IS NOT NULL') : sql.empty,
        localized && locale !== '*' ? sql`"locale" = ${locale}` : sql.empty,
      ];
      const where = sql.and(conditions);
      const row = await target.instance.db.get<{ n: number }>(
        sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${sql.id(table)}${where.isEmpty ? sql.empty : sql` WHERE ${where}`}`,
      );
      counted[key] = row!.n;
    }
  }
  return { said, counted };
}

async function expectExact(target = server) {
  const { said, counted } = await totals(target);
  expect(said).toEqual(counted);
  return counted;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('maintained totals', () => {
  it('stay exact after create, update, publish, unpublish, discard draft, locale delete and delete', async () => {
    const before = await expectExact();
    const a = await call('POST', '/api/articles', { title: 'A' });
    const b = await call('POST', '/api/articles?status=draft', { title: 'B' });
    await call('POST', '/api/tags', { name: 't1' });
    const tag = await call('POST', '/api/tags?status=draft', { name: 't2' });
    const category = await call('POST', '/api/categories', { name: 'c1', slug: 'c1' });
    const after = await expectExact();
    expect(after['articles published en']).toBe(before['articles published en']! + 1);
    expect(after['articles draft en']).toBe(before['articles draft en']! + 2);

    await call('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'A fr' });
    await call('PUT', `/api/categories/${category.documentId}?locale=fr`, { name: 'c1 fr', slug: 'c1-fr' });
    await call('PUT', `/api/articles/${b.documentId}?status=draft`, { title: 'B again' });
    await expectExact();
    await call('POST', `/api/articles/${b.documentId}/actions/publish`);
    await call('POST', `/api/tags/${tag.documentId}/actions/publish`);
    await expectExact();
    await call('PUT', `/api/articles/${b.documentId}?status=draft`, { title: 'B changed' });
    await call('POST', `/api/articles/${b.documentId}/actions/discard-draft`);
    await expectExact();
    await call('POST', `/api/articles/${a.documentId}/actions/unpublish`);
    await call('POST', `/api/tags/${tag.documentId}/actions/unpublish`);
    await expectExact();
    await call('DELETE', `/api/articles/${a.documentId}?locale=fr`);
    await call('DELETE', `/api/categories/${category.documentId}?locale=fr`);
    await expectExact();
    await call('DELETE', `/api/articles/${b.documentId}`);
    await call('DELETE', `/api/tags/${tag.documentId}`);
    const end = await expectExact();
    expect(end['articles published *']).toBe(before['articles published *']!);
  });

  it('stay exact after `folio import` writes from another process', async () => {
    const before = await expectExact();
    const file = join(server.dataDir, 'import.jsonl');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify({ title: `Imported ${i}` })).join('\n') + '\n');
    const database = onPostgres ? readFileSync(join(server.dataDir, 'test-database-url'), 'utf8') : undefined;
    for (const extra of [[], ['--status', 'draft', '--locale', 'fr']]) {
      cliOutput(['import', file, '--type', 'articles', ...extra], { data: server.dataDir, database });
    }
    const after = await expectExact();
    expect(after['articles published en']).toBe(before['articles published en']! + 12);
    expect(after['articles draft fr']).toBe(before['articles draft fr']! + 12);
  });

  it('are counted once on a database that had none (the triggers missing, the counts gone), at the next start', async () => {
    await call('POST', '/api/articles', { title: 'Before the counts' });
    const expected = await expectExact();
    const { db } = server.instance;
    const triggers =
      db.dialect.name === 'sqlite'
        ? await db.all<{ name: string; tbl: string }>(
            sql`SELECT name, tbl_name AS tbl FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'folio_counts_%'`,
          )
        : await db.all<{ name: string; tbl: string }>(
            sql`SELECT g.tgname AS name, c.relname AS tbl FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE g.tgname LIKE 'folio_counts_%'`,
          );
    expect(triggers.length).toBeGreaterThan(0);
    for (const t of triggers)
      await db.run(db.dialect.name === 'sqlite' ? sql`DROP TRIGGER ${sql.id(t.name)}` : sql`DROP TRIGGER ${sql.id(t.name)} ON ${sql.id(t.tbl)}`);
    await db.run(sql`DELETE FROM folio_counts`);
    // A write the counts do not see: only counting the table at the next start finds it.
    await db.run(sql`DELETE FROM articles WHERE "id" = (SELECT MAX("id") FROM articles WHERE "publishedAt" IS NOT NULL)`);
    await server.stop({ keepData: true });
    server = await startServer({ dataDir: server.dataDir });
    const counted = await expectExact();
    expect(counted['articles published en']).toBe(expected['articles published en']! - 1);
  });

  it.skipIf(!onPostgres)('stay exact under concurrent creates from two instances on one PostgreSQL database', async () => {
    const before = await expectExact();
    const second = await startServer({ dataDir: server.dataDir });
    try {
      const create = (target: TestServer, i: number) => target.call('POST', '/api/articles', { body: { data: { title: `Concurrent ${i}` } } });
      const responses = await Promise.all(Array.from({ length: 64 }, (_, i) => create(i % 2 ? second : server, i)));
      expect(responses.map((r) => r.status)).toEqual(Array(64).fill(201));
      const after = await expectExact(second);
      expect(after['articles published en']).toBe(before['articles published en']! + 64);
      expect(after['articles draft en']).toBe(before['articles draft en']! + 64);
    } finally {
      await second.stop({ keepData: true });
    }
  });
});
