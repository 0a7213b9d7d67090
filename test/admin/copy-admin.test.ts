/**
 * Folio Admin's data through `folio copy` (SQLite → PostgreSQL) and back (`folio export` from
 * PostgreSQL, `folio import` into a new SQLite installation): the admin accounts (they log in
 * after each move, with their roles; a blocked one stays blocked), and what the settings pages
 * manage (roles' permissions, locales, webhooks, API tokens). Admin sessions need not
 * survive (logging in again is enough), and are not carried.
 * Needs PostgreSQL: skipped unless FOLIO_TEST_DATABASE_URL is set.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AdminAccounts } from '../../src/admin/accounts';
import { main } from '../../src/cli/main';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { EXAMPLE_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
if (!ADMIN_URL) console.warn('[test/admin/copy-admin] skipped: set FOLIO_TEST_DATABASE_URL (folio copy needs a PostgreSQL target)');

const temps: string[] = [];
const databases: string[] = [];
afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
const dir = () => {
  const d = tempDir('folio-admin-copy-');
  temps.push(d);
  return d;
};

async function login(server: TestServer, email: string, password: string) {
  const response = await server.call('POST', '/admin/api/login', { body: { email, password } });
  return {
    status: response.status,
    role: response.body.data?.user?.role as string | undefined,
    cookie: response.headers.get('set-cookie')?.split(';')[0] ?? '',
  };
}

/** What the settings pages show, read through /admin/api as a Super Admin sees it. */
async function settingsOf(server: TestServer, cookie: string) {
  const get = async (path: string) => (await server.call('GET', `/admin/api/settings/${path}`, { headers: { cookie } })).body.data;
  const admins = ((await get('admins')) as { email: string; role: string }[]).map(({ email, role }) => ({ email, role }));
  const webhooks = ((await get('webhooks')) as { name: string; url: string; events: string[] }[]).map(({ name, url, events }) => ({ name, url, events }));
  const tokens = ((await get('tokens')) as { name: string; type: string }[]).map(({ name, type }) => ({ name, type }));
  return {
    admins: admins.sort((a, b) => a.email.localeCompare(b.email)),
    locales: ((await get('locales')) as { code: string; isDefault: boolean }[]).map(({ code, isDefault }) => ({ code, isDefault: !!isDefault })),
    publicRole: await server.instance.roles.permissions(),
    webhooks,
    tokens: tokens.sort((a, b) => a.name.localeCompare(b.name)),
  };
}

