/**
 * Folio's benchmark harness (issue 7). One command:
 *
 *   npm run bench                      full run: 5 s per scenario, then the scale run (1,000,000 articles)
 *   npm run bench -- --short           CI-sized: 1 s per scenario, no scale run
 *   npm run bench -- --scale 200000    full run with a smaller scale set (--scale 0 skips it)
 *   npm run bench -- --database postgres://user:pass@127.0.0.1:5432/postgres
 *                                      the same scenarios on PostgreSQL, one and two instances (bench/postgres.ts)
 *
 * Other flags: --seconds N, --connections N (64), --rounds N (reads: best of N rounds; 2, short 1),
 * --load wrk|builtin, --out FILE,
 * --no-build (reuse dist/folio), --readme (write the table into README.md), --keep (keep
 * the temp data dir).
 *
 * What it does: builds dist/folio; seeds a fresh temp data dir through `folio import`
 * (5 categories, 5 authors, 10 tags, 100 articles each with a category, an author, 3 tags,
 * a seo component and a dynamic zone); measures cold start (process start to the first
 * 2xx on /_health, median of 10); starts Folio and bench/baseline.ts (Bun.serve + one
 * prepared bun:sqlite statement over the same file) pinned to CPU0 with the load generator
 * on CPU1, checks both return the same first page, and loads every scenario with wrk
 * (bounded in time, loopback only). Every Folio figure is also given as a ratio to the
 * baseline, since absolute numbers on a shared 2-core machine are noise. Results: a table
 * on stdout and bench/results/latest.json (short runs: bench/results/short.json).
 */
import { Database } from 'bun:sqlite';
import { spawnSync } from 'node:child_process';
import { cpus, totalmem, tmpdir } from 'node:os';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Subprocess } from 'bun';
// Folio is started the way the tests start it (one spawner for both; it needs only Node built-ins).
import { BINARY as FOLIO, BUN, cleanEnv, cliCommand, cliSpawnOptions, killSpawned, runCli, serve, spawnServer, type SpawnedServer } from '../test/helpers/spawn';
import { readRefs, writeArticles, writeTargets, type Refs } from './data';
import { percentile, type LoadRequest, type LoadResult } from './load';

const ROOT = resolve(import.meta.dir, '..');
const MiB = 1024 * 1024;

// ---------------------------------------------------------------- options

// `--database postgres://…` runs the PostgreSQL comparison instead (bench/postgres.ts).
if (process.argv.some((a) => a === '--database' || a.startsWith('--database='))) {
  await import('./postgres');
  process.exit(process.exitCode ?? 0);
}

const { values: flags } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    scale: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string' },
    load: { type: 'string' },
    out: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    readme: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (flags.help) {
  console.log(readFileSync(import.meta.path, 'utf8').match(/\/\*\*([\s\S]*?)\*\//)![1]!.replace(/^ \* ?/gm, ''));
  process.exit(0);
}
const SHORT = flags.short!;
const SECONDS = Number(flags.seconds ?? (SHORT ? 1 : 5));
const WARMUP = 1;
const CONNECTIONS = Number(flags.connections);
const SCALE = SHORT ? Number(flags.scale ?? 0) : Number(flags.scale ?? 1_000_000);
const OUT = resolve(flags.out ?? join(ROOT, 'bench', 'results', SHORT ? 'short.json' : 'latest.json'));
const COLD_STARTS = 10;
const ROUNDS = Number(flags.rounds ?? (SHORT ? 1 : 2));
for (const [name, n] of [['--seconds', SECONDS], ['--connections', CONNECTIONS], ['--scale', SCALE], ['--rounds', ROUNDS]] as const) {
  if (!Number.isInteger(n) || n < 0 || (name !== '--scale' && n < 1)) {
    console.error(`${name} must be a ${name === '--scale' ? 'non-negative' : 'positive'} integer`);
    process.exit(2);
  }
}

const log = (message: string) => console.error(`[bench] ${message}`);

// ---------------------------------------------------------------- processes

const children = new Set<Subprocess>();
let workDir: string | undefined;

function killAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
  // The servers the spawner started: SIGKILLed at once (before this returns), awaited by nobody.
  void killSpawned();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    if (workDir && !flags.keep) rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  });
}

