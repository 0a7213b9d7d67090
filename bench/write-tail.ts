/**
 * Where a create's latency goes under 64 connections (issue #43 item 5: write p99 ≤ 1.5× p50).
 *
 *   taskset -c 0 bun bench/write-tail.ts [SECONDS] [CONNECTIONS]
 *
 * Seeds a temp data dir as the bench does (the CLI from source: targets, 100 articles, the
 * public role's grants), serves it in this process, and loads the bench's create (POST
 * /api/articles with a category, an author and 3 tags) with wrk on CPU1. Nothing here ships:
 * the phases are timed by wrapping the server's fetch handler and GroupCommit's methods from
 * outside, per request, through an AsyncLocalStorage:
 *
 *   arrival   the fetch handler is called (the request's head has been read)
 *   queued    GroupCommit.run called (body read, checked, planned; asks for the write lock)
 *   locked    the write's function starts (lock acquired, SAVEPOINT taken)
 *   written   its function has returned (before RELEASE)
 *   committed the COMMIT of its group has run
 *   answered  the fetch handler's Response is ready (the answer built)
 *
 * Prints wrk's figures, then the phases' percentiles, the group sizes, how many requests
 * passed each one between their arrival and their lock (overtaking), and the p99 requests'
 * phases beside the median ones.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../test/helpers/spawn';
import { resolveConfig } from '../src/config';
import { createApp } from '../src/app';
import { openInstance } from '../src/instance';
import { readProject } from '../src/project/config';
import { GroupCommit } from '../src/db/group-commit';
import { readRefs, writeArticles, writeTargets } from './data';
import { createBody } from './scenarios';
import { parseWrk } from './generator';
import { ROOT } from './options';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 64);

interface Trace {
  seq: number;
  /** The client's port: one per keep-alive connection. */
  port: number;
  /** When this connection's previous answer was ready (wrk sends the next request on receiving it). */
  previous?: number;
  arrival: number;
  queued?: number;
  locked?: number;
  written?: number;
  committed?: number;
  answered?: number;
  /** Requests that took the lock before this one, counted when it takes it. */
  lockOrder?: number;
  group?: number;
}

const dir = mkdtempSync(join(tmpdir(), 'folio-write-tail-'));
const dataDir = join(dir, 'data');
const cli = (args: string[]) => {
  const r = runCli(args, { data: dataDir });
  if (r.code !== 0) throw new Error(`folio ${args.join(' ')}: ${r.stdout}${r.stderr}`);
};
const grants = ['article', 'category', 'author', 'tag'].flatMap((name) =>
  ['find', 'findOne', ...(name === 'article' ? ['create', 'update'] : [])].map((a) => `api::${name}.${name}.${a}`),
);
cli(['permissions', 'grant', 'public', ...grants]);
for (const [type, file] of Object.entries(await writeTargets(dir))) cli(['import', file, '--type', type]);
const refs = readRefs(join(dataDir, 'folio.db'));
await writeArticles(join(dir, 'articles.jsonl'), 100, refs);
cli(['import', join(dir, 'articles.jsonl'), '--type', 'articles']);

// The tracer: from outside, nothing in src/ knows about it.
const current = new AsyncLocalStorage<Trace>();
const traces: Trace[] = [];
let tracing = false;
let seq = 0;
let lockSeq = 0;
let groupSeq = 0;
const commitTimes: { at: number; members: number }[] = [];
const proto = GroupCommit.prototype as any;
const run = proto.run;
proto.run = function (this: any, fn: () => Promise<unknown>) {
  const t = current.getStore();
  if (t) t.queued = performance.now();
  return run
    .call(this, () => {
      if (t) {
        t.locked = performance.now();
        t.lockOrder = lockSeq++;
        t.group = groupSeq;
      }
      return fn().finally(() => {
        if (t) t.written = performance.now();
      });
    })
    .finally(() => {
      if (t) t.committed = performance.now();
    });
};
const commit = proto.commit;
proto.commit = function (this: any, group: { members: number }) {
  commit.call(this, group);
  if (tracing) commitTimes.push({ at: performance.now(), members: group.members });
  groupSeq++;
};

const config = resolveConfig({ data: dataDir, contentTypes: join(ROOT, 'content-types') }, { readProject });
const instance = await openInstance(config);
const app = createApp(instance);
const handle = app.fetch;
const lastAnswer = new Map<number, number>();
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(request) {
    if (!tracing) return handle(request);
    const port = server.requestIP(request)?.port ?? 0;
    const t: Trace = { seq: seq++, port, arrival: performance.now(), previous: lastAnswer.get(port) };
    const response = await current.run(t, () => handle(request));
    t.answered = performance.now();
    lastAnswer.set(port, t.answered);
    traces.push(t);
    return response;
  },
});
const base = `http://127.0.0.1:${server.port}`;

const file = join(dir, 'requests.tsv');
writeFileSync(file, Array.from({ length: 10 }, (_, i) => `POST\t/api/articles\t${createBody(i, refs)}`).join('\n') + '\n');
async function wrk(secs: number) {
  const proc = Bun.spawn(
    [
      'taskset',
      '-c',
      '1',
      'wrk',
      '-t1',
      `-c${connections}`,
      `-d${secs}s`,
      '--timeout',
      '20s',
      '--latency',
      '-s',
      join(ROOT, 'bench', 'requests.lua'),
      base + '/',
    ],
    { env: { ...process.env, BENCH_REQUESTS: file }, stdout: 'pipe', stderr: 'pipe' },
  );
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return parseWrk(out);
}

