/**
 * The scale run: N articles of the bench's shape through `folio import`, then one request at a
 * time (latency, not throughput) and a walk through the pages watching the server's RSS.
 */
import { Database } from 'bun:sqlite';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cliCommand, cliSpawnOptions } from '../test/helpers/spawn';
import { readRefs, writeArticles, writeTargets, type Refs } from './data';
import { fmtInt, fmtMs, round } from './format';
import { percentile } from './load';
import { log, MiB } from './options';
import { binary, children, folio, rssMiB, startFolio, stopServer, work } from './processes';
import { createBody, measure, type MeasureSettings, type Scenario, type ScenarioResult } from './scenarios';

export interface ScaleResult {
  articles: number;
  import: { seconds: number; perSecond: number; dbSizeMiB: number };
  scenarios: ScenarioResult[];
  paging: {
    pageSize: number;
    pageCount: number;
    pagesFetched: number;
    every: number;
    seconds: number;
    p50Ms: number;
    maxMs: number;
    rssFirstMiB: number;
    rssLastMiB: number;
    rssPeakMiB: number;
    rssSamplesMiB: { page: number; rssMiB: number }[];
  };
}

export async function scaleRun(count: number, settings: MeasureSettings): Promise<ScaleResult> {
  const dataDir = join(work.dir!, 'scale-data');
  folio(
    [
      'permissions',
      'grant',
      'public',
      'api::article.article.find',
      'api::article.article.findOne',
      'api::article.article.create',
      'api::category.category.find',
      'api::author.author.find',
      'api::tag.tag.find',
    ],
    dataDir,
  );
  const files = await writeTargets(work.dir!);
  for (const [type, file] of Object.entries(files)) folio(['import', file, '--type', type], dataDir);
  const refs = readRefs(join(dataDir, 'folio.db'));
  const file = join(work.dir!, `articles-${count}.jsonl`);
  log(`scale: writing ${fmtInt(count)} articles to ${file}`);
  await writeArticles(file, count, refs);

  log(`scale: folio import of ${fmtInt(count)} articles`);
  const t0 = performance.now();
  const proc = Bun.spawn(cliCommand(['import', file, '--type', 'articles'], binary(dataDir)), {
    ...cliSpawnOptions(binary(dataDir)),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  children.add(proc);
  const decoder = new TextDecoder();
  let lastLine = '';
  let lastShown = 0;
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    for (const line of decoder.decode(chunk).split('\n').filter(Boolean)) {
      lastLine = line;
      if (performance.now() - lastShown > 15_000 || line.startsWith('done')) {
        lastShown = performance.now();
        log(`scale: ${line}`);
      }
    }
  }
  await proc.exited;
  children.delete(proc);
  if (proc.exitCode !== 0) throw new Error(`folio import failed: ${lastLine}\n${await new Response(proc.stderr as ReadableStream).text()}`);
  const importSeconds = (performance.now() - t0) / 1000;
  rmSync(file, { force: true });
  const dbSizeMiB = round(Bun.file(join(dataDir, 'folio.db')).size / MiB, 0);

  // Answer cache off: these bars are about what a query costs at a million rows (a deep page's
  // OFFSET, a count, a search), and a repeated URL would otherwise be answered from the cache.
  const server = await startFolio(dataDir, { FOLIO_ANSWER_CACHE_MB: '0' });
  try {
    const pid = server.proc.pid;
    const get = (key: string, label: string, path: string): Scenario => ({ key, label, requests: [{ method: 'GET', path }] });
    const deep = 'populate[category]=true&populate[author][populate][avatar]=true&populate[tags][fields][0]=name&populate[seo]=true&populate[blocks]=true';
    // One connection: p50/p99 are the latency of one request, not of a queue.
    const scenarios = [
      get('scale_filter_sort', 'filtered + sorted page', '/api/articles?filters[views][$gt]=10&sort=views:desc&pagination[pageSize]=25'),
      get(
        'scale_filter_sort_nocount',
        'same, withCount=false',
        '/api/articles?filters[views][$gt]=10&sort=views:desc&pagination[pageSize]=25&pagination[withCount]=false',
      ),
      get('scale_filter_sort_indexed', 'filtered + sorted on id (indexed)', '/api/articles?filters[id][$gt]=10&sort=id:desc&pagination[pageSize]=25'),
      get('scale_list', 'list, first page', '/api/articles'),
      get('scale_deep_populate', 'deep populate, first page', `/api/articles?${deep}`),
      get('scale_find_one', 'get one', `/api/articles/${readLastArticle(join(dataDir, 'folio.db'))}`),
      get('scale_search', '_q over title and summary (bench/search.ts seeds faster)', '/api/articles?_q=article%204242'),
      get('scale_deep_page', 'deep page (5,000 of 25)', '/api/articles?pagination[page]=5000&pagination[pageSize]=25'),
    ];
    const results: ScenarioResult[] = [];
    for (const s of scenarios) results.push(await measure(server.url, pid, s, { ...settings, connections: 1 }));
    results.push(await listAfterWrite(server.url, pid, refs));
    const paging = await pageThrough(server.url, pid);
    return { articles: count, import: { seconds: round(importSeconds), perSecond: Math.round(count / importSeconds), dbSizeMiB }, scenarios: results, paging };
  } finally {
    await stopServer(server, 'folio serve (scale)');
  }
}

/**
 * The first list after a write, which cannot reuse a cached total: a create, then the timed
 * list, one at a time, ROUNDS times (not under wrk: each list must follow its own write).
 */
async function listAfterWrite(base: string, pid: number, refs: Refs): Promise<ScenarioResult> {
  const ROUNDS = 30;
  const path = '/api/articles';
  const times: number[] = [];
  const rssBeforeMiB = rssMiB(pid);
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) {
    const created = await fetch(`${base}/api/articles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: createBody(i, refs) });
    if (created.status !== 201) throw new Error(`scale: POST /api/articles -> ${created.status}: ${(await created.text()).slice(0, 300)}`);
    await created.arrayBuffer();
    const t = performance.now();
    const response = await fetch(base + path);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`scale: GET ${path} after a write -> ${response.status}`);
    times.push(performance.now() - t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const rssAfterMiB = rssMiB(pid);
  const r: ScenarioResult = {
    key: 'scale_list_after_write',
    label: 'list, first page right after a create',
    method: 'GET',
    path,
    requests: ROUNDS,
    seconds: round((performance.now() - started) / 1000, 2),
    rps: round(1000 / (times.reduce((a, b) => a + b, 0) / ROUNDS)),
    p50Ms: round(percentile(sorted, 50), 3),
    p99Ms: round(percentile(sorted, 99), 3),
    non2xx: 0,
    errors: 0,
    rssBeforeMiB,
    rssAfterMiB,
    rssPeakMiB: Math.max(rssBeforeMiB, rssAfterMiB),
  };
  log(`scale: list after a write: p50 ${fmtMs(r.p50Ms)}, p99 ${fmtMs(r.p99Ms)} (${ROUNDS} rounds)`);
  return r;
}

function readLastArticle(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.query('SELECT documentId FROM articles WHERE publishedAt IS NOT NULL ORDER BY id DESC LIMIT 1').get() as { documentId: string }).documentId;
  } finally {
    db.close();
  }
}

/**
 * Pages through the whole set with pagination[page]=k and watches the server's RSS. A page
 * deep into a million rows costs a sort over all of them, so beyond MAX_PAGES pages the walk
 * takes every n-th page (first and last included), within a time budget.
 */
async function pageThrough(base: string, pid: number) {
  const pageSize = 100;
  const first = (await (await fetch(`${base}/api/articles?pagination[pageSize]=${pageSize}`)).json()) as { meta: { pagination: { pageCount: number } } };
  const pageCount = first.meta.pagination.pageCount;
  const MAX_PAGES = 300;
  const budgetMs = 120_000;
  const every = Math.max(1, Math.ceil(pageCount / MAX_PAGES));
  const pages: number[] = [];
  for (let p = 1; p <= pageCount; p += every) pages.push(p);
  if (pages.at(-1) !== pageCount) pages.push(pageCount);
  const rssFirstMiB = rssMiB(pid);
  let rssPeakMiB = rssFirstMiB;
  const times: number[] = [];
  const rssSamplesMiB: { page: number; rssMiB: number }[] = [{ page: 0, rssMiB: rssFirstMiB }];
  const sampleEvery = Math.max(1, Math.floor(pages.length / 10));
  const t0 = performance.now();
  for (const page of pages) {
    const t = performance.now();
    const response = await fetch(`${base}/api/articles?pagination[page]=${page}&pagination[pageSize]=${pageSize}`);
    const body = (await response.json()) as { data: unknown[] };
    if (response.status !== 200 || (page < pageCount && body.data.length !== pageSize))
      throw new Error(`page ${page}: ${response.status}, ${body.data?.length} rows`);
    times.push(performance.now() - t);
    const rss = rssMiB(pid);
    rssPeakMiB = Math.max(rssPeakMiB, rss);
    if (times.length % sampleEvery === 0) rssSamplesMiB.push({ page, rssMiB: rss });
    if (performance.now() - t0 > budgetMs) {
      log(`scale: paging stopped after the ${budgetMs / 1000} s budget at page ${page} of ${pageCount}`);
      break;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const rssLastMiB = rssMiB(pid);
  const sorted = [...times].sort((a, b) => a - b);
  const result = {
    pageSize,
    pageCount,
    pagesFetched: times.length,
    every,
    seconds: round(seconds),
    p50Ms: round(percentile(sorted, 50), 2),
    maxMs: round(sorted.at(-1) ?? NaN, 1),
    rssFirstMiB,
    rssLastMiB,
    rssPeakMiB: Math.max(rssPeakMiB, rssLastMiB),
    rssSamplesMiB,
  };
  log(
    `scale: paged ${times.length} of ${pageCount} pages (every ${every}) in ${result.seconds} s; RSS ${rssFirstMiB} -> ${rssLastMiB} MiB (peak ${result.rssPeakMiB})`,
  );
  return result;
}
