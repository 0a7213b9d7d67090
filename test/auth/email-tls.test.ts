/**
 * SMTP over TLS: implicit TLS (`smtps://`, port 465) and STARTTLS on `smtp://` (used when
 * offered; `?tls=required` refuses to go on without it), against an SMTP server started in
 * the test with a certificate from a test CA (test/auth/tls/, valid to 2126). The client
 * trusts it only through `?ca=FILE`; verification is never turned off, so a certificate the
 * CA does not vouch for fails with a logged error, and the API answer stays the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emailSenderFor, smtpSender, type EmailSender } from '../../src/auth/email';
import { createLogger } from '../../src/log';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { killSpawned, removeTempDirs, spawnCli } from '../helpers/spawn';

const TLS_DIR = join(import.meta.dir, 'tls');
const CA = join(TLS_DIR, 'ca.pem');
const OTHER_CA = join(TLS_DIR, 'other-ca.pem');
const tlsFiles = { key: readFileSync(join(TLS_DIR, 'server-key.pem')), cert: readFileSync(join(TLS_DIR, 'server.pem')) };
const credentials = { user: 'mailer', pass: 's3cret-pass' };

/** A sender whose log lines are kept, as JSON objects. */
function capturedSender(url: string): { sender: EmailSender; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ format: 'json', level: 'debug', sink: { write: (line) => lines.push(JSON.parse(line)) } });
  return { sender: smtpSender(url, undefined, log), lines };
}

const smtpServers: TestSmtpServer[] = [];
async function smtpWith(options: Parameters<typeof startSmtpServer>[0]) {
  const smtp = await startSmtpServer(options);
  smtpServers.push(smtp);
  return smtp;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  for (const smtp of smtpServers) await smtp.close();
  killSpawned();
  removeTempDirs();
}, 60_000);

/** Sends a reset mail through `sender` as a real forgot-password request does, answering the HTTP result. */
async function forgotPassword(sender: EmailSender, email: string) {
  const original = server.instance.email;
  server.instance.email = sender;
  try {
    return await server.call('POST', '/api/auth/forgot-password', { body: { email } });
  } finally {
    server.instance.email = original;
  }
}

let users = 0;
async function newUser() {
  const email = `tls-user-${++users}@example.com`;
  expect((await server.call('POST', '/api/auth/local/register', { body: { username: `tls${users}`, email, password: 'Pass-word-1' } })).status).toBe(200);
  return email;
}

describe('SMTP over TLS', () => {
  it('delivers over implicit TLS (smtps://) to a server whose certificate the ?ca= file vouches for', async () => {
    const smtp = await smtpWith({ tls: { ...tlsFiles, implicit: true }, credentials });
    const url = `${smtp.url(`${credentials.user}:${credentials.pass}`)}?ca=${encodeURIComponent(CA)}`;
    expect(url).toStartWith('smtps://');
    const { sender, lines } = capturedSender(url);
    const email = await newUser();
    expect(await forgotPassword(sender, email)).toMatchObject({ status: 200, body: { ok: true } });
    const [mail] = await smtp.waitFor(1);
    expect(mail).toMatchObject({ secure: true, to: [email], auth: { method: 'PLAIN', ...credentials } });
    expect(mail!.data).toContain('Subject: Reset password');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'email sent', server: `smtps://127.0.0.1:${smtp.port}` }));
  });

  it('upgrades smtp:// with STARTTLS when the server offers it, authenticating only after the handshake', async () => {
    const smtp = await smtpWith({ tls: tlsFiles, credentials });
    const { sender } = capturedSender(`${smtp.url(`${credentials.user}:${credentials.pass}`)}?tls=required&ca=${encodeURIComponent(CA)}`);
    const email = await newUser();
    expect((await forgotPassword(sender, email)).status).toBe(200);
    const [mail] = await smtp.waitFor(1);
    // The commands after STARTTLS (a fresh EHLO, then AUTH with the password) went over TLS.
    expect(mail).toMatchObject({ secure: true, to: [email], auth: { method: 'PLAIN', ...credentials } });
    expect(mail!.commands[0]).toStartWith('EHLO ');
    expect(mail!.commands.some((c) => c.startsWith('AUTH PLAIN'))).toBe(true);
  });

  it('with ?tls=required, refuses a server that offers no STARTTLS before sending the password, logging why', async () => {
    const plain = await smtpWith({ credentials });
    const { sender, lines } = capturedSender(`${plain.url(`${credentials.user}:${credentials.pass}`)}?tls=required`);
    const email = await newUser();
    expect(await forgotPassword(sender, email)).toMatchObject({ status: 200, body: { ok: true } });
    const entry = lines.find((l) => l.msg === 'email not sent');
    expect(entry).toMatchObject({ level: 'error', to: email, reason: 'the server does not offer STARTTLS and the URL says tls=required' });
    expect(plain.received).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(credentials.pass);
  });

  for (const [what, ca] of [
    ['the system CAs', undefined],
    ['another CA', OTHER_CA],
  ] as const) {
    it(`logs an untrusted certificate (checked against ${what}) as a clear error, answers 200 and delivers nothing`, async () => {
      for (const implicit of [true, false]) {
        const smtp = await smtpWith({ tls: { ...tlsFiles, implicit }, credentials });
        const url = `${smtp.url(`${credentials.user}:${credentials.pass}`)}${ca ? `?ca=${encodeURIComponent(ca)}` : ''}`;
        const { sender, lines } = capturedSender(url);
        const email = await newUser();
        expect(await forgotPassword(sender, email)).toMatchObject({ status: 200, body: { ok: true } });
        const entry = lines.find((l) => l.msg === 'email not sent');
        const prefix = implicit ? `could not connect to 127.0.0.1:${smtp.port}: ` : 'TLS handshake failed: ';
        expect(String(entry?.reason)).toStartWith(`${prefix}the server's TLS certificate is not trusted (`);
        expect(String(entry?.reason)).toEndWith('a private CA is trusted with ?ca=/path/ca.pem');
        expect(smtp.received).toEqual([]);
        // STARTTLS failed before AUTH: the password never crossed the plain connection.
        expect(JSON.stringify(lines)).not.toContain(credentials.pass);
      }
    });
  }
});

describe('FOLIO_SMTP_URL ca option', () => {
  it('refuses to start when the ?ca= file cannot be read, naming the option and the file', async () => {
    expect(() => emailSenderFor({ ...server.instance.config, smtpUrl: 'smtps://127.0.0.1:4650?ca=/nonexistent/ca.pem' })).toThrow(
      'FOLIO_SMTP_URL option ca: cannot read "/nonexistent/ca.pem" (ENOENT)',
    );
    const run = await spawnCli(['serve', '--port', '0'], { env: { FOLIO_SMTP_URL: 'smtp://127.0.0.1:2525?ca=/nonexistent/ca.pem' } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('FOLIO_SMTP_URL option ca: cannot read "/nonexistent/ca.pem"');
  }, 60_000);
});
