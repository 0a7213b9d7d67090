/**
 * Copies that stay quiet: an installation made by `folio import ARCHIVE` or `folio restore`
 * has every webhook disabled, so a staging copy of production never calls production's
 * receivers; `folio webhook list` says disabled, the start-up screen names them with the
 * command that enables one, and once enabled the copy's next write is delivered. What the
 * source had queued waits while disabled. Spawned CLI and `folio serve` from source, a
 * receiver in this process; on PostgreSQL (FOLIO_TEST_DATABASE_URL) every installation has a
 * database of its own. An older Folio's SQLite backup (without the column) is restored
 * disabled too, into either engine; the admin's settings API shows and toggles the state.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { AdminAccounts } from '../../src/admin/accounts';
import { resolveConfig } from '../../src/config';
import { SqliteDatabase } from '../../src/db/sqlite';
import { openInstance, sqlitePath } from '../../src/instance';
import { loadRegistry } from '../../src/registry/load';
import { backupInstallation } from '../../src/transfer/backup';
import { restoreArchive } from '../../src/transfer/restore';
import { startReceiver, waitFor, type Receiver } from '../events/receiver';
import { ADMIN_URL, scratchInstallations } from '../helpers/installations';
import { CONTENT_TYPES, lines, runCli, serve, type CliOptions } from '../helpers/spawn';
import { startServer } from '../helpers/server';

const SLOW = 180_000;
const { installation, sqlite, postgres } = scratchInstallations({ name: 'folio_quiet' });
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.stop();
});

function receiver(): Receiver {
  const r = startReceiver();
  receivers.push(r);
  return r;
}

function cli(args: string[], where: CliOptions & { stdin?: string }) {
  const run = runCli(args, where);
  if (run.code !== 0) throw new Error(`folio ${args.join(' ')} → ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** Longer than the deliverer's longest sleep (1 s) twice over: a send that was going to happen has. */
const settle = () => Bun.sleep(2500);

/** A source with a webhook to `hook` and one tag created while nothing served it (its delivery is queued, not sent). */
async function sourceWithQueuedDelivery(hook: Receiver): Promise<CliOptions> {
  const source = await installation();
  cli(['webhook', 'create', '--name', 'production-deploy', '--url', hook.url, '--events', 'entry.create'], source);
  cli(['import', '-', '--type', 'tags'], { ...source, stdin: '{"name":"queued in the source"}\n' });
  return source;
}

/** The copy's writes reach nobody until `folio webhook enable`; then they do, and what was queued goes too. */
async function expectQuietUntilEnabled(copy: CliOptions, hook: Receiver) {
  expect(lines(cli(['webhook', 'list'], copy))).toEqual([`production-deploy\t${hook.url}\tentry.create\tunsigned\tdisabled`]);
  cli(['permissions', 'grant', 'public', 'api::tag.tag.create'], copy);
  const server = await serve(copy);
  try {
    expect(server.stdout()).toContain('1 webhook(s) disabled, sent nothing until enabled (a restored or imported copy starts so): production-deploy');
    expect(server.stdout()).toMatch(/Enable one: {2}npx bun \S+ webhook enable production-deploy --data /);
    expect((await server.call('POST', '/api/tags', { body: { data: { name: 'written in the copy' } } })).status).toBe(201);
    await settle();
    expect(hook.received).toHaveLength(0);
    expect(lines(cli(['webhook', 'deliveries', 'production-deploy'], copy)).at(-1)).toBe(
      'queued: 1, held while the webhook is disabled (folio webhook enable production-deploy)',
    );

    expect(cli(['webhook', 'enable', 'production-deploy'], copy)).toContain('enabled webhook "production-deploy"');
    expect(lines(cli(['webhook', 'list'], copy))[0]).toEndWith('\tenabled');
    expect((await server.call('POST', '/api/tags', { body: { data: { name: 'after enable' } } })).status).toBe(201);
    await waitFor('two deliveries', () => hook.received.length >= 2);
    await settle();
    // The source's queued event and the write after enabling; never the write made while disabled.
    expect(hook.received.map((r) => r.body.entry.name).sort()).toEqual(['after enable', 'queued in the source']);
  } finally {
    await server.stop();
  }
}