describe.skipIf(!ADMIN_URL)('folio copy and Folio Admin data', () => {
  test('admins (with their roles and blocks) and the settings survive SQLite → PostgreSQL → SQLite; each admin logs in again after each move', async () => {
    // 1. A SQLite installation with two admins, a blocked one, a live session and settings.
    const sqliteDir = dir();
    const source = await startServer({ dataDir: sqliteDir, config: { databaseUrl: undefined } });
    const accounts = new AdminAccounts(source.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
    await accounts.create({ email: 'gone@example.com', password: 'blocked password', role: 'editor' });
    const root = await login(source, 'root@example.com', 'correct horse');
    expect(root.status).toBe(200);
    // The admin has no "block" control yet; the column exists (migration 0009) and login honours it.
    await source.instance.db.run(`UPDATE folio_admin_users SET "blocked" = 1 WHERE "email" = 'gone@example.com'`);
    const gone = (await accounts.list()).find((a) => a.email === 'gone@example.com')!;
    expect((await login(source, 'gone@example.com', 'blocked password')).status).toBe(401);
    await source.instance.locales.add('de', 'German (de)');
    await source.instance.roles.grant('authenticated', ['api::tag.tag.find']);
    await source.instance.webhooks.create({ name: 'deploy', url: 'https://hooks.example.com/deploy', events: ['entry.publish'] });
    const before = await settingsOf(source, root.cookie);
    expect(before.admins).toEqual([
      { email: 'ed@example.com', role: 'editor' },
      { email: 'gone@example.com', role: 'editor' },
      { email: 'root@example.com', role: 'super-admin' },
    ]);
    await source.stop({ keepData: true });

    // 2. folio copy into an empty PostgreSQL database.
    const pgUrl = await createDatabase(ADMIN_URL!, 'folio_admin_copy');
    databases.push(pgUrl);
    expect(await main(['copy', '--to', pgUrl, '--data', sqliteDir, '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    const onPostgres = await startServer({ dataDir: dir(), config: { databaseUrl: pgUrl } });
    try {
      expect((await login(onPostgres, 'root@example.com', 'correct horse')).role).toBe('super-admin');
      expect((await login(onPostgres, 'ed@example.com', 'editor password')).role).toBe('editor');
      expect((await login(onPostgres, 'gone@example.com', 'blocked password')).status).toBe(401);
      const again = await login(onPostgres, 'root@example.com', 'correct horse');
      expect(await settingsOf(onPostgres, again.cookie)).toEqual(before);
      // A new admin gets a fresh id after the copied ones.
      expect(
        (await new AdminAccounts(onPostgres.instance.db).create({ email: 'new@example.com', password: 'correct horse', role: 'editor' })).id,
      ).toBeGreaterThan(gone.id);
      await onPostgres.stop({ keepData: true });
    } catch (error) {
      await onPostgres.stop({ keepData: true });
      throw error;
    }

    // 3. Back to SQLite: export from PostgreSQL, import into a new installation.
    const archive = join(dir(), 'folio.tar.gz');
    expect(await main(['export', archive, '--database', pgUrl, '--data', dir(), '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    const backDir = dir();
    expect(await main(['import', archive, '--data', backDir, '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    const back = await startServer({ dataDir: backDir, config: { databaseUrl: undefined } });
    try {
      expect((await login(back, 'ed@example.com', 'editor password')).role).toBe('editor');
      expect((await login(back, 'gone@example.com', 'blocked password')).status).toBe(401);
      const rootBack = await login(back, 'root@example.com', 'correct horse');
      expect(rootBack.role).toBe('super-admin');
      const after = await settingsOf(back, rootBack.cookie);
      expect(after).toEqual({
        ...before,
        admins: [...before.admins, { email: 'new@example.com', role: 'editor' }].sort((a, b) => a.email.localeCompare(b.email)),
      });
    } finally {
      await back.stop();
    }
  }, 120_000);

  test('admin sessions are not carried: a cookie of the source does not open the copy, export or import', async () => {
    const sqliteDir = dir();
    const source = await startServer({ dataDir: sqliteDir, config: { databaseUrl: undefined } });
    await new AdminAccounts(source.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const { cookie } = await login(source, 'root@example.com', 'correct horse');
    expect((await source.call('GET', '/admin/api/settings/admins', { headers: { cookie } })).status).toBe(200);
    await source.stop({ keepData: true });

    const pgUrl = await createDatabase(ADMIN_URL!, 'folio_admin_sessions');
    databases.push(pgUrl);
    expect(await main(['copy', '--to', pgUrl, '--data', sqliteDir, '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    const archive = join(dir(), 'folio.tar.gz');
    expect(await main(['export', archive, '--data', sqliteDir, '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    const importedDir = dir();
    expect(await main(['import', archive, '--data', importedDir, '--content-types', EXAMPLE_CONTENT_TYPES])).toBe(0);
    for (const config of [{ databaseUrl: pgUrl }, { databaseUrl: undefined }]) {
      const copy = await startServer({ dataDir: config.databaseUrl ? dir() : importedDir, config });
      try {
        expect((await copy.call('GET', '/admin/api/settings/admins', { headers: { cookie } })).status).toBe(401);
        expect((await copy.instance.db.get<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM folio_admin_sessions'))?.n).toBe(0);
        // The account itself came along: logging in again works.
        expect((await login(copy, 'root@example.com', 'correct horse')).status).toBe(200);
      } finally {
        await copy.stop();
      }
    }
  }, 120_000);
});
