/**
 * Folio as a user runs it, in child processes: from source (`bun src/cli.ts …`) or as the
 * compiled executable (`exe: BINARY`, or any copy of it), with the same options either way.
 * Synchronous commands (`runCli`), commands awaited (`spawnCli`), and `serve` as a child
 * process that resolves once it logs "Folio listening on <url>".
 *
 * The tests and the benchmark (bench/run.ts, bench/postgres.ts) both start Folio through
 * this file; it imports nothing but Node built-ins and ./call.ts (no test framework, no
 * src/), so a script outside test/ may use it.
 *
 * Every process started here is remembered, so a test file can end exactly the ones it
 * started (`killSpawned()` in afterEach), each by its own handle, never by name.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { callJson, type CallOptions, type CallResult } from './call';

export type { CallResult };

export const ROOT = resolve(import.meta.dir, '../..');
export const CLI = join(ROOT, 'src/cli.ts');
export const BUN = process.execPath;
export const CONTENT_TYPES = join(ROOT, 'content-types');
/** Where `npm run build` writes the executable. */
export const BINARY = join(ROOT, 'dist/folio');

type Proc = ReturnType<typeof Bun.spawn>;
const running = new Set<Proc>();

/** SIGKILLs every process this module started that is still running, and waits for them to exit. */
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

/** A private copy of the example content types (in a temp dir) that a test may edit. */
export function copyContentTypes(): string {
  const dir = join(tempDir('folio-ct-'), 'content-types');
  cpSync(CONTENT_TYPES, dir, { recursive: true });
  return dir;
}

/**
 * The environment without anything that would steer Folio (so the flags under test decide),
 * plus `extra`. For a compiled executable also without `BUN_*`: the Bun runtime inside it
 * still reads them (`BUN_BE_BUN=1` turns it into the bun CLI, `BUN_OPTIONS` adds flags).
 */
/**
 * package.json's "build" script as a command for `Bun.spawnSync`, writing to `outfile` and run
 * by this Bun: the "bun build --compile … --outfile FILE" step after its `node node/bun.cjs &&`.
 * Throws when the script is not such a command, so a changed script is noticed here.
 */
export function buildCommand(outfile: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build;
  const words = script
    .replace(/^.*&&\s*/, '')
    .trim()
    .split(/\s+/);
  const out = words.indexOf('--outfile');
  if (words.slice(0, 3).join(' ') !== 'bun build --compile' || out < 0)
    throw new Error(`package.json "build" is not a "bun build --compile … --outfile FILE" command: ${script}`);
  words[out + 1] = outfile;
  words[0] = process.execPath;
  return words;
}

