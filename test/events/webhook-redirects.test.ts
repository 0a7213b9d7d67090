/**
 * Webhook redirects are not followed: a receiver answering 3xx gets a failed attempt (its
 * status and where it pointed in the attempt log, retried as any answer but a 2xx), and the
 * place it points to never sees the body, the signature or the webhook's headers.
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
  s.instance.db.all<{ state: string; attempts: number }>('SELECT "state", "attempts" FROM folio_webhook_deliveries ORDER BY "id"');

describe('webhook redirects', () => {
  it('records a 307 to another local receiver as a failed attempt, retries it, and never sends there', async () => {
    const moved = startReceiver();
    const elsewhere = startReceiver();
    receivers.push(moved, elsewhere);
    const stolen = elsewhere.url.replace(/\/hook$/, '/stolen');
    moved.respond = () => ({ status: 307, headers: { location: stolen } });
    server = await startServer({ config: { webhookRetryBaseMs: 5 } });
    await server.instance.webhooks.create({ name: 'moved', url: moved.url, events: ['entry.create'], secret: 'shh', headers: ['X-Api-Key: key-123'] });

    await server.call('POST', '/api/authors', { body: { data: { name: 'Redirected' } } });
    await waitFor('the delivery to settle', async () => ['failed', 'delivered'].includes((await deliveries(server!))[0]?.state ?? ''));
    expect(elsewhere.arrived).toBe(0);
    expect((await deliveries(server))[0]!.state).toBe('failed');
    expect(moved.received).toHaveLength(6);
    const attempts = (await server.instance.webhooks.deliveries('moved'))!;
    expect(attempts.map((a) => [a.status, a.attempt])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [307, n]));
    expect(attempts[0]!.error).toBe(`redirect not followed (Location: ${stolen})`);

    // A test send is not followed either.
    const tested = (await server.instance.webhooks.test('moved'))!;
    expect([tested.status, tested.ok, tested.error]).toEqual([307, false, `redirect not followed (Location: ${stolen})`]);
    for (const status of [301, 302, 303, 308]) {
      moved.respond = () => ({ status, headers: { location: stolen } });
      expect((await server.instance.webhooks.test('moved'))!.status).toBe(status);
    }
    expect(elsewhere.arrived).toBe(0);
  }, 30_000);
});
