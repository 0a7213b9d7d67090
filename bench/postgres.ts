/**
 * The benchmark's scenarios on PostgreSQL, with one and with two Folio instances on one
 * database, beside the same scenarios on SQLite (one instance) measured in the same run, on
 * the same machine, with the same load: the create target of issue #21 is a ratio of these.
 *
 *   npm run bench -- --database postgres://user:pass@127.0.0.1:5432/postgres
 *   bun bench/postgres.ts --database URL [--seconds 5] [--connections 64] [--rounds 1] [--no-build] [--no-sqlite] [--source] [--only …]
 *
 * `--source` runs Folio as `bun src/cli.ts` instead of the compiled dist/folio (no build: the
 * working tree as it is); `--no-sqlite` skips the SQLite run; `--only create,list` runs those
 * scenarios only (list, list_populate_all, find_one, create); `--rounds 3` keeps the best of
 * three timed runs per scenario (non-2xx answers, rollbacks and deadlocks of all of them).
 *
 * The URL names a server and a database to connect to for administration; each run
 * creates (and drops) a database of its own. Loopback only, bounded in time.
 *
 * Creates send what front ends send (bench/scenarios.ts createBody: a category, an author
 * and 3 tags, ten bodies in rotation, so 64 writers append to the same few inverse lists).
 * During them the harness reads PostgreSQL's own counters for the run's database: rolled
 * back transactions (a retried conflict rolls back; a create that waits on a lock does not)
 * and deadlocks, and samples what the busy backends wait on (pg_stat_activity).
 */
import { SQL, spawnSync, type Subprocess } from 'bun';
import { Database as SqliteFile } from 'bun:sqlite';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
// Folio is started the way the tests start it (test/helpers/spawn.ts needs only Node built-ins).
import { BINARY as FOLIO, runCli, serve as serveFolio } from '../test/helpers/spawn';
import { readRefs, writeArticles, writeTargets, type Refs } from './data';
import { createBody } from './scenarios';