async function stop(child: Subprocess) {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
    if (!exited) child.kill('SIGKILL');
  }
  children.delete(child);
}

const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const PINNED = hasCommand('taskset') && cpus().length >= 2;
const serverPin = PINNED ? ['taskset', '-c', '0'] : [];
const loadPin = PINNED ? ['taskset', '-c', '1'] : [];

/** Folio from dist/folio on a data dir, with the example content types. */
const binary = (dataDir: string) => ({ exe: FOLIO, data: dataDir });

/** Runs the binary to completion; throws with its output when it fails. */
function folio(args: string[], dataDir: string): string {
  const result = runCli(args, binary(dataDir));
  if (result.code !== 0) throw new Error(`folio ${args.join(' ')} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** `folio serve` on CPU0 (when pinned); resolves once it says where it listens. */
const startFolio = (dataDir: string) => serve({ ...binary(dataDir), wrap: serverPin, startTimeoutMs: 20_000 });

/** Stops a server and says what it wrote on stderr, if anything. */
async function stopServer(server: SpawnedServer, what: string) {
  await stop(server.proc);
  const text = server.stderr().trim();
  if (text) log(`${what} stderr: ${text.slice(0, 2000)}`);
}

function rssMiB(pid: number): number {
  try {
    const kb = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return NaN;
  }
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

// ---------------------------------------------------------------- load generation

let loadTool: 'wrk' | 'builtin' = 'builtin';
let loadToolVersion = 'bench/load.ts (fetch loops)';

function chooseLoadGenerator() {
  if (flags.load === 'builtin') return;
  if (!hasCommand('wrk') && flags.load !== 'builtin') {
    if (process.getuid?.() === 0 && hasCommand('apt-get')) {
      log('wrk not found: apt-get install -y wrk');
      const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], { stdio: 'ignore', timeout: 180_000 });
      if (install.status !== 0) log('could not install wrk');
    }
  }
  if (hasCommand('wrk')) {
    loadTool = 'wrk';
    loadToolVersion = spawnSync('wrk', ['-v']).stdout.toString().split('\n')[0]!.replace(/ Copyright.*/, '').trim() || 'wrk';
  } else if (flags.load === 'wrk') {
    throw new Error('--load wrk: wrk is not installed and could not be installed');
  } else {
    log('wrk unavailable: falling back to the built-in load generator (bench/load.ts)');
  }
}

const toMs = (value: string): number => {
  const m = value.match(/^([\d.]+)(us|ms|s|m)$/);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
};

function parseWrk(text: string): LoadResult {
  const num = (re: RegExp) => Number(text.match(re)?.[1] ?? NaN);
  const errors = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requests: num(/(\d+) requests in/),
    seconds: toMs(text.match(/requests in ([\d.]+\w+),/)?.[1] ?? '') / 1000,
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: toMs(text.match(/^\s+50%\s+(\S+)/m)?.[1] ?? ''),
    p99Ms: toMs(text.match(/^\s+99%\s+(\S+)/m)?.[1] ?? ''),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/) || 0,
    errors: errors ? errors.slice(1).reduce((s, n) => s + Number(n), 0) : 0,
  };
}

/** One timed load run against `base` with the given requests (rotated). */
async function load(base: string, requests: LoadRequest[], seconds: number, connections: number): Promise<LoadResult> {
  if (loadTool === 'builtin') {
    const spec = JSON.stringify({ base, connections, seconds, requests });
    const proc = Bun.spawn([...loadPin, BUN, join(ROOT, 'bench', 'load.ts'), spec], { stdout: 'pipe', stderr: 'pipe' });
    children.add(proc);
    const out = await new Response(proc.stdout as ReadableStream).text();
    await proc.exited;
    children.delete(proc);
    if (proc.exitCode !== 0) throw new Error(`load.ts failed: ${await new Response(proc.stderr as ReadableStream).text()}`);
    return JSON.parse(out) as LoadResult;
  }
  const args = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency'];
  const env: Record<string, string> = { ...process.env } as Record<string, string>;
  let url = base + requests[0]!.path;
  if (requests.length > 1 || requests[0]!.method !== 'GET' || requests[0]!.body !== undefined) {
    const file = join(workDir!, `requests-${Math.random().toString(36).slice(2)}.tsv`);
    writeFileSync(file, requests.map((r) => `${r.method}\t${r.path}\t${r.body ?? ''}`).join('\n') + '\n');
    env.BENCH_REQUESTS = file;
    args.push('-s', join(ROOT, 'bench', 'requests.lua'));
    url = base + '/';
  }
  const proc = Bun.spawn([...loadPin, ...args, url], { env, stdout: 'pipe', stderr: 'pipe' });
  children.add(proc);
  const out = await new Response(proc.stdout as ReadableStream).text();
  const err = await new Response(proc.stderr as ReadableStream).text();
  await proc.exited;
  children.delete(proc);
  if (proc.exitCode !== 0) throw new Error(`wrk failed (exit ${proc.exitCode}): ${out}${err}`);
  return parseWrk(out);
}

// ---------------------------------------------------------------- results

interface ScenarioResult extends LoadResult {
  key: string;
  label: string;
  method: string;
  path: string;
  /** Folio req/s ÷ baseline req/s (the best baseline run). */
  ratio?: number;
  /** req/s of each round (reads run --rounds times; the best round is reported). */
  roundsRps?: number[];
  rssBeforeMiB: number;
  rssAfterMiB: number;
  rssPeakMiB: number;
}

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean | null;
  note?: string;
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : NaN);
const fmtMs = (ms: number) => (!Number.isFinite(ms) ? '–' : ms < 10 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

/** Strapi 5's figures on this machine (shared/peers/strapi/results), for the reference column. */
function strapiReference(): Record<string, number> {
  const file = resolve(ROOT, '../shared/peers/strapi/results/bench-wrk-strapi-5.54.0.json');
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { results: { label: string; requestsPerSec: number }[] };
    return Object.fromEntries(json.results.map((r) => [r.label, r.requestsPerSec]));
  } catch {
    return { list: 183.13, list_populate_all: 62.84, find_one: 320.02, create: 44.68 };
  }
}

function machine() {
  const cpuModel = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  let os = process.platform as string;
  try {
    os = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]+)"?/m)?.[1] ?? os;
  } catch {
    // not Linux
  }
  return { nproc: cpus().length, cpuModel, memoryGiB: Math.round(totalmem() / 1024 ** 3), os, bun: Bun.version };
}

// ---------------------------------------------------------------- the run

async function main() {
  const started = Date.now();
  chooseLoadGenerator();
  workDir = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  log(`mode ${SHORT ? 'short' : 'full'}: ${SECONDS} s per scenario (after ${WARMUP} s warm-up), ${CONNECTIONS} connections, load generator ${loadToolVersion}${PINNED ? ', server on CPU0, load on CPU1' : ', not pinned (taskset or a second CPU missing)'}; work dir ${workDir}`);

  // 1. Build.
  if (!flags['no-build'] || !existsSync(FOLIO)) {
    const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build;
    const words = script.trim().split(/\s+/);
    if (words[0] === 'bun') words[0] = BUN;
    const t = performance.now();
    const build = Bun.spawnSync(words, { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
    log(`built dist/folio in ${Math.round(performance.now() - t)} ms`);
  }

  // 2. A fresh data dir, the grants, the seed data through `folio import`.
  const dataDir = join(workDir, 'data');
  const grants = ['article', 'category', 'author', 'tag'].flatMap((name) =>
    ['find', 'findOne', ...(name === 'article' ? ['create', 'update'] : [])].map((a) => `api::${name}.${name}.${a}`),
  );
  folio(['permissions', 'grant', 'public', ...grants], dataDir);
  const seedStarted = performance.now();
  const refs = await seed(dataDir, 100);
  const seedMs = performance.now() - seedStarted;
  log(`seeded 5 categories, 5 authors, 10 tags and 100 articles through folio import in ${Math.round(seedMs)} ms`);
  const dbFile = join(dataDir, 'folio.db');
  const articles = readArticleIds(dbFile);

  // 3. Cold start: process start to the first 2xx on /_health (and the first 200 on the list).
  const cold = await coldStarts(dataDir);
  log(`cold start: median ${fmtMs(cold.healthMedianMs)} to /_health, ${fmtMs(cold.listMedianMs)} to the first article list`);

  // 4. Folio and the baseline, both on CPU0; same answer?
  const server = await startFolio(dataDir);
  const baseline = await spawnServer([...serverPin, BUN, join(ROOT, 'bench', 'baseline.ts'), dbFile, '0'], {
    env: cleanEnv(),
    listening: /baseline listening on (http:\/\/\S+)/,
    startTimeoutMs: 20_000,
    what: 'baseline',
  });
  const pid = server.proc.pid;
  await sameFirstPage(server.url, baseline.url);

  const scenarios = scenarioList(refs, articles);
  const results: ScenarioResult[] = [];
  const baselineRuns: (LoadResult & { rssAfterMiB: number })[] = [];
  const rssAtStart = rssMiB(pid);
  const measureBaseline = async () => {
    await load(baseline.url, [{ method: 'GET', path: '/api/articles' }], WARMUP, CONNECTIONS);
    const r = { ...(await load(baseline.url, [{ method: 'GET', path: '/api/articles' }], SECONDS, CONNECTIONS)), rssAfterMiB: rssMiB(baseline.proc.pid) };
    baselineRuns.push(r);
    log(`baseline GET /api/articles: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50Ms)}, p99 ${fmtMs(r.p99Ms)}, baseline RSS ${r.rssAfterMiB} MiB`);
  };
  // Reads run ROUNDS times, each round after a baseline run, and the best round counts
  // (a burst of other work on a shared machine rarely spans two rounds); writes run once,
  // last, after one more baseline run, since they change the data the reads see.
  const reads = scenarios.filter((s) => s.requests.every((r) => r.method === 'GET'));
  const writes = scenarios.filter((s) => !reads.includes(s));
  const rounds: ScenarioResult[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (ROUNDS > 1) log(`round ${round + 1} of ${ROUNDS}`);
    await measureBaseline();
    const got: ScenarioResult[] = [];
    for (const scenario of reads) got.push(await measure(server.url, pid, scenario));
    rounds.push(got);
  }
  let rssPeakAll = Math.max(...rounds.flat().map((r) => r.rssPeakMiB));
  reads.forEach((_, i) => {
    const all = rounds.map((round) => round[i]!);
    const best = all.reduce((a, b) => (b.rps > a.rps ? b : a));
    results.push({ ...best, roundsRps: all.map((r) => r.rps) });
  });
  await measureBaseline();
  for (const scenario of writes) results.push(await measure(server.url, pid, scenario));
  rssPeakAll = Math.max(rssPeakAll, ...results.map((r) => r.rssPeakMiB));
  const baselineRps = Math.max(...baselineRuns.map((r) => r.rps));
  const spread = Math.max(...baselineRuns.map((r) => r.rps)) / Math.min(...baselineRuns.map((r) => r.rps)) - 1;
  const noisy = spread > 0.25;
  if (noisy) log(`warning: the baseline runs differ by ${Math.round(spread * 100)}%: the machine was busy, ratios are unreliable; run again`);
  for (const r of results) r.ratio = r.rps / baselineRps;
  await stopServer(server, 'folio serve');
  await stopServer(baseline, 'baseline');

  // 5. Scale.
  const scale = SCALE > 0 ? await scaleRun(SCALE) : null;

  // 6. Report.
  const targets = evaluate(results, cold, scale, rssPeakAll);
  const report = {
    date: new Date().toISOString(),
    mode: SHORT ? 'short' : 'full',
    machine: machine(),
    loadGenerator: loadToolVersion,
    settings: { seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS, threads: 1, pinned: PINNED, rounds: ROUNDS },
    seed: { categories: 5, authors: 5, tags: 10, articles: 100, importMs: Math.round(seedMs) },
    baseline: { program: 'bench/baseline.ts', path: '/api/articles', rps: round(baselineRps), runs: baselineRuns, spread: round(spread, 2), noisy },
    scenarios: results,
    rss: { atStartMiB: rssAtStart, peakMiB: rssPeakAll },
    coldStart: cold,
    scale,
    targets,
    reference: { strapi5: strapiReference(), note: 'Strapi 5.54.0 on this machine: wrk -t2 -c50 -d10s, not pinned (../shared/peers/strapi/results)' },
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(report, null, 2) + '\n');
  const table = renderTable(report);
  console.log(table);
  log(`results written to ${OUT} (${report.durationSeconds} s)`);
  if (flags.readme) {
    writeReadme(table);
    log('README.md Benchmarks table updated');
  }
}

async function seed(dataDir: string, count: number): Promise<Refs> {
  const files = await writeTargets(workDir!);
  for (const [type, file] of Object.entries(files)) folio(['import', file, '--type', type], dataDir);
  const refs = readRefs(join(dataDir, 'folio.db'));
  const file = join(workDir!, `articles-${count}.jsonl`);
  await writeArticles(file, count, refs);
  folio(['import', file, '--type', 'articles'], dataDir);
  return refs;
}

function readArticleIds(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.query("SELECT documentId FROM articles WHERE publishedAt IS NOT NULL AND locale = 'en' ORDER BY id").all() as { documentId: string }[]).map((r) => r.documentId);
  } finally {
    db.close();
  }
}

interface ColdStart {
  runs: number;
  healthMs: number[];
  listMs: number[];
  healthMedianMs: number;
  listMedianMs: number;
}

async function coldStarts(dataDir: string): Promise<ColdStart> {
  const healthMs: number[] = [];
  const listMs: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t0 = performance.now();
    // Spawned here, not through serve(): the clock runs from the spawn to the first answer, polled.
    const proc = Bun.spawn(cliCommand(['serve', '--port', String(port)], { ...binary(dataDir), wrap: serverPin }), {
      ...cliSpawnOptions(binary(dataDir)),
      stdout: 'ignore',
      stderr: 'ignore',
    });
    children.add(proc);
    try {
      const until = async (path: string, ok: (status: number) => boolean) => {
        for (;;) {
          if (proc.exitCode !== null) throw new Error(`folio serve exited with ${proc.exitCode} during the cold start`);
          if (performance.now() - t0 > 20_000) throw new Error('folio serve did not answer within 20 s');
          try {
            const response = await fetch(base + path, { keepalive: false });
            await response.arrayBuffer();
            if (ok(response.status)) return performance.now() - t0;
          } catch {
            // not listening yet
          }
          await Bun.sleep(1);
        }
      };
      healthMs.push(round(await until('/_health', (s) => s >= 200 && s < 300), 1));
      listMs.push(round(await until('/api/articles', (s) => s === 200), 1));
    } finally {
      await stop(proc);
    }
  }
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  return { runs: COLD_STARTS, healthMs, listMs, healthMedianMs: median(healthMs), listMedianMs: median(listMs) };
}

/** The baseline must answer what Folio answers, or the ratio means nothing. */
async function sameFirstPage(folioUrl: string, baselineUrl: string) {
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

interface Scenario {
  key: string;
  label: string;
  requests: LoadRequest[];
}

function scenarioList(refs: Refs, articles: string[]): Scenario[] {
  const get = (key: string, label: string, path: string): Scenario => ({ key, label, requests: [{ method: 'GET', path }] });
  const createBody = JSON.stringify({ data: { title: 'Bench create', summary: 'Created by wrk', views: 1, kind: 'news' } });
  const t = refs.tags.length;
  return [
    get('list', 'list (page of 25)', '/api/articles'),
    get('list_populate_all', 'populate=*', '/api/articles?populate=*'),
    get('list_populate_nested', 'nested populate', '/api/articles?populate[author][populate][avatar]=true&populate[tags][fields][0]=name'),
    get('filter_sort_indexed', 'filter+sort, indexed (id)', '/api/articles?filters[id][$gt]=10&sort=id:desc'),
    get('filter_sort_unindexed', 'filter+sort, no index (views)', '/api/articles?filters[views][$gt]=10&sort=views:desc'),
    get('filter_containsi', 'filter $containsi + sort title', '/api/articles?filters[summary][$containsi]=ARTICLE%201&sort=title'),
    get('find_one', 'get one', `/api/articles/${articles[50]}`),
    { key: 'create', label: 'create (POST)', requests: [{ method: 'POST', path: '/api/articles', body: createBody }] },
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

async function measure(base: string, pid: number, scenario: Scenario, seconds = SECONDS, connections = CONNECTIONS): Promise<ScenarioResult> {
  const first = scenario.requests[0]!;
  const check = await fetch(base + first.path, { method: first.method, headers: first.body ? { 'content-type': 'application/json' } : {}, body: first.body });
  const text = await check.text();
  if (check.status < 200 || check.status >= 300) throw new Error(`${first.method} ${first.path} -> ${check.status}: ${text.slice(0, 500)}`);
  await load(base, scenario.requests, WARMUP, connections);
  const rssBeforeMiB = rssMiB(pid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid))), 200);
  let result: LoadResult;
  try {
    result = await load(base, scenario.requests, seconds, connections);
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
  };
  log(
    `${scenario.key}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50Ms)}, p99 ${fmtMs(r.p99Ms)}, RSS ${rssBeforeMiB} -> ${rssAfterMiB} MiB` +
      (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} socket errors` : ''),
  );
  return r;
}

