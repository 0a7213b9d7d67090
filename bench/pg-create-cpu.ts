/**
 * CPU per create on PostgreSQL, on both sides: Folio's process (per thread too) and the
 * PostgreSQL backends serving it. The bench's create (POST /api/articles with a category, an
 * author and 3 tags, bench/scenarios.ts createBody) through the HTTP app in-process
 * (`app.handle`, no sockets, no load generator), `--concurrency` at once, over a scratch
 * database of its own (content history and the audit log on, as by default). Without
 * FOLIO_TEST_DATABASE_URL the same creates run on SQLite, for the comparison. To compare two
 * trees, bench/pg-create-ab.ts alternates them in one process (runs of this script minutes
 * apart differ by ±20 % on a shared machine).
 *
 *   FOLIO_TEST_DATABASE_URL=postgres://… bun bench/pg-create-cpu.ts [--tree DIR] [--creates N] [--warmup N] [--concurrency C] [--trace] [--keep]
 *
 * Prints one JSON line: µs of CPU per create of Folio's process and of the database's backends
 * (/proc/<pid>/schedstat: the backends must run on this machine), PostgreSQL's auxiliary
 * processes (WAL writer, checkpointer…: shared with whatever else the cluster serves),
 * statements and round trips per create (the db's counters), creates per second (wall-clock).
 * `--trace`: the database logs every statement with its duration (log_min_duration_statement
 * = 0 on the scratch database only: PostgreSQL's server log shows parse/bind/execute of each);
 * `--keep`: the database is left (its URL printed); PG_CREATE_CPU_PIDS=FILE: the pids measured
 * are written there as the measure starts (for `perf record -p`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SQL } from 'bun';
import { createTargets } from './data';
import { ROOT } from './options';
import { cpuMicros, threadMicros } from './cpu-time';
import { inProcessCreates } from './scenarios';

const { values: flags } = parseArgs({
  options: {
    tree: { type: 'string', default: ROOT },
    creates: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '32' },
    trace: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
/** Without FOLIO_TEST_DATABASE_URL the same creates run on SQLite (Folio's side only: the comparison). */
const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const tree = resolve(flags.tree!);
const N = Number(flags.creates);
const W = Number(flags.warmup);
const C = Number(flags.concurrency);
process.env.FOLIO_LOG_LEVEL = 'error';

const { startServer } = await import(`${tree}/test/helpers/server.ts`);
const { createApp } = await import(`${tree}/src/app.ts`);
// --trace: the database logs every statement with its duration (PostgreSQL's server log).
let traced: string | undefined;
if (flags.trace && ADMIN_URL) {
  const { createDatabase } = await import(`${tree}/test/helpers/postgres.ts`);
  traced = await createDatabase(ADMIN_URL, 'folio_test');
  const admin = new SQL(ADMIN_URL, { max: 1 });
  await admin.unsafe(`ALTER DATABASE ${new URL(traced!).pathname.slice(1)} SET log_min_duration_statement = 0`);
  await admin.close();
}
const server = await startServer(traced ? { config: { databaseUrl: traced } } : {});
const app = createApp(server.instance);
const refs = await createTargets(server.instance);
const creates = inProcessCreates(app, refs, C);
const run = (n: number) => creates.run(n);

/** PostgreSQL's processes that are no client's backend (their command line names no user@database). */
const auxiliary = (): number[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
        return cmd.startsWith('postgres: ') && /(writer|checkpointer|walwriter|autovacuum|logical|stats|archiver)/.test(cmd) && !cmd.includes(' folio');
      } catch {
        return false;
      }
    })
    .map(Number);

const databaseUrl: string | undefined = server.instance.config.databaseUrl;
const admin = ADMIN_URL ? new SQL(ADMIN_URL, { max: 1 }) : undefined;
const backends = async (): Promise<number[]> =>
  admin && databaseUrl
    ? (await admin.unsafe(`SELECT pid FROM pg_stat_activity WHERE datname = '${new URL(databaseUrl).pathname.slice(1)}' AND pid <> pg_backend_pid()`)).map(
        (r: { pid: number }) => Number(r.pid),
      )
    : [];

await run(W);
const pids = await backends();
const aux = admin ? auxiliary() : [];
const db = server.instance.db as { statementCount: number; roundTrips?: number };
const threadsBefore = threadMicros();
const sum = (list: number[]) => list.reduce((s, p) => s + cpuMicros(p), 0);
// For a profiler attached from outside (perf record -p …): the pids measured, written as the measure starts.
if (process.env.PG_CREATE_CPU_PIDS) writeFileSync(process.env.PG_CREATE_CPU_PIDS, [process.pid, ...pids].join(',') + '\n');
const before = { folio: process.cpuUsage(), pg: sum(pids), aux: sum(aux), statements: db.statementCount, trips: db.roundTrips ?? 0, at: performance.now() };
await run(N);
const seconds = (performance.now() - before.at) / 1000;
const pidsAfter = await backends();
const folio = process.cpuUsage(before.folio);
const folioThreads: Record<string, number> = {};
for (const [name, us] of threadMicros()) {
  const spent = Math.round((us - (threadsBefore.get(name) ?? 0)) / N);
  if (spent > 0) folioThreads[name] = spent;
}
const result = {
  tree,
  engine: admin ? 'postgres' : 'sqlite',
  creates: N,
  concurrency: C,
  folioUs: Math.round((folio.user + folio.system) / N),
  folioSystemUs: Math.round(folio.system / N),
  folioThreads,
  postgresUs: Math.round((sum(pids) - before.pg) / N),
  auxiliaryUs: Math.round((sum(aux) - before.aux) / N),
  statements: +((db.statementCount - before.statements) / N).toFixed(2),
  roundTrips: +(((db.roundTrips ?? 0) - before.trips) / N).toFixed(2),
  createsPerSecond: Math.round(N / seconds),
  backends: pids.length,
  newBackends: pidsAfter.filter((p) => !pids.includes(p)).length,
  failures: creates.failures,
};
console.log(JSON.stringify(result));
await admin?.close();
// --keep: the database stays (its URL printed), to look at what the creates left.
if (flags.keep) console.log(databaseUrl);
await server.stop({ keepData: flags.keep });
if (traced && ADMIN_URL && !flags.keep) {
  const { dropDatabases } = await import(`${tree}/test/helpers/postgres.ts`);
  await dropDatabases(ADMIN_URL, [traced]);
}
process.exit(0);
