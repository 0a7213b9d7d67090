/**
 * Cron as a Strapi project declares it (test/fixtures/projects/cron-js, also run on a copy of
 * the Strapi peer: the same authors appear there, one per task and second): config/cron-tasks
 * through server.cron (a rule-keyed task with seconds, a named one with options { rule, tz }),
 * strapi.cron.add from bootstrap, `fn({ strapi }, fireDate)` with the tick's time; tasks run
 * only once the instance has started and stop with it; server.cron.enabled false leaves the
 * config's tasks out (not strapi.cron.add's). On PostgreSQL two instances on one database run
 * each tick once between them.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { openInstance } from '../../src/instance';
import { resolveConfig } from '../../src/config';
import { readProject } from '../../src/project/config';
import { copyProject } from '../helpers/project';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

afterAll(() => removeTempDirs());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The authors the tasks wrote, as [task, tick] pairs. */
async function ticks(server: TestServer): Promise<[string, number][]> {
  const rows = await server.instance.project!.strapi.db.query('api::author.author').findMany({ select: ['name'], where: { name: { $startsWith: 'cron ' } } });
  return rows.map((r: { name: string }) => {
    const [, task, tick] = r.name.split(' ');
    return [task!, Number(tick)];
  });
}

describe('cron tasks of a project', () => {
  test("config tasks (rule-keyed and named with a tz) and strapi.cron.add run every second with the tick's time, and stop with the server", async () => {
    const server = await startServer({ contentTypes: copyProject('cron-js') });
    try {
      await sleep(2_600);
      const seen = await ticks(server);
      for (const task of ['every-second', 'paris', 'added']) {
        const mine = seen.filter(([t]) => t === task).map(([, tick]) => tick);
        expect(mine.length).toBeGreaterThanOrEqual(2);
        for (const tick of mine) expect(tick % 1000).toBe(0);
      }
    } finally {
      await server.stop();
    }
  }, 20_000);

  test("without server.cron.enabled only strapi.cron.add's task runs; a CLI command runs none", async () => {
    process.env.CRON_ENABLED = 'false';
    try {
      const server = await startServer({ contentTypes: copyProject('cron-js') });
      try {
        await sleep(1_600);
        expect(new Set((await ticks(server)).map(([task]) => task))).toEqual(new Set(['added']));
      } finally {
        await server.stop();
      }
    } finally {
      delete process.env.CRON_ENABLED;
    }
    // An instance opened as a command opens it (no start()): its project's tasks never run.
    const root = copyProject('cron-js');
    const config = resolveConfig({ contentTypes: root, data: tempDir() }, { readProject });
    const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
    const instance = await openInstance({ ...config, ...(database ? { databaseUrl: database } : {}) });
    await instance.project!.start();
    await sleep(1_300);
    const rows = await instance.project!.strapi.db.query('api::author.author').count({ where: { name: { $startsWith: 'cron ' } } });
    await instance.project!.stop();
    instance.close();
    if (database) await dropDatabases(TEST_DATABASE_URL!, [database]);
    expect(rows).toBe(0);
  }, 20_000);
});

describe.skipIf(!TEST_DATABASE_URL)('cron across instances on PostgreSQL', () => {
  test('two instances on one database run each tick of each task once between them', async () => {
    const database = await createDatabase(TEST_DATABASE_URL!, 'folio_test');
    const root = copyProject('cron-js');
    const first = await startServer({ contentTypes: root, config: { databaseUrl: database } });
    const second = await startServer({ contentTypes: root, config: { databaseUrl: database } });
    try {
      await sleep(3_300);
      const seen = await ticks(first);
      const keys = seen.map(([task, tick]) => `${task} ${tick}`);
      expect(keys.length).toBeGreaterThanOrEqual(6);
      expect(new Set(keys).size).toBe(keys.length);
      const runners = await first.instance.db.all<{ runner: string }>('SELECT DISTINCT "runner" FROM folio_cron_ticks');
      expect(runners.length).toBeGreaterThanOrEqual(1);
    } finally {
      await first.stop({ keepData: true });
      await second.stop({ keepData: true });
      await dropDatabases(TEST_DATABASE_URL!, [database]);
    }
  }, 30_000);
});
