/**
 * Webhooks do not wait on each other: each has a lane of its own, so a receiver that never
 * answers holds up only its own deliveries (and at most 10 sends), while a healthy one gets
 * every event as it comes. Real server, real receivers on 127.0.0.1, the real queue (SQLite,
 * or PostgreSQL with FOLIO_TEST_DATABASE_URL). Nothing here waits for the 10 s send timeout.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { startReceiver, waitFor, type Receiver } from './receiver';

let server: TestServer | undefined;
let receivers: Receiver[] = [];
afterEach(async () => {
  await server?.stop();
  for (const r of receivers) await r.stop();
  server = undefined;
  receivers = [];
});

const deliveries = (s: TestServer) =>
  s.instance.db.all<{ webhookId: number; state: string; attempts: number }>(
    'SELECT "webhookId", "state", "attempts" FROM folio_webhook_deliveries ORDER BY "id"',
  );

describe('webhook lanes', () => {
  it('delivers every event to a healthy receiver promptly while another receiver hangs, and that one holds at most 10 sends', async () => {
    const hanging = startReceiver();
    const healthy = startReceiver();
    receivers.push(hanging, healthy);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    hanging.respond = async () => {
      await held;
      return 200;
    };
    server = await startServer({ config: { webhookRetryBaseMs: 20 } });
    // The hanging one first: its deliveries are the oldest of every claim.
    await server.instance.webhooks.create({ name: 'hanging', url: hanging.url, events: ['entry.create'] });
    await server.instance.webhooks.create({ name: 'healthy', url: healthy.url, events: ['entry.create'] });

    const events = 25;
    for (let i = 0; i < events; i++) {
      expect((await server.call('POST', '/api/authors', { body: { data: { name: `author ${i}` } } })).status).toBe(201);
    }
    // Well inside the 10 s send timeout: the hanging receiver answers nothing meanwhile.
    await waitFor(`${events} events at the healthy receiver`, () => healthy.received.length >= events, 5_000);
    expect(hanging.received.length).toBe(0);
    expect(healthy.received.map((r) => r.body.entry.name).sort()).toEqual(Array.from({ length: events }, (_, i) => `author ${i}`).sort());
    // The hanging lane is full: 10 requests held open, the other 15 still queued for it.
    await waitFor('the hanging lane to fill', () => hanging.arrived === 10);
    expect(hanging.arrived).toBe(10);

    // Once it answers, its backlog goes out too, each once, and the attempt log has them all.
    release();
    await waitFor('every delivery settled', async () => (await deliveries(server!)).every((d) => d.state === 'delivered'));
    expect(hanging.received).toHaveLength(events);
    expect((await deliveries(server)).map((d) => d.attempts)).toEqual(Array.from({ length: 2 * events }, () => 1));
    for (const name of ['hanging', 'healthy']) {
      const attempts = (await server.instance.webhooks.deliveries(name))!;
      expect(attempts.map((a) => [a.event, a.status, a.attempt])).toEqual(Array.from({ length: events }, () => ['entry.create', 200, 1]));
    }
  }, 30_000);
});
