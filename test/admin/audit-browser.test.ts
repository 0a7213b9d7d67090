/**
 * Settings → Audit log as a Super Admin uses it, in a real browser (Debian's chromium through
 * playwright-core), at 1366×768 and on a 390×844 phone: the rows newest first (when, who, the
 * action in words, what, details, from where), filtered by action, by who and by since when,
 * a page at a time (rows per page, Older, Newer), an empty state that says why. axe on each
 * state; nothing scrolls sideways; nothing leaves the server. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, pageWidth, screenshot, seriousViolations } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/audit-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

describe.skipIf(!executable)('Folio Admin audit log', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'ann@example.com', password: 'correct horse' }, { first: true });
    // 25 tags made through the REST API with a token, and one failed admin login.
    for (let i = 1; i <= 25; i++) {
      const made = await server.call('POST', '/api/tags', {
        body: { data: { name: `Tag ${i}` } },
        headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
      });
      expect(made.status).toBe(201);
    }
    expect((await server.call('POST', '/admin/api/login', { body: { email: 'mallory@example.com', password: 'guess' } })).status).toBe(401);
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; requests: string[] }> {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('ann@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    return { page, requests };
  }

  /** The rows shown, each as its cells' text. */
  const rowsOf = (page: Page) =>
    page
      .locator('table.audit-table tbody tr')
      .evaluateAll((rows) => rows.map((tr: any) => [...tr.querySelectorAll('td')].map((td: any) => td.textContent.replace(/\s+/g, ' ').trim())));

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`at ${viewport.width}×${viewport.height}: the audit log lists who did what, filters by action, who and since, and pages`, async () => {
      const { page, requests } = await open(viewport);
      const found: string[] = [];
      if (viewport.width < 700) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
      const table = page.getByRole('table', { name: 'Audit log, page 1' });
      await table.waitFor();
      expect(page.url()).toBe(`${server.url}/admin/settings/audit`);
      await page.getByText('Who changed what, and when, newest first. Rows are kept 90 days.').waitFor();

      // Newest first: this login, by Ann.
      const first = (await rowsOf(page))[0]!;
      expect(first[1]).toBe('ann@example.com');
      expect(first[2]).toBe('Admin logged in admin.login');
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'audit log')));
      await screenshot(page, `audit-${size}-all`);

      // Entries created, 20 a page: 20, then the 5 older ones, then back.
      const filters = page.getByRole('form', { name: 'Filter the audit log' });
      await filters.getByLabel('Action').selectOption('entry.create');
      await filters.getByRole('button', { name: 'Filter', exact: true }).click();
      await page.getByLabel('Rows per page').selectOption('20');
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('table.audit-table tbody tr').length === 20);
      const created = await rowsOf(page);
      expect(created.every((r) => r[2] === 'Entry created entry.create' && r[3]!.startsWith('api::tag.tag · ') && /^API token “.+”$/.test(r[1]!))).toBe(true);
      expect(created[0]![4]).toBe('status: draft');
      const pager = page.getByRole('navigation', { name: 'Audit log pages' });
      expect(await pager.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
      await pager.getByRole('button', { name: 'Older' }).click();
      await page.getByRole('table', { name: 'Audit log, page 2' }).waitFor();
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('table.audit-table tbody tr').length === 5);
      expect(await pager.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
      const ids = new Set([...created, ...(await rowsOf(page))].map((r) => r[3]));
      expect(ids.size).toBe(25);
      found.push(...(await seriousViolations(page, 'audit log, page 2')));
      await pager.getByRole('button', { name: 'Newer' }).click();
      await page.getByRole('table', { name: 'Audit log, page 1' }).waitFor();

      // Who: "public" finds the failed login, with the email tried.
      await filters.getByLabel('Action').selectOption('');
      await filters.getByLabel('Who').fill('public');
      await filters.getByRole('button', { name: 'Filter', exact: true }).click();
      await page.waitForFunction(() =>
        (globalThis as any).document.querySelector('table.audit-table tbody tr td:nth-child(3)')?.textContent.startsWith('Admin login failed'),
      );
      const failed = await rowsOf(page);
      expect(failed).toHaveLength(1);
      expect(failed[0]!.slice(1, 5)).toEqual(['Not logged in (public)', 'Admin login failed admin.login-failed', 'admin-user', 'email: mallory@example.com']);
      await screenshot(page, `audit-${size}-who`);

      // Since a time to come: nothing, said so; Clear filters brings every row back.
      await filters.getByLabel('Since').fill('2099-01-01T00:00');
      await filters.getByRole('button', { name: 'Filter', exact: true }).click();
      await page.getByText('No row matches these filters').waitFor();
      found.push(...(await seriousViolations(page, 'audit log, nothing matches')));
      await screenshot(page, `audit-${size}-empty`);
      await filters.getByRole('button', { name: 'Clear filters' }).click();
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('table.audit-table tbody tr').length === 20);
      expect(await filters.getByLabel('Who').inputValue()).toBe('');
      expect(await pageWidth(page)).toBe(viewport.width);

      expect(found).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  test('an Editor has no Settings, and the audit log is refused to them', async () => {
    await new AdminAccounts(server.instance.db).create({ email: 'ed@example.com', password: 'correct horse', role: 'editor' });
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('ed@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.goto(`${server.url}/admin/settings/audit`);
    await page.getByText('Only a Super Admin may open the settings.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
