/**
 * startFolio() instances are independent of each other and of the process: two in one
 * process with different schemas for the same uid, `:memory:` databases, and a child `bun`
 * process that starts and stops Folio and must then exit on its own, leaving nothing behind.
 * On PostgreSQL (FOLIO_TEST_DATABASE_URL) each instance gets a fresh database.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startFolio, type Folio } from '../../src/index';
import { callJson } from '../helpers/call';
import { onPostgres } from '../helpers/server';
import { dropAll, freshDatabase } from './fixtures/databases';

// Each start on PostgreSQL migrates a fresh database: slow on a loaded machine.
setDefaultTimeout(60_000);
// Dropping PostgreSQL databases may take longer than a hook's default 5 s.
afterAll(() => dropAll(), 60_000);

const page = (attributes: Record<string, unknown>) => ({
  kind: 'collectionType',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  options: { draftAndPublish: false },
  attributes,
});
/** Two schemas for `api::page.page`: a short title and a view count, or a long title and a required heading. */
const SHORT = { page: page({ title: { type: 'string', maxLength: 10 }, views: { type: 'integer', min: 0 } }) };
const LONG = { page: page({ title: { type: 'string', maxLength: 50 }, heading: { type: 'text', required: true } }) };

/** `:memory:` on SQLite; a fresh database of its own on PostgreSQL. */
const database = async () => (await freshDatabase()) ?? ':memory:';
const post = (folio: Folio, data: unknown) =>
  callJson(folio.url, 'POST', '/api/pages', { body: { data }, headers: { Authorization: `Bearer ${folio.token('full-access')}` } });
const get = (folio: Folio, path: string) => callJson(folio.url, 'GET', path, { headers: { Authorization: `Bearer ${folio.token('read-only')}` } });

describe('two instances in one process', () => {
  test('with different schemas for api::page.page, each validates, filters and reads by its own', async () => {
    const [short, long] = await Promise.all([
      startFolio({ contentTypes: SHORT, database: await database() }),
      startFolio({ contentTypes: LONG, database: await database() }),
    ]);
    try {
      const title = 'Twenty characters!!!';
      // Interleaved: each request is checked against its own instance's compiled fields.
      const [tooLong, fits] = await Promise.all([post(short, { title, views: 1 }), post(long, { title, heading: 'H' })]);
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.message).toContain('title must be at most 10 characters');
      expect(fits.status).toBe(201);
      expect((await post(long, { title: 'x', views: 1, heading: 'H' })).body.error.message).toBe('Invalid key views');
      expect((await post(long, { title: 'x' })).status).toBe(400);
      expect((await post(short, { title: 'Short', views: 3 })).status).toBe(201);
      expect((await post(short, { title: 'No', heading: 'H' })).body.error.message).toBe('Invalid key heading');

      const shortPages = (await get(short, '/api/pages?filters[views][$gt]=1')).body.data;
      expect(shortPages.map((p: any) => [p.title, p.views, 'heading' in p])).toEqual([['Short', 3, false]]);
      expect((await get(long, '/api/pages?filters[views][$gt]=1')).status).toBe(400);
      const longPages = (await get(long, '/api/pages')).body.data;
      expect(longPages.map((p: any) => [p.title, p.heading, 'views' in p])).toEqual([[title, 'H', false]]);

      // The document services too: each reads its own rows through its own schema.
      const viaShort = await short.documents.findMany(short.contentType('api::page.page'), await short.readQuery('pages'));
      const viaLong = await long.documents.findMany(long.contentType('api::page.page'), await long.readQuery('pages'));
      expect(viaShort.data.map((p) => p.title)).toEqual(['Short']);
      expect(viaLong.data.map((p) => p.title)).toEqual([title]);
      await expect(long.documents.create(long.contentType('pages'), { title: 'ok', heading: 'H', views: 2 })).rejects.toThrow('Invalid key views');
    } finally {
      await Promise.all([short.stop(), long.stop()]);
    }
  });
});

