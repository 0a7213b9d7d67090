/**
 * What is measured: the seed (through `folio import`), the scenarios (the same requests go
 * to Folio and to the Strapi peer; only the documentIds differ), and one scenario's timed
 * run with the server's RSS sampled along it.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { readRefs, writeArticles, writeTargets, type Refs } from './data';
import { load, timeoutFor } from './generator';
import type { LoadRequest, LoadResult } from './load';
import { log } from './options';
import { folio, rssMiB, settle, work } from './processes';
import { fmtInt, fmtMs, round } from './format';

export interface Scenario {
  key: string;
  label: string;
  requests: LoadRequest[];
  /** A read sent as a POST (GraphQL): measured with the reads, against the read baseline. */
  read?: boolean;
}

export interface ScenarioResult extends LoadResult {
  key: string;
  label: string;
  method: string;
  path: string;
  /** Folio req/s ÷ baseline req/s (the read baseline for reads, the write baseline for writes). */
  ratio?: number;
  /** Which baseline `ratio` divides by. */
  baseline?: 'read' | 'write';
  /** req/s of each round (reads run --rounds times; the best round is reported). */
  roundsRps?: number[];
  rssBeforeMiB: number;
  rssAfterMiB: number;
  rssPeakMiB: number;
  /** SQL statements one request of this scenario runs (bench/statements.ts), after warm-up. */
  statements?: number;
  /** The Strapi peer under the same load (--peer strapi). */
  peer?: { rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number; rssPeakMiB: number; path: string; longer?: LongerRun };
  /** Folio req/s ÷ the peer's req/s. */
  peerRatio?: number;
  /** Set when the run of `seconds` completed fewer requests than it had connections and was measured again for longer. */
  longer?: LongerRun;
}

/** A scenario measured again for longer: what the first run completed, and the longer run's settings. */
export interface LongerRun {
  seconds: number;
  timeoutSeconds: number;
  first: { requests: number; seconds: number };
}

/**
 * A run that completes fewer requests than it has connections measured mostly the time its
 * first answers took (a server that needs ~0.15 s a request, 64 at once, answers its first ones
 * after seconds): such a scenario runs again, for this long, with wrk's timeout at twice it.
 */
export const LONGER_SECONDS = 30;

export const isWrite = (s: Scenario) => !s.read && s.requests.some((r) => r.method !== 'GET');

/**
 * Issue 39's GraphQL scenario: the nested list query a Strapi front end sends, 25 articles
 * with category, author, tags and a two-kind dynamic zone (Strapi's plugin reads these per row).
 */
export const GRAPHQL_NESTED = `query Articles {
  articles(pagination: { limit: 25 }) {
    documentId title summary views
    category { name slug }
    author { name }
    tags { name }
    blocks { __typename ... on ComponentSharedQuote { title body } ... on ComponentSharedRichText { body } }
  }
}`;

/** Grants, targets and `count` articles through the binary's CLI; the targets' documentIds. */
export async function seed(dataDir: string, count: number): Promise<Refs> {
  const grants = ['article', 'category', 'author', 'tag'].flatMap((name) =>
    ['find', 'findOne', ...(name === 'article' ? ['create', 'update'] : [])].map((a) => `api::${name}.${name}.${a}`),
  );
  folio(['permissions', 'grant', 'public', ...grants], dataDir);
  const files = await writeTargets(work.dir!);
  for (const [type, file] of Object.entries(files)) folio(['import', file, '--type', type], dataDir);
  const refs = readRefs(join(dataDir, 'folio.db'));
  const file = join(work.dir!, `articles-${count}.jsonl`);
  await writeArticles(file, count, refs);
  folio(['import', file, '--type', 'articles'], dataDir);
  return refs;
}

export function readArticleIds(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.query("SELECT documentId FROM articles WHERE publishedAt IS NOT NULL AND locale = 'en' ORDER BY id").all() as { documentId: string }[]).map(
      (r) => r.documentId,
    );
  } finally {
    db.close();
  }
}

