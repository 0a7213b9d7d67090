/**
 * `folio webhook …` and delivery across processes: the CLI and `folio serve` spawned from
 * source, a receiver in this process. On PostgreSQL (FOLIO_TEST_DATABASE_URL) every
 * installation gets a fresh database; otherwise they share the SQLite file in the data dir.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { killSpawned, lines, removeTempDirs, runCli, serve, spawnCli, tempDir, type CliOptions } from '../helpers/spawn';
import { startReceiver, validSignature, waitFor, type Receiver } from './receiver';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const SLOW = 120_000;
const databases: string[] = [];
const receivers: Receiver[] = [];

afterEach(async () => {
  await killSpawned();
  for (const r of receivers.splice(0)) await r.stop();
});
// Dropping a database per test takes a while on a loaded machine.
afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  removeTempDirs();
}, 60_000);

/** Where one installation lives: a data dir, and on PostgreSQL a database of its own. */
async function installation(env: Record<string, string> = {}): Promise<CliOptions> {
  const options: CliOptions = { data: tempDir(), env };
  if (ADMIN_URL) {
    options.database = await createDatabase(ADMIN_URL, 'folio_hooks');
    databases.push(options.database);
  }
  return options;
}

function receiver(): Receiver {
  const r = startReceiver();
  receivers.push(r);
  return r;
}

/** The lines of `folio webhook deliveries` that are attempts (the last one says what is queued). */
const attemptLines = (out: string[]) => out.filter((l) => /\tattempt \d+$/.test(l));

function cli(args: string[], where: CliOptions) {
  const run = runCli(args, where);
  return { ...run, out: lines(run.stdout) };
}