describe(':memory:', () => {
  test.skipIf(onPostgres)('keeps the database out of the data folder, apart from other :memory: instances, and gone after stop()', async () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-lib-data-'));
    try {
      const one = await startFolio({ contentTypes: SHORT, data, database: ':memory:', seed: { pages: [{ title: 'One' }] } });
      const two = await startFolio({ contentTypes: SHORT, database: ':memory:', seed: { pages: [{ title: 'Two' }] } });
      const file = one.instance.config.databaseUrl!.slice('sqlite:'.length);
      expect(existsSync(file)).toBe(true);
      if (existsSync('/dev/shm')) expect(file.startsWith('/dev/shm/')).toBe(true);
      expect(readdirSync(data).filter((f) => f.startsWith('folio.db'))).toEqual([]);
      expect((await get(one, '/api/pages')).body.data.map((p: any) => p.title)).toEqual(['One']);
      expect((await get(two, '/api/pages')).body.data.map((p: any) => p.title)).toEqual(['Two']);
      await Promise.all([one.stop(), two.stop()]);
      expect(existsSync(dirname(file))).toBe(false);
      // The data folder given is the caller's: kept.
      expect(existsSync(data)).toBe(true);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('stop()', () => {
  const INDEX = resolve(import.meta.dir, '../../src/index.ts');
  const script = `
    import { startFolio } from ${JSON.stringify(INDEX)};
    const contentTypes = ${JSON.stringify(SHORT)};
    const folio = await startFolio({ contentTypes, database: process.env.CHILD_DATABASE || undefined, seed: { pages: [{ title: 'Kept' }] } });
    const memory = process.env.CHILD_DATABASE ? undefined : await startFolio({ contentTypes, database: ':memory:' });
    // A webhook to a closed port: a write makes a delivery fail and schedule its retry timer.
    await folio.instance.webhooks.create({ name: 'w', url: 'http://127.0.0.1:9/hook', events: ['entry.create'] });
    await folio.documents.create(folio.contentType('pages'), { title: 'Fires' });
    // A kept-alive connection is open when stop() runs.
    const response = await fetch(folio.url + '/api/pages', { headers: { Authorization: 'Bearer ' + folio.token('read-only') } });
    const titles = (await response.json()).data.map((p) => p.title);
    await folio.stop();
    await memory?.stop();
    const port = await fetch(folio.url + '/_health').then(() => 'open', () => 'closed');
    console.log(JSON.stringify({ titles, port, memory: memory?.instance.config.databaseUrl }));
  `;

  test('leaves no files, no open port and nothing that keeps a child bun process from exiting on its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-lib-child-'));
    const childTmp = join(dir, 'tmp');
    try {
      mkdirSync(childTmp);
      writeFileSync(join(dir, 'child.ts'), script);
      const env = { ...process.env, TMPDIR: childTmp, CHILD_DATABASE: (await freshDatabase()) ?? '' };
      const child = Bun.spawn([process.execPath, join(dir, 'child.ts')], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' });
      // The bound is generous (a loaded CI machine): the child must end by itself, long before it.
      const bound = setTimeout(() => child.kill(), 30_000);
      const exitCode = await child.exited;
      clearTimeout(bound);
      const [stdout, stderr] = [await new Response(child.stdout).text(), await new Response(child.stderr).text()];
      // stderr only explains a failure: warnings (the admin set-up notice) may be written there.
      expect({ exitCode, signal: child.signalCode, stderr: exitCode ? stderr : '' }).toEqual({ exitCode: 0, signal: null, stderr: '' });
      const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
      expect(report.titles.sort()).toEqual(['Fires', 'Kept']);
      expect(report.port).toBe('closed');
      // Every temporary folder (schemas, data) was made under the child's TMPDIR, and is gone.
      expect(readdirSync(childTmp)).toEqual([]);
      if (report.memory) expect(existsSync(dirname(report.memory.slice('sqlite:'.length)))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('may be called twice, and a second call waits for the same stop', async () => {
    const folio = await startFolio({ contentTypes: SHORT, database: await database() });
    const [a, b] = [folio.stop(), folio.stop()];
    expect(a).toBe(b);
    await a;
    await folio.stop();
    expect(
      await fetch(`${folio.url}/_health`).then(
        () => 'open',
        () => 'closed',
      ),
    ).toBe('closed');
  });
});
