/**
 * Password recovery in the redesigned admin, as an admin who lost it goes through it, in a real
 * browser (Debian's chromium through playwright-core) at 1366×768 and on a 390×844 phone:
 * "Forgot password?" on the login page, the mail (a real SMTP server started here), the link's
 * page (two passwords that differ are said so), logged in to the new layout (the fixed header,
 * the home page), the profile page's password change, the used link refused in words with a
 * way back to ask for a new one, and a login with the last password. axe on each page; nothing scrolls sideways; nothing leaves the server.
 * Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, pageWidth, screenshot, seriousViolations } from '../helpers/browser';
import { parseMail } from '../helpers/mail';
import { startServer, type TestServer } from '../helpers/server';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/password-recovery-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const PUBLIC_URL = 'https://cms.example.com';

describe.skipIf(!executable)('Folio Admin password recovery in the new layout', () => {
  let smtp: TestSmtpServer;
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer({ config: { smtpUrl: smtp.url(), emailFrom: 'Folio <cms@example.com>', publicUrl: PUBLIC_URL } });
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    for (const email of ['wide@example.com', 'narrow@example.com']) await accounts.create({ email, password: 'forgotten one', role: 'editor' });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  }, 30_000);

  async function logIn(page: Page, email: string, password: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }

  for (const [email, viewport] of [
    ['wide@example.com', { width: 1366, height: 768 }],
    ['narrow@example.com', { width: 390, height: 844 }],
  ] as const) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`at ${viewport.width}×${viewport.height}: Forgot password? mails a link, its page sets a new password and logs in to the new layout, and the profile changes it again`, async () => {
      const page = await (await browser.newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const found: string[] = [];

      // The login page: a wrong password is said so; Forgot password? asks for the address.
      await page.goto(`${server.url}/admin`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not it');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'login with an error')));
      await screenshot(page, `recovery-${size}-login`);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { level: 1, name: 'Forgot password?' }).waitFor();
      const before = smtp.received.length;
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('status').filter({ hasText: 'a link to set a new password is on its way' }).waitFor();
      found.push(...(await seriousViolations(page, 'forgot password, sent')));
      await screenshot(page, `recovery-${size}-sent`);

      // The mail's link, on this server.
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      const parsed = parseMail(mail!);
      const link = parsed.text.match(/https:\/\/cms\.example\.com(\/admin\/reset-password\?token=[A-Za-z0-9_-]+)/)![1]!;
      await page.goto(server.url + link);
      await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
      // Two passwords that differ: said so, nothing changed.
      await page.getByLabel('New password (8 characters or more)').fill('remembered now');
      await page.getByLabel('New password again').fill('remembered no');
      await page.getByRole('button', { name: 'Set the password and log in' }).click();
      await page.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'reset page with an error')));
      await screenshot(page, `recovery-${size}-reset`);
      await page.getByLabel('New password again').fill('remembered now');
      await page.getByRole('button', { name: 'Set the password and log in' }).click();

      // Logged in, to the home page of the new layout: the header stays small, no sideways scroll.
      await page.getByRole('button', { name: 'Log out' }).waitFor();
      await page.getByRole('region', { name: 'Recent drafts' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin');
      expect(new URL(page.url()).search).toBe('');
      expect(await page.locator('header.topbar').evaluate((el: any) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(64);
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'home after a reset')));
      await screenshot(page, `recovery-${size}-home`);
      expect((await server.call('POST', '/admin/api/login', { body: { email, password: 'forgotten one' } })).status).toBe(401);

      // The profile: change it again, from the new one.
      if (viewport.width < 700) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Content manager' }).getByRole('link', { name: 'Your profile' }).click();
      await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
      await page.getByLabel('Current password').fill('remembered now');
      await page.getByLabel('New password (8 to 256 characters)').fill('and changed again');
      await page.getByLabel('New password again').fill('and changed again');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed: your other sessions have ended').waitFor();
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'profile, password changed')));
      await screenshot(page, `recovery-${size}-profile`);

      // Log out; the used link is refused in words; the latest password logs in.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.goto(server.url + link);
      await page.getByLabel('New password (8 characters or more)').fill('one more time');
      await page.getByLabel('New password again').fill('one more time');
      await page.getByRole('button', { name: 'Set the password and log in' }).click();
      await page.getByRole('alert').filter({ hasText: 'This reset link is invalid or has expired' }).waitFor();
      found.push(...(await seriousViolations(page, 'used link')));
      await screenshot(page, `recovery-${size}-used-link`);
      // From there, back to the login page (which offers a new link).
      await page.getByRole('link', { name: 'Back to log in, or ask for a new link' }).click();
      await page.getByRole('button', { name: 'Forgot password?' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin');
      await logIn(page, email, 'and changed again');

      expect(found).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
      await page.context().close();
    }, 90_000);
  }
});
