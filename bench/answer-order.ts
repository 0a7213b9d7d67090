/**
 * The write tail's cause without Folio (issue #43 item 5): does a bare Bun.serve still read its
 * 64 connections in turn when answers are released in groups, as group commit releases them?
 *
 *   bun bench/answer-order.ts            both modes, alternated 3×, server on CPU0 and wrk on CPU1
 *   bun bench/answer-order.ts serve MODE PORT [GROUP]   (the server, started by the above)
 *
 * Every request costs 1.5 ms of CPU. `inline`: each answer is returned from its own request's
 * handler (the write baseline's shape). `grouped`: each waits until GROUP (16) requests have done
 * their work, or the end of the turn, and all of them are answered together (group commit's shape).
 * Printed per run: wrk's p50/p99, and how many requests the server read between a connection's
 * answer and its next request (63 for every request when 64 connections are read in turn).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWrk } from './generator';
import { ROOT } from './options';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

if (process.argv[2] === 'serve') {
  const [, , , mode, port, group = '16'] = process.argv;
  const size = Number(group);
  let held: (() => void)[] = [];
  let scheduled = false;
  const release = () => {
    const waiting = held;
    held = [];
    for (const resolve of waiting) resolve();
  };
  let reads = 0;
  const lastRead = new Map<number, number>();
  const between: number[] = [];
  const server = Bun.serve({
    port: Number(port),
    hostname: '127.0.0.1',
    async fetch(request) {
      const client = server.requestIP(request)!.port;
      if (request.method === 'GET') {
        const sorted = [...between].sort((a, b) => a - b);
        between.length = 0;
        lastRead.clear();
        return Response.json([sorted[sorted.length >> 1], sorted[Math.floor(sorted.length * 0.99)], sorted[sorted.length - 1]]);
      }
      const previous = lastRead.get(client);
      if (previous !== undefined) between.push(reads - previous);
      reads++;
      await request.text();
      busy(1.5);
      if (mode === 'grouped') {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          if (held.length >= size) release();
          else if (!scheduled) {
            scheduled = true;
            setImmediate(() => {
              scheduled = false;
              release();
            });
          }
        });
      }
      lastRead.set(client, reads);
      return new Response('{"data":{}}', { status: 201, headers: { 'content-type': 'application/json' } });
    },
  });
  console.log('listening');
} else {
  const requests = join(tmpdir(), `folio-answer-order-${process.pid}.tsv`);
  await Bun.write(requests, 'POST\t/api/articles\t{"data":{"title":"x"}}\n');
  const wrk = async (port: number, seconds: number) => {
    const proc = Bun.spawn(
      ['taskset', '-c', '1', 'wrk', '-t1', '-c64', `-d${seconds}s`, '--latency', '-s', join(ROOT, 'bench', 'requests.lua'), `http://127.0.0.1:${port}/`],
      { env: { ...process.env, BENCH_REQUESTS: requests }, stdout: 'pipe' },
    );
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    return parseWrk(out);
  };
  for (let round = 0; round < 3; round++) {
    for (const mode of ['inline', 'grouped']) {
      const port = 1400 + Math.floor(Math.random() * 100);
      const server = Bun.spawn(['taskset', '-c', '0', process.execPath, import.meta.path, 'serve', mode, String(port)], { stdout: 'pipe' });
      const reader = server.stdout.getReader();
      await reader.read();
      await wrk(port, 1);
      await fetch(`http://127.0.0.1:${port}/`);
      const result = await wrk(port, 5);
      const between = await (await fetch(`http://127.0.0.1:${port}/`)).json();
      console.log(
        `${mode.padEnd(8)} ${result.rps.toFixed(0)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms (${(result.p99Ms / result.p50Ms).toFixed(2)}×)  read in between p50/p99/max ${JSON.stringify(between)}`,
      );
      server.kill();
      await server.exited;
    }
  }
  await Bun.file(requests).delete();
}
