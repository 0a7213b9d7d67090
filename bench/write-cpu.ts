/**
 * CPU per write, in-process: the document service's create (a category, an author and three
 * tags, as the bench's create sends) and update (a positioned connect, as the bench's update
 * sends), called directly, no HTTP, with 8 writers at once. Whole-process CPU and the CPU of
 * each thread (the main thread apart from JSC's compiler threads and the WAL thread) per write,
 * after a warm-up long enough that the JIT has settled. On a machine shared with other work,
 * wall-clock throughput moves by 2× between runs; CPU per write much less: compare two trees
 * (or two commits in two worktrees) in alternated runs, several pairs, and read the medians.
 *
 *   bun bench/write-cpu.ts [--tree DIR] [--writes N] [--warmup N] [--history]
 *
 * `--tree`: the Folio checkout to measure (default: this one); `--history`: content history and
 * the audit log on, as by default (off unless given: what the pipeline itself costs).
 * Prints one JSON line.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { threadMicros } from './cpu-time';
import { createTargets } from './data';
import { ROOT } from './options';

const { values: flags } = parseArgs({
  options: {
    tree: { type: 'string', default: ROOT },
    writes: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '3000' },
    history: { type: 'boolean', default: false },
  },
});
const tree = resolve(flags.tree!);
const N = Number(flags.writes);
const W = Number(flags.warmup);
const WRITERS = 8;
process.env.FOLIO_LOG_LEVEL = 'error';

const { startServer } = await import(`${tree}/test/helpers/server.ts`);
const server = await startServer({ config: flags.history ? {} : { historyDays: 0, auditDays: 0 } });
// Background work (outbox pruning, webhook delivery) stays out of the measure.
server.instance.pause?.();
const docs = server.instance.documents;
const type = (name: string) => server.instance.registry.contentType(`api::${name}.${name}`)!;
const { categories, authors, tags } = await createTargets(server.instance);
const article = type('article');
const body = (i: number) => ({
  title: `Bench ${i}`,
  summary: 's',
  views: i,
  kind: 'news',
  category: categories[i % 5],
  author: authors[(i + 1) % 5],
  tags: [tags[i % 10], tags[(i + 3) % 10], tags[(i + 6) % 10]],
});
const connect = (i: number) => ({ tags: { connect: [{ documentId: tags[(i + 6) % 10], position: { before: tags[i % 10] } }] } });

/** Runs `write(i)` for i < n, WRITERS at a time. */
async function run(n: number, write: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < n) await write(next++);
    }),
  );
}

const warm: string[] = [];
await run(W, async (i) => (warm[i] = (await docs.create(article, body(i))).documentId));
await run(W, (i) => docs.update(article, warm[i]!, connect(i)));

const processCpu = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const before = threadMicros();
const made: string[] = [];
let start = processCpu();
await run(N, async (i) => (made[i] = (await docs.create(article, body(i))).documentId));
const createUs = (processCpu() - start) / N;
start = processCpu();
await run(N, (i) => docs.update(article, made[i]!, connect(i)));
const updateUs = (processCpu() - start) / N;
const after = threadMicros();
const perWriteByThread: Record<string, number> = {};
for (const [name, us] of after) {
  const spent = Math.round((us - (before.get(name) ?? 0)) / (2 * N));
  if (spent > 0) perWriteByThread[name] = spent;
}
console.log(JSON.stringify({ tree, history: flags.history, createUs: Math.round(createUs), updateUs: Math.round(updateUs), perWriteByThread }));
await server.stop();
process.exit(0);
