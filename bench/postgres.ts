/**
 * The benchmark's scenarios on PostgreSQL, with one and with two Folio instances on one
 * database, printed beside the SQLite figures of the last `npm run bench` run.
 *
 *   npm run bench -- --database postgres://user:pass@127.0.0.1:5432/postgres
 *   bun bench/postgres.ts --database URL [--seconds 5] [--connections 64] [--no-build]
 *
 * The URL names a server and a database to connect to for administration; each run
 * creates (and drops) a database of its own. Loopback only, bounded in time.
 */
import { SQL, spawnSync, type Subprocess } from 'bun';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
// Folio is started the way the tests start it (test/helpers/spawn.ts needs only Node built-ins).
import { BINARY as FOLIO, runCli, serve as serveFolio } from '../test/helpers/spawn';
import { writeArticles, writeTargets, type Refs } from './data';

const ROOT = resolve(import.meta.dir, '..');
const { values: flags } = parseArgs({
  options: {
    database: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    articles: { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
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
const OUT = resolve(flags.out ?? join(ROOT, 'bench', 'results', 'postgres.json'));
const log = (m: string) => console.error(`[bench:pg] ${m}`);
const children = new Set<Subprocess>();
process.on('exit', () => children.forEach((c) => c.kill()));

if (!flags['no-build'] || !existsSync(FOLIO)) {
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

function folio(args: string[], dataDir: string, url: string) {
  const r = runCli(args, { exe: FOLIO, data: dataDir, database: url });
  if (r.code !== 0) throw new Error(`folio ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

/** `folio serve` on port 0 without the auth rate limit; `base` is its URL. */
async function serve(dataDir: string, url: string): Promise<{ proc: Subprocess; base: string }> {
  const { proc, url: base } = await serveFolio({ exe: FOLIO, data: dataDir, database: url, env: { FOLIO_AUTH_RATE_LIMIT: '0' }, startTimeoutMs: 20_000 });
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
      const proc = Bun.spawn([...args, base + path], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...(requestsFile ? { BENCH_REQUESTS: requestsFile } : {}) } });
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

async function runWith(instances: number, work: string) {
  const name = `folio_bench_${Date.now().toString(36)}`;
  const admin = new SQL(ADMIN!);
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN!);
  url.pathname = `/${name}`;
  const db = url.toString();
  const servers: { proc: Subprocess; base: string }[] = [];
  try {
    const dataDirs = Array.from({ length: instances }, () => mkdtempSync(join(work, 'data-')));
    folio(['migrate'], dataDirs[0]!, db);
    folio(['permissions', 'grant', 'public', 'api::article.article.*', 'api::category.category.find', 'api::author.author.find', 'api::tag.tag.find'], dataDirs[0]!, db);
    const files = await writeTargets(work);
    for (const [type, file] of Object.entries(files)) folio(['import', file, '--type', type], dataDirs[0]!, db);
    const client = new SQL(db);
    const ids = async (table: string) => (await client.unsafe(`SELECT DISTINCT "documentId", MIN(id) AS m FROM "${table}" GROUP BY "documentId" ORDER BY m`)).map((r: { documentId: string }) => r.documentId);
    const refs: Refs = { categories: await ids('categories'), authors: await ids('authors'), tags: await ids('tags') };
    const articlesFile = join(work, 'articles.jsonl');
    await writeArticles(articlesFile, ARTICLES, refs);
    folio(['import', articlesFile, '--type', 'articles'], dataDirs[0]!, db);
    const article = (await ids('articles'))[0]!;
    await client.close();
    for (const dir of dataDirs) servers.push(await serve(dir, db));
    const bases = servers.map((s) => s.base);
    const writes = join(work, `writes-${instances}.tsv`);
    writeFileSync(writes, `POST\t/api/articles\t${JSON.stringify({ data: { title: 'Bench post', views: 1, category: refs.categories[0] } })}\n`);
    const results: Record<string, Result> = {};
    for (const [key, path, file] of [
      ['list', '/api/articles', undefined],
      ['list_populate_all', '/api/articles?populate=*', undefined],
      ['find_one', `/api/articles/${article}`, undefined],
      ['create', '/', writes],
    ] as const) {
      await load(bases, path, file); // warm-up
      results[key] = await load(bases, path, file);
      log(`${instances} instance(s) ${key}: ${Math.round(results[key]!.rps)} req/s`);
    }
    return results;
  } finally {
    for (const s of servers) {
      s.proc.kill();
      await s.proc.exited;
    }
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'folio-bench-pg-'));
try {
  const one = await runWith(1, work);
  const two = await runWith(2, work);
  const latest = join(ROOT, 'bench', 'results', 'latest.json');
  const sqlite: Record<string, number> = {};
  if (existsSync(latest)) {
    for (const s of JSON.parse(readFileSync(latest, 'utf8')).scenarios ?? []) sqlite[s.key] = s.rps;
  }
  const labels: Record<string, string> = { list: 'list (page of 25)', list_populate_all: 'populate=*', find_one: 'get one', create: 'create (POST)' };
  const rows = Object.keys(one).map(
    (k) => `| ${labels[k]} | ${sqlite[k] ? Math.round(sqlite[k]).toLocaleString('en-US') : '–'} | ${Math.round(one[k]!.rps).toLocaleString('en-US')} (p99 ${one[k]!.p99Ms.toFixed(1)} ms) | ${Math.round(two[k]!.rps).toLocaleString('en-US')} (p99 ${two[k]!.p99Ms.toFixed(1)} ms) |`,
  );
  const table = ['| scenario | SQLite, 1 instance (req/s) | PostgreSQL, 1 instance | PostgreSQL, 2 instances |', '|---|---:|---:|---:|', ...rows].join('\n');
  console.log(table);
  writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), articles: ARTICLES, seconds: SECONDS, connections: CONNECTIONS, one, two, sqlite }, null, 2) + '\n');
  log(`wrote ${OUT}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
