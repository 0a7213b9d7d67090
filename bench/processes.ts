/**
 * The processes a bench run starts (Folio, the baselines, load generators, the peer), how
 * they are pinned to CPUs, stopped and measured (RSS), and the cold-start measurement.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
// Folio is started the way the tests start it (one spawner for both; it needs only Node built-ins).
import { BINARY as FOLIO, BUN, cleanEnv, cliCommand, cliSpawnOptions, killSpawned, runCli, serve, type SpawnedServer } from '../test/helpers/spawn';
import { percentile } from './load';
import { log, ROOT } from './options';

export const children = new Set<Subprocess>();
/** The run's temp dir (request files for wrk, seed files, data dirs) and whether to keep it. */
export const work = { dir: undefined as string | undefined, keep: false };
/** Extra things to undo when the run ends or is interrupted (stopping the peer). Synchronous. */
const cleanups: (() => void)[] = [];
export const onCleanup = (fn: () => void) => cleanups.push(fn);

export function killAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
  // The servers the spawner started: SIGKILLed at once (before this returns), awaited by nobody.
  void killSpawned();
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch (error) {
      log(`cleanup failed: ${(error as Error).message}`);
    }
  }
}

/** Removes the work dir unless --keep. */
export function removeWorkDir() {
  if (work.dir && !work.keep) rmSync(work.dir, { recursive: true, force: true });
  else if (work.dir) log(`kept ${work.dir}`);
}

export function installSignalHandlers() {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      removeWorkDir();
      process.exit(130);
    });
  }
}

export async function stop(child: Subprocess) {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
    if (!exited) child.kill('SIGKILL');
  }
  children.delete(child);
}

export const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
export const PINNED = hasCommand('taskset') && cpus().length >= 2;
export const serverPin = PINNED ? ['taskset', '-c', '0'] : [];
export const loadPin = PINNED ? ['taskset', '-c', '1'] : [];

/** Folio from dist/folio on a data dir, with the example content types. */
export const binary = (dataDir: string) => ({ exe: FOLIO, data: dataDir });

/** Runs the binary to completion; throws with its output when it fails. */
export function folio(args: string[], dataDir: string): string {
  const result = runCli(args, binary(dataDir));
  if (result.code !== 0) throw new Error(`folio ${args.join(' ')} exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** `folio serve` on CPU0 (when pinned); resolves once it says where it listens. */
export const startFolio = (dataDir: string, env?: Record<string, string>) => serve({ ...binary(dataDir), env, wrap: serverPin, startTimeoutMs: 20_000 });

/** Stops a server and says what it wrote on stderr, if anything. */
export async function stopServer(server: SpawnedServer, what: string) {
  await stop(server.proc);
  const text = server.stderr().trim();
  if (text) log(`${what} stderr: ${text.slice(0, 2000)}`);
}

export function rssMiB(pid: number): number {
  try {
    const kb = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return NaN;
  }
}

/** CPU seconds the process has used (user + system), from /proc; NaN when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's closing parenthesis.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Waits until the server has finished the work a load run left it: wrk closes its connections
 * when its time is up, and a slow server (Strapi's GraphQL: ~0.15 s a request alone) goes on
 * answering the requests they had sent, which would otherwise be measured as the next run's.
 * Idle = under 10 ms of CPU in 300 ms; gives up after `maxSeconds`.
 */
export async function settle(pid: number, maxSeconds = 120): Promise<number> {
  const t0 = performance.now();
  let last = cpuSeconds(pid);
  while (performance.now() - t0 < maxSeconds * 1000) {
    await Bun.sleep(300);
    const now = cpuSeconds(pid);
    if (!(now - last >= 0.01)) break;
    last = now;
  }
  return (performance.now() - t0) / 1000;
}

export async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** `npm run build`'s command with this Bun (dist/folio), unless --no-build and it exists. */
export function buildBinary(build: boolean) {
  if (build || !existsSync(FOLIO)) {
    const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build.replace(/^.*&&\s*/, '');
    const words = script.trim().split(/\s+/);
    if (words[0] === 'bun') words[0] = BUN;
    const t = performance.now();
    const result = Bun.spawnSync(words, { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
    if (result.exitCode !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
    log(`built dist/folio in ${Math.round(performance.now() - t)} ms`);
  }
}

export interface ColdStart {
  runs: number;
  healthMs: number[];
  listMs: number[];
  healthMedianMs: number;
  listMedianMs: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Process start to the first 2xx on /_health (and the first 200 on the list), `runs` times. */
export async function coldStarts(dataDir: string, runs: number): Promise<ColdStart> {
  const healthMs: number[] = [];
  const listMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const t0 = performance.now();
    // Spawned here, not through serve(): the clock runs from the spawn to the first answer, polled.
    const proc = Bun.spawn(cliCommand(['serve', '--port', String(port)], { ...binary(dataDir), wrap: serverPin }), {
      ...cliSpawnOptions(binary(dataDir)),
      stdout: 'ignore',
      stderr: 'ignore',
    });
    children.add(proc);
    try {
      const until = async (path: string, ok: (status: number) => boolean) => {
        for (;;) {
          if (proc.exitCode !== null) throw new Error(`folio serve exited with ${proc.exitCode} during the cold start`);
          if (performance.now() - t0 > 20_000) throw new Error('folio serve did not answer within 20 s');
          try {
            const response = await fetch(base + path, { keepalive: false });
            await response.arrayBuffer();
            if (ok(response.status)) return performance.now() - t0;
          } catch {
            // not listening yet
          }
          await Bun.sleep(1);
        }
      };
      healthMs.push(round1(await until('/_health', (s) => s >= 200 && s < 300)));
      listMs.push(round1(await until('/api/articles', (s) => s === 200)));
    } finally {
      await stop(proc);
    }
  }
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  return { runs, healthMs, listMs, healthMedianMs: median(healthMs), listMedianMs: median(listMs) };
}
