/**
 * Recovering a lost Folio Admin password: `folio admin reset-password --email E --password P`
 * (any server, mail or not), and "Forgot password?" on the login page, which mails a link to
 * `<public url>/admin/reset-password?token=…` when mail is configured (a real SMTP server
 * started here). The link works once, for an hour; a reset ends the admin's sessions; the
 * answer never tells which addresses are admins'; the token is stored hashed and never logged.
 * The page itself is driven in a real browser when one is installed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { main } from '../../src/cli/main';
import { findChromium, launchBrowser } from '../helpers/browser';
import { parseMail } from '../helpers/mail';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

const PUBLIC_URL = 'https://cms.example.com';
let smtp: TestSmtpServer;
let server: TestServer;
let plain: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({ publicAccess: false, config: { smtpUrl: smtp.url(), emailFrom: 'Folio <cms@example.com>', publicUrl: PUBLIC_URL } });
  plain = await startServer({ publicAccess: false });
  for (const s of [server, plain]) {
    const accounts = new AdminAccounts(s.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
  }
}, 30_000);
afterAll(async () => {
  await server.stop();
  await plain.stop();
  await smtp.close();
}, 30_000);

async function login(s: TestServer, email: string, password: string) {
  return s.call('POST', '/admin/api/login', { body: { email, password } });
}
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')!.split(';')[0]!;
const sessionUser = async (s: TestServer, cookie: string) => (await s.call('GET', '/admin/api/session', { headers: { cookie } })).body.data.user;

/** Asks for a link for `email` and answers the mailed link's token (after the mail arrives). */
async function mailedToken(email: string) {
  const before = smtp.received.length;
  const res = await server.call('POST', '/admin/api/forgot-password', { body: { email } });
  expect(res).toMatchObject({ status: 200, body: { data: { ok: true } } });
  const [mail] = (await smtp.waitFor(before + 1)).slice(before);
  const parsed = parseMail(mail!);
  const link = parsed.text.match(/https:\/\/cms\.example\.com\/\S+/)![0];
  expect(link).toMatch(/^https:\/\/cms\.example\.com\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
  return { mail: mail!, parsed, token: new URL(link).searchParams.get('token')! };
}

describe('folio admin reset-password', () => {
  const args = () => [
    '--data',
    plain.dataDir,
    '--content-types',
    plain.instance.config.contentTypesDir,
    ...(plain.instance.config.databaseUrl ? ['--database', plain.instance.config.databaseUrl] : []),
  ];

  test('sets a new password and ends the admin’s sessions; an unknown e-mail, a short password or a missing flag are errors', async () => {
    const before = cookieOf(await login(plain, 'ed@example.com', 'editor password'));
    expect(await sessionUser(plain, before)).toMatchObject({ email: 'ed@example.com' });
    expect(await main(['admin', 'reset-password', '--email', 'ED@example.com', '--password', 'a new editor password', ...args()])).toBe(0);
    expect(await sessionUser(plain, before)).toBeNull();
    expect((await login(plain, 'ed@example.com', 'editor password')).status).toBe(401);
    expect((await login(plain, 'ed@example.com', 'a new editor password')).status).toBe(200);
    expect(await main(['admin', 'reset-password', '--email', 'nobody@example.com', '--password', 'whatever password', ...args()])).toBe(1);
    expect(await main(['admin', 'reset-password', '--email', 'ed@example.com', '--password', 'short', ...args()])).toBe(1);
    expect(await main(['admin', 'reset-password', '--email', 'ed@example.com', ...args()])).toBe(2);
    expect((await login(plain, 'ed@example.com', 'a new editor password')).status).toBe(200);
  }, 30_000);
});

describe('Forgot password? by mail', () => {
  test('mails a link whose token sets a new password once, logs in, and ends the other sessions', async () => {
    const other = cookieOf(await login(server, 'root@example.com', 'correct horse'));
    const { mail, parsed, token } = await mailedToken('Root@Example.com');
    expect(mail.to).toEqual(['root@example.com']);
    expect(parsed.headers.get('subject')).toBe('Reset your Folio Admin password');
    expect(parsed.headers.get('from')).toBe('Folio <cms@example.com>');
    // Only the token's hash is stored.
    const rows = await server.instance.db.all<{ tokenHash: string }>('SELECT "tokenHash" FROM folio_admin_password_resets');
    expect(rows.map((r) => r.tokenHash)).toEqual([createHash('sha256').update(token).digest('hex')]);

    expect((await server.call('POST', '/admin/api/reset-password', { body: { token, password: 'short' } })).body.error.details.errors[0].path).toEqual([
      'password',
    ]);
    const reset = await server.call('POST', '/admin/api/reset-password', { body: { token, password: 'a brand new password' } });
    expect(reset.status).toBe(200);
    expect(reset.body.data.user).toMatchObject({ email: 'root@example.com', role: 'super-admin' });
    expect(await sessionUser(server, cookieOf(reset))).toMatchObject({ email: 'root@example.com' });
    expect(await sessionUser(server, other)).toBeNull();
    expect((await login(server, 'root@example.com', 'correct horse')).status).toBe(401);
    expect((await login(server, 'root@example.com', 'a brand new password')).status).toBe(200);
    const again = await server.call('POST', '/admin/api/reset-password', { body: { token, password: 'yet another password' } });
    expect(again).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'This reset link is invalid or has expired' } } });
  }, 30_000);

  test('answers the same for an unknown or blocked address and mails nothing', async () => {
    const before = smtp.received.length;
    expect((await server.call('POST', '/admin/api/forgot-password', { body: { email: 'nobody@example.com' } })).body).toEqual({ data: { ok: true } });
    expect((await server.call('POST', '/admin/api/forgot-password', { body: {} })).body).toEqual({ data: { ok: true } });
    await server.instance.db.transaction((tx) => tx.run(`UPDATE folio_admin_users SET "blocked" = 1 WHERE "email" = 'ed@example.com'`));
    try {
      expect((await server.call('POST', '/admin/api/forgot-password', { body: { email: 'ed@example.com' } })).body).toEqual({ data: { ok: true } });
    } finally {
      await server.instance.db.transaction((tx) => tx.run(`UPDATE folio_admin_users SET "blocked" = 0 WHERE "email" = 'ed@example.com'`));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(before);
  });

  test('refuses an expired link, and a new link replaces the last one', async () => {
    const first = await mailedToken('ed@example.com');
    const second = await mailedToken('ed@example.com');
    expect((await server.call('POST', '/admin/api/reset-password', { body: { token: first.token, password: 'editor password 2' } })).status).toBe(400);
    await server.instance.db.transaction((tx) => tx.run('UPDATE folio_admin_password_resets SET "expiresAt" = 1'));
    expect((await server.call('POST', '/admin/api/reset-password', { body: { token: second.token, password: 'editor password 2' } })).status).toBe(400);
    expect((await login(server, 'ed@example.com', 'editor password')).status).toBe(200);
  });

  test('says so when the server sends no mail, and the session tells the login page', async () => {
    expect((await plain.call('GET', '/admin/api/session')).body.data.mailConfigured).toBe(false);
    expect((await server.call('GET', '/admin/api/session')).body.data.mailConfigured).toBe(true);
    const res = await plain.call('POST', '/admin/api/forgot-password', { body: { email: 'root@example.com' } });
    expect(res).toMatchObject({
      status: 400,
      body: { error: { message: 'Mail is not configured on this server: run folio admin reset-password --email E --password P' } },
    });
  });

  test('limits requests per client and e-mail', async () => {
    const limited = await startServer({ publicAccess: false, config: { smtpUrl: smtp.url(), authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const ask = (email: string) => limited.call('POST', '/admin/api/forgot-password', { body: { email } });
      expect([
        (await ask('a@example.com')).status,
        (await ask('a@example.com')).status,
        (await ask('a@example.com')).status,
        (await ask('b@example.com')).status,
      ]).toEqual([200, 200, 429, 200]);
    } finally {
      await limited.stop();
    }
  });
});

const executable = findChromium();

/** axe-core's serious and critical violations on the page as it stands (as test/admin/a11y-browser.test.ts audits). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact }));
  });
  return (found as { id: string; impact: string }[]).filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

describe.skipIf(!executable)('the login page in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser(executable!);
  }, 30_000);
  afterAll(() => browser?.close());

  test('offers Forgot password?, mails a link, and the link’s page sets a new password and logs in', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password?' }).waitFor();
    expect(await violations(page)).toEqual([]);
    const before = smtp.received.length;
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'a link to set a new password is on its way' }).waitFor();
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const link = parseMail(mail!).text.match(/https:\/\/cms\.example\.com(\/\S+)/)![1]!;
    await page.goto(server.url + link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('New password (8 characters or more)').fill('browser password');
    await page.getByLabel('New password again').fill('browser password');
    await page.getByRole('button', { name: 'Set the password and log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(new URL(page.url()).search).toBe('');
  }, 60_000);

  test('without mail, tells how to set a new password from the command line', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${plain.url}/admin`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByText('folio admin reset-password --email E --password P').waitFor();
    await page.getByRole('button', { name: 'Back to log in' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  }, 60_000);
});
