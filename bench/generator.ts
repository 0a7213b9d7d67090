/**
 * Drives the load: wrk when installed (installed with apt-get when run as root), otherwise
 * the built-in fetch loops of bench/load.ts. One timed run = one `load()` call, pinned to
 * CPU1 when the server is pinned to CPU0.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUN } from '../test/helpers/spawn';
import type { LoadRequest, LoadResult } from './load';
import { log, ROOT } from './options';
import { children, hasCommand, loadPin, work } from './processes';

export const generator = { tool: 'builtin' as 'wrk' | 'builtin', version: 'bench/load.ts (fetch loops)' };

export function chooseLoadGenerator(choice: string | undefined) {
  if (choice === 'builtin') return;
  if (!hasCommand('wrk')) {
    if (process.getuid?.() === 0 && hasCommand('apt-get')) {
      log('wrk not found: apt-get install -y wrk');
      const install = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], { stdio: 'ignore', timeout: 180_000 });
      if (install.status !== 0) log('could not install wrk');
    }
  }
  if (hasCommand('wrk')) {
    generator.tool = 'wrk';
    generator.version =
      spawnSync('wrk', ['-v'])
        .stdout.toString()
        .split('\n')[0]!
        .replace(/ Copyright.*/, '')
        .trim() || 'wrk';
  } else if (choice === 'wrk') {
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

export function parseWrk(text: string): LoadResult {
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

/** wrk's per-request timeout for a run of `seconds` (a slower answer counts as a socket error). */
export const timeoutFor = (seconds: number) => Math.max(10, seconds * 2);

/** One timed load run against `base` with the given requests (rotated). */
export async function load(base: string, requests: LoadRequest[], seconds: number, connections: number): Promise<LoadResult> {
  if (generator.tool === 'builtin') {
    const spec = JSON.stringify({ base, connections, seconds, requests });
    const proc = Bun.spawn([...loadPin, BUN, join(ROOT, 'bench', 'load.ts'), spec], { stdout: 'pipe', stderr: 'pipe' });
    children.add(proc);
    const out = await new Response(proc.stdout as ReadableStream).text();
    await proc.exited;
    children.delete(proc);
    if (proc.exitCode !== 0) throw new Error(`load.ts failed: ${await new Response(proc.stderr as ReadableStream).text()}`);
    return JSON.parse(out) as LoadResult;
  }
  const args = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', `${timeoutFor(seconds)}s`, '--latency'];
  const env: Record<string, string> = { ...process.env } as Record<string, string>;
  let url = base + requests[0]!.path;
  if (requests.length > 1 || requests[0]!.method !== 'GET' || requests[0]!.body !== undefined) {
    const file = join(work.dir!, `requests-${Math.random().toString(36).slice(2)}.tsv`);
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
