/**
 * An import or restore of an archive that is stopped part-way leaves no work files (issue #35,
 * point 11): SIGINT (Ctrl-C) or SIGTERM to a child `folio import` removes what it wrote and
 * exits 130 or 143, the target as it was; after a SIGKILL, which leaves no chance to clean up,
 * the work files of the dead process go with the next import or restore and with the next
 * opening of the installation (`serve`, any command), and an old database a replacement had
 * moved aside when it died comes back. SQLite: the work files are SQLite's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliCommand, cliOutput, cliSpawnOptions, killSpawned, lines, removeTempDirs, runCli, serve, tempDir, type CliOptions } from '../helpers/spawn';

const SLOW = 120_000;

afterEach(killSpawned);
afterAll(removeTempDirs);

let archive: string;

/** An export big enough (30,000 tags: 60,000 rows) that an import of it takes a few seconds. */
beforeAll(() => {
  const source: CliOptions = { data: tempDir('folio-interrupt-src-') };
  const dir = tempDir('folio-interrupt-');
  const file = join(dir, 'tags.jsonl');
  writeFileSync(file, Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ name: `tag ${i} ${'y'.repeat(80)}` })).join('\n') + '\n');
  cliOutput(['import', file, '--type', 'tags'], source);
  archive = join(dir, 'export.tar.gz');
  cliOutput(['export', archive], source);
}, SLOW);

/** Starts `folio ARGS` and resolves once its output shows `ready` (the import is writing its work file). */
async function startUntil(args: string[], options: CliOptions, ready: RegExp) {
  const proc = Bun.spawn(cliCommand(args, options), { ...cliSpawnOptions(options), stdout: 'pipe', stderr: 'pipe' });
  const decoder = new TextDecoder();
  let stdout = '';
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  while (!ready.test(stdout)) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`folio ${args.join(' ')} ended before printing ${ready}: ${stdout}`);
    stdout += decoder.decode(chunk.value, { stream: true });
  }
  const rest = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return stdout;
      stdout += decoder.decode(chunk.value, { stream: true });
    }
  })();
  return { proc, finished: async () => ({ code: await proc.exited, stdout: await rest, stderr: await new Response(proc.stderr as ReadableStream).text() }) };
}

const WRITING = /^imported folio_roles: /m;
const workFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => /importing-|restoring-|folio-replaced-|folio-discard-|folio-staging-/.test(f))
    : [];

/** A pid no process has: a child that has already exited. */
async function deadPid(): Promise<number> {
  const proc = Bun.spawn(['true']);
  await proc.exited;
  return proc.pid;
}

describe('an interrupted folio import ARCHIVE', () => {
  it(
    'on SIGINT into a new data dir removes everything it wrote and exits 130',
    async () => {
      const target: CliOptions = { data: join(tempDir('folio-interrupt-target-'), 'data') };
      const running = await startUntil(['import', archive], target, WRITING);
      expect(workFiles(target.data!).length).toBeGreaterThan(0);
      running.proc.kill('SIGINT');
      const run = await running.finished();
      expect(run.code).toBe(130);
      expect(run.stderr).toBe('Interrupted (SIGINT): what was written is undone; the target is as it was\n');
      expect(run.stdout).not.toMatch(/^done/m);
      expect(existsSync(target.data!)).toBe(false);
    },
    SLOW,
  );

  it(
    'on SIGTERM with --force over an installation leaves that installation as it was and exits 143',
    async () => {
      const target: CliOptions = { data: tempDir('folio-interrupt-target-') };
      const key = lines(cliOutput(['token', 'create', '--name', 'kept', '--type', 'read-only'], target)).at(-1)!;
      const before = readdirSync(target.data!).sort();
      const running = await startUntil(['import', archive, '--force'], target, WRITING);
      running.proc.kill('SIGTERM');
      const run = await running.finished();
      expect(run.code).toBe(143);
      expect(run.stderr).toBe('Interrupted (SIGTERM): what was written is undone; the target is as it was\n');
      expect(readdirSync(target.data!).sort()).toEqual(before);
      expect(cliOutput(['token', 'list'], target)).toMatch(/kept/);
      const server = await serve(target);
      expect((await server.call('GET', '/api/tags', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      await server.stop();
    },
    SLOW,
  );

  it(
    'killed with SIGKILL leaves work files that the next import, and the next opening of the installation, remove',
    async () => {
      for (const next of ['import', 'token list'] as const) {
        const target: CliOptions = { data: join(tempDir('folio-interrupt-target-'), 'data') };
        const running = await startUntil(['import', archive], target, WRITING);
        running.proc.kill('SIGKILL');
        expect((await running.finished()).code).toBe(137);
        const left = workFiles(target.data!);
        expect(left).toContain(`folio.db.importing-${running.proc.pid}`);

        const run = next === 'import' ? runCli(['import', archive], target) : runCli(['token', 'list'], target);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(workFiles(target.data!)).toEqual([]);
        if (next === 'import') expect(run.stdout).toMatch(/counts checked\n$/);
      }
    },
    SLOW,
  );

  it(
    'killed in the middle of swapping databases: the next opening puts the old installation back',
    async () => {
      const target: CliOptions = { data: tempDir('folio-interrupt-target-') };
      cliOutput(['token', 'create', '--name', 'old-installation', '--type', 'read-only'], target);
      // What a replacement by a process that died leaves: the old files aside, a new (here
      // unfinished) database under the name, a new secrets.json, and its staging folder.
      const pid = await deadPid();
      const dir = target.data!;
      const aside = join(dir, `.folio-replaced-${pid}`);
      mkdirSync(aside);
      for (const name of readdirSync(dir).filter((f) => f.startsWith('folio.db'))) renameSync(join(dir, name), join(aside, name));
      renameSync(join(dir, 'secrets.json'), join(aside, 'secrets.json'));
      writeFileSync(join(dir, 'folio.db'), 'not yet a database');
      writeFileSync(join(dir, 'secrets.json'), '{"apiTokenSalt":"new"}');
      mkdirSync(join(dir, 'uploads', `.folio-staging-${pid}`), { recursive: true });

      expect(cliOutput(['token', 'list'], target)).toMatch(/old-installation/);
      expect(workFiles(dir).filter((f) => !f.includes('staging'))).toEqual([]);
      // The staging folder goes with the next import or restore.
      const restore = runCli(['restore', archive, '--force'], target);
      expect(restore.code).toBe(0);
      expect(workFiles(dir)).toEqual([]);
    },
    SLOW,
  );
});