describe('copies that stay quiet', () => {
  it(
    'an installation imported from an export has its webhooks disabled until folio webhook enable NAME',
    async () => {
      const hook = receiver();
      const source = await sourceWithQueuedDelivery(hook);
      const archive = join(source.data!, 'export.tar.gz');
      cli(['export', archive], source);
      const copy = await installation();
      const imported = cli(['import', archive], copy);
      expect(imported).toContain("webhooks: 1, all disabled so this copy does not call the source's receivers");
      await expectQuietUntilEnabled(copy, hook);
      // The source itself is untouched: its webhook stays enabled.
      expect(lines(cli(['webhook', 'list'], source))[0]).toEndWith('\tenabled');
    },
    SLOW,
  );

  it(
    'an installation restored from a backup has its webhooks disabled until folio webhook enable NAME',
    async () => {
      const hook = receiver();
      const source = await sourceWithQueuedDelivery(hook);
      const archive = join(source.data!, 'backup.tar.gz');
      cli(['backup', archive], source);
      const copy = await installation();
      expect(cli(['restore', archive], copy)).toContain('webhooks: 1, all disabled');
      await expectQuietUntilEnabled(copy, hook);
    },
    SLOW,
  );

  it(
    'a SQLite backup of an older Folio (no enabled column yet) restores with its webhooks disabled, into SQLite and into PostgreSQL',
    async () => {
      // An installation as Folio was before migration 0025: the column and its record removed.
      const old = sqlite();
      const config = resolveConfig({ data: old.data!, contentTypes: CONTENT_TYPES });
      const instance = await openInstance(config);
      await instance.webhooks.create({ name: 'old-hook', url: 'http://127.0.0.1:9/hook', events: ['entry.create'] });
      instance.close();
      const db = new SqliteDatabase(sqlitePath(config));
      await db.exec(`ALTER TABLE folio_webhooks DROP COLUMN "enabled"; DELETE FROM folio_migrations WHERE "name" = '0025_webhook_enabled';`);
      const registry = loadRegistry(CONTENT_TYPES);
      const archive = join(old.data!, 'old-backup.tar.gz');
      await backupInstallation({ db, registry, secrets: instance.secrets, uploadsDir: config.uploadsDir, sqliteFile: sqlitePath(config) }, archive);
      db.close();

      const targets = [sqlite(), ...(ADMIN_URL ? [await postgres()] : [])];
      for (const target of targets) {
        const targetConfig = resolveConfig({ data: target.data!, contentTypes: CONTENT_TYPES, database: target.database });
        await restoreArchive(archive, { config: targetConfig, registry, force: false, progress: () => {} });
        const restored = await openInstance(targetConfig);
        try {
          expect((await restored.webhooks.list()).map((w) => [w.name, w.enabled])).toEqual([['old-hook', false]]);
        } finally {
          restored.close();
        }
      }
    },
    SLOW,
  );
});

describe('webhooks enabled and disabled', () => {
  it('the admin settings API shows each webhook enabled or disabled and toggles it; a disabled one gets nothing queued', async () => {
    const server = await startServer({ publicAccess: true });
    const hook = receiver();
    try {
      await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' });
      const login = await server.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password: 'correct horse' } });
      const root = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': login.body.data.csrfToken as string };
      const S = '/admin/api/settings/webhooks';
      expect((await server.call('POST', S, { body: { name: 'hook', url: hook.url, events: ['entry.create'] }, headers: root })).body.data.enabled).toBe(true);

      const disabled = await server.call('POST', `${S}/hook/disable`, { headers: root });
      expect(disabled.status).toBe(200);
      expect(disabled.body.data).toMatchObject({ name: 'hook', enabled: false });
      expect((await server.call('GET', S, { headers: root })).body.data.map((w: { enabled: boolean }) => w.enabled)).toEqual([false]);
      expect((await server.call('POST', '/api/tags', { body: { data: { name: 'unheard' } } })).status).toBe(201);
      expect(await server.instance.webhooks.queue('hook')).toEqual({ pending: 0, nextDueAt: null });

      expect((await server.call('POST', `${S}/hook/enable`, { headers: root })).body.data.enabled).toBe(true);
      expect((await server.call('POST', '/api/tags', { body: { data: { name: 'heard' } } })).status).toBe(201);
      await waitFor('the delivery after enabling', () => hook.received.length === 1);
      await settle();
      expect(hook.received.map((r) => r.body.entry.name)).toEqual(['heard']);
      expect((await server.call('POST', `${S}/nope/enable`, { headers: root })).status).toBe(404);
      // Without the CSRF header the toggle is refused and changes nothing.
      expect((await server.call('POST', `${S}/hook/disable`, { headers: { cookie: root.cookie } })).status).toBe(403);
      expect((await server.instance.webhooks.get('hook'))!.enabled).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
