/**
 * Webhooks end to end, in one process: a real server, a real receiver on 127.0.0.1, the
 * outbox and deliveries in the real database (SQLite, or PostgreSQL with
 * FOLIO_TEST_DATABASE_URL). Retries use a tiny FOLIO_WEBHOOK_RETRY_BASE_MS.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { retryDelay } from '../../src/events/deliverer';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload } from '../upload/helpers';
import { startReceiver, validSignature, waitFor, type Receiver } from './receiver';

const ALL_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
];
const SECRET = 's3cret-shared';

let server: TestServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await server?.stop();
  await receiver?.stop();
  server = receiver = undefined;
});

async function setUp(retryBaseMs = 20) {
  receiver = startReceiver();
  server = await startServer({ config: { webhookRetryBaseMs: retryBaseMs } });
  return { server, receiver, auth: { authorization: `Bearer ${server.tokens.fullAccess}` } };
}

const deliveries = (s: TestServer) =>
  s.instance.db.all<{ state: string; attempts: number }>('SELECT "state", "attempts" FROM folio_webhook_deliveries ORDER BY "id"');
const outboxCount = async (s: TestServer) => (await s.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_outbox'))!.n;

describe('webhooks', () => {
  it('delivers every kind of event once, signed, shaped as Strapi sends it, without private attributes', async () => {
    const { server, receiver, auth } = await setUp();
    await server.instance.webhooks.create({ name: 'all', url: receiver.url, events: ALL_EVENTS, secret: SECRET, headers: ['X-Team: web'] });

    const article = (await server.call('POST', '/api/articles', { body: { data: { title: 'Hello', seo: { metaTitle: 'm' } } } })).body.data;
    await server.call('PUT', `/api/articles/${article.documentId}?status=draft`, { body: { data: { title: 'Hello again' } } });
    await server.call('POST', `/api/articles/${article.documentId}/actions/discard-draft`, { headers: auth });
    await server.call('POST', `/api/articles/${article.documentId}/actions/unpublish`, { headers: auth });
    await server.call('POST', `/api/articles/${article.documentId}/actions/publish`, { headers: auth });
    await server.call('DELETE', `/api/articles/${article.documentId}`);
    await server.call('POST', '/api/authors', { body: { data: { name: 'Ann', internalNotes: 'never shown' } } });
    const png = await makeImage(4, 4);
    const file = (await upload(server.url, { files: [{ bytes: png, filename: 'a.png', type: 'image/png' }], headers: auth })).body[0];
    await upload(server.url, { query: `?id=${file.id}`, fileInfo: [JSON.stringify({ alternativeText: 'alt' })], headers: auth });
    await fetch(`${server.url}/api/upload/files/${file.id}`, { method: 'DELETE', headers: auth });

    const expected = [
      'entry.create',
      'entry.publish', // POST: the draft, then its publication
      'entry.update', // PUT ?status=draft
      'entry.draft-discard',
      'entry.unpublish',
      'entry.publish',
      'entry.delete',
      'entry.delete', // the draft and the published version
      'entry.create', // an author (no draft & publish)
      'media.create',
      'media.update',
      'media.delete',
    ];
    await waitFor(`${expected.length} deliveries`, () => receiver.received.length >= expected.length);
    // Each delivery was claimed once and is done: nothing can be sent again.
    await waitFor('every delivery settled', async () => (await deliveries(server)).every((d) => d.state === 'delivered'));
    expect((await deliveries(server)).map((d) => d.attempts)).toEqual(expected.map(() => 1));
    expect(receiver.received.length).toBe(expected.length);
    expect(receiver.received.map((r) => r.body.event).sort()).toEqual([...expected].sort());

    for (const r of receiver.received) {
      expect(validSignature(r, SECRET)).toBe(true);
      expect(r.headers.get('x-folio-event')).toBe(r.body.event);
      expect(r.headers.get('x-team')).toBe('web');
      expect(r.headers.get('content-type')).toBe('application/json');
    }
    const byEvent = (event: string) => receiver.received.filter((r) => r.body.event === event).map((r) => r.body);
    const created = byEvent('entry.create').find((b) => b.model === 'article')!;
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'entry', 'event', 'model', 'uid']);
    expect(created).toMatchObject({
      model: 'article',
      uid: 'api::article.article',
      entry: { documentId: article.documentId, title: 'Hello', publishedAt: null, locale: 'en' },
    });
    expect(created.entry.seo).toBeUndefined(); // no populate, as GET answers
    expect(byEvent('entry.publish')[0].entry.publishedAt).toEqual(expect.any(String));
    expect(byEvent('entry.update')[0].entry.title).toBe('Hello again');
    expect(byEvent('entry.draft-discard')[0].entry).toMatchObject({ title: 'Hello', publishedAt: null });
    expect(byEvent('entry.unpublish')[0].entry.publishedAt).toEqual(expect.any(String));
    const author = byEvent('entry.create').find((b) => b.model === 'author')!;
    expect(author.entry.name).toBe('Ann');
    expect('internalNotes' in author.entry).toBe(false);
    expect(byEvent('media.create')[0]).toMatchObject({ media: { id: file.id, name: 'a.png' } });
    expect(byEvent('media.update')[0].media.alternativeText).toBe('alt');
    expect(byEvent('media.delete')[0].media.id).toBe(file.id);
  });

  it('sends a webhook only the events it subscribes to, unsigned without a secret', async () => {
    const { server, receiver } = await setUp();
    await server.instance.webhooks.create({ name: 'publish-only', url: receiver.url, events: ['entry.publish'] });
    await server.call('POST', '/api/tags?status=draft', { body: { data: { name: 'draft' } } });
    await server.call('POST', '/api/tags', { body: { data: { name: 'public' } } });
    await waitFor('the publish event', () => receiver.received.length >= 1);
    await waitFor('every delivery settled', async () => (await deliveries(server)).every((d) => d.state === 'delivered'));
    expect(receiver.received.map((r) => [r.body.event, r.body.entry.name])).toEqual([['entry.publish', 'public']]);
    expect(receiver.received[0]!.headers.get('x-folio-signature')).toBeNull();
  });

  it('retries a failing receiver with backoff and records every attempt', async () => {
    const { server, receiver } = await setUp();
    receiver.respond = (_, index) => (index < 2 ? 500 : 204);
    await server.instance.webhooks.create({ name: 'flaky', url: receiver.url, events: ['entry.create'] });
    await server.call('POST', '/api/authors', { body: { data: { name: 'Retried' } } });
    await waitFor('the third attempt', async () => (await deliveries(server))[0]?.state === 'delivered');
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 204]);
    expect(receiver.received.every((r) => r.raw === receiver.received[0]!.raw)).toBe(true);
    const attempts = (await server.instance.webhooks.deliveries('flaky'))!;
    expect(attempts.map((a) => [a.event, a.status, a.attempt])).toEqual([
      ['entry.create', 500, 1],
      ['entry.create', 500, 2],
      ['entry.create', 204, 3],
    ]);
  });

  it('gives a delivery up after 6 attempts, recording an error when nothing answers', async () => {
    const { server, receiver } = await setUp(5);
    const url = receiver.url;
    await receiver.stop(); // nothing listens there any more: connection refused
    await server.instance.webhooks.create({ name: 'gone', url, events: ['entry.create'] });
    await server.call('POST', '/api/authors', { body: { data: { name: 'Nobody listens' } } });
    await waitFor('the delivery to fail for good', async () => (await deliveries(server))[0]?.state === 'failed');
    const attempts = (await server.instance.webhooks.deliveries('gone'))!;
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(attempts.every((a) => a.status === null && typeof a.error === 'string' && a.error.length > 0)).toBe(true);
  });

  it('answers the request that caused an event while the receiver still holds the delivery open', async () => {
    const { server, receiver } = await setUp();
    let arrived = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.respond = async () => {
      arrived = true;
      await held;
      return 200;
    };
    await server.instance.webhooks.create({ name: 'slow', url: receiver.url, events: ['entry.create'] });
    const created = await server.call('POST', '/api/authors', { body: { data: { name: 'Fast answer' } } });
    expect(created.status).toBe(201);
    await waitFor('the delivery to reach the receiver', () => arrived);
    // The receiver has not answered yet, and further requests are not held up either.
    expect(receiver.received.length).toBe(0);
    expect((await server.call('GET', `/api/authors/${created.body.data.documentId}`)).status).toBe(200);
    release();
    await waitFor('the delivery to settle', async () => (await deliveries(server))[0]?.state === 'delivered');
  });

  it('records nothing for a write that fails, nor when no webhook listens', async () => {
    const { server, receiver } = await setUp();
    await server.call('POST', '/api/authors', { body: { data: { name: 'Unheard' } } });
    expect(await outboxCount(server)).toBe(0);
    await server.instance.webhooks.create({ name: 'all', url: receiver.url, events: ALL_EVENTS });
    const refused = await server.call('POST', '/api/articles', { body: { data: { title: 'x'.repeat(500) } } });
    expect(refused.status).toBe(400);
    const clash = await server.call('POST', '/api/articles', { body: { data: { title: 'dup', slug: 'same' } } });
    expect(clash.status).toBe(201);
    expect(await outboxCount(server)).toBe(2); // the create and its publication
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'dup 2', slug: 'same' } } })).status).toBe(400);
    expect(await outboxCount(server)).toBe(2);
  });
});

describe('webhook retry schedule', () => {
  it('waits base × 2^(n-1) after failed attempt n, within ±20% jitter, about an hour over 6 attempts by default', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(1000, n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(retryDelay(1000, 3, () => 0)).toBe(3200);
    expect(retryDelay(1000, 3, () => 0.999999)).toBe(4800);
    const total = [1, 2, 3, 4, 5].reduce((sum, n) => sum + retryDelay(120_000, n, () => 0.5), 0);
    expect(total / 60_000).toBe(62);
  });
});