// ---------------------------------------------------------------- scale

interface ScaleResult {
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

async function scaleRun(count: number): Promise<ScaleResult> {
  const dataDir = join(workDir!, 'scale-data');
  folio(['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.findOne', 'api::category.category.find', 'api::author.author.find', 'api::tag.tag.find'], dataDir);
  const files = await writeTargets(workDir!);
  for (const [type, file] of Object.entries(files)) folio(['import', file, '--type', type], dataDir);
  const refs = readRefs(join(dataDir, 'folio.db'));
  const file = join(workDir!, `articles-${count}.jsonl`);
  log(`scale: writing ${fmtInt(count)} articles to ${file}`);
  await writeArticles(file, count, refs);

  log(`scale: folio import of ${fmtInt(count)} articles`);
  const t0 = performance.now();
  const proc = Bun.spawn(cliCommand(['import', file, '--type', 'articles'], binary(dataDir)), { ...cliSpawnOptions(binary(dataDir)), stdout: 'pipe', stderr: 'pipe' });
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

  const server = await startFolio(dataDir);
  try {
    const pid = server.proc.pid;
    const get = (key: string, label: string, path: string): Scenario => ({ key, label, requests: [{ method: 'GET', path }] });
    const deep =
      'populate[category]=true&populate[author][populate][avatar]=true&populate[tags][fields][0]=name&populate[seo]=true&populate[blocks]=true';
    // One connection: p50/p99 are the latency of one request, not of a queue.
    const scenarios = [
      get('scale_filter_sort', 'filtered + sorted page', '/api/articles?filters[views][$gt]=10&sort=views:desc&pagination[pageSize]=25'),
      get('scale_filter_sort_nocount', 'same, withCount=false', '/api/articles?filters[views][$gt]=10&sort=views:desc&pagination[pageSize]=25&pagination[withCount]=false'),
      get('scale_filter_sort_indexed', 'filtered + sorted on id (indexed)', '/api/articles?filters[id][$gt]=10&sort=id:desc&pagination[pageSize]=25'),
      get('scale_list', 'list, first page', '/api/articles'),
      get('scale_deep_populate', 'deep populate, first page', `/api/articles?${deep}`),
      get('scale_find_one', 'get one', `/api/articles/${readLastArticle(join(dataDir, 'folio.db'))}`),
      get('scale_search', '_q over title and summary (bench/search.ts seeds faster)', '/api/articles?_q=article%204242'),
    ];
    const results: ScenarioResult[] = [];
    for (const s of scenarios) results.push(await measure(server.url, pid, s, SECONDS, 1));
    const paging = await pageThrough(server.url, pid);
    return { articles: count, import: { seconds: round(importSeconds), perSecond: Math.round(count / importSeconds), dbSizeMiB }, scenarios: results, paging };
  } finally {
    await stopServer(server, 'folio serve (scale)');
  }
}

function readLastArticle(dbFile: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.query("SELECT documentId FROM articles WHERE publishedAt IS NOT NULL ORDER BY id DESC LIMIT 1").get() as { documentId: string }).documentId;
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
    if (response.status !== 200 || (page < pageCount && body.data.length !== pageSize)) throw new Error(`page ${page}: ${response.status}, ${body.data?.length} rows`);
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
  log(`scale: paged ${times.length} of ${pageCount} pages (every ${every}) in ${result.seconds} s; RSS ${rssFirstMiB} -> ${rssLastMiB} MiB (peak ${result.rssPeakMiB})`);
  return result;
}

