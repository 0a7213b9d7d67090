/**
 * Releases (src/releases/): `folio release` and /admin/api/releases; publishing every action
 * in one transaction or none (the failing entry and field named, the release marked failed);
 * webhooks and the realtime feed getting releases.publish and the entries' own events; the
 * scheduler publishing within a second or two, a server that was down publishing at start,
 * and exactly once when instances race (two on one PostgreSQL database). Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { onPostgres, startServer, tempDir, type TestServer } from '../helpers/server';
import { killSpawned, spawnCli } from '../helpers/spawn';
import { startReceiver, waitFor, type Receiver } from '../events/receiver';

const TOKEN = (server: TestServer) => ({ authorization: `Bearer ${server.tokens.fullAccess}` });

async function folio(server: TestServer, args: string[]) {
  const config = server.instance.config;
  return spawnCli(args, { data: server.dataDir, contentTypes: config.contentTypesDir, database: config.databaseUrl });
}

/** A draft article (never published); `title` may be left out: drafts need no required value. */
async function draft(server: TestServer, data: Record<string, unknown>) {
  const response = await server.call('POST', '/api/articles?status=draft', { body: { data } });
  expect(response.status).toBe(201);
  return response.body.data.documentId as string;
}

const isPublished = async (server: TestServer, documentId: string) => (await server.call('GET', `/api/articles/${documentId}`)).status === 200;
const outboxEvents = async (server: TestServer) =>
  (await server.instance.db.all<{ event: string; body: string }>('SELECT "event", "body" FROM folio_outbox ORDER BY "id"')).map((r) => ({
    event: r.event,
    body: JSON.parse(r.body),
  }));

afterEach(killSpawned);

