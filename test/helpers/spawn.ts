/**
 * The CLI as a user runs it, from source (`bun src/cli.ts …`): synchronous commands, and
 * `serve` as a child process that resolves once it logs "Folio listening on <url>".
 *
 * Every process started here is remembered, so a test file can end exactly the ones it
 * started (`killSpawned()` in afterEach), each by its own handle, never by name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../..');
export const CLI = join(ROOT, 'src/cli.ts');
export const BUN = process.execPath;
export const CONTENT_TYPES = join(ROOT, 'content-types');

type Proc = ReturnType<typeof Bun.spawn>;
const running = new Set<Proc>();

/** SIGKILLs every `serve` this module started that is still running, and waits for them to exit. */
export async function killSpawned(): Promise<void> {
  const procs = [...running];
  running.clear();
  for (const proc of procs) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
}

const temps: string[] = [];
/** A temp dir removed by `removeTempDirs()`. */
export function tempDir(prefix = 'folio-spawn-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The environment without anything that would steer Folio (so the flags under test decide), plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('FOLIO_') || k === 'PORT' || k === 'HOST' || k === 'DATABASE_URL') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Where an installation lives: the flags every command takes. `null` leaves a flag out. */
export interface InstallationFlags {
  data?: string | null;
  contentTypes?: string | null;
  /** `--database URL` (PostgreSQL or `sqlite:PATH`); left out when undefined. */
  database?: string;
  uploads?: string;
}

export interface CliOptions extends InstallationFlags {
  env?: Record<string, string>;
  cwd?: string;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function flagsOf(options: InstallationFlags): string[] {
  const flags: string[] = [];
  if (options.data !== null) flags.push('--data', options.data ?? tempDir());
  if (options.contentTypes !== null) flags.push('--content-types', options.contentTypes ?? CONTENT_TYPES);
  if (options.database) flags.push('--database', options.database);
  if (options.uploads) flags.push('--uploads', options.uploads);
  return flags;
}

/** `bun src/cli.ts ARGS --data … --content-types … [--database …]`, synchronously. */
export function runCli(args: string[], options: CliOptions = {}): CliRun {
  const result = Bun.spawnSync([BUN, CLI, ...args, ...flagsOf(options)], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Rejects with `what` if `promise` has not settled after `ms`. */
export function timeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

export interface SpawnedServer {
  proc: Proc;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** fetch relative to the server, JSON in and out (a body that is not JSON stays text). */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<CallResult>;
  /** SIGTERM, then the exit code (rejects if the process does not exit in time). */
  stop(): Promise<number>;
  /** SIGKILL (no chance to clean up), then waits for the process to be gone. */
  kill(): Promise<void>;
}

export interface ServeOptions extends CliOptions {
  port?: number;
  host?: string;
  /** How long to wait for "Folio listening on" (default 30 s: a loaded CI machine starts slowly). */
  startTimeoutMs?: number;
}

/** Collects a stream into a string until it ends; `onText` sees the text so far after each chunk. */
function drain(stream: ReadableStream<Uint8Array>, onText?: (all: string) => void): { text: () => string; ended: Promise<void> } {
  let text = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    const reader = stream.getReader();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      onText?.(text);
    }
  })();
  return { text: () => text, ended };
}

/** Starts `folio serve` (port 0 unless told) and resolves once it says where it listens. */
export async function serve(options: ServeOptions = {}): Promise<SpawnedServer> {
  const args = ['serve', '--port', String(options.port ?? 0), ...(options.host ? ['--host', options.host] : [])];
  const proc = Bun.spawn([BUN, CLI, ...args, ...flagsOf(options)], {
    cwd: options.cwd ?? ROOT,
    env: cleanEnv(options.env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  running.add(proc);
  const listening = /^Folio listening on (http:\/\/[^\s]+:(\d+))$/m;
  let found: (m: RegExpMatchArray) => void;
  const matched = new Promise<RegExpMatchArray>((r) => (found = r));
  // Both pipes are drained for the whole life of the process, so it never blocks on a full pipe.
  const out = drain(proc.stdout as ReadableStream<Uint8Array>, (all) => {
    const m = all.match(listening);
    if (m) found(m);
  });
  const err = drain(proc.stderr as ReadableStream<Uint8Array>);
  const first = await timeout(
    Promise.race([matched, out.ended.then(() => null)]),
    options.startTimeoutMs ?? 30_000,
    'waiting for "Folio listening on"',
  ).catch((error) => {
    proc.kill('SIGKILL');
    throw error;
  });
  // stdout may end in the same tick as the last line arrives: look once more.
  const match = first ?? out.text().match(listening);
  if (!match) {
    const code = await proc.exited;
    await err.ended;
    running.delete(proc);
    throw new Error(`serve ended before listening (exit ${code})\nstdout: ${out.text()}\nstderr: ${err.text()}`);
  }
  const stdout = out.text;
  const stderr = err.text;
  const url = match[1]!;
  return {
    proc,
    url,
    port: Number(match[2]),
    stdout,
    stderr,
    async call(method, path, { body, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop() {
      proc.kill('SIGTERM');
      const code = await timeout(proc.exited, 15_000, 'serve to exit after SIGTERM');
      running.delete(proc);
      return code;
    },
    async kill() {
      proc.kill('SIGKILL');
      await timeout(proc.exited, 15_000, 'serve to exit after SIGKILL');
      running.delete(proc);
    },
  };
}