// ---------------------------------------------------------------- targets and output

function evaluate(results: ScenarioResult[], cold: ColdStart, scale: ScaleResult | null, rssPeakMiB: number): Target[] {
  const by = (key: string) => results.find((r) => r.key === key)!;
  const ratio = (key: string, min: number, name: string): Target => {
    const r = by(key).ratio!;
    return { name, target: `≥ ${min} × baseline`, value: `${r.toFixed(2)} × (${fmtInt(by(key).rps)} req/s)`, pass: r >= min };
  };
  const peak = rssPeakMiB;
  const targets: Target[] = [
    ratio('list', 0.6, 'list of 25'),
    ratio('list_populate_all', 0.3, 'populate=*'),
    ratio('find_one', 0.7, 'get one'),
    { name: 'create', target: '≥ 2,000 req/s', value: `${fmtInt(by('create').rps)} req/s`, pass: by('create').rps >= 2000 },
    { name: 'cold start', target: '< 100 ms', value: `${fmtMs(cold.healthMedianMs)} (median of ${cold.runs})`, pass: cold.healthMedianMs < 100 },
    { name: 'RSS under load', target: '< 80 MiB', value: `${peak} MiB peak`, pass: peak < 80 },
  ];
  const s = scale?.scenarios.find((r) => r.key === 'scale_filter_sort');
  targets.push(
    scale && s
      ? {
          name: `${fmtInt(scale.articles)} articles: filtered + sorted page p50`,
          target: '< 10 ms (at 1,000,000)',
          value: fmtMs(s.p50Ms),
          // The bar is for a million: a smaller set says little (the count grows with it).
          pass: scale.articles >= 1_000_000 ? s.p50Ms < 10 : null,
          ...(scale.articles < 1_000_000 ? { note: `measured at ${fmtInt(scale.articles)} articles, not 1,000,000; the count grows with the set` } : {}),
        }
      : { name: '1M articles: filtered + sorted page p50', target: '< 10 ms', value: 'not run', pass: null, note: SHORT ? 'skipped in --short' : '--scale 0' },
  );
  for (const r of results) {
    if (r.non2xx || r.errors) targets.push({ name: `${r.key} answers`, target: 'no errors', value: `${r.non2xx} non-2xx, ${r.errors} socket errors`, pass: false });
  }
  return targets;
}