/** The baseline must answer what Folio answers, or the ratio means nothing. */
export async function sameFirstPage(folioUrl: string, baselineUrl: string) {
  const [a, b] = await Promise.all([fetch(`${folioUrl}/api/articles`), fetch(`${baselineUrl}/api/articles`)]);
  const [fa, fb] = (await Promise.all([a.json(), b.json()])) as { data: unknown[]; meta: unknown }[];
  if (a.status !== 200 || b.status !== 200) throw new Error(`GET /api/articles: folio ${a.status}, baseline ${b.status}`);
  if (JSON.stringify(fa) !== JSON.stringify(fb)) {
    const diff = fa!.data.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(fb!.data[i]));
    throw new Error(
      `the baseline's first page differs from Folio's (row ${diff}):\nfolio:    ${JSON.stringify(fa!.data[diff] ?? fa!.meta)}\nbaseline: ${JSON.stringify(fb!.data[diff] ?? fb!.meta)}`,
    );
  }
  log(`baseline and Folio return the same first page (${fa!.data.length} articles, ${JSON.stringify(fa!.meta)})`);
}

/** What a create sends: a new article linked to a category, an author and 3 tags, as front ends write them. */
export function createBody(i: number, refs: Refs): string {
  const t = refs.tags.length;
  return JSON.stringify({
    data: {
      title: `Bench create ${i}`,
      summary: 'Created by the load generator',
      views: i,
      kind: 'news',
      category: refs.categories[i % refs.categories.length],
      author: refs.authors[(i + 1) % refs.authors.length],
      tags: [refs.tags[i % t], refs.tags[(i + 3) % t], refs.tags[(i + 6) % t]],
    },
  });
}

/**
 * The bench's creates sent to an app in-process (`app.handle`, no sockets), `concurrency` at
 * once, cycling through ten bodies: `run(n)` sends n of them; `failures` counts answers other than 201.
 */
export function inProcessCreates(app: { handle(request: Request): Promise<Response> }, refs: Refs, concurrency: number) {
  const bodies = Array.from({ length: 10 }, (_, i) => createBody(i, refs));
  const creates = {
    failures: 0,
    async run(n: number) {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < n) {
            const body = bodies[next++ % bodies.length]!;
            const response = await app.handle(
              new Request('http://localhost/api/articles', { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
            );
            await response.arrayBuffer();
            if (response.status !== 201) creates.failures++;
          }
        }),
      );
    },
  };
  return creates;
}

/** The scenarios over a seeded server: `refs` are its targets, `articles` its published articles in seed order. */
export function scenarioList(refs: Refs, articles: string[]): Scenario[] {
  const get = (key: string, label: string, path: string): Scenario => ({ key, label, requests: [{ method: 'GET', path }] });
  const t = refs.tags.length;
  return [
    get('list', 'list (page of 25)', '/api/articles'),
    get('list_populate_all', 'populate=*', '/api/articles?populate=*'),
    get(
      'list_populate_nested',
      'nested populate',
      '/api/articles?populate[author][populate][avatar]=true&populate[category]=true&populate[tags][fields][0]=name',
    ),
    get('filter_sort_indexed', 'filter+sort, indexed (id)', '/api/articles?filters[id][$gt]=10&sort=id:desc'),
    get('filter_sort_unindexed', 'filter+sort, no index (views)', '/api/articles?filters[views][$gt]=10&sort=views:desc'),
    get('filter_containsi', 'filter $containsi + sort title', '/api/articles?filters[summary][$containsi]=ARTICLE%201&sort=title'),
    get('find_one', 'get one', `/api/articles/${articles[50]}`),
    {
      key: 'graphql_nested',
      label: 'GraphQL nested list (25 articles, 4 relations and a zone)',
      read: true,
      requests: [{ method: 'POST', path: '/graphql', body: JSON.stringify({ query: GRAPHQL_NESTED }) }],
    },
    {
      key: 'create',
      label: 'create with relations (POST)',
      // Ten bodies in rotation: every target is linked to, from its own growing list.
      requests: Array.from({ length: 10 }, (_, i) => ({ method: 'POST', path: '/api/articles', body: createBody(i, refs) })),
    },
    {
      key: 'update_connect',
      label: 'update, connect with position (PUT)',
      // Article i holds tags i, i+3, i+6 (mod 10): move the third before the first. Valid every time.
      requests: articles.slice(0, 100).map((documentId, i) => ({
        method: 'PUT',
        path: `/api/articles/${documentId}`,
        body: JSON.stringify({ data: { tags: { connect: [{ documentId: refs.tags[(i + 6) % t], position: { before: refs.tags[i % t] } }] } } }),
      })),
    },
  ];
}