describe('releases by hand', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startServer();
    receiver = startReceiver();
    await server.instance.webhooks.create({ name: 'all', url: receiver.url, events: ['releases.publish', 'entry.publish', 'entry.unpublish'] });
  }, 30_000);
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  }, 30_000);

  it('creates, fills, shows, lists and deletes releases from the CLI (TYPE as plural API id or uid)', async () => {
    const a = await draft(server, { title: 'CLI one' });
    const b = await draft(server, { title: 'CLI two' });
    expect((await folio(server, ['release', 'create', 'spring'])).code).toBe(0);
    expect((await folio(server, ['release', 'add', 'spring', '--type', 'articles', '--document', a, '--action', 'publish'])).code).toBe(0);
    expect(
      (await folio(server, ['release', 'add', 'spring', '--type', 'api::article.article', '--document', b, '--locale', 'en', '--action', 'unpublish'])).code,
    ).toBe(0);
    // The same document and locale again: its action changes.
    expect((await folio(server, ['release', 'add', 'spring', '--type', 'article', '--document', b, '--action', 'publish'])).code).toBe(0);
    const shown = await folio(server, ['release', 'show', 'spring', '--json']);
    expect(JSON.parse(shown.stdout)).toEqual({
      name: 'spring',
      status: 'pending',
      scheduledAt: null,
      entries: [
        { type: 'api::article.article', documentId: a, locale: 'en', action: 'publish' },
        { type: 'api::article.article', documentId: b, locale: 'en', action: 'publish' },
      ],
    });
    expect((await folio(server, ['release', 'remove', 'spring', '--type', 'articles', '--document', b])).code).toBe(0);
    expect(JSON.parse((await folio(server, ['release', 'show', 'spring', '--json'])).stdout).entries).toHaveLength(1);
    expect((await folio(server, ['release', 'list'])).stdout).toContain('spring\tpending\t-\t1 entry');

    const missing = await folio(server, ['release', 'add', 'spring', '--type', 'articles', '--document', 'nope', '--action', 'publish']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Document "nope" of api::article.article not found in locale "en"');
    const noDp = await folio(server, ['release', 'add', 'spring', '--type', 'authors', '--document', a, '--action', 'publish']);
    expect(noDp.code).toBe(1);
    expect(noDp.stderr).toContain('has no draft & publish');
    expect((await folio(server, ['release', 'add', 'spring', '--type', 'articles', '--document', a, '--action', 'delete'])).code).toBe(2);
    expect((await folio(server, ['release', 'create', 'spring'])).stderr).toContain('already exists');
    expect((await folio(server, ['release', 'create', 'late', '--at', '2000-01-01T00:00:00Z'])).stderr).toContain('has passed');
    expect((await folio(server, ['release', 'create', 'zoned', '--at', '2999-06-01T09:00', '--timezone', 'Mars/Olympus'])).stderr).toContain(
      'Unknown time zone',
    );
    const zoned = await folio(server, ['release', 'create', 'zoned', '--at', '2999-06-01T09:00', '--timezone', 'Europe/Paris']);
    expect(zoned.stdout).toContain('scheduled 2999-06-01T07:00:00.000Z');
    expect((await folio(server, ['release', 'delete', 'zoned'])).code).toBe(0);
    expect((await folio(server, ['release', 'show', 'zoned'])).code).toBe(1);
    expect((await folio(server, ['release', 'show', 'spring', '--at', 'x'])).code).toBe(2);
  }, 60_000);

  it("publishes every action in one transaction, with releases.publish and the entries' own events to webhooks and the realtime feed", async () => {
    const toPublish = await draft(server, { title: 'Goes live' });
    const live = (await server.call('POST', '/api/articles', { body: { data: { title: 'Goes away' } } })).body.data.documentId;
    await server.instance.releases.create({ name: 'launch' });
    const articles = server.instance.registry.contentType('api::article.article')!;
    await server.instance.releases.add('launch', { type: articles, documentId: toPublish, action: 'publish' });
    await server.instance.releases.add('launch', { type: articles, documentId: live, action: 'unpublish' });

    const before = (await outboxEvents(server)).length;
    const feed = await fetch(`${server.url}/api/realtime?types=releases,articles`, { headers: TOKEN(server) });
    expect(feed.status).toBe(200);
    const reader = feed.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += value;
      }
    })();

    const run = await folio(server, ['release', 'publish', 'launch']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('published release "launch": 2 action(s) applied');
    expect(await isPublished(server, toPublish)).toBe(true);
    expect(await isPublished(server, live)).toBe(false);
    expect((await server.instance.releases.show('launch')).status).toBe('done');

    const mine = (await outboxEvents(server)).slice(before);
    expect(mine.map((e) => e.event)).toEqual(['entry.publish', 'entry.unpublish', 'releases.publish']);
    const release = mine[2]!.body;
    expect(release).toMatchObject({ event: 'releases.publish', isPublished: true, release: { name: 'launch', status: 'done', scheduledAt: null } });
    expect(Object.keys(release).sort()).toEqual(['createdAt', 'event', 'isPublished', 'release']);
    await waitFor('webhook deliveries', () => receiver.received.some((r) => r.body.event === 'releases.publish'));
    await waitFor('the feed', () => text.includes('event: releases.publish') && text.includes('event: entry.unpublish'));
    await reader.cancel();
    await reading.catch(() => {});
    expect(await server.instance.audit.list({ action: 'releases.publish' })).toMatchObject([
      { actor: { kind: 'cli' }, details: { name: 'launch', isPublished: true } },
    ]);
    expect((await folio(server, ['release', 'publish', 'launch'])).stderr).toContain('already been published');
  }, 30_000);

  it('fails the whole release when one entry cannot be published: the entry and the field named, exit 1, nothing changed', async () => {
    const good = await draft(server, { title: 'Fine' });
    const untitled = await draft(server, { summary: 'No title yet' });
    const live = (await server.call('POST', '/api/articles', { body: { data: { title: 'Stays live' } } })).body.data.documentId;
    const articles = server.instance.registry.contentType('api::article.article')!;
    await server.instance.releases.create({ name: 'broken' });
    await server.instance.releases.add('broken', { type: articles, documentId: good, action: 'publish' });
    await server.instance.releases.add('broken', { type: articles, documentId: live, action: 'unpublish' });
    await server.instance.releases.add('broken', { type: articles, documentId: untitled, action: 'publish' });
    const before = (await outboxEvents(server)).length;

    const run = await folio(server, ['release', 'publish', 'broken']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`release "broken" failed: publish api::article.article "${untitled}" (en)`);
    expect(run.stderr).toContain('(field title)');
    expect(run.stderr).toContain('Nothing was changed');
    expect(await isPublished(server, good)).toBe(false);
    expect(await isPublished(server, live)).toBe(true);
    const shown = JSON.parse((await folio(server, ['release', 'show', 'broken', '--json'])).stdout);
    expect(shown.status).toBe('failed');
    expect(shown.error).toMatchObject({ type: 'api::article.article', documentId: untitled, locale: 'en', action: 'publish', field: 'title' });
    // Only the failure's own event: none of the entries' (rolled back).
    const after = (await outboxEvents(server)).slice(before);
    expect(after.map((e) => [e.event, e.body.isPublished])).toEqual([['releases.publish', false]]);

    // Fixed, it publishes (a failed release may be published again by hand).
    await server.call('PUT', `/api/articles/${untitled}?status=draft`, { body: { data: { title: 'Titled now' } } });
    expect((await folio(server, ['release', 'publish', 'broken'])).code).toBe(0);
    for (const id of [good, untitled]) expect(await isPublished(server, id)).toBe(true);
    expect(await isPublished(server, live)).toBe(false);
  }, 30_000);

  it('is served to the admin: list, create, entries, reschedule, publish, the releases of a document', async () => {
    await new AdminAccounts(server.instance.db).create({ email: 'rel@example.com', password: 'correct horse', role: 'editor' });
    const login = await fetch(`${server.url}/admin/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'rel@example.com', password: 'correct horse' }),
    });
    const { data } = (await login.json()) as { data: { csrfToken: string } };
    const headers = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken, origin: server.url };
    const doc = await draft(server, { title: 'Admin release' });
    const name = encodeURIComponent('Summer / 2999');
    const created = await server.call('POST', '/admin/api/releases', {
      body: { name: 'Summer / 2999', scheduledAt: '2999-07-01T10:00', timezone: 'America/New_York' },
      headers,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Summer / 2999',
      status: 'pending',
      scheduledAt: '2999-07-01T14:00:00.000Z',
      timezone: 'America/New_York',
      entries: [],
    });
    const added = await server.call('POST', `/admin/api/releases/${name}/entries`, {
      body: { type: 'api::article.article', documentId: doc, action: 'publish' },
      headers,
    });
    expect(added.body.data.entries).toEqual([{ type: 'api::article.article', documentId: doc, locale: 'en', action: 'publish' }]);
    const holding = await server.call('GET', `/admin/api/releases/documents/${encodeURIComponent('api::article.article')}/${doc}`, { headers });
    expect(holding.body.data).toEqual([{ name: 'Summer / 2999', status: 'pending', scheduledAt: '2999-07-01T14:00:00.000Z', locale: 'en', action: 'publish' }]);
    const unscheduled = await server.call('PUT', `/admin/api/releases/${name}`, { body: { scheduledAt: null }, headers });
    expect(unscheduled.body.data).toMatchObject({ scheduledAt: null, timezone: null });
    expect((await server.call('GET', '/admin/api/releases', { headers })).body.data.some((r: { name: string }) => r.name === 'Summer / 2999')).toBe(true);
    const published = await server.call('POST', `/admin/api/releases/${name}/publish`, { headers });
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe('done');
    expect(await isPublished(server, doc)).toBe(true);
    expect((await server.instance.audit.list({ action: 'releases.publish', limit: 1 }))[0]!.actor).toEqual({ kind: 'admin', name: 'rel@example.com' });

    const refused = await server.call('POST', `/admin/api/releases/${name}/entries`, {
      body: { type: 'api::article.article', documentId: doc, action: 'unpublish' },
      headers,
    });
    expect(refused.status).toBe(400);
    expect((await server.call('POST', '/admin/api/releases', { body: { name: 'Past', scheduledAt: '2001-01-01T00:00:00Z' }, headers })).status).toBe(400);
    expect((await server.call('POST', '/admin/api/releases', { body: { name: '' }, headers })).status).toBe(400);
    expect((await server.call('GET', '/admin/api/releases/nothing-here', { headers })).status).toBe(404);
    expect(
      (await server.call('POST', '/admin/api/releases/x/entries', { body: { type: 'api::nope.nope', documentId: doc, action: 'publish' }, headers })).status,
    ).toBe(400);
    expect((await server.call('GET', '/admin/api/releases')).status).toBe(401);

    await server.call('POST', '/admin/api/releases', { body: { name: 'failing' }, headers });
    const untitled = await draft(server, {});
    await server.call('POST', '/admin/api/releases/failing/entries', {
      body: { type: 'api::article.article', documentId: untitled, action: 'publish' },
      headers,
    });
    const failed = await server.call('POST', '/admin/api/releases/failing/publish', { headers });
    expect(failed.status).toBe(400);
    expect(failed.body.error.details.failure).toMatchObject({ documentId: untitled, field: 'title' });
  }, 30_000);
});

describe('scheduled releases', () => {
  it('are published within a second or two of their time, and by a server that was down at that time when it starts', async () => {
    const server = await startServer();
    try {
      const articles = server.instance.registry.contentType('api::article.article')!;
      const soon = await draft(server, { title: 'Soon' });
      const at = new Date(Date.now() + 1500).toISOString();
      await server.instance.releases.create({ name: 'soon', at });
      await server.instance.releases.add('soon', { type: articles, documentId: soon, action: 'publish' });
      await waitFor('the scheduled release', async () => (await server.instance.releases.show('soon')).status === 'done', 10_000);
      const view = await server.instance.releases.show('soon');
      const late = Date.parse(view.releasedAt!) - Date.parse(at);
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(2500);
      expect(await isPublished(server, soon)).toBe(true);
      expect((await server.instance.audit.list({ action: 'releases.publish' }))[0]!.actor).toEqual({ kind: 'system', name: null });

      // While no server runs: the time passes; the next start publishes it.
      const missed = await draft(server, { title: 'Missed' });
      await server.instance.releases.create({ name: 'missed', at: new Date(Date.now() + 600).toISOString() });
      await server.instance.releases.add('missed', { type: articles, documentId: missed, action: 'publish' });
      const dataDir = server.dataDir;
      const config = server.instance.config;
      await server.stop({ keepData: true });
      await Bun.sleep(800);
      const again = await startServer({ dataDir, contentTypes: config.contentTypesDir });
      try {
        await waitFor('the missed release', async () => (await again.instance.releases.show('missed')).status === 'done', 10_000);
        expect(await isPublished(again, missed)).toBe(true);
      } finally {
        await again.stop();
      }
    } catch (error) {
      await server.stop().catch(() => {});
      throw error;
    }
  }, 60_000);

  it('are published once however many publishers race for them (one instance)', async () => {
    const server = await startServer();
    try {
      const articles = server.instance.registry.contentType('api::article.article')!;
      await server.instance.webhooks.create({ name: 'count', url: 'http://127.0.0.1:9/hook', events: ['releases.publish', 'entry.publish'] });
      server.instance.releaseScheduler.stop();
      const docs: string[] = [];
      for (let i = 0; i < 5; i++) {
        docs.push(await draft(server, { title: `Race ${i}` }));
        await server.instance.releases.create({ name: `race-${i}`, at: new Date(Date.now() + 60_000).toISOString() });
        await server.instance.releases.add(`race-${i}`, { type: articles, documentId: docs[i]!, action: 'publish' });
      }
      // All due now.
      await server.instance.db.run(`UPDATE folio_releases SET "scheduledAt" = '2000-01-01T00:00:00.000Z' WHERE "name" LIKE 'race-%'`);
      const rounds = await Promise.all([server.instance.releases.publishDue(), server.instance.releases.publishDue(), server.instance.releases.publishDue()]);
      expect(rounds.flat().sort()).toEqual(docs.map((_, i) => `race-${i}`));
      const events = await outboxEvents(server);
      expect(events.filter((e) => e.event === 'releases.publish')).toHaveLength(5);
      expect(events.filter((e) => e.event === 'entry.publish')).toHaveLength(5);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it.if(onPostgres)(
    'are published exactly once by two instances on one PostgreSQL database',
    async () => {
      const one = await startServer();
      const two = await startServer({ dataDir: tempDir(), config: { databaseUrl: one.instance.config.databaseUrl } });
      try {
        const articles = one.instance.registry.contentType('api::article.article')!;
        await one.instance.webhooks.create({ name: 'count', url: 'http://127.0.0.1:9/hook', events: ['releases.publish', 'entry.publish'] });
        const names: string[] = [];
        for (let i = 0; i < 8; i++) {
          const doc = await draft(one, { title: `Twin ${i}` });
          names.push(`twin-${i}`);
          await one.instance.releases.create({ name: `twin-${i}`, at: new Date(Date.now() + 60_000).toISOString() });
          await two.instance.releases.add(`twin-${i}`, { type: articles, documentId: doc, action: 'publish' });
        }
        // All due at one time, a moment from now: both schedulers poll for them.
        const at = new Date(Date.now() + 1000).toISOString();
        await one.instance.db.run(`UPDATE folio_releases SET "scheduledAt" = '${at}' WHERE "name" LIKE 'twin-%'`);
        // Both schedulers run; at the due time both instances are also asked at once.
        await Bun.sleep(Math.max(0, Date.parse(at) - Date.now() + 20));
        await Promise.all([
          one.instance.releases.publishDue(),
          two.instance.releases.publishDue(),
          one.instance.releaseScheduler.runNow(),
          two.instance.releaseScheduler.runNow(),
        ]);
        await waitFor(
          'every release',
          async () => (await one.instance.releases.list()).filter((r) => r.name.startsWith('twin-')).every((r) => r.status === 'done'),
          10_000,
        );
        const events = await outboxEvents(one);
        expect(
          events
            .filter((e) => e.event === 'releases.publish')
            .map((e) => e.body.release.name)
            .sort(),
        ).toEqual(names.sort());
        expect(events.filter((e) => e.event === 'entry.publish')).toHaveLength(8);
        const versions = await one.instance.db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM folio_history WHERE "event" = 'entry.publish'`);
        expect(Number(versions[0]!.n)).toBe(8);
      } finally {
        await two.stop({ keepData: true });
        await one.stop();
      }
    },
    60_000,
  );
});
