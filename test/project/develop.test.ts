/**
 * Development: a project's code reloads in the running server when a file changes (`folio
 * develop`, `folio serve --watch`; project/reload.ts) within a second, keeping the data and the
 * server (a request in flight during the reload completes); the old code's hooks are taken back
 * (a lifecycle does not run twice), a file that fails to load leaves the old code serving, and
 * `folio console` opens a REPL with `strapi` bound. Both engines.
 */
import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../../src/log';
import { ProjectReloader } from '../../src/project/reload';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { copyProject } from '../helpers/project';
import { startServer, TEST_DATABASE_URL } from '../helpers/server';
import { cliCommand, cliSpawnOptions, killSpawned, removeTempDirs, runCli, spawnServer } from '../helpers/spawn';

const created: string[] = [];
afterEach(async () => {
  await killSpawned();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, created.splice(0));
});
afterAll(() => removeTempDirs());

async function database(): Promise<{ database?: string }> {
  if (!TEST_DATABASE_URL) return {};
  const url = await createDatabase(TEST_DATABASE_URL, 'folio_test');
  created.push(url);
  return { database: url };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it is true; answers how long it took (ms), or throws after `ms`. */
async function until(check: () => Promise<boolean>, ms = 5_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await check()) return performance.now() - started;
    await sleep(25);
  }
  throw new Error(`not true after ${ms} ms`);
}

/** Rewrites a project file with `change` applied to its text. */
function edit(root: string, path: string, change: (text: string) => string) {
  const file = join(root, path);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

const SLOW_ROUTE = {
  'src/api/slow/routes/slow.js': "module.exports = { routes: [{ method: 'GET', path: '/slow', handler: 'slow.wait', config: { auth: false } }] };\n",
  'src/api/slow/controllers/slow.js': 'module.exports = { async wait(ctx) { await new Promise((r) => setTimeout(r, 400)); ctx.body = { waited: true }; } };\n',
};

describe('a watched project reloads its code', () => {
  test('a changed controller and lifecycle answer within a second; data, the server and a request in flight stay; old hooks are gone', async () => {
    const root = copyProject('blog-js', SLOW_ROUTE);
    const server = await startServer({ contentTypes: root });
    const reloader = new ProjectReloader(server.instance, createLogger({ level: 'error' })).watch();
    try {
      const before = await server.call('POST', '/api/articles', { body: { data: { title: 'Before Reload' } } });
      expect(before.body.data.slug).toBe('before-reload');
      const inFlight = server.call('GET', '/api/slow');
      await sleep(50);
      edit(root, 'src/api/article/controllers/article.js', (t) => t.replace("ctx.set('x-ping', 'pong');", "ctx.set('x-ping', 'reloaded');"));
      edit(root, 'src/api/article/content-types/article/lifecycles.js', (t) =>
        t.replace(".replace(/[^a-z0-9]+/g, '-');", ".replace(/[^a-z0-9]+/g, '-') + '-v2';"),
      );
      const took = await until(async () => (await server.call('GET', '/api/ping')).headers.get('x-ping') === 'reloaded');
      expect(took).toBeLessThan(1_000);
      expect((await inFlight).body).toEqual({ waited: true });
      const after = await server.call('POST', '/api/articles', { body: { data: { title: 'After Reload' } } });
      expect(after.body.data.slug).toBe('after-reload-v2');
      const titles = (await server.call('GET', '/api/articles?sort=title')).body.data.map((a: { title: string }) => a.title);
      expect(titles).toEqual(['After Reload', 'Before Reload']);
      // The bootstrap ran again on the same data: it seeds only an empty table.
      expect((await server.call('GET', '/api/tags')).body.data.map((t: { name: string }) => t.name)).toEqual(['seeded']);
    } finally {
      reloader.close();
      await server.stop();
    }
  }, 30_000);

  test('a file that fails to load leaves the previous code serving; fixing it reloads', async () => {
    const root = copyProject('blog-js');
    const server = await startServer({ contentTypes: root });
    const errors: string[] = [];
    const log = createLogger({ level: 'error' });
    const reloader = new ProjectReloader(server.instance, { ...log, error: (message: string) => void errors.push(message) } as typeof log).watch();
    try {
      edit(root, 'src/api/article/controllers/article.js', (t) => t.replace('async ping(ctx) {', 'async ping(ctx) { ((('));
      await until(async () => errors.length > 0);
      expect(errors[0]).toMatch(/project code not reloaded.*src\/api\/article\/controllers\/article\.js/);
      expect((await server.call('GET', '/api/ping')).headers.get('x-ping')).toBe('pong');
      edit(root, 'src/api/article/controllers/article.js', (t) =>
        t.replace('async ping(ctx) { (((', 'async ping(ctx) {').replace("'x-ping', 'pong'", "'x-ping', 'fixed'"),
      );
      await until(async () => (await server.call('GET', '/api/ping')).headers.get('x-ping') === 'fixed');
    } finally {
      reloader.close();
      await server.stop();
    }
  }, 30_000);
});

describe('the commands', () => {
  test('folio develop reloads a changed route within a second', async () => {
    const root = copyProject('blog-js');
    const server = await spawnServer(cliCommand(['develop', '--port', '0', '--project', root], { contentTypes: null, ...(await database()) }), {
      ...cliSpawnOptions(),
      listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    });
    expect(server.stdout()).toContain(`Watching ${root}`);
    expect((await server.call('GET', '/api/ping')).body.pong).toBe(true);
    edit(root, 'src/api/article/controllers/article.js', (t) => t.replace('pong: true', "pong: 'developed'"));
    const took = await until(async () => (await server.call('GET', '/api/ping')).body.pong === 'developed');
    expect(took).toBeLessThan(1_000);
    await server.stop();
  }, 60_000);

  test('folio console opens a REPL with strapi bound', async () => {
    const root = copyProject('blog-js');
    const run = runCli(['console', '--project', root], { contentTypes: null, ...(await database()), stdin: 'strapi.config.get("blog.title")\n.exit\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`strapi > "Folio's blog"`);
  }, 60_000);
});
