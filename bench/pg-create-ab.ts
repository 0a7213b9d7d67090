/**
 * Two Folio trees' creates on PostgreSQL, alternated in short bursts in one process: CPU per
 * create of Folio and of the database's backends, per burst, A and B taking turns (ABBA…) so
 * that whatever else the machine runs weighs on both alike. On a shared machine the CPU one
 * create costs moves by ±20 % from minute to minute (bench/pg-create-cpu.ts runs); bursts a
 * second apart compare two trees within a few percent.
 *
 *   FOLIO_TEST_DATABASE_URL=postgres://… bun bench/pg-create-ab.ts --a DIR --b DIR [--bursts 20] [--burst 300] [--warmup 1500] [--concurrency 32]
 *
 * Each tree gets a server of its own (test/helpers/server.ts of that tree, content history and
 * the audit log on, as by default) over a scratch database, and the bench's create (POST
 * /api/articles with a category, an author and 3 tags, bench/scenarios.ts createBody) through
 * its HTTP app in-process. Prints per burst pair and the medians of B/A, as JSON lines.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SQL } from 'bun';
import { createTargets } from './data';
import { cpuMicros } from './cpu-time';
import { inProcessCreates } from './scenarios';

const { values: flags } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    bursts: { type: 'string', default: '20' },
    burst: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '32' },
  },
});
const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
if (!ADMIN_URL || !flags.a || !flags.b) {
  console.error('usage: FOLIO_TEST_DATABASE_URL=postgres://… bun bench/pg-create-ab.ts --a DIR --b DIR');
  process.exit(2);
}
const BURSTS = Number(flags.bursts);
const BURST = Number(flags.burst);
const C = Number(flags.concurrency);
process.env.FOLIO_LOG_LEVEL = 'error';

const admin = new SQL(ADMIN_URL, { max: 1 });

interface Side {
  tree: string;
  run(n: number): Promise<void>;
  backends(): Promise<number[]>;
  statements(): number;
  stop(): Promise<void>;
  failures: number;
}

async function side(dir: string): Promise<Side> {
  const tree = resolve(dir);
  const { startServer } = await import(`${tree}/test/helpers/server.ts`);
  const { createApp } = await import(`${tree}/src/app.ts`);
  const server = await startServer({});
  const app = createApp(server.instance);
  const refs = await createTargets(server.instance);
  const creates = inProcessCreates(app, refs, C);
  const name = new URL(server.instance.config.databaseUrl).pathname.slice(1);
  return {
    tree,
    get failures() {
      return creates.failures;
    },
    run: (n) => creates.run(n),
    backends: async () => (await admin.unsafe(`SELECT pid FROM pg_stat_activity WHERE datname = '${name}'`)).map((r: { pid: number }) => Number(r.pid)),
    statements: () => server.instance.db.statementCount,
    stop: () => server.stop(),
  };
}

const sides = [await side(flags.a), await side(flags.b)];
for (const s of sides) await s.run(Number(flags.warmup));
const pids = await Promise.all(sides.map((s) => s.backends()));

/** One burst of `s`: CPU µs per create of this process and of its backends, statements per create. */
async function burst(i: number) {
  const s = sides[i]!;
  const sum = () => pids[i]!.reduce((t, p) => t + cpuMicros(p), 0);
  const cpu = process.cpuUsage();
  const pg = sum();
  const statements = s.statements();
  await s.run(BURST);
  const used = process.cpuUsage(cpu);
  return { folio: (used.user + used.system) / BURST, pg: (sum() - pg) / BURST, statements: (s.statements() - statements) / BURST };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((x, y) => x - y);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
};
const ratios = { folio: [] as number[], pg: [] as number[], total: [] as number[] };
const totals = [
  { folio: 0, pg: 0 },
  { folio: 0, pg: 0 },
];
let statements = [0, 0];
for (let k = 0; k < BURSTS; k++) {
  // ABBA: neither side always runs first after the other.
  const order = k % 2 ? [1, 0] : [0, 1];
  const got: Record<number, { folio: number; pg: number; statements: number }> = {};
  for (const i of order) got[i] = await burst(i);
  const [a, b] = [got[0]!, got[1]!];
  ratios.folio.push(b.folio / a.folio);
  ratios.pg.push(b.pg / a.pg);
  ratios.total.push((b.folio + b.pg) / (a.folio + a.pg));
  for (const i of [0, 1]) {
    totals[i]!.folio += got[i]!.folio;
    totals[i]!.pg += got[i]!.pg;
  }
  statements = [a.statements, b.statements];
  console.log(JSON.stringify({ pair: k, a: { folio: Math.round(a.folio), pg: Math.round(a.pg) }, b: { folio: Math.round(b.folio), pg: Math.round(b.pg) } }));
}
const lower = (xs: number[]) => xs.filter((r) => r < 1).length;
console.log(
  JSON.stringify({
    a: sides[0]!.tree,
    b: sides[1]!.tree,
    bursts: BURSTS,
    burst: BURST,
    meanUs: totals.map((t) => ({ folio: Math.round(t.folio / BURSTS), pg: Math.round(t.pg / BURSTS) })),
    statements,
    medianBA: { folio: +median(ratios.folio).toFixed(3), pg: +median(ratios.pg).toFixed(3), total: +median(ratios.total).toFixed(3) },
    bLowerIn: { folio: lower(ratios.folio), pg: lower(ratios.pg), total: lower(ratios.total) },
    failures: sides.map((s) => s.failures),
  }),
);
await admin.close();
for (const s of sides) await s.stop();
process.exit(0);
