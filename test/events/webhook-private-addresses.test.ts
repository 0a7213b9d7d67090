/**
 * FOLIO_WEBHOOK_DENY_PRIVATE: a webhook URL at a loopback, private, link-local… address is a
 * 400 naming the field (the domain and the admin's settings API; the CLI in
 * webhook-cli.test.ts), and a host name that resolves to one is never sent to: the attempt
 * log says why. Without the variable, 127.0.0.1 receivers work as before (every other test).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { AdminAccounts } from '../../src/admin/accounts';
import { insertWebhook } from '../../src/db/store/webhooks';
import { ValidationError } from '../../src/errors';
import { sendWebhook } from '../../src/events/send';
import { startServer, type TestServer } from '../helpers/server';
import { startReceiver, waitFor, type Receiver } from './receiver';

const S = '/admin/api/settings';
const REFUSED = [
  'http://127.0.0.1:9/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.1.2.3/hook',
  'http://[::1]:9/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'http://0x7f.1/',
  'http://0/',
  'http://[fd00::1]/',
  'http://100.64.0.1/',
  'http://192.168.0.10/',
];

let server: TestServer;
let root: Record<string, string>;
let receiver: Receiver;
beforeAll(async () => {
  server = await startServer({ config: { webhookDenyPrivate: true, webhookRetryBaseMs: 5 } });
  await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' });
  const login = await server.call('POST', '/admin/api/login', { body: { email: 'root@example.com', password: 'correct horse' } });
  root = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': login.body.data.csrfToken };
}, 30_000);
afterAll(() => server.stop(), 30_000);
afterEach(async () => {
  await receiver?.stop();
  for (const w of await server.instance.webhooks.list()) await server.instance.webhooks.delete(w.name);
});

const deliveries = () => server.instance.db.all<{ state: string }>('SELECT "state" FROM folio_webhook_deliveries ORDER BY "id"');

describe('FOLIO_WEBHOOK_DENY_PRIVATE', () => {
  it('refuses creating a webhook at a loopback, link-local or private address literal, naming the url field', async () => {
    for (const url of REFUSED) {
      const error = await server.instance.webhooks.create({ name: 'inside', url, events: ['entry.create'] }).catch((e) => e);
      expect([url, error instanceof ValidationError]).toEqual([url, true]);
      expect(error.details.errors[0].path).toEqual(['url']);
      expect(error.message).toContain('FOLIO_WEBHOOK_DENY_PRIVATE');
    }
    expect((await server.instance.webhooks.create({ name: 'x', url: 'http://169.254.169.254/', events: ['entry.create'] }).catch((e) => e)).message).toBe(
      'Webhook URLs may not point at 169.254.169.254, a link-local address (FOLIO_WEBHOOK_DENY_PRIVATE)',
    );
    expect(await server.instance.webhooks.list()).toEqual([]);
    // Public addresses and host names are taken (a name is checked where it is resolved, at each send).
    await server.instance.webhooks.create({ name: 'public', url: 'https://93.184.215.14/hook', events: ['entry.create'] });
    await server.instance.webhooks.create({ name: 'named', url: 'http://localhost:9/hook', events: ['entry.create'] });
    expect((await server.instance.webhooks.list()).map((w) => w.name)).toEqual(['named', 'public']);
  });

  it('answers the admin settings API 400 naming url for such an address, on create and on edit, changing nothing', async () => {
    for (const url of REFUSED) {
      const answer = await server.call('POST', `${S}/webhooks`, { body: { name: 'inside', url, events: ['entry.create'] }, headers: root });
      expect([url, answer.status]).toEqual([url, 400]);
      expect(answer.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', details: { errors: [{ path: ['url'] }] } } });
    }
    expect(await server.instance.webhooks.list()).toEqual([]);
    expect(
      (await server.call('POST', `${S}/webhooks`, { body: { name: 'out', url: 'https://93.184.215.14/hook', events: ['entry.create'] }, headers: root }))
        .status,
    ).toBe(201);
    const edited = await server.call('PUT', `${S}/webhooks/out`, { body: { url: 'http://[::1]/hook', events: ['entry.create'] }, headers: root });
    expect(edited.status).toBe(400);
    expect(edited.body.error.details.errors[0].path).toEqual(['url']);
    expect((await server.instance.webhooks.get('out'))!.url).toBe('https://93.184.215.14/hook');
  });

  it('does not deliver to a host name that resolves to loopback, and records why in the attempt log', async () => {
    receiver = startReceiver();
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    await server.instance.webhooks.create({ name: 'rebound', url, events: ['entry.create'] });
    await server.call('POST', '/api/authors', { body: { data: { name: 'Kept inside' } } });
    await waitFor('the delivery to settle', async () => ['failed', 'delivered'].includes((await deliveries())[0]?.state ?? ''));
    expect(receiver.arrived).toBe(0);
    expect((await deliveries())[0]!.state).toBe('failed');
    const attempts = (await server.instance.webhooks.deliveries('rebound'))!;
    expect(attempts).toHaveLength(6);
    expect(attempts.every((a) => a.status === null)).toBe(true);
    expect(attempts[0]!.error).toMatch(/^not sent: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(FOLIO_WEBHOOK_DENY_PRIVATE\)$/);
    // The test button too.
    const tested = (await server.instance.webhooks.test('rebound'))!;
    expect([tested.status, tested.ok]).toEqual([null, false]);
    expect(tested.error).toContain('a loopback address');
    expect(receiver.arrived).toBe(0);
  });

  it('does not deliver to an address literal stored before the variable was set', async () => {
    receiver = startReceiver();
    // As an installation that turned the variable on later has it: written without the check.
    await insertWebhook(server.instance.db, {
      name: 'older',
      url: receiver.url,
      events: ['entry.create'],
      secret: null,
      headers: {},
      now: new Date().toISOString(),
    });
    await server.call('POST', '/api/authors', { body: { data: { name: 'Also kept inside' } } });
    await waitFor('the delivery to settle', async () => ['failed', 'delivered'].includes((await deliveries())[0]?.state ?? ''));
    expect(receiver.arrived).toBe(0);
    expect((await server.instance.webhooks.deliveries('older'))![0]!.error).toBe('not sent: 127.0.0.1 is a loopback address (FOLIO_WEBHOOK_DENY_PRIVATE)');
  });
});

describe('a send with its addresses checked', () => {
  it('goes to the address it checked, with the URL host still in Host', async () => {
    receiver = startReceiver();
    const port = new URL(receiver.url).port;
    const seen: string[] = [];
    const result = await sendWebhook({ url: `http://localhost:${port}/hook`, secret: null, headers: {} }, 'entry.create', '{"ok":true}', {
      timeoutMs: 5000,
      refuseAddress: (address) => {
        seen.push(address);
        return undefined;
      },
    });
    expect(result).toMatchObject({ status: 200, ok: true, error: null });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((a) => a === '127.0.0.1' || a === '::1')).toBe(true);
    expect(receiver.received[0]!.headers.get('host')).toBe(`localhost:${port}`);
    expect(receiver.received[0]!.body).toEqual({ ok: true });
  });

  it('goes over https to the address it checked, with the certificate verified and the URL host in Host', async () => {
    // The test CA's certificate names localhost; the client trusts that CA through NODE_EXTRA_CA_CERTS, read at start-up.
    const tls = join(import.meta.dir, '../auth/tls');
    const https = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      tls: { cert: Bun.file(join(tls, 'server.pem')), key: Bun.file(join(tls, 'server-key.pem')) },
      fetch: (request: Request): Response =>
        request.headers.get('host') === `localhost:${https.port}` ? new Response('ok') : new Response('wrong host', { status: 421 }),
    });
    try {
      const script = `
        import { sendWebhook } from ${JSON.stringify(join(import.meta.dir, '../../src/events/send.ts'))};
        const seen = [];
        const result = await sendWebhook({ url: 'https://localhost:${https.port}/hook', secret: null, headers: {} }, 'entry.create', '{"ok":true}',
          { timeoutMs: 5000, refuseAddress: (address) => void seen.push(address) });
        console.log(JSON.stringify({ result, seen }));`;
      const child = Bun.spawn([process.execPath, '-e', script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(tls, 'ca.pem') },
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      expect(err).toBe('');
      const { result, seen } = JSON.parse(out);
      expect(result).toMatchObject({ status: 200, ok: true, error: null });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((a: string) => a === '127.0.0.1' || a === '::1')).toBe(true);
    } finally {
      await https.stop(true);
    }
  }, 30_000);
});