function renderTable(report: {
  date: string;
  mode: string;
  machine: ReturnType<typeof machine>;
  loadGenerator: string;
  settings: { seconds: number; connections: number; pinned: boolean; rounds: number };
  baseline: { rps: number; runs: (LoadResult & { rssAfterMiB: number })[]; noisy: boolean; spread: number };
  scenarios: ScenarioResult[];
  coldStart: ColdStart;
  scale: ScaleResult | null;
  targets: Target[];
  reference: { strapi5: Record<string, number> };
}): string {
  const m = report.machine;
  const strapi = report.reference.strapi5;
  const lines: string[] = [];
  lines.push(
    `Measured ${report.date.slice(0, 10)} on ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Bun ${m.bun}; ${report.mode} run, ` +
      `${report.loadGenerator} -t1 -c${report.settings.connections} -d${report.settings.seconds}s` +
      `${report.settings.pinned ? ', server on CPU0 and load on CPU1 (taskset)' : ''}` +
      `${report.settings.rounds > 1 ? `; reads: best of ${report.settings.rounds} rounds, writes once` : ''}; 100 articles (category, author, 3 tags, seo component, 2-item dynamic zone).`,
  );
  lines.push('');
  lines.push('| scenario | request | req/s | × baseline | p50 | p99 | server RSS before → after | Strapi 5 req/s |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|');
  const b = report.baseline;
  const bestBaseline = b.runs.reduce((x, y) => (y.rps > x.rps ? y : x));
  lines.push(
    `| **baseline** (Bun.serve + bun:sqlite; best of ${b.runs.map((r) => fmtInt(r.rps)).join(', ')}) | GET /api/articles | ${fmtInt(b.rps)} | 1.00 | ${fmtMs(bestBaseline.p50Ms)} | ${fmtMs(bestBaseline.p99Ms)} | ${b.runs.at(-1)!.rssAfterMiB} MiB | |`,
  );
  for (const r of report.scenarios) {
    const path = r.path.length > 60 ? `${r.path.slice(0, 57)}…` : r.path;
    const ref = strapi[r.key === 'list_populate_all' ? 'list_populate_all' : r.key];
    lines.push(
      `| ${r.label} | ${r.method} ${path.replace(/\|/g, '\\|')} | ${fmtInt(r.rps)} | ${r.ratio!.toFixed(2)} | ${fmtMs(r.p50Ms)} | ${fmtMs(r.p99Ms)} | ${r.rssBeforeMiB} → ${r.rssAfterMiB} MiB | ${ref ? fmtInt(ref) : ''} |`,
    );
  }
  if (report.baseline.noisy) lines.push('', `**Noisy run**: the two baseline runs differ by ${Math.round(report.baseline.spread * 100)}%; the machine was busy.`);
  lines.push('');
  const c = report.coldStart;
  lines.push(
    `Cold start (process start → first 2xx on /_health, median of ${c.runs}): **${fmtMs(c.healthMedianMs)}**; to the first 200 on GET /api/articles: ${fmtMs(c.listMedianMs)}. Strapi 5: 2.7–5.0 s, 260–590 MiB.`,
  );
  if (report.scale) {
    const s = report.scale;
    lines.push('');
    lines.push(
      `Scale: ${fmtInt(s.articles)} articles (same shape) imported with \`folio import\` in ${s.import.seconds} s (**${fmtInt(s.import.perSecond)} articles/s**, database ${fmtInt(s.import.dbSizeMiB)} MiB). Latency of one request at a time (wrk -c1):`,
    );
    lines.push('');
    lines.push('| scale scenario | request | req/s | p50 | p99 | server RSS before → after |');
    lines.push('|---|---|---:|---:|---:|---:|');
    for (const r of s.scenarios) {
      const path = r.path.length > 70 ? `${r.path.slice(0, 67)}…` : r.path;
      lines.push(`| ${r.label} | GET ${path.replace(/\|/g, '\\|')} | ${fmtInt(r.rps)} | ${fmtMs(r.p50Ms)} | ${fmtMs(r.p99Ms)} | ${r.rssBeforeMiB} → ${r.rssAfterMiB} MiB |`);
    }
    const p = s.paging;
    lines.push('');
    lines.push(
      `Paging through the set (pageSize ${p.pageSize}, ${p.pagesFetched} of ${fmtInt(p.pageCount)} pages${p.every > 1 ? `, every ${p.every}th` : ''}): p50 ${fmtMs(p.p50Ms)}, slowest ${fmtMs(p.maxMs)}; server RSS first ${p.rssFirstMiB} MiB, last ${p.rssLastMiB} MiB, peak ${p.rssPeakMiB} MiB (along the walk: ${p.rssSamplesMiB.map((x) => x.rssMiB).join(', ')}).`,
    );
  }
  lines.push('');
  lines.push('| target | bar | measured | |');
  lines.push('|---|---|---|---|');
  for (const t of report.targets) {
    lines.push(`| ${t.name} | ${t.target} | ${t.value}${t.note ? ` (${t.note})` : ''} | ${t.pass === null ? 'n/a' : t.pass ? 'PASS' : '**MISS**'} |`);
  }
  return lines.join('\n');
}

const BEGIN = '<!-- bench:begin (written by npm run bench -- --readme) -->';
const END = '<!-- bench:end -->';

function writeReadme(table: string) {
  const file = join(ROOT, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const block = `${BEGIN}\n${table}\n${END}`;
  const at = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  const next = at >= 0 && end > at ? readme.slice(0, at) + block + readme.slice(end + END.length) : `${readme.trimEnd()}\n\n## Benchmarks\n\n${block}\n`;
  writeFileSync(file, next);
}

try {
  await main();
} catch (error) {
  console.error(`[bench] failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  killAll();
  if (workDir && !flags.keep) rmSync(workDir, { recursive: true, force: true });
  else if (workDir) log(`kept ${workDir}`);
}