describe('folio webhook', () => {
  it(
    'creates, lists without secrets, tests, shows deliveries and deletes webhooks',
    async () => {
      const where = await installation();
      const hook = receiver();
      const created = cli(
        [
          'webhook',
          'create',
          '--name',
          'site',
          '--url',
          hook.url,
          '--events',
          'entry.create,entry.publish',
          '--secret',
          'top-secret',
          '--header',
          'Authorization: Bearer abc123',
        ],
        where,
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);

      const listed = cli(['webhook', 'list'], where);
      expect(listed.code).toBe(0);
      expect(listed.out).toEqual([`site\t${hook.url}\tentry.create,entry.publish\tsigned\tenabled\theaders Authorization`]);
      expect(listed.stdout).not.toContain('top-secret');
      expect(listed.stdout).not.toContain('abc123');

      // Spawned without blocking this process: the receiver answering the test lives here.
      const tested = await spawnCli(['webhook', 'test', 'site'], where);
      expect(tested.code).toBe(0);
      expect(lines(tested.stdout)[0]).toMatch(/^HTTP 200 in \d+ ms$/);
      expect(hook.received.length).toBe(1);
      expect(hook.received[0]!.body.event).toBe('trigger-test');
      expect(hook.received[0]!.headers.get('authorization')).toBe('Bearer abc123');
      expect(validSignature(hook.received[0]!, 'top-secret')).toBe(true);

      const shown = cli(['webhook', 'deliveries', 'site'], where);
      expect(shown.out).toHaveLength(2);
      expect(shown.out[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\ttrigger-test\tHTTP 200\tattempt 1$/);
      // Then what is still to send: a test send is outside the queue.
      expect(shown.out[1]).toBe('nothing queued');

      expect(cli(['webhook', 'delete', 'site'], where).code).toBe(0);
      expect(cli(['webhook', 'list'], where).out).toEqual(['no webhooks']);
      const missing = cli(['webhook', 'test', 'site'], where);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('No webhook named "site"');
    },
    SLOW,
  );

  it(
    'refuses unknown events, bad URLs and headers with exit 1, missing flags with exit 2',
    async () => {
      const where = await installation();
      const unknown = cli(['webhook', 'create', '--name', 'x', '--url', 'http://127.0.0.1:9/h', '--events', 'entry.create,entry.explode'], where);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('Unknown event "entry.explode"');
      const badUrl = cli(['webhook', 'create', '--name', 'x', '--url', 'ftp://example.com/h', '--events', 'entry.create'], where);
      expect(badUrl.code).toBe(1);
      expect(badUrl.stderr).toContain('http:// or https://');
      const badHeader = cli(['webhook', 'create', '--name', 'x', '--url', 'http://127.0.0.1:9/h', '--events', 'entry.create', '--header', 'no colon'], where);
      expect(badHeader.code).toBe(1);
      expect(cli(['webhook', 'create', '--name', 'x', '--events', 'entry.create'], where).code).toBe(2);
      expect(cli(['webhook', 'list', '--secret', 'x'], where).code).toBe(2);
      expect(cli(['webhook', 'list'], where).out).toEqual(['no webhooks']);
      const test = cli(['webhook', 'create', '--name', 'x', '--url', 'http://127.0.0.1:9/h', '--events', 'entry.create'], where);
      expect(test.code).toBe(0);
      expect(cli(['webhook', 'create', '--name', 'x', '--url', 'http://127.0.0.1:9/h', '--events', 'entry.create'], where).stderr).toContain('already exists');
    },
    SLOW,
  );
});

describe('folio webhook with FOLIO_WEBHOOK_DENY_PRIVATE=true', () => {
  it(
    'refuses loopback, link-local and private address literals with exit 1, and never sends to a name resolving to one',
    async () => {
      const where = await installation({ FOLIO_WEBHOOK_DENY_PRIVATE: 'true' });
      for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:9/h', 'http://10.0.0.7/h', 'http://[::1]:9/h']) {
        const refused = cli(['webhook', 'create', '--name', 'inside', '--url', url, '--events', 'entry.create'], where);
        expect([url, refused.code]).toEqual([url, 1]);
        expect(refused.stderr).toContain('address (FOLIO_WEBHOOK_DENY_PRIVATE)');
      }
      expect(cli(['webhook', 'create', '--name', 'x', '--url', 'http://169.254.169.254/', '--events', 'entry.create'], where).stderr).toContain(
        'Webhook URLs may not point at 169.254.169.254, a link-local address',
      );
      expect(cli(['webhook', 'list'], where).out).toEqual(['no webhooks']);

      // A host name is taken, and checked where it is resolved: at the send.
      const hook = receiver();
      const named = hook.url.replace('127.0.0.1', 'localhost');
      expect(cli(['webhook', 'create', '--name', 'named', '--url', named, '--events', 'entry.create'], where).code).toBe(0);
      const tested = await spawnCli(['webhook', 'test', 'named'], where);
      expect(tested.code).toBe(1);
      expect(lines(tested.stdout)[0]).toMatch(/^error: not sent: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(FOLIO_WEBHOOK_DENY_PRIVATE\)$/);
      expect(hook.arrived).toBe(0);
      expect(cli(['webhook', 'deliveries', 'named'], where).out[0]).toContain('\ttrigger-test\terror: not sent: localhost resolves to');

      const typo = cli(['webhook', 'list'], { ...where, env: { FOLIO_WEBHOOK_DENY_PRIVATE: 'perhaps' } });
      expect(typo.code).not.toBe(0);
      expect(typo.stderr).toContain('FOLIO_WEBHOOK_DENY_PRIVATE must be true or false');
    },
    SLOW,
  );
});