await wrk(2); // warm-up
tracing = true;
const result = await wrk(seconds);
tracing = false;
console.log(
  `wrk: ${result.requests} requests, ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms (${(result.p99Ms / result.p50Ms).toFixed(2)}×), non-2xx ${result.non2xx}`,
);

const done = traces.filter((t) => t.committed !== undefined);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const row = (label: string, xs: number[]) =>
  console.log(
    `${label.padEnd(28)} p50 ${pct(xs, 50).toFixed(1).padStart(7)}  p90 ${pct(xs, 90).toFixed(1).padStart(7)}  p99 ${pct(xs, 99).toFixed(1).padStart(7)}  max ${pct(xs, 100).toFixed(1).padStart(7)}`,
  );
const waited = done.filter((t) => t.previous !== undefined);
row(
  'previous answer→arrival',
  waited.map((t) => t.arrival - t.previous!),
);
row(
  'previous answer→answered',
  waited.map((t) => t.answered! - t.previous!),
);
// Fairness between connections, robust to a busy machine: each connection's mean wait for its next request to be taken up.
const perConnection = new Map<number, number[]>();
for (const t of waited) {
  let list = perConnection.get(t.port);
  if (!list) perConnection.set(t.port, (list = []));
  list.push(t.answered! - t.previous!);
}
const connectionMeans = [...perConnection.values()].map((xs) => xs.reduce((s, x) => s + x, 0) / xs.length);
const connectionCounts = [...perConnection.values()].map((xs) => xs.length);
console.log(
  `per connection: mean cycle (answer to next answer) min ${Math.min(...connectionMeans).toFixed(1)} max ${Math.max(...connectionMeans).toFixed(1)} ms; requests min ${Math.min(...connectionCounts)} max ${Math.max(...connectionCounts)}`,
);
// Round-robin check: with 64 connections and one request each outstanding, a server that reads
// them in turn reads exactly 63 others between a connection's answer and its next request.
const arrivals = done.map((t) => t.arrival).sort((a, b) => a - b);
const firstAfter = (x: number) => {
  let lo = 0;
  let hi = arrivals.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arrivals[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
row(
  'requests read in between',
  waited.map((t) => firstAfter(t.arrival) - 1 - firstAfter(t.previous!)),
);
row(
  'total (arrival→answered)',
  done.map((t) => t.answered! - t.arrival),
);
row(
  'arrival→queued (before lock)',
  done.map((t) => t.queued! - t.arrival),
);
row(
  'queued→locked (lock wait)',
  done.map((t) => t.locked! - t.queued!),
);
row(
  'locked→written (the write)',
  done.map((t) => t.written! - t.locked!),
);
row(
  'written→committed',
  done.map((t) => t.committed! - t.written!),
);
row(
  'committed→answered',
  done.map((t) => t.answered! - t.committed!),
);
const sizes = commitTimes.map((c) => c.members);
console.log(
  `groups: ${sizes.length}, members p50 ${pct(sizes, 50)} max ${pct(sizes, 100)}; sizes: ${JSON.stringify(Object.entries(sizes.reduce((m: Record<number, number>, s) => ((m[s] = (m[s] ?? 0) + 1), m), {})))}`,
);
// Overtaking: of the requests that arrived before this one, how many took the lock after it.
const byArrival = [...done].sort((a, b) => a.arrival - b.arrival);
let overtaken = 0;
for (let i = 0; i < byArrival.length; i++) if (byArrival[i]!.lockOrder! < (i > 0 ? byArrival[i - 1]!.lockOrder! : -1)) overtaken++;
console.log(`requests that took the lock before one that arrived earlier: ${overtaken} of ${done.length}`);
const sorted = [...done].sort((a, b) => a.answered! - a.arrival - (b.answered! - b.arrival));
const show = (t: Trace) =>
  `socket ${t.previous === undefined ? '?' : (t.arrival - t.previous).toFixed(1)} total ${(t.answered! - t.arrival).toFixed(1)}: pre ${(t.queued! - t.arrival).toFixed(1)} lock ${(t.locked! - t.queued!).toFixed(1)} write ${(t.written! - t.locked!).toFixed(1)} commit ${(t.committed! - t.written!).toFixed(1)} answer ${(t.answered! - t.committed!).toFixed(1)}`;
console.log('median:', show(sorted[Math.floor(sorted.length / 2)]!));
for (const t of sorted.slice(-5)) console.log('slowest:', show(t));
// Gaps in the commit timeline (the event loop busy with something other than writes, or GC).
const gaps = commitTimes.slice(1).map((c, i) => c.at - commitTimes[i]!.at);
row('gap between commits', gaps);

if (process.env.WRITE_TAIL_DUMP) writeFileSync(process.env.WRITE_TAIL_DUMP, JSON.stringify({ traces: done, commits: commitTimes }));
server.stop(true);
instance.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
