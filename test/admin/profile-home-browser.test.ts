/**
 * An admin's home page and own profile, in a real browser (Debian's chromium through
 * playwright-core), at 1366×768 and 390×844: the home lists the recent drafts (with their
 * badges) and publications, each opening its entry; the profile page changes the admin's name
 * (the header then greets them by it) and password (the old one stops working). axe on each
 * page. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/profile-home-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function serious(page: Page, where: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () =>
    (await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })).violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => n.target.join(' ')),
    })),
  );
  return (violations as { id: string; impact: string; nodes: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} at ${v.nodes.join(' | ')}`);
}

describe.skipIf(!executable)('Folio Admin home and profile', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'wide@example.com', password: 'correct horse' }, { first: true });
    await accounts.create({ email: 'narrow@example.com', password: 'correct horse', role: 'editor' });
    await server.call('POST', '/api/articles?status=draft', { body: { data: { summary: 'A draft with no title yet' } } });
    await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Half-written piece' } } });
    await server.call('POST', '/api/articles', { body: { data: { title: 'Out in the world' } } });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  for (const [email, viewport] of [
    ['wide@example.com', { width: 1366, height: 768 }],
    ['narrow@example.com', { width: 390, height: 844 }],
  ] as const) {
    test(`at ${viewport.width}×${viewport.height}: the home shows recent drafts and publications; the profile changes the name and the password`, async () => {
      const page = await (await browser.newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      const found: string[] = [];
      await page.goto(`${server.url}/admin`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'Log in' }).click();

      const drafts = page.getByRole('region', { name: 'Recent drafts' });
      await drafts.getByRole('link', { name: 'Half-written piece' }).waitFor();
      expect(await drafts.getByRole('listitem').first().textContent()).toContain('Draft');
      await page.getByRole('region', { name: 'Recently published' }).getByRole('link', { name: 'Out in the world' }).waitFor();
      // A draft with no title is named by its type, never by its documentId.
      expect(await drafts.getByRole('link', { name: 'Untitled (Article)' }).count()).toBe(1);
      expect(await drafts.getByText('Out in the world').count()).toBe(0);
      found.push(...(await serious(page, 'home')));
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBe(viewport.width);
      await drafts.getByRole('link', { name: 'Half-written piece' }).click();
      await page.getByRole('heading', { name: 'Half-written piece', level: 1 }).waitFor();
      // The list and the edit view call it so too.
      await page.goto(`${server.url}/admin/content/${encodeURIComponent('api::article.article')}`);
      await page.locator('tbody').getByRole('link', { name: 'Untitled (Article)' }).click();
      await page.getByRole('heading', { name: 'Untitled (Article)', level: 1 }).waitFor();

      // The profile, from the navigation (behind Menu on a phone).
      if (viewport.width < 700) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Content manager' }).getByRole('link', { name: 'Your profile' }).click();
      await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
      found.push(...(await serious(page, 'profile')));
      await page.getByLabel('First name').fill('Grace');
      await page.getByLabel('Last name').fill('Hopper');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText('Your name is saved').waitFor();
      expect(await page.locator('header .who').textContent()).toMatch(/^Grace Hopper \(/);

      await page.getByLabel('Current password').fill('wrong password');
      await page.getByLabel('New password (8 to 256 characters)').fill('a brand new one');
      await page.getByLabel('New password again').fill('a brand new one');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.locator('#profile-current-error').waitFor();
      expect(await page.locator('#profile-current-error').textContent()).toBe('The current password is not right');
      expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
      found.push(...(await serious(page, 'profile with an error')));
      await page.getByLabel('Current password').fill('correct horse');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed: your other sessions have ended').waitFor();
      expect((await server.call('POST', '/admin/api/login', { body: { email, password: 'correct horse' } })).status).toBe(401);
      expect((await server.call('POST', '/admin/api/login', { body: { email, password: 'a brand new one' } })).status).toBe(200);

      await page.goto(`${server.url}/admin`);
      await page.getByRole('heading', { name: 'Hello Grace', level: 1 }).waitFor();
      expect(found).toEqual([]);
      await page.context().close();
    }, 60_000);
  }
});
