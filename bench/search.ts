/**
 * `_q` at scale (issues #15 and #21): the p50 of a search over title and summary with N
 * articles, one request at a time, without the hour-long `folio import` of the full scale run.
 *
 *   bun bench/search.ts [--articles 1000000] [--seconds 5] [--database postgres://…/db]
 *
 * Seeds the articles table with SQL (a draft and a published version per document, the text
 * of bench/data.ts: "Bench article <i>", "Summary of bench article <i>. " three times) through
 * Folio's own database classes, so the search index is kept by the same triggers (SQLite) or
 * GIN indexes (PostgreSQL) as in production; then starts `folio serve` and measures.
 * PostgreSQL: the URL names an empty database that the run fills (and leaves).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveConfig } from '../src/config';
import { sql } from '../src/db/sql';
import { openInstance } from '../src/instance';
import { serve } from '../test/helpers/spawn';
import { runLoad } from './load';

const { values: flags } = parseArgs({
  options: { articles: { type: 'string', default: '1000000' }, seconds: { type: 'string', default: '5' }, database: { type: 'string' } },
  strict: true,
});
const ARTICLES = Number(flags.articles);
const SECONDS = Number(flags.seconds);
const log = (m: string) => console.error(`[bench:search] ${m}`);
/** Searches of the scale run: words of title and summary (the first is issue #21's target). */
const SEARCHES = [
  { key: 'scale_search', path: '/api/articles?_q=article%204242' },
  { key: 'scale_search_one', path: '/api/articles?_q=bench%20article%20777777' },
  { key: 'scale_search_nocount', path: '/api/articles?_q=article%204242&pagination[withCount]=false' },
];

const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-search-'));
const config = resolveConfig({
  data: dataDir,
  contentTypes: join(import.meta.dir, '..', 'content-types'),
  ...(flags.database ? { database: flags.database } : {}),
});
const instance = await openInstance(config);
try {
  await instance.roles.grant('public', ['api::article.article.find']);
  const db = instance.db;
  const pg = db.dialect.name === 'postgres';
  const t0 = performance.now();
  const BATCH = 50_000;
  for (let from = 0; from < ARTICLES; from += BATCH) {
    const to = Math.min(from + BATCH, ARTICLES) - 1;
    const numbers = pg
      ? sql`generate_series(${from}, ${to}) AS g(i)`
      : sql`(WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to}) SELECT i FROM s) g`;
    const i = pg ? sql`CAST(g.i AS TEXT)` : sql`g.i`;
    for (const published of [false, true]) {
      await db.transaction((tx) =>
        tx.run(sql`INSERT INTO articles ("documentId", locale, "createdAt", "updatedAt", "publishedAt", title, slug, summary, kind, views, featured)
          SELECT 'bench' || ${i}, 'en', '2024-01-15T00:00:00.000Z', '2024-01-15T00:00:00.000Z', ${published ? '2024-01-15T00:00:00.000Z' : null},
            'Bench article ' || ${i}, 'bench-article-' || ${i}, 'Summary of bench article ' || ${i} || '. Summary of bench article ' || ${i} || '. Summary of bench article ' || ${i} || '. ',
            'news', (CAST(g.i AS BIGINT) * 7919) % 100000, 0
          FROM ${numbers}`),
      );
    }
    if ((to + 1) % 200_000 === 0 || to + 1 === ARTICLES) log(`seeded ${to + 1} articles (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  await db.run('ANALYZE');
} finally {
  instance.close();
}

const server = await serve({ data: dataDir, ...(flags.database ? { database: flags.database } : {}) });
try {
  for (const s of SEARCHES) {
    const first = await server.call('GET', s.path);
    if (first.status !== 200) throw new Error(`${s.path}: ${first.status}`);
    await runLoad({ base: server.url, connections: 1, seconds: 1, requests: [{ method: 'GET', path: s.path }] });
    const r = await runLoad({ base: server.url, connections: 1, seconds: SECONDS, requests: [{ method: 'GET', path: s.path }] });
    const total = (first.body as { meta: { pagination: { total?: number } } }).meta.pagination.total;
    console.log(
      `${s.key} (${ARTICLES} articles, ${pgOr()}): p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, ${Math.round(r.rps)} req/s, total ${total ?? '-'}, ${r.non2xx} non-2xx`,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

function pgOr() {
  return flags.database ? 'PostgreSQL' : 'SQLite';
}