describe('durable delivery', () => {
  it(
    'delivers events that folio import recorded once a server runs',
    async () => {
      const where = await installation({ FOLIO_WEBHOOK_RETRY_BASE_MS: '50' });
      const hook = receiver();
      expect(cli(['webhook', 'create', '--name', 'h', '--url', hook.url, '--events', 'entry.publish'], where).code).toBe(0);
      const file = join(tempDir(), 'tags.jsonl');
      writeFileSync(file, '{"name":"one"}\n{"name":"two"}\n');
      const imported = cli(['import', file, '--type', 'tags'], where);
      expect(imported.code).toBe(0);
      // The import process has ended: nothing was sent, the events wait in the outbox.
      expect(hook.received.length).toBe(0);

      await serve(where);
      await waitFor('both imported tags', () => hook.received.length >= 2);
      expect(hook.received.map((r) => r.body.entry.name).sort()).toEqual(['one', 'two']);
    },
    SLOW,
  );

  it(
    'delivers a pending retry after the server is killed and started again',
    async () => {
      // A long first wait: the retry must not come before the kill.
      const where = await installation({ FOLIO_WEBHOOK_RETRY_BASE_MS: '3000' });
      const hook = receiver();
      hook.respond = () => 503;
      expect(cli(['permissions', 'grant', 'public', 'api::author.author.create'], where).code).toBe(0);
      expect(cli(['webhook', 'create', '--name', 'h', '--url', hook.url, '--events', 'entry.create'], where).code).toBe(0);

      const first = await serve(where);
      const created = await first.call('POST', '/api/authors', { body: { data: { name: 'Survivor' } } });
      expect(created.status).toBe(201);
      await waitFor('the first, failing attempt', () => hook.received.length === 1);
      // Killed only once the attempt is recorded: a kill between the send and its record would leave
      // the delivery claimed until its lease runs out, longer than this test waits.
      await waitFor('the first attempt in the log', () => attemptLines(cli(['webhook', 'deliveries', 'h'], where).out).length === 1);
      // The retry is due: deliveries says when, and the server logged the failed attempt.
      expect(cli(['webhook', 'deliveries', 'h'], where).out.at(-1)).toMatch(
        /^queued: 1, next try at \d{4}-\d\d-\d\dT[\d:.]+Z \(sent by a running folio serve\)$/,
      );
      // The line is written once the attempt is recorded, so it may reach the pipe just after the row.
      const failedLine = /^webhook "h": entry\.create not delivered \(HTTP 503\), attempt 1 of 6; next try at \d{4}-\d\d-\d\dT[\d:.]+Z$/m;
      await waitFor('the failed attempt in the server log', () => failedLine.test(first.stderr()));
      await first.kill();

      hook.respond = () => 200;
      await serve(where);
      await waitFor('the retried delivery', () => hook.received.length === 2, 30_000);
      expect(hook.received[1]!.body.entry.documentId).toBe(created.body.data.documentId);
      const attempts = attemptLines(cli(['webhook', 'deliveries', 'h'], where).out).map((l) => l.split('\t').slice(1));
      expect(attempts).toEqual([
        ['entry.create', 'HTTP 503', 'attempt 1'],
        ['entry.create', 'HTTP 200', 'attempt 2'],
      ]);
    },
    SLOW,
  );

  it(
    'delivers each event exactly once when two instances share the database',
    async () => {
      const where = await installation({ FOLIO_WEBHOOK_RETRY_BASE_MS: '50' });
      const hook = receiver();
      expect(cli(['permissions', 'grant', 'public', 'api::author.author.create'], where).code).toBe(0);
      expect(cli(['webhook', 'create', '--name', 'h', '--url', hook.url, '--events', 'entry.create'], where).code).toBe(0);
      // Events waiting before the instances start: both begin by draining the same queue.
      const file = join(tempDir(), 'authors.jsonl');
      const queued = 40;
      writeFileSync(file, Array.from({ length: queued }, (_, i) => JSON.stringify({ name: `queued ${i}` })).join('\n'));
      expect(cli(['import', file, '--type', 'authors'], where).code).toBe(0);

      // Each instance has a data dir of its own on PostgreSQL; on SQLite they share the file.
      const [a, b] = await Promise.all([serve(ADMIN_URL ? { ...where, data: tempDir() } : where), serve(ADMIN_URL ? { ...where, data: tempDir() } : where)]);
      const posted = 20;
      const created = await Promise.all(
        Array.from({ length: posted }, (_, i) => (i % 2 ? a : b).call('POST', '/api/authors', { body: { data: { name: `posted ${i}` } } })),
      );
      expect(created.every((c) => c.status === 201)).toBe(true);
      const count = queued + posted;
      await waitFor(`${count} deliveries`, () => hook.received.length >= count, 30_000);
      const attempts = () => attemptLines(cli(['webhook', 'deliveries', 'h'], where).out);
      await waitFor('every attempt recorded', () => attempts().length >= count, 30_000).catch((error) => {
        throw new Error(`${error.message}\ninstance a: ${a.stderr()}\ninstance b: ${b.stderr()}`);
      });
      // One attempt per event, each the first: no delivery was claimed twice.
      expect(attempts().filter((l) => !l.endsWith('\tHTTP 200\tattempt 1'))).toEqual([]);
      expect(attempts()).toHaveLength(count);
      expect(hook.received).toHaveLength(count);
      expect(new Set(hook.received.map((r) => r.body.entry.documentId)).size).toBe(count);
    },
    SLOW,
  );
});