export function cleanEnv(extra: Record<string, string> = {}, { binary = false } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('FOLIO_') || k === 'PORT' || k === 'HOST' || k === 'DATABASE_URL') continue;
    if (binary && k.startsWith('BUN_')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Where an installation lives: the flags every command takes. `null` leaves a flag out. */
export interface InstallationFlags {
  /** `--data DIR`; a new temp dir when undefined. */
  data?: string | null;
  /** `--content-types DIR`; the example content types when undefined. */
  contentTypes?: string | null;
  /** `--database URL` (PostgreSQL or `sqlite:PATH`); left out when undefined. */
  database?: string;
  uploads?: string;
}

export interface CliOptions extends InstallationFlags {
  /** Added to the clean environment. */
  env?: Record<string, string>;
  /** Working directory (default: the repository root). */
  cwd?: string;
  /** A compiled Folio executable to run instead of `bun src/cli.ts` (e.g. BINARY). */
  exe?: string;
  /** A command to run Folio under, e.g. `['taskset', '-c', '0']` (the benchmark pins the server). */
  wrap?: string[];
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The non-empty lines of a command's output. */
export const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

function flagsOf(options: InstallationFlags): string[] {
  const flags: string[] = [];
  if (options.data !== null) flags.push('--data', options.data ?? tempDir());
  if (options.contentTypes !== null) flags.push('--content-types', options.contentTypes ?? CONTENT_TYPES);
  if (options.database) flags.push('--database', options.database);
  if (options.uploads) flags.push('--uploads', options.uploads);
  return flags;
}

/** The command line: `[wrap…] (bun src/cli.ts | exe) ARGS --data … --content-types … [--database …]`. */
export function cliCommand(args: string[], options: CliOptions = {}): string[] {
  return [...(options.wrap ?? []), ...(options.exe ? [options.exe] : [BUN, CLI]), ...args, ...flagsOf(options)];
}

/** What `Bun.spawn` needs beside the command: working directory and environment. */
export function cliSpawnOptions(options: CliOptions = {}): { cwd: string; env: Record<string, string> } {
  return { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env, { binary: !!options.exe }) };
}

/** Runs a command to its end, synchronously. */
export function runCli(args: string[], options: CliOptions & { stdin?: string | Uint8Array } = {}): CliRun {
  const stdin = typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : options.stdin;
  const result = Bun.spawnSync(cliCommand(args, options), {
    ...cliSpawnOptions(options),
    ...(stdin ? { stdin } : {}),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Runs a command that must succeed and returns its stdout; a non-zero exit throws with both outputs. */
export function cliOutput(args: string[], options: CliOptions & { stdin?: string | Uint8Array } = {}): string {
  const run = runCli(args, options);
  if (run.code !== 0) throw new Error(`folio ${args.join(' ')} → ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/**
 * Runs a command to its end without blocking the test process: for a command that might
 * not end (a `serve` expected to fail), wrap it in `timeout`; `killSpawned` ends it.
 */
export async function spawnCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const proc = Bun.spawn(cliCommand(args, options), { ...cliSpawnOptions(options), stdout: 'pipe', stderr: 'pipe' });
  running.add(proc);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream).text(),
    new Response(proc.stderr as ReadableStream).text(),
    proc.exited,
  ]);
  running.delete(proc);
  return { code, stdout, stderr };
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

export interface SpawnedServer {
  proc: Proc;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  /** fetch relative to the server, JSON in and out (a body that is not JSON stays text). */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
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

export interface SpawnServerOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** The line announcing the server; its first group is the URL (`http://host:port`). */
  listening: RegExp;
  startTimeoutMs?: number;
  /** Names the server in errors. */
  what?: string;
}

/** Starts any HTTP server process (Folio, the benchmark's baseline) and resolves once it prints where it listens. */
export async function spawnServer(command: string[], options: SpawnServerOptions): Promise<SpawnedServer> {
  const what = options.what ?? 'serve';
  const proc = Bun.spawn(command, { cwd: options.cwd ?? ROOT, env: options.env ?? cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  running.add(proc);
  let found: (m: RegExpMatchArray) => void;
  const matched = new Promise<RegExpMatchArray>((r) => (found = r));
  // Both pipes are drained for the whole life of the process, so it never blocks on a full pipe.
  const out = drain(proc.stdout as ReadableStream<Uint8Array>, (all) => {
    const m = all.match(options.listening);
    if (m) found(m);
  });
  const err = drain(proc.stderr as ReadableStream<Uint8Array>);
  const first = await timeout(
    Promise.race([matched, out.ended.then(() => null)]),
    options.startTimeoutMs ?? 30_000,
    `waiting for ${what} to print ${options.listening}`,
  ).catch((error) => {
    proc.kill('SIGKILL');
    throw error;
  });
  // stdout may end in the same tick as the last line arrives: look once more.
  const match = first ?? out.text().match(options.listening);
  if (!match) {
    const code = await proc.exited;
    await err.ended;
    running.delete(proc);
    throw new Error(`${what} ended before listening (exit ${code})\nstdout: ${out.text()}\nstderr: ${err.text()}`);
  }
  const url = match[1]!;
  return {
    proc,
    url,
    port: Number(new URL(url).port),
    stdout: out.text,
    stderr: err.text,
    call: (method, path, options) => callJson(url, method, path, options),
    async stop() {
      proc.kill('SIGTERM');
      const code = await timeout(proc.exited, 15_000, `${what} to exit after SIGTERM`);
      running.delete(proc);
      return code;
    },
    async kill() {
      proc.kill('SIGKILL');
      await timeout(proc.exited, 15_000, `${what} to exit after SIGKILL`);
      running.delete(proc);
    },
  };
}

const FOLIO_LISTENING = /^Folio listening on (http:\/\/\S+:\d+)$/m;

/** Starts `folio serve` (port 0 unless told) and resolves once it says where it listens. */
export function serve(options: ServeOptions = {}): Promise<SpawnedServer> {
  const args = ['serve', '--port', String(options.port ?? 0), ...(options.host ? ['--host', options.host] : [])];
  return spawnServer(cliCommand(args, options), {
    ...cliSpawnOptions(options),
    listening: FOLIO_LISTENING,
    startTimeoutMs: options.startTimeoutMs,
  });
}
