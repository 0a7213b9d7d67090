/**
 * Password-reset mail over SMTP: a real Folio (in process, and `serve` as a child process)
 * configured with FOLIO_SMTP_URL delivers to an SMTP server started inside the test
 * (test/helpers/smtp-server.ts), authenticating with the URL's credentials. A server that
 * is down or refuses the credentials changes nothing in the HTTP answer; the failure is a
 * log line (JSON under FOLIO_LOG_FORMAT=json) without the password or the mail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import net from 'node:net';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { cliCommand, cliSpawnOptions, killSpawned, removeTempDirs, runCli, spawnCli, spawnServer, tempDir } from '../helpers/spawn';
import { createDatabase, dropDatabases } from '../helpers/postgres';

const TEST_DATABASE_URL = process.env.FOLIO_TEST_DATABASE_URL;

/** RFC 2045 quoted-printable, undone: soft breaks joined, =XX bytes decoded as UTF-8. */
function decodeQp(body: string): string {
  const joined = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Headers (unfolded) and decoded body of a received message. */
function parseMail(data: string) {
  const split = data.indexOf('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of data
    .slice(0, split)
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: decodeQp(data.slice(split + 4)) };
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const codeIn = (text: string) => text.match(/\b[0-9a-f]{128}\b/)?.[0];

let smtp: TestSmtpServer;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer({ credentials: { user: 'mailer@example.com', pass: 'p@ss:w0rd/secret' } });
  server = await startServer({
    config: {
      smtpUrl: smtp.url(`${encodeURIComponent('mailer@example.com')}:${encodeURIComponent('p@ss:w0rd/secret')}`),
      emailFrom: 'Folio Ünïcode <cms@example.com>',
    },
  });
});

afterAll(async () => {
  await server.stop();
  await smtp.close();
  removeTempDirs();
});
afterEach(killSpawned);

describe('password reset mail over SMTP', () => {
  it('delivers the reset mail to the account address with the URL credentials, and its code resets the password', async () => {
    const created = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'reader', email: 'Reader@Example.com', password: 'First-pw-1' },
    });
    expect(created.status).toBe(200);
    const before = smtp.received.length;
    const answer = await server.call('POST', '/api/auth/forgot-password', { body: { email: 'READER@example.com' } });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.from).toBe('cms@example.com');
    expect(mail!.to).toEqual(['reader@example.com']);
    expect(mail!.auth).toEqual({ method: 'PLAIN', user: 'mailer@example.com', pass: 'p@ss:w0rd/secret' });
    const { headers, body } = parseMail(mail!.data);
    expect(headers.get('to')).toBe('reader@example.com');
    expect(headers.get('from')).toBe(`=?UTF-8?B?${Buffer.from('Folio Ünïcode').toString('base64')}?= <cms@example.com>`);
    expect(headers.get('subject')).toBe('Reset password');
    expect(headers.get('mime-version')).toBe('1.0');
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(headers.get('content-transfer-encoding')).toBe('quoted-printable');
    expect(headers.get('message-id')).toMatch(/^<[0-9a-f]{32}@example\.com>$/);
    expect(Math.abs(Date.parse(headers.get('date')!) - Date.now())).toBeLessThan(10 * 60_000);
    // Every line of the message fits SMTP's limit; the 128-character code was soft-broken and reassembled.
    expect(mail!.data.split('\r\n').every((line) => line.length <= 998)).toBe(true);
    const code = codeIn(body)!;
    expect(code).toBeString();
    const reset = await server.call('POST', '/api/auth/reset-password', { body: { code, password: 'Second-pw-2', passwordConfirmation: 'Second-pw-2' } });
    expect(reset.status).toBe(200);
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'reader', password: 'Second-pw-2' } })).status).toBe(200);
  });

  it('sends nothing for an unknown address and answers the same {ok:true}', async () => {
    const before = smtp.received.length;
    const answer = await server.call('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(smtp.received.length).toBe(before);
  });

  it('authenticates with AUTH LOGIN when the server offers only LOGIN', async () => {
    const loginOnly = await startSmtpServer({ auth: ['LOGIN'], credentials: { user: 'u', pass: 'secret' } });
    const original = server.instance.email;
    const { emailSenderFor } = await import('../../src/auth/email');
    server.instance.email = emailSenderFor({ ...server.instance.config, smtpUrl: loginOnly.url('u:secret'), emailFrom: undefined });
    try {
      await server.instance.email.send({ to: 'someone@example.com', subject: 'Hi', text: '.leading dot\nline' });
      const [mail] = await loginOnly.waitFor(1);
      expect(mail!.auth).toEqual({ method: 'LOGIN', user: 'u', pass: 'secret' });
      // The default sender: no-reply at the SMTP host's domain (an IP address here: localhost).
      expect(mail!.from).toBe('no-reply@localhost');
      // Dot-stuffed on the wire, restored by the server.
      expect(mail!.data).toContain('\r\n\r\n.leading dot\r\nline');
    } finally {
      server.instance.email = original;
      await loginOnly.close();
    }
  });
});