/**
 * The reads also measured with the answer cache off (FOLIO_ANSWER_CACHE_MB=0): the scenarios
 * repeat one URL, which a kept answer serves, so these rows show what building each answer costs.
 */
export const UNCACHED_READS = ['list', 'list_populate_all', 'list_populate_nested', 'find_one', 'graphql_nested'];
const uncachedKey = (key: string) => `${key}_uncached`;
/** The scenario an uncached row repeats (any other key is its own). */
export const builtFrom = (key: string) => key.replace(/_uncached$/, '');
export const uncached = (s: Scenario): Scenario => ({ ...s, key: uncachedKey(s.key), label: `${s.label}, answer cache off` });

export interface MeasureSettings {
  seconds: number;
  warmup: number;
  connections: number;
}

/** One scenario: a checked first request, `warmup` s of untimed load, then `seconds` s timed, RSS sampled every 200 ms. */
export async function measure(base: string, pid: number, scenario: Scenario, settings: MeasureSettings): Promise<ScenarioResult> {
  const first = scenario.requests[0]!;
  // A fresh connection: a pooled one may have been closed by the server's keep-alive timeout
  // during the previous scenario (Node servers such as Strapi's close idle sockets after 5 s).
  const check = await fetch(base + first.path, {
    method: first.method,
    headers: first.body ? { 'content-type': 'application/json' } : {},
    body: first.body,
    keepalive: false,
  });
  const text = await check.text();
  if (check.status < 200 || check.status >= 300) throw new Error(`${first.method} ${first.path} -> ${check.status}: ${text.slice(0, 500)}`);
  // GraphQL answers its errors with a 200: a scenario that errs measures nothing.
  if (first.path.endsWith('/graphql') && text.includes('"errors"')) throw new Error(`${first.method} ${first.path} answered errors: ${text.slice(0, 500)}`);
  await load(base, scenario.requests, settings.warmup, settings.connections);
  // The warm-up's unanswered requests are finished before the clock starts (they are not this run's).
  await settle(pid);
  const rssBeforeMiB = rssMiB(pid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid))), 200);
  let result: LoadResult;
  let longer: LongerRun | undefined;
  try {
    result = await load(base, scenario.requests, settings.seconds, settings.connections);
    if (result.requests < settings.connections && settings.seconds < LONGER_SECONDS) {
      longer = { seconds: LONGER_SECONDS, timeoutSeconds: timeoutFor(LONGER_SECONDS), first: { requests: result.requests, seconds: result.seconds } };
      log(
        `${scenario.key}: ${result.requests} requests completed in ${settings.seconds} s with ${settings.connections} connections: ` +
          `measuring again for ${longer.seconds} s (timeout ${longer.timeoutSeconds} s)`,
      );
      await settle(pid);
      result = await load(base, scenario.requests, LONGER_SECONDS, settings.connections);
    }
  } finally {
    clearInterval(sampler);
  }
  const rssAfterMiB = rssMiB(pid);
  rssPeakMiB = Math.max(rssPeakMiB, rssAfterMiB);
  const r: ScenarioResult = {
    key: scenario.key,
    label: scenario.label,
    method: first.method,
    path: first.path,
    ...result,
    rps: round(result.rps),
    p50Ms: round(result.p50Ms, 3),
    p99Ms: round(result.p99Ms, 3),
    rssBeforeMiB,
    rssAfterMiB,
    rssPeakMiB,
    ...(longer ? { longer } : {}),
  };
  log(
    `${scenario.key}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50Ms)}, p99 ${fmtMs(r.p99Ms)}, RSS ${rssBeforeMiB} -> ${rssAfterMiB} MiB (peak ${rssPeakMiB})` +
      (longer ? ` (over ${longer.seconds} s)` : '') +
      (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} socket errors` : ''),
  );
  return r;
}
