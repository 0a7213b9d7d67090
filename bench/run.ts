/**
 * Folio's benchmark harness (issues 7 and 21). One command:
 *
 *   npm run bench                      full run: 5 s per scenario, then the scale run (1,000,000 articles)
 *   npm run bench -- --short           CI-sized: 1 s per scenario, no scale run, no peer
 *   npm run bench -- --scale 200000    full run with a smaller scale set (--scale 0 skips it)
 *   npm run bench -- --realtime 2000   full run with 2,000 realtime subscribers instead of 10,000 (0 skips it)
 *   npm run bench -- --peer strapi     also the Strapi 5 peer (shared/peers/strapi), same scenarios and load
 *   npm run bench -- --database postgres://user:pass@127.0.0.1:5432/postgres
 *                                      the same scenarios on PostgreSQL, one and two instances (bench/postgres.ts)
 *
 * Other flags: --seconds N, --connections N (64), --rounds N (reads: best of N rounds; 2, short 1),
 * --load wrk|builtin, --out FILE, --peer-dir DIR (a copy of shared/peers/strapi; or
 * FOLIO_BENCH_STRAPI_DIR), --no-build (reuse dist/folio), --readme (write the table into
 * docs/benchmarks.md), --keep (keep the temp data dir).
 *
 * What it does: builds dist/folio; seeds a fresh temp data dir through `folio import`
 * (5 categories, 5 authors, 10 tags, 100 articles each with a category, an author, 3 tags,
 * a seo component and a dynamic zone); counts the SQL statements one request of each scenario
 * runs (bench/statements.ts, in-process, on a copy); measures cold start (process start to the
 * first 2xx on /_health, median of 10); starts Folio, bench/baseline.ts (Bun.serve + one
 * prepared bun:sqlite statement over the same file) and bench/write-baseline.ts (the same
 * create, both versions and links, in one transaction, on a copy) pinned to CPU0 with the
 * load generator on CPU1, checks Folio and the read baseline return the same first page, and
 * loads every scenario with wrk (bounded in time, loopback only). Reads are given as a ratio
 * to the read baseline, writes to the write baseline, since absolute numbers on a shared
 * 2-core machine are noise; with --peer, also as a ratio to Strapi. The issue's targets are
 * marked PASS/MISS (bench/targets.ts). Results: a table on stdout and
 * bench/results/latest.json (short runs: bench/results/short.json).
 *
 * Files: options.ts (flags), processes.ts (spawning, pinning, RSS, cold start), generator.ts
 * (wrk or load.ts), scenarios.ts (seed, scenarios, one timed run), statements.ts, scale.ts,
 * peer-strapi.ts, targets.ts, report.ts (table, docs/benchmarks.md).
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUN, cleanEnv, spawnServer, type SpawnedServer } from '../test/helpers/spawn';
import { AUTHORS, CATEGORIES, TAGS } from './data';
import { fmtInt, fmtMs, machine, round } from './format';
import { chooseLoadGenerator, generator, load } from './generator';
import type { LoadRequest } from './load';
import { log, parseOptions, ROOT } from './options';
import { buildBinary, coldStarts, installSignalHandlers, killAll, PINNED, removeWorkDir, rssMiB, serverPin, startFolio, stopServer, work } from './processes';
import { renderTable, writeReadme, type BaselineReport, type BaselineRun, type PeerReport, type Report } from './report';
import {
  isWrite,
  measure,
  readArticleIds,
  sameFirstPage,
  scenarioList,
  seed,
  UNCACHED_READS,
  builtFrom,
  uncached,
  type Scenario,
  type ScenarioResult,
} from './scenarios';
import { runStrapiPeer } from './peer-strapi';
import { realtimeRun } from './realtime';
import { scaleRun } from './scale';
import type { StatementCount } from './statements';
import { evaluate } from './targets';

// `--database postgres://…` runs the PostgreSQL comparison instead (bench/postgres.ts).
if (process.argv.some((a) => a === '--database' || a.startsWith('--database='))) {
  await import('./postgres');
  process.exit(process.exitCode ?? 0);
}

const opts = parseOptions(process.argv.slice(2), import.meta.path);
work.keep = opts.keep;
installSignalHandlers();

const ARTICLES = 100;

async function main() {
  const started = Date.now();
  chooseLoadGenerator(opts.load);
  work.dir = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  log(
    `mode ${opts.short ? 'short' : 'full'}: ${opts.seconds} s per scenario (after ${opts.warmup} s warm-up), ${opts.connections} connections, load generator ${generator.version}` +
      `${PINNED ? ', server on CPU0, load on CPU1' : ', not pinned (taskset or a second CPU missing)'}; work dir ${work.dir}`,
  );
  const settings = { seconds: opts.seconds, warmup: opts.warmup, connections: opts.connections };

  // 1. Build; a fresh data dir with the grants and the seed through `folio import`.
  buildBinary(opts.build);
  const dataDir = join(work.dir, 'data');
  const seedStarted = performance.now();
  const refs = await seed(dataDir, ARTICLES);
  const seedMs = performance.now() - seedStarted;
  log(`seeded ${CATEGORIES} categories, ${AUTHORS} authors, ${TAGS} tags and ${ARTICLES} articles through folio import in ${Math.round(seedMs)} ms`);
  const dbFile = join(dataDir, 'folio.db');
  const scenarios = scenarioList(refs, readArticleIds(dbFile));

  // 2. Statements per request, in-process on a copy (the writes it sends stay there).
  const statements = countStatements(dataDir, scenarios);
  log(
    `statements per request: ${Object.entries(statements)
      .map(([k, s]) => `${k} ${s.count}`)
      .join(', ')}`,
  );

  // 3. Cold start: process start to the first 2xx on /_health (and the first 200 on the list).
  const cold = await coldStarts(dataDir, opts.coldStarts);
  log(`cold start: median ${fmtMs(cold.healthMedianMs)} to /_health, ${fmtMs(cold.listMedianMs)} to the first article list`);

  // 4. Folio and both baselines on CPU0 (the write baseline on a copy of the file: it adds articles).
  const server = await startFolio(dataDir);
  const baseline = await startBaseline('baseline.ts', dbFile, /baseline listening on (http:\/\/\S+)/);
  const writeDb = join(work.dir, 'write-baseline.db');
  copyFileSync(dbFile, writeDb);
  const writeBaseline = await startBaseline('write-baseline.ts', writeDb, /write baseline listening on (http:\/\/\S+)/);
  const pid = server.proc.pid;
  await sameFirstPage(server.url, baseline.url);

  const rssAtStart = rssMiB(pid);
  const listRequest: LoadRequest[] = [{ method: 'GET', path: '/api/articles' }];
  const createRequests = scenarios.find((s) => s.key === 'create')!.requests;
  const readRuns: BaselineRun[] = [];
  const writeRuns: BaselineRun[] = [];
  const runBaseline = async (target: SpawnedServer, requests: LoadRequest[], runs: BaselineRun[], what: string) => {
    await load(target.url, requests, opts.warmup, opts.connections);
    const r = { ...(await load(target.url, requests, opts.seconds, opts.connections)), rssAfterMiB: rssMiB(target.proc.pid) };
    if (r.non2xx || r.errors) throw new Error(`${what}: ${r.non2xx} non-2xx answers, ${r.errors} socket errors`);
    runs.push(r);
    log(
      `${what} ${requests[0]!.method} ${requests[0]!.path}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50Ms)}, p99 ${fmtMs(r.p99Ms)}, its RSS ${r.rssAfterMiB} MiB`,
    );
  };
  // Reads run ROUNDS times, each round after a baseline run, and the best round counts
  // (a burst of other work on a shared machine rarely spans two rounds); writes run once,
  // last, between two write-baseline runs, since they change the data the reads see.
  const reads = scenarios.filter((s) => !isWrite(s));
  const writes = scenarios.filter(isWrite);
  const rounds: ScenarioResult[][] = [];
  for (let i = 0; i < opts.rounds; i++) {
    if (opts.rounds > 1) log(`round ${i + 1} of ${opts.rounds}`);
    await runBaseline(baseline, listRequest, readRuns, 'read baseline');
    const got: ScenarioResult[] = [];
    for (const scenario of reads) got.push(await measure(server.url, pid, scenario, settings));
    rounds.push(got);
  }
  // The same reads on a second server with the answer cache off (each answer built), before
  // the writes change the data.
  const uncachedReads = reads.filter((s) => UNCACHED_READS.includes(s.key)).map(uncached);
  const plain = await startFolio(dataDir, { FOLIO_ANSWER_CACHE_MB: '0' });
  for (let i = 0; i < opts.rounds; i++) {
    for (const scenario of uncachedReads) rounds[i]!.push(await measure(plain.url, plain.proc.pid, scenario, settings));
  }
  await stopServer(plain, 'folio serve (answer cache off)');
  const results: ScenarioResult[] = [...reads, ...uncachedReads].map((_, i) => {
    const all = rounds.map((got) => got[i]!);
    return { ...all.reduce((a, b) => (b.rps > a.rps ? b : a)), roundsRps: all.map((r) => r.rps) };
  });
  await runBaseline(baseline, listRequest, readRuns, 'read baseline');
  await runBaseline(writeBaseline, createRequests, writeRuns, 'write baseline');
  for (const scenario of writes) results.push(await measure(server.url, pid, scenario, settings));
  await runBaseline(writeBaseline, createRequests, writeRuns, 'write baseline');
  const rssPeakAll = Math.max(...rounds.flat().map((r) => r.rssPeakMiB), ...results.map((r) => r.rssPeakMiB));
  const readBaseline = summarize('bench/baseline.ts', listRequest, readRuns);
  const writeSummary = summarize('bench/write-baseline.ts', createRequests, writeRuns);
  for (const r of results) {
    const write = writes.some((s) => s.key === r.key);
    r.baseline = write ? 'write' : 'read';
    r.ratio = round(r.rps / (write ? writeSummary : readBaseline).rps, 3);
    // Statements are counted with the cache off (what building the answer runs).
    r.statements = statements[builtFrom(r.key)]?.count;
  }
  await stopServer(server, 'folio serve');
  await stopServer(baseline, 'baseline');
  await stopServer(writeBaseline, 'write baseline');

  // 5. The Strapi peer, same scenarios and load, when asked for.
  const peer: PeerReport = opts.peer
    ? await runStrapiPeer(opts.peerDir, ARTICLES, settings, results)
    : { name: 'strapi', version: null, ran: false, why: 'no --peer strapi' };
  // An uncached row is compared with Strapi's run of the same request.
  for (const r of results) {
    const same = builtFrom(r.key) !== r.key ? results.find((o) => o.key === builtFrom(r.key))?.peer : undefined;
    if (same) Object.assign(r, { peer: same, peerRatio: same.rps > 0 ? round(r.rps / same.rps, 2) : undefined });
  }

  // 6. Realtime: idle subscribers opened from the load CPU, an event to all of them, the list meanwhile.
  const realtime = opts.realtime > 0 ? await realtimeRun(dataDir, opts.realtime, settings) : null;

  // 7. Scale.
  const scale = opts.scale > 0 ? await scaleRun(opts.scale, settings) : null;

  // 8. Report.
  const targets = evaluate({ results, cold, scale, realtime, rssPeakMiB: rssPeakAll, peer: { ran: peer.ran, why: peer.why }, short: opts.short });
  const report: Report & { statements: Record<string, StatementCount> } = {
    date: new Date().toISOString(),
    mode: opts.short ? 'short' : 'full',
    machine: machine(),
    loadGenerator: generator.version,
    settings: { seconds: opts.seconds, warmupSeconds: opts.warmup, connections: opts.connections, threads: 1, pinned: PINNED, rounds: opts.rounds },
    seed: { categories: CATEGORIES, authors: AUTHORS, tags: TAGS, articles: ARTICLES, importMs: Math.round(seedMs) },
    baseline: readBaseline,
    writeBaseline: writeSummary,
    scenarios: results,
    rss: { atStartMiB: rssAtStart, peakMiB: rssPeakAll },
    coldStart: cold,
    realtime,
    scale,
    peer,
    targets,
    statements,
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  mkdirSync(dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, JSON.stringify(report, null, 2) + '\n');
  const table = renderTable(report);
  console.log(table);
  log(`results written to ${opts.out} (${report.durationSeconds} s)`);
  if (opts.readme) {
    writeReadme(table);
    log('docs/benchmarks.md table updated');
  }
}

/** A baseline program from bench/ on a database file, pinned like Folio. */
const startBaseline = (program: string, file: string, listening: RegExp) =>
  spawnServer([...serverPin, BUN, join(ROOT, 'bench', program), file, '0'], { env: cleanEnv(), listening, startTimeoutMs: 20_000, what: program });

