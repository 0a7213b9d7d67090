/**
 * Outbox pruning against a real database (SQLite, or PostgreSQL with
 * FOLIO_TEST_DATABASE_URL), with real webhook deliveries to a receiver on 127.0.0.1. The
 * clock of the pruning pass is injected, so "older than the window" needs no waiting.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { renewLease } from '../../src/db/store/realtime';
import { pruneEvents } from '../../src/events/prune';
import { startServer, type TestServer } from '../helpers/server';
import { startReceiver, waitFor, type Receiver } from './receiver';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let server: TestServer | undefined;
let receivers: Receiver[] = [];
afterEach(async () => {
  await server?.stop();
  for (const r of receivers) await r.stop();
  server = undefined;
  receivers = [];
});

const outbox = async (s: TestServer) =>
  (await s.instance.db.all<{ event: string; uid: string }>('SELECT "event", "uid" FROM folio_outbox ORDER BY "id"')).map(
    (r) => `${r.event} ${r.uid.split('.').pop()}`,
  );
const deliveries = (s: TestServer) =>
  s.instance.db.all<{ state: string; attempts: number }>('SELECT "state", "attempts" FROM folio_webhook_deliveries ORDER BY "id"');

describe('outbox pruning', () => {
  it('deletes old events every webhook is done with, keeps pending and recent ones, and keeps their attempt log until it ages out', async () => {
    const ok = startReceiver();
    const down = startReceiver();
    down.respond = () => 503;
    receivers.push(ok, down);
    // An hour before any retry: the failed delivery stays pending throughout the test.
    server = await startServer({ config: { webhookRetryBaseMs: 3_600_000 } });
    const s = server;
    await s.instance.webhooks.create({ name: 'ok', url: ok.url, events: ['entry.create'] });
    await s.instance.webhooks.create({ name: 'down', url: down.url, events: ['entry.publish'] });

    await s.call('POST', '/api/tags', { body: { data: { name: 'news' } } }); // entry.create → ok, entry.publish → down
    await s.call('POST', '/api/authors', { body: { data: { name: 'Ann' } } }); // entry.create → ok
    const attempts = async () => Number((await s.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_webhook_attempts'))!.n);
    await waitFor('three attempts recorded', async () => (await attempts()) === 3);
    expect(await deliveries(s)).toEqual([
      { state: 'delivered', attempts: 1 },
      { state: 'pending', attempts: 1 },
      { state: 'delivered', attempts: 1 },
    ]);
    // An event recorded for the realtime feed only (no webhook listens to entry.update).
    await renewLease(s.instance.db, Date.now() + 10 * MINUTE);
    const tag = (await s.call('GET', '/api/tags')).body.data[0];
    await s.call('PUT', `/api/tags/${tag.documentId}?status=draft`, { body: { data: { name: 'news!' } } });
    expect(await outbox(s)).toEqual(['entry.create tag', 'entry.publish tag', 'entry.create author', 'entry.update tag']);

    const options = { keepEventsMs: 10 * MINUTE, keepAttemptsMs: 30 * DAY };
    // Younger than the resume window: everything stays.
    expect(await pruneEvents(s.instance.db, { ...options, now: () => Date.now() + 9 * MINUTE })).toEqual({ events: 0, attempts: 0 });
    expect(await outbox(s)).toHaveLength(4);

    // Past the window: the delivered events and the feed-only one go; the pending one stays.
    expect(await pruneEvents(s.instance.db, { ...options, now: () => Date.now() + 11 * MINUTE })).toEqual({ events: 3, attempts: 0 });
    expect(await outbox(s)).toEqual(['entry.publish tag']);
    expect(await deliveries(s)).toEqual([{ state: 'pending', attempts: 1 }]);
    // The attempt log still tells what happened to the pruned deliveries.
    expect((await s.instance.webhooks.deliveries('ok'))!.map((a) => [a.event, a.status, a.deliveryId])).toEqual([
      ['entry.create', 200, null],
      ['entry.create', 200, null],
    ]);

    // Past the attempt retention: the log ages out; a delivery still pending is never pruned.
    expect(await pruneEvents(s.instance.db, { ...options, now: () => Date.now() + 31 * DAY })).toEqual({ events: 0, attempts: 3 });
    expect(await s.instance.webhooks.deliveries('ok')).toEqual([]);
    expect(await s.instance.webhooks.deliveries('down')).toEqual([]);
    expect(await outbox(s)).toEqual(['entry.publish tag']);
    expect(await deliveries(s)).toEqual([{ state: 'pending', attempts: 1 }]);
  });
});
