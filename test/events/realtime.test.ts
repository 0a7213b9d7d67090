/**
 * The realtime feed end to end: real servers on 127.0.0.1, real `fetch` reading the
 * text/event-stream body (parsed here, line by line), the outbox in the real database
 * (SQLite, or PostgreSQL with FOLIO_TEST_DATABASE_URL). Waits poll with a bound; no sleeps.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { leaseExpiry } from '../../src/db/store/realtime';
import { RealtimeHub, type Subscriber } from '../../src/events/realtime';
import { startServer, tempDir, type StartOptions, type TestServer } from '../helpers/server';
import { waitFor } from './receiver';

interface SseEvent {
  id: string;
  event: string;
  data: any;
}

interface Stream {
  status: number;
  headers: Headers;
  /** The error envelope, when the feed refused to open. */
  error?: any;
  events: SseEvent[];
  comments: string[];
  /** The server ended the stream. */
  ended: boolean;
  close(): void;
}

/** Opens the feed and parses its frames as they come: `id:`, `event:`, `data:`, `:` comments. */
async function subscribe(s: TestServer, query = '', headers: Record<string, string> = {}): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${s.url}/api/realtime${query}`, { headers, signal: abort.signal });
  const stream: Stream = { status: response.status, headers: response.headers, events: [], comments: [], ended: false, close: () => abort.abort() };
  if (response.status !== 200) {
    stream.error = await response.json();
    return stream;
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return void (stream.ended = true);
        buffered += value;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const frame: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.includes(':')) frame[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).trimStart();
          }
          if (frame.data !== undefined) stream.events.push({ id: frame.id!, event: frame.event!, data: JSON.parse(frame.data) });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  streams.push(stream);
  return stream;
}

let servers: TestServer[] = [];
let streams: Stream[] = [];
afterEach(async () => {
  for (const s of streams) s.close();
  for (const s of servers.reverse()) await s.stop();
  servers = [];
  streams = [];
});

async function start(options: StartOptions = {}) {
  const s = await startServer(options);
  servers.push(s);
  return s;
}

const outboxCount = async (s: TestServer) => Number((await s.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_outbox'))!.n);
const models = (stream: Stream) => stream.events.map((e) => `${e.event} ${e.data.model}`);
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('realtime feed', () => {
  it('streams an entry created over REST within a second, shaped as webhooks receive it, without private attributes', async () => {
    const s = await start();
    const stream = await subscribe(s);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('etag')).toBeNull();

    const created = await s.call('POST', '/api/authors', { body: { data: { name: 'Ann', internalNotes: 'never shown' } } });
    expect(created.status).toBe(201);
    await waitFor('the event on the stream', () => stream.events.length >= 1, 1000);
    const [event] = stream.events;
    expect(event!.event).toBe('entry.create');
    expect(Number(event!.id)).toBeGreaterThan(0);
    expect(Object.keys(event!.data).sort()).toEqual(['createdAt', 'entry', 'event', 'model', 'uid']);
    expect(event!.data).toMatchObject({
      event: 'entry.create',
      model: 'author',
      uid: 'api::author.author',
      entry: { documentId: created.body.data.documentId, name: 'Ann' },
    });
    expect(event!.data.entry.internalNotes).toBeUndefined();
  });

  it('sends an anonymous subscriber only the types the public role may find, and a token every type it may find', async () => {
    const s = await start();
    await s.instance.roles.revoke('public', ['api::author.author.find']);
    const anonymous = await subscribe(s);
    const token = await subscribe(s, '', bearer(s.tokens.readOnly));
    // Naming a type the caller may not find is refused outright.
    const refused = await subscribe(s, '?types=authors');
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });

    await s.call('POST', '/api/authors', { body: { data: { name: 'Hidden' } } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'seen' } } });
    // Events arrive in order, so once the tag's is there, the author's would have been too.
    // Tags have draft & publish: a POST creates the draft, then publishes it.
    await waitFor('the tag on the anonymous stream', () => anonymous.events.length >= 2, 1000);
    await waitFor('both on the token stream', () => token.events.length >= 3, 1000);
    expect(models(anonymous)).toEqual(['entry.create tag', 'entry.publish tag']);
    expect(models(token)).toEqual(['entry.create author', 'entry.create tag', 'entry.publish tag']);
  });

  it('filters by the plural API ids in types, and answers 400 for an unknown one', async () => {
    const s = await start();
    const tags = await subscribe(s, '?types=tags');
    const both = await subscribe(s, '?types=tags,authors');
    await s.call('POST', '/api/authors', { body: { data: { name: 'Not a tag' } } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'a tag' } } });
    await waitFor('the tag', () => tags.events.length >= 2 && both.events.length >= 3, 1000);
    expect(models(tags)).toEqual(['entry.create tag', 'entry.publish tag']);
    expect(models(both)).toEqual(['entry.create author', 'entry.create tag', 'entry.publish tag']);

    const unknown = await subscribe(s, '?types=tags,unicorns');
    expect(unknown.status).toBe(400);
    expect(unknown.error.error).toMatchObject({ status: 400, name: 'ValidationError', details: { param: 'types', unknown: ['unicorns'] } });
    const badId = await subscribe(s, '', { 'last-event-id': 'abc' });
    expect(badId.status).toBe(400);
    expect(badId.error.error.name).toBe('ValidationError');
  });

  it('resumes after Last-Event-ID (header or lastEventId) with exactly the events missed, then goes on live', async () => {
    const s = await start();
    const first = await subscribe(s, '?types=tags');
    await s.call('POST', '/api/tags', { body: { data: { name: 'one' } } });
    await waitFor('the first tag created and published', () => first.events.length >= 2, 1000);
    first.close();
    const last = first.events[1]!.id;
    // Written while no stream is open: the lease is still live, so they are kept.
    await s.call('POST', '/api/tags', { body: { data: { name: 'two' } } });
    await s.call('POST', '/api/authors', { body: { data: { name: 'not asked for' } } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'three' } } });

    const byHeader = await subscribe(s, '?types=tags', { 'last-event-id': last });
    const byQuery = await subscribe(s, `?types=tags&lastEventId=${last}`);
    const fresh = await subscribe(s, '?types=tags');
    await s.call('POST', '/api/tags', { body: { data: { name: 'four' } } });
    for (const stream of [byHeader, byQuery]) {
      await waitFor('the missed events and the live one', () => stream.events.length >= 6, 1000);
      expect(stream.events.map((e) => `${e.event} ${e.data.entry.name}`)).toEqual(
        ['two', 'three', 'four'].flatMap((name) => [`entry.create ${name}`, `entry.publish ${name}`]),
      );
      expect(stream.events.every((e) => Number(e.id) > Number(last))).toBe(true);
    }
    await waitFor('the live events on a fresh stream', () => fresh.events.length >= 2, 1000);
    expect(fresh.events.map((e) => e.data.entry.name)).toEqual(['four', 'four']);
  });

  it('writes heartbeat comments on an idle stream', async () => {
    const s = await start({ config: { realtimeHeartbeatMs: 30 } });
    const stream = await subscribe(s);
    await waitFor('two heartbeats', () => stream.comments.filter((c) => c === 'heartbeat').length >= 2, 5000);
    expect(stream.events).toEqual([]);
  });

  it('delivers a write made through a second instance sharing the database', async () => {
    const first = await start();
    const databaseUrl = first.instance.config.databaseUrl ?? `sqlite:${join(first.dataDir, 'folio.db')}`;
    const dataDir = tempDir();
    const second = await startServer({ dataDir, config: { databaseUrl } });
    try {
      const stream = await subscribe(first, '?types=tags');
      expect((await second.call('POST', '/api/tags', { body: { data: { name: 'from afar' } } })).status).toBe(201);
      // No local commit wakes the first instance: its reader finds the row on its next poll (250 ms).
      await waitFor('the events from the other instance', () => stream.events.length >= 2, 2000);
      expect(models(stream)).toEqual(['entry.create tag', 'entry.publish tag']);

      // Concurrent writers on both instances: each event once, none skipped by the reader
      // (on PostgreSQL, ids committed out of order would be; appends take a lock meanwhile).
      const authors = await subscribe(first, '?types=authors');
      const writes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).call('POST', '/api/authors', { body: { data: { name: `writer ${i}` } } })),
      );
      expect(writes.every((w) => w.status === 201)).toBe(true);
      await waitFor('every concurrent write', () => authors.events.length >= 20, 5000);
      expect(authors.events.map((e) => e.data.entry.name).sort()).toEqual(writes.map((w) => w.body.data.name).sort());
      const ids = authors.events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    } finally {
      await second.stop({ keepData: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('writes no outbox row when nobody subscribes and no webhook exists, nor once the resume window has passed', async () => {
    const s = await start({ config: { realtimeResumeWindowMs: 300 } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'unheard' } } });
    expect(await outboxCount(s)).toBe(0);

    const stream = await subscribe(s, '?types=tags');
    await s.call('POST', '/api/tags', { body: { data: { name: 'heard' } } });
    await waitFor('the event', () => stream.events.length >= 1, 1000);
    stream.close();
    // The server sees the client go and stops renewing the lease, which then lapses.
    await waitFor('the lease to lapse', async () => (await leaseExpiry(s.instance.db)) < Date.now(), 5000);
    const before = await outboxCount(s);
    await s.call('POST', '/api/tags', { body: { data: { name: 'unheard again' } } });
    expect(await outboxCount(s)).toBe(before);
  });

  it('answers 405 to other methods and 401 to a credential that is not valid', async () => {
    const s = await start();
    const post = await s.call('POST', '/api/realtime');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const bad = await subscribe(s, '', bearer('not-a-token'));
    expect(bad.status).toBe(401);
    expect(bad.error).toMatchObject({ data: null, error: { status: 401 } });
  });

  it('ends the stream once the token it opened with is revoked, heartbeats off, before anything written after reaches it', async () => {
    const s = await start({ config: { realtimeHeartbeatMs: 0 } });
    const stream = await subscribe(s, '', bearer(s.tokens.readOnly));
    await s.call('POST', '/api/tags', { body: { data: { name: 'before' } } });
    await waitFor('the tag written before', () => stream.events.length >= 2, 2000);
    await s.instance.tokens.revoke('test-read');
    await s.call('POST', '/api/tags', { body: { data: { name: 'after' } } });
    await waitFor('the stream to end', () => stream.ended, 5000);
    expect(stream.events.map((e) => e.data.entry.name)).toEqual(['before', 'before']);
  });

  it('stops a type at once when its grant is revoked, heartbeats off: a document created right after never reaches the stream', async () => {
    const s = await start({ config: { realtimeHeartbeatMs: 0 } });
    const stream = await subscribe(s);
    await s.instance.roles.revoke('public', ['api::author.author.find']);
    await s.call('POST', '/api/authors', { body: { data: { name: 'Hidden' } } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'seen' } } });
    // In order: once the tag's events are there, the author's would have been too.
    await waitFor('the tag on the stream', () => stream.events.length >= 2, 2000);
    expect(models(stream)).toEqual(['entry.create tag', 'entry.publish tag']);
    expect(stream.ended).toBe(false);
  });

  it("follows a user's role and block as they change, heartbeats off", async () => {
    const s = await start({ config: { realtimeHeartbeatMs: 0 } });
    const { roles, users } = s.instance;
    const readers = await roles.create('Readers');
    await roles.grant(readers.type, ['api::author.author.find', 'api::tag.tag.find']);
    const writers = await roles.create('Writers');
    await roles.grant(writers.type, ['api::tag.tag.find']);
    const ann = await users.create({ username: 'ann', email: 'ann@example.com', password: 'Secret123!', role: readers.id } as never);
    const jwt = (await s.call('POST', '/api/auth/local', { body: { identifier: 'ann', password: 'Secret123!' } })).body.jwt;
    const stream = await subscribe(s, '', bearer(jwt));
    expect(stream.status).toBe(200);
    await users.update(ann.id, { role: writers.id } as never);
    await s.call('POST', '/api/authors', { body: { data: { name: 'Hidden' } } });
    await s.call('POST', '/api/tags', { body: { data: { name: 'seen' } } });
    await waitFor('the tag on the stream', () => stream.events.length >= 2, 2000);
    expect(models(stream)).toEqual(['entry.create tag', 'entry.publish tag']);
    await users.update(ann.id, { blocked: true } as never);
    await s.call('POST', '/api/tags', { body: { data: { name: 'not seen' } } });
    await waitFor('the stream to end', () => stream.ended, 5000);
    expect(stream.events.length).toBe(2);
  });

  it('rechecks a credential once however many streams it holds open, and sends each of them every event', async () => {
    const s = await start({ config: { realtimeHeartbeatMs: 0 } });
    const auth = bearer(s.tokens.readOnly).authorization;
    let checks = 0;
    const authenticate = s.instance.access.authenticate.bind(s.instance.access);
    s.instance.access.authenticate = (authorization) => {
      if (authorization === auth) checks++;
      return authenticate(authorization);
    };
    const opened: Stream[] = [];
    for (let i = 0; i < 30; i++) opened.push(await subscribe(s, '?types=tags', { authorization: auth }));
    expect(opened.every((stream) => stream.status === 200)).toBe(true);
    checks = 0;
    // A settings write (the public role holds every action: one is taken away): every stream's
    // access is looked at again before the next event reaches it.
    expect(await s.instance.roles.revoke('public', ['api::category.category.delete'])).toEqual(['api::category.category.delete']);
    await s.call('POST', '/api/tags', { body: { data: { name: 'to all' } } });
    await waitFor('the tag on every stream', () => opened.every((stream) => stream.events.length >= 2), 5000);
    expect(checks).toBe(1);
    expect(opened.every((stream) => stream.events[0]!.data.entry.name === 'to all')).toBe(true);
  });

  it('rechecks every subscriber on its own timer, whatever the heartbeat and with nothing written', async () => {
    const s = await start();
    const hub = new RealtimeHub(s.instance.db, { resumeWindowMs: 60_000, pollMs: 20, recheckMs: 50 });
    let allowed = true;
    let dropped = false;
    await hub.subscribe({ accepts: () => true, send: () => true, dropped: () => void (dropped = true), recheck: async () => allowed });
    try {
      allowed = false;
      await waitFor('the subscriber dropped', () => dropped, 5000);
      expect(hub.size).toBe(0);
    } finally {
      hub.stop();
    }
  });

  it('drops a subscriber whose buffer is full instead of holding more for it', async () => {
    const s = await start();
    const hub = new RealtimeHub(s.instance.db, { resumeWindowMs: 60_000, pollMs: 20 });
    let offered = 0;
    let dropped = false;
    const slow: Subscriber = { accepts: () => true, send: () => (offered++, false), dropped: () => void (dropped = true), recheck: async () => true };
    await hub.subscribe(slow);
    try {
      await s.call('POST', '/api/tags', { body: { data: { name: 'too much' } } });
      await waitFor('the slow subscriber dropped', () => dropped, 5000);
      expect(hub.size).toBe(0);
      // Offered once, then let go: later events are not offered again.
      await s.call('POST', '/api/tags', { body: { data: { name: 'more' } } });
      expect(offered).toBe(1);
    } finally {
      hub.stop();
    }
  });
});
