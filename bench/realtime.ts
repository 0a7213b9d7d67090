/**
 * The realtime scenario (issue #43): N idle subscribers of GET /api/realtime on one Folio
 * (pinned to CPU0), opened from the load CPU by bench/realtime-client.ts (raw sockets, one
 * process), with the open-files limit raised for both (to the hard limit; as root, 65,536).
 * It measures the server's RSS with the streams idle, how long one write's event takes to
 * reach every stream (the worst of three creates, from the moment the create is sent), and the
 * cached list's p99 under the usual load without the streams (before they open, and once they
 * are closed) and while they are open (two runs): the best of each, since a shared machine's
 * noise moves a p99 more than the streams do.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { BUN } from '../test/helpers/spawn';
import { fmtInt, fmtMs, round } from './format';
import { load } from './generator';
import type { LoadResult } from './load';
import { log, ROOT } from './options';
import { binary, children, loadPin, rssMiB, serverPin, stop, stopServer } from './processes';
import { serve } from '../test/helpers/spawn';
import type { MeasureSettings } from './scenarios';

export interface RealtimeResult {
  /** Streams asked for, and how many opened (fewer when the open-files limit is lower). */
  streams: number;
  opened: number;
  openSeconds: number;
  rssBeforeMiB: number;
  /** With every stream open and idle. */
  rssIdleMiB: number;
  rssPeakMiB: number;
  /** Each create's event: ms until the last stream had it, and how many streams had it. */
  deliveries: { ms: number; got: number }[];
  /** The cached list under the usual load: before the streams open, and while they are open. */
  listBefore: LoadResult;
  listDuring: LoadResult;
  filesLimit: number;
}

/** `sh -c` that raises the open-files limit (to 65,536 where allowed, else to the hard limit), then runs the command. */
const RAISED = ['sh', '-c', 'ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"', 'sh'];

/** The open-files limit RAISED gives. */
function raisedLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; ulimit -n']).stdout.toString().trim();
  return out === 'unlimited' ? 1 << 20 : Number(out);
}

/** Reads the client's JSON lines one at a time. */
function lines(proc: Subprocess<'pipe', 'pipe', 'inherit'>) {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const at = buffered.indexOf('\n');
      if (at >= 0) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
        return JSON.parse(line);
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('bench/realtime-client.ts ended early');
      buffered += decoder.decode(value, { stream: true });
    }
  };
}

export async function realtimeRun(dataDir: string, streams: number, settings: MeasureSettings): Promise<RealtimeResult> {
  const filesLimit = raisedLimit();
  // The server holds one descriptor a stream, the client one too; both keep some for themselves.
  const count = Math.min(streams, filesLimit - 512);
  if (count < streams) log(`realtime: the open-files limit is ${fmtInt(filesLimit)}: ${fmtInt(count)} streams instead of ${fmtInt(streams)}`);
  const server = await serve({ ...binary(dataDir), wrap: [...serverPin, ...RAISED], startTimeoutMs: 20_000 });
  const pid = server.proc.pid;
  const list = [{ method: 'GET', path: '/api/articles' }];
  let client: Subprocess<'pipe', 'pipe', 'inherit'> | undefined;
  try {
    await load(server.url, list, settings.warmup, settings.connections);
    const listBefore = await load(server.url, list, settings.seconds, settings.connections);
    const rssBeforeMiB = rssMiB(pid);
    log(`realtime: list before the streams: ${fmtInt(listBefore.rps)} req/s, p99 ${fmtMs(listBefore.p99Ms)}; RSS ${rssBeforeMiB} MiB`);

    client = Bun.spawn([...loadPin, ...RAISED, BUN, join(ROOT, 'bench', 'realtime-client.ts'), server.url, String(count)], {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'inherit',
    });
    children.add(client);
    const next = lines(client);
    const opened = await next();
    if (opened.failed) throw new Error(`realtime: ${opened.failed} of ${count} streams did not open`);
    const openSeconds = round(Number(opened.ms) / 1000, 1);
    await Bun.sleep(1000);
    const rssIdleMiB = rssMiB(pid);
    let rssPeakMiB = rssIdleMiB;
    log(`realtime: ${fmtInt(count)} streams open in ${openSeconds} s; server RSS ${rssIdleMiB} MiB`);

    const deliveries: { ms: number; got: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const marker = `realtime-${i}-${Date.now()}`;
      client.stdin.write(`expect ${marker}\n`);
      client.stdin.flush();
      await Bun.sleep(20);
      const created = await server.call('POST', '/api/articles', { body: { data: { title: marker } } });
      if (created.status !== 201) throw new Error(`realtime: the create answered ${created.status}`);
      const got = await next();
      deliveries.push({ ms: Number(got.ms), got: Number(got.got) });
      rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid));
      log(`realtime: event ${i + 1} reached ${fmtInt(Number(got.got))} of ${fmtInt(count)} streams in ${fmtMs(Number(got.ms))}`);
      await Bun.sleep(500);
    }

    // Two runs with the streams open, and one more without once they are closed: the
    // machine's noise moves a p99 more than anything measured here, so the best of each counts.
    const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid))), 200);
    const during: LoadResult[] = [];
    try {
      await load(server.url, list, settings.warmup, settings.connections);
      for (let i = 0; i < 2; i++) during.push(await load(server.url, list, settings.seconds, settings.connections));
    } finally {
      clearInterval(sampler);
    }
    const listDuring = best(during);
    log(`realtime: list with the streams open: ${during.map((r) => `${fmtInt(r.rps)} req/s p99 ${fmtMs(r.p99Ms)}`).join('; ')}; RSS peak ${rssPeakMiB} MiB`);
    await closeClient(client);
    client = undefined;
    await Bun.sleep(1000);
    const after = await load(server.url, list, settings.seconds, settings.connections);
    log(`realtime: list once the streams closed: ${fmtInt(after.rps)} req/s, p99 ${fmtMs(after.p99Ms)}`);
    return {
      streams,
      opened: count,
      openSeconds,
      rssBeforeMiB,
      rssIdleMiB,
      rssPeakMiB,
      deliveries,
      listBefore: best([listBefore, after]),
      listDuring,
      filesLimit,
    };
  } finally {
    if (client) await closeClient(client);
    await stopServer(server, 'folio serve (realtime)');
  }
}

/** The run with the lowest p99. */
const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.p99Ms < a.p99Ms ? b : a));

async function closeClient(client: Subprocess<'pipe', 'pipe', 'inherit'>) {
  client.stdin.write('close\n');
  client.stdin.flush();
  await Promise.race([client.exited, Bun.sleep(5000)]);
  await stop(client);
}