/** The best run counts; runs more than 25 % apart mean the machine was busy. */
function summarize(program: string, requests: LoadRequest[], runs: BaselineRun[]): BaselineReport {
  const best = Math.max(...runs.map((r) => r.rps));
  const spread = best / Math.min(...runs.map((r) => r.rps)) - 1;
  const noisy = spread > 0.25;
  if (noisy) log(`warning: the ${program} runs differ by ${Math.round(spread * 100)}%: the machine was busy, ratios are unreliable; run again`);
  return { program, method: requests[0]!.method, path: requests[0]!.path, rps: round(best), runs, spread: round(spread, 2), noisy };
}

/** bench/statements.ts in its own process (it loads Folio from source) over a copy of the data dir. */
function countStatements(dataDir: string, scenarios: Scenario[]): Record<string, StatementCount> {
  const copy = join(work.dir!, 'statements-data');
  cpSync(dataDir, copy, { recursive: true });
  const file = join(work.dir!, 'statements-scenarios.json');
  writeFileSync(file, JSON.stringify(scenarios));
  const result = Bun.spawnSync([BUN, join(ROOT, 'bench', 'statements.ts'), copy, file], { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  if (result.exitCode !== 0) throw new Error(`bench/statements.ts failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.toString()) as Record<string, StatementCount>;
}

try {
  await main();
} catch (error) {
  console.error(`[bench] failed: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  killAll();
  removeWorkDir();
}