const ROOT = resolve(import.meta.dir, '..');
const { values: flags } = parseArgs({
  options: {
    database: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    articles: { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
    'no-sqlite': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
  strict: true,
});
const ADMIN = flags.database;
if (!ADMIN || !/^postgres(ql)?:\/\//.test(ADMIN)) {
  console.error('usage: bun bench/postgres.ts --database postgres://user:pass@host:port/db');
  process.exit(2);
}
const SECONDS = Number(flags.seconds);
const CONNECTIONS = Number(flags.connections);
const ARTICLES = Number(flags.articles);
const ROUNDS = Math.max(1, Number(flags.rounds));
const ONLY = flags.only ? new Set(flags.only.split(',')) : undefined;
const OUT = resolve(flags.out ?? join(ROOT, 'bench', 'results', 'postgres.json'));
const log = (m: string) => console.error(`[bench:pg] ${m}`);
const children = new Set<Subprocess>();
process.on('exit', () => children.forEach((c) => c.kill()));

const EXE = flags.source ? undefined : FOLIO;
if (!flags.source && (!flags['no-build'] || !existsSync(FOLIO))) {
  log('building dist/folio');
  if (spawnSync(['npm', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' }).exitCode !== 0) process.exit(1);
}
if (spawnSync(['sh', '-c', 'command -v wrk']).exitCode !== 0) {
  spawnSync(['sh', '-c', 'apt-get install -y -qq wrk >/dev/null 2>&1']);
  if (spawnSync(['sh', '-c', 'command -v wrk']).exitCode !== 0) {
    console.error('wrk is needed (apt-get install wrk)');
    process.exit(1);
  }
}

function folio(args: string[], dataDir: string, url: string | undefined) {
  const r = runCli(args, { exe: EXE, data: dataDir, database: url });
  if (r.code !== 0) throw new Error(`folio ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

/** `folio serve` on port 0 without the auth rate limit; `base` is its URL. */
async function serve(dataDir: string, url: string | undefined): Promise<{ proc: Subprocess; base: string }> {
  const { proc, url: base } = await serveFolio({ exe: EXE, data: dataDir, database: url, env: { FOLIO_AUTH_RATE_LIMIT: '0' }, startTimeoutMs: 20_000 });
  children.add(proc);
  return { proc, base };
}

interface Result {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

const ms = (v: string | undefined) => {
  const m = v?.match(/^([\d.]+)(us|ms|s)$/);
  return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'] : NaN;
};

/** wrk against every instance at once (connections split between them); req/s add up. */
async function load(bases: string[], path: string, requestsFile?: string): Promise<Result> {
  const per = Math.max(1, Math.floor(CONNECTIONS / bases.length));
  const runs = await Promise.all(
    bases.map(async (base) => {
      const args = ['wrk', '-t1', `-c${per}`, `-d${SECONDS}s`, '--timeout', '10s', '--latency'];
      if (requestsFile) args.push('-s', join(ROOT, 'bench', 'requests.lua'));
      const proc = Bun.spawn([...args, base + path], {
        stdout: 'pipe',
        stderr: 'pipe',
        env: { ...process.env, ...(requestsFile ? { BENCH_REQUESTS: requestsFile } : {}) },
      });
      children.add(proc);
      const text = await new Response(proc.stdout as ReadableStream).text();
      await proc.exited;
      return {
        rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN),
        p50Ms: ms(text.match(/^\s+50%\s+(\S+)/m)?.[1]),
        p99Ms: ms(text.match(/^\s+99%\s+(\S+)/m)?.[1]),
        non2xx: Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
      };
    }),
  );
  return {
    rps: runs.reduce((s, r) => s + r.rps, 0),
    p50Ms: Math.max(...runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((s, r) => s + r.non2xx, 0),
  };
}

/** What PostgreSQL itself counted for one database: transactions rolled back, deadlocks. */
async function pgCounters(admin: SQL, name: string) {
  const [row] = await admin.unsafe(`SELECT xact_rollback::int AS rollbacks, deadlocks::int AS deadlocks FROM pg_stat_database WHERE datname = '${name}'`);
  return { rollbacks: Number(row?.rollbacks ?? 0), deadlocks: Number(row?.deadlocks ?? 0) };
}

/**
 * Samples, every 200 ms until `done`, what the run database's backends are doing, summed over
 * the samples: waiting on something (`Lock:advisory`, `IO:WALSync`…), running (`CPU:running`),
 * or holding a transaction open while Folio prepares the next statement (`idle in transaction`);
 * a lock wait names the statement waiting (its first 40 characters).
 */
async function sampleWaits(admin: SQL, name: string, done: Promise<unknown>) {
  const waits: Record<string, number> = {};
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const rows = await admin.unsafe(
      `SELECT CASE WHEN state <> 'active' THEN state WHEN wait_event_type = 'Lock' THEN wait_event_type || ':' || wait_event || ' in ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 40)
        ELSE coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, 'running') END AS w, count(*)::int AS n FROM pg_stat_activity WHERE datname = '${name}' AND state <> 'idle' AND pid <> pg_backend_pid() GROUP BY 1`,
    );
    for (const r of rows as { w: string; n: number }[]) waits[r.w] = (waits[r.w] ?? 0) + Number(r.n);
    await Bun.sleep(200);
  }
  return waits;
}

type Engine = 'sqlite' | 'postgres';

/** One seeded installation (`instances` servers on one database) under each scenario's load. */
async function runWith(engine: Engine, instances: number, work: string) {
  const name = `folio_bench_${Date.now().toString(36)}`;
  const admin = new SQL(ADMIN!);
  const url = new URL(ADMIN!);
  url.pathname = `/${name}`;
  // SQLite: no --database, the file in the first data dir (one instance only).
  const db = engine === 'postgres' ? url.toString() : undefined;
  if (db) await admin.unsafe(`CREATE DATABASE ${name}`);
  const servers: { proc: Subprocess; base: string }[] = [];
  try {
    const dataDirs = Array.from({ length: instances }, () => mkdtempSync(join(work, 'data-')));
    const cli = (args: string[]) => folio(args, dataDirs[0]!, db);
    cli(['migrate']);
    cli(['permissions', 'grant', 'public', 'api::article.article.*', 'api::category.category.find', 'api::author.author.find', 'api::tag.tag.find']);
    const files = await writeTargets(work);
    for (const [type, file] of Object.entries(files)) cli(['import', file, '--type', type]);
    let refs: Refs;
    if (db) {
      const client = new SQL(db);
      const ids = async (table: string) =>
        (await client.unsafe(`SELECT "documentId", MIN(id) AS m FROM "${table}" GROUP BY "documentId" ORDER BY m`)).map(
          (r: { documentId: string }) => r.documentId,
        );
      refs = { categories: await ids('categories'), authors: await ids('authors'), tags: await ids('tags') };
      await client.close();
    } else refs = readRefs(join(dataDirs[0]!, 'folio.db'));
    const articlesFile = join(work, 'articles.jsonl');
    await writeArticles(articlesFile, ARTICLES, refs);
    cli(['import', articlesFile, '--type', 'articles']);
    const article = await firstArticle(db, dataDirs[0]!);
    for (const dir of dataDirs) servers.push(await serve(dir, db));
    const bases = servers.map((s) => s.base);
    const writes = join(work, `writes-${engine}-${instances}.tsv`);
    writeFileSync(writes, Array.from({ length: 10 }, (_, i) => `POST\t/api/articles\t${createBody(i, refs)}\n`).join(''));
    const results: Record<string, Result & { rollbacks?: number; deadlocks?: number; waits?: Record<string, number> }> = {};
    for (const [key, path, file] of [
      ['list', '/api/articles', undefined],
      ['list_populate_all', '/api/articles?populate=*', undefined],
      ['find_one', `/api/articles/${article}`, undefined],
      ['create', '/', writes],
    ] as const) {
      if (ONLY && !ONLY.has(key)) continue;
      await load(bases, path, file); // warm-up
      const before = db ? await pgCounters(admin, name) : undefined;
      // Best of ROUNDS (the machine is shared: the best round is the least disturbed one); PostgreSQL's counters cover them all.
      const run = (async () => {
        let best: Result | undefined;
        for (let round = 0; round < ROUNDS; round++) {
          const r = await load(bases, path, file);
          if (!best || r.rps > best.rps) best = { ...r, non2xx: r.non2xx + (best?.non2xx ?? 0) };
          else best.non2xx += r.non2xx;
        }
        return best!;
      })();
      const waits = db && file ? sampleWaits(admin, name, run) : undefined;
      results[key] = await run;
      if (db) {
        // pg_stat_database is updated when a backend reports, at most every 500 ms (PGSTAT_MIN_INTERVAL) and at idle.
        await Bun.sleep(1100);
        const after = await pgCounters(admin, name);
        results[key] = {
          ...results[key]!,
          rollbacks: after.rollbacks - before!.rollbacks,
          deadlocks: after.deadlocks - before!.deadlocks,
          ...(waits ? { waits: await waits } : {}),
        };
      }
      const r = results[key]!;
      log(
        `${engine}, ${instances} instance(s) ${key}: ${Math.round(r.rps)} req/s, non-2xx ${r.non2xx}${db ? `, rollbacks ${r.rollbacks}, deadlocks ${r.deadlocks}` : ''}${r.waits ? `, waits ${JSON.stringify(r.waits)}` : ''}`,
      );
    }
    return results;
  } finally {
    for (const s of servers) {
      s.proc.kill();
      await s.proc.exited;
    }
    if (db) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.close();
  }
}

/** The documentId of the first article (get one reads it). */
async function firstArticle(db: string | undefined, dataDir: string): Promise<string> {
  if (!db) {
    const file = new SqliteFile(join(dataDir, 'folio.db'), { readonly: true });
    try {
      return (file.query('SELECT documentId FROM articles ORDER BY id LIMIT 1').get() as { documentId: string }).documentId;
    } finally {
      file.close();
    }
  }
  const client = new SQL(db);
  try {
    const [row] = await client.unsafe('SELECT "documentId" FROM articles ORDER BY id LIMIT 1');
    return (row as { documentId: string }).documentId;
  } finally {
    await client.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'folio-bench-pg-'));
try {
  const sqlite = flags['no-sqlite'] ? undefined : await runWith('sqlite', 1, work);
  const one = await runWith('postgres', 1, work);
  const two = await runWith('postgres', 2, work);
  const labels: Record<string, string> = {
    list: 'list (page of 25)',
    list_populate_all: 'populate=*',
    find_one: 'get one',
    create: 'create with relations (POST)',
  };
  const fmt = (r: Result | undefined) => (r ? `${Math.round(r.rps).toLocaleString('en-US')} (p99 ${r.p99Ms.toFixed(1)} ms)` : '–');
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : '–');
  const rows = Object.keys(one).map(
    (k) =>
      `| ${labels[k]} | ${fmt(sqlite?.[k])} | ${fmt(one[k])} | ${fmt(two[k])} | ${ratio(one[k]!.rps, sqlite?.[k]?.rps)} | ${ratio(two[k]!.rps, one[k]!.rps)} |`,
  );
  const table = [
    '| scenario | SQLite, 1 instance (req/s) | PostgreSQL, 1 instance | PostgreSQL, 2 instances | PG 1 / SQLite | PG 2 / PG 1 |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(table);
  const errors = (r: typeof one) => Object.values(r).reduce((n, x) => n + x.non2xx, 0);
  if (one.create && two.create) {
    console.log(
      `creates: rollbacks ${one.create.rollbacks} (1 instance), ${two.create.rollbacks} (2 instances); deadlocks ${one.create.deadlocks}, ${two.create.deadlocks}`,
    );
  }
  console.log(`non-2xx answers in all scenarios: ${errors(one)} (1 instance), ${errors(two)} (2 instances)`);
  writeFileSync(
    OUT,
    JSON.stringify(
      { date: new Date().toISOString(), articles: ARTICLES, seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, sqlite, one, two },
      null,
      2,
    ) + '\n',
  );
  log(`wrote ${OUT}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