describe('SMTP limits', () => {
  it("gives up on a server that accepts the connection but never replies, within the URL's timeout", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { sendMail } = await import('../../src/auth/smtp');
      const { parseSmtpUrl } = await import('../../src/auth/mail-format');
      const sending = sendMail(parseSmtpUrl(`smtp://127.0.0.1:${port}?timeout=300`), {
        from: { address: 'a@example.com' },
        to: 'b@example.com',
        subject: 's',
        text: 't',
      });
      expect(sending).rejects.toThrow('greeting: no reply within 300 ms');
      await sending.catch(() => {});
    } finally {
      silent.close();
    }
  });
});

describe('mail failures and the log, from `folio serve`', () => {
  /** A served installation with one user, on SQLite or (with FOLIO_TEST_DATABASE_URL) its own PostgreSQL database. */
  async function served(env: Record<string, string>) {
    const data = tempDir();
    const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
    const flags = { data, ...(database ? { database } : {}) };
    const user = runCli(['user', 'create', '--email', 'victim@example.com', '--password', 'Victim-pw-1'], flags);
    expect(user.code).toBe(0);
    const options = { ...flags, env: { FOLIO_LOG_FORMAT: 'json', ...env } };
    // Under FOLIO_LOG_FORMAT=json the start-up line is JSON too.
    const folio = await spawnServer(cliCommand(['serve', '--port', '0'], options), {
      ...cliSpawnOptions(options),
      listening: /"msg":"Folio listening on (http:\/\/[^"\s]+:\d+)"/,
    });
    return { folio, drop: async () => void (database && (await dropDatabases(TEST_DATABASE_URL!, [database]))) };
  }

  /** The JSON log lines of a stream, polled until one matches or the bound passes. */
  async function logLine(read: () => string, match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const entries = read()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const found = entries.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching log line in:\n${read()}`);
      await Bun.sleep(20);
    }
  }

  it('answers 200 when the SMTP server is down and logs one JSON error line without the password or the code', async () => {
    const port = await closedPort();
    const { folio, drop } = await served({ FOLIO_SMTP_URL: `smtp://mailer:hunter2-secret@127.0.0.1:${port}` });
    try {
      const answer = await folio.call('POST', '/api/auth/forgot-password', { body: { email: 'victim@example.com' } });
      expect(answer).toMatchObject({ status: 200, body: { ok: true } });
      const entry = await logLine(folio.stderr, (e) => e.msg === 'email not sent');
      expect(entry).toMatchObject({ level: 'error', to: 'victim@example.com', subject: 'Reset password', server: `smtp://127.0.0.1:${port}` });
      expect(String(entry.reason)).toContain(`could not connect to 127.0.0.1:${port}`);
      expect(folio.stderr() + folio.stdout()).not.toContain('hunter2');
      expect(codeIn(folio.stderr() + folio.stdout())).toBeUndefined();
    } finally {
      await folio.stop();
      await drop();
    }
  }, 60_000);

  it('logs refused credentials as an error line and still answers 200', async () => {
    const strict = await startSmtpServer({ credentials: { user: 'mailer', pass: 'right' } });
    const { folio, drop } = await served({ FOLIO_SMTP_URL: strict.url('mailer:wrong-secret') });
    try {
      const answer = await folio.call('POST', '/api/auth/forgot-password', { body: { email: 'victim@example.com' } });
      expect(answer.status).toBe(200);
      const entry = await logLine(folio.stderr, (e) => e.msg === 'email not sent');
      expect(String(entry.reason)).toBe('AUTH PLAIN refused: 535 5.7.8 authentication failed');
      expect(strict.received).toEqual([]);
      expect(folio.stderr() + folio.stdout()).not.toContain('wrong-secret');
    } finally {
      await folio.stop();
      await strict.close();
      await drop();
    }
  }, 60_000);

  it("writes the log sender's mail as one JSON line when no SMTP URL is set, its reset code redacted", async () => {
    const { folio, drop } = await served({});
    try {
      expect((await folio.call('POST', '/api/auth/forgot-password', { body: { email: 'victim@example.com' } })).status).toBe(200);
      const entry = await logLine(folio.stdout, (e) => typeof e.msg === 'string' && e.msg.startsWith('email to '));
      expect(entry).toMatchObject({ level: 'info', msg: 'email to victim@example.com: Reset password', to: 'victim@example.com', subject: 'Reset password' });
      expect(codeIn(String(entry.text))).toBeUndefined();
      expect(String(entry.text)).toContain('[redacted]');
      expect(folio.stdout() + folio.stderr()).not.toMatch(/\b[0-9a-f]{128}\b/);
    } finally {
      await folio.stop();
      await drop();
    }
  }, 60_000);

  it('refuses to start with a malformed FOLIO_EMAIL_FROM or FOLIO_SMTP_URL, naming the variable', async () => {
    const from = await spawnCli(['migrate'], { env: { FOLIO_SMTP_URL: 'smtp://127.0.0.1:2525', FOLIO_EMAIL_FROM: 'not an address' } });
    expect(from.code).not.toBe(0);
    expect(from.stderr).toContain('FOLIO_EMAIL_FROM must be an address like no-reply@example.com');
    const url = await spawnCli(['migrate'], { env: { FOLIO_SMTP_URL: 'http://mail.example.com' } });
    expect(url.code).not.toBe(0);
    expect(url.stderr).toContain('FOLIO_SMTP_URL must start with smtp:// or smtps://');
  }, 60_000);
});
