/**
 * The password-reset mail links to users-permissions' "Reset password page"
 * (`email_reset_password` in Strapi's advanced settings; FOLIO_RESET_PASSWORD_URL here) with
 * `?code=<code>`, as Strapi's mail does; without it the mail carries the code alone. The
 * mail is received by an SMTP server started in the test, and its code resets the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { parseResetPasswordUrl, resetLink } from '../../src/auth/mail-format';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { killSpawned, removeTempDirs, spawnCli } from '../helpers/spawn';

/** The body of a received message, quoted-printable undone. */
function bodyOf(data: string): string {
  const body = data.slice(data.indexOf('\r\n\r\n') + 4).replace(/=\r\n/g, '');
  return Buffer.from(
    body.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

let smtp: TestSmtpServer;
const servers: TestServer[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await smtp.close();
  killSpawned();
  removeTempDirs();
}, 60_000);

async function resetMail(resetPasswordUrl: string | undefined, email: string) {
  const server = await startServer({ config: { smtpUrl: smtp.url(), resetPasswordUrl } });
  servers.push(server);
  expect((await server.call('POST', '/api/auth/local/register', { body: { username: email.split('@')[0], email, password: 'First-pw-1' } })).status).toBe(200);
  const before = smtp.received.length;
  expect(await server.call('POST', '/api/auth/forgot-password', { body: { email } })).toMatchObject({ status: 200, body: { ok: true } });
  const [mail] = (await smtp.waitFor(before + 1)).slice(before);
  return { server, body: bodyOf(mail!.data) };
}

describe('reset password page', () => {
  it('links to FOLIO_RESET_PASSWORD_URL with ?code=, keeping its own query, and the linked code resets the password', async () => {
    const { server, body } = await resetMail('https://site.example/account/reset-password?lang=fr', 'linked@example.com');
    const link = body.match(/https:\/\/site\.example\/\S+/)?.[0];
    expect(link).toMatch(/^https:\/\/site\.example\/account\/reset-password\?lang=fr&code=[0-9a-f]{128}$/);
    const code = new URL(link!).searchParams.get('code')!;
    // The code is also given on its own, for a page that asks for it.
    expect(body).toContain(`Or use this code: ${code}`);
    const reset = await server.call('POST', '/api/auth/reset-password', { body: { code, password: 'Second-pw-2', passwordConfirmation: 'Second-pw-2' } });
    expect(reset.status).toBe(200);
    expect(reset.body.jwt).toBeString();
    expect((await server.call('POST', '/api/auth/local', { body: { identifier: 'linked@example.com', password: 'Second-pw-2' } })).status).toBe(200);
  });

  it('sends the code alone, as before, when no reset page is configured', async () => {
    const { body } = await resetMail(undefined, 'unlinked@example.com');
    expect(body).toMatch(/^We heard that you lost your password\. Use this code to reset it:\r\n\r\n[0-9a-f]{128}\r\n/);
    expect(body).not.toContain('http');
  });

  it('takes only absolute http(s) URLs without credentials, and replaces a code the page URL already has', () => {
    expect(parseResetPasswordUrl('https://site.example/reset')).toBe('https://site.example/reset');
    expect(() => parseResetPasswordUrl('/reset-password')).toThrow(
      'FOLIO_RESET_PASSWORD_URL must be an http(s) URL like https://example.com/reset-password, got "/reset-password"',
    );
    expect(() => parseResetPasswordUrl('javascript:alert(1)')).toThrow('FOLIO_RESET_PASSWORD_URL must start with http:// or https://, got "javascript://"');
    expect(() => parseResetPasswordUrl('https://u:p@site.example/reset')).toThrow('FOLIO_RESET_PASSWORD_URL must not carry credentials');
    expect(resetLink('https://site.example/reset?code=old#top', 'abc')).toBe('https://site.example/reset?code=abc#top');
  });

  it('refuses to start with a malformed FOLIO_RESET_PASSWORD_URL, naming the variable', async () => {
    const run = await spawnCli(['migrate'], { env: { FOLIO_RESET_PASSWORD_URL: 'ftp://files.example/reset' } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('FOLIO_RESET_PASSWORD_URL must start with http:// or https://, got "ftp://"');
  }, 60_000);
});
