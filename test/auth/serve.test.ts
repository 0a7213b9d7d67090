/**
 * `folio serve` on a port that is already taken fails at once, names the port and exits
 * non-zero (Bun's SO_REUSEPORT used to let a second process share the port silently and
 * take half of its connections). Real processes from source, as a user runs them.
 */
import { afterAll, afterEach, expect, it, setDefaultTimeout } from 'bun:test';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { TEST_DATABASE_URL, tempDir } from '../helpers/server';

setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, '../..');
const CONTENT_TYPES = resolve(ROOT, 'content-types');
const temps: string[] = [];
const databases: string[] = [];
const running = new Set<ReturnType<typeof Bun.spawn>>();

afterEach(() => {
  // Only the processes this file started, each by its own handle.
  for (const proc of running) if (proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
  running.clear();
});
afterAll(async () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
});

/** The environment without anything that would steer Folio, so the flags decide. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FOLIO_') && !['DATABASE_URL', 'PORT', 'HOST'].includes(k)) env[k] = v;
  return env;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

/** `bun src/cli.ts serve --port PORT` on a data dir (and, on PostgreSQL, a database) of its own. */
async function spawnServe(port: number, database?: string) {
  const data = tempDir('folio-serve-');
  temps.push(data);
  const args = [process.execPath, 'src/cli.ts', 'serve', '--port', String(port), '--data', data, '--content-types', CONTENT_TYPES];
  if (database) args.push('--database', database);
  const proc = Bun.spawn(args, { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  running.add(proc);
  return proc;
}

/** Reads stdout until "Folio listening on http://127.0.0.1:<port>"; returns the port. */
async function listeningPort(proc: ReturnType<typeof Bun.spawn>): Promise<number> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  let match: RegExpMatchArray | null = null;
  await within(
    (async () => {
      while (!(match = out.match(/^Folio listening on http:\/\/127\.0\.0\.1:(\d+)$/m))) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`serve ended before listening: ${out} ${await new Response(proc.stderr as ReadableStream).text()}`);
        out += decoder.decode(chunk.value, { stream: true });
      }
    })(),
    20_000,
    'the first server to listen',
  );
  // Keep draining so the server never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  return Number((match as unknown as RegExpMatchArray)[1]);
}

it('refuses to start a second folio serve on a port already in use: exits non-zero at once, naming the port', async () => {
  const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_serve') : undefined;
  if (database) databases.push(database);
  const first = await spawnServe(0, database);
  const port = await listeningPort(first);
  expect((await fetch(`http://127.0.0.1:${port}/_health`)).status).toBe(204);

  const second = await spawnServe(port, database);
  // "At once": it exits by itself, well inside this bound (a server that listens never would).
  const code = await within(second.exited, 20_000, 'the second serve to exit');
  const stderr = await new Response(second.stderr as ReadableStream).text();
  const stdout = await new Response(second.stdout as ReadableStream).text();
  expect(code).not.toBe(0);
  expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
  expect(stdout).not.toContain('Folio listening on');

  // The first one is untouched and still answers every request.
  for (let i = 0; i < 5; i++) expect((await fetch(`http://127.0.0.1:${port}/_health`)).status).toBe(204);
  first.kill('SIGTERM');
  expect(await within(first.exited, 10_000, 'the first serve to stop')).toBe(0);
});
