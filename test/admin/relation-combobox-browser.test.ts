/**
 * Relation pickers as an editor (and assistive technology) meets them, in a real browser
 * (Debian's chromium through playwright-core): a combobox named by its field, whose listbox
 * opens with ArrowDown, moves with the arrow keys and links with Enter; a to-one relation
 * chosen the same way; each linked entry a link that opens it; reordering by keyboard kept;
 * and axe finds nothing serious with the listbox open. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/relation-combobox-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;

async function serious(page: Page): Promise<string[]> {
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
    .map((v) => `${v.id} at ${v.nodes.join(' | ')}`);
}

describe.skipIf(!executable)('Folio Admin relation comboboxes', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    for (const name of ['Alpha', 'Beta', 'Gamma']) await server.call('POST', '/api/tags', { body: { data: { name } } });
    await server.call('POST', '/api/categories', { body: { data: { name: 'Travel' } } });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}×${viewport.height}: tags and category are chosen with the keyboard in comboboxes named by their fields, linked entries open, order is kept`, async () => {
      const page = await (await browser.newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/admin`);
      await page.getByLabel('Email').fill('root@example.com');
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Log out' }).waitFor();
      await page.goto(`${server.url}${ARTICLE}/new`);
      await page.getByLabel('Title', { exact: true }).fill(`Related ${viewport.width}`);

      const tags = page.getByRole('combobox', { name: 'Tags' });
      expect(await tags.getAttribute('aria-expanded')).toBe('false');
      await tags.focus();
      await page.keyboard.press('ArrowDown');
      const listbox = page.getByRole('listbox', { name: 'Tag to link to Tags' });
      await listbox.getByRole('option', { name: 'Alpha' }).waitFor();
      expect(await tags.getAttribute('aria-expanded')).toBe('true');
      expect(await listbox.getByRole('option').allTextContents()).toEqual(['Alpha', 'Beta', 'Gamma']);
      expect(await serious(page)).toEqual([]);
      // ArrowDown twice: Beta is active (aria-activedescendant), Enter links it.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const activeId = await tags.getAttribute('aria-activedescendant');
      expect(await page.locator(`[id="${activeId}"]`).textContent()).toBe('Beta');
      await page.keyboard.press('Enter');
      // Typing filters; Enter on the first match links it.
      await tags.fill('gam');
      // The search answers after the typing: wait until the listbox holds its answer alone.
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[role=listbox]:not([hidden]) [role=option]').length === 1);
      expect(await listbox.getByRole('option').allTextContents()).toEqual(['Gamma']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      expect(await tags.getAttribute('aria-expanded')).toBe('false');
      const linked = page.getByRole('list', { name: 'Tags: linked entries' });
      expect(await linked.locator('.sortable-name').allTextContents()).toEqual(['Beta', 'Gamma']);
      // Reordered by keyboard, as before.
      await page.getByRole('button', { name: /^Reorder Gamma/ }).focus();
      await page.keyboard.press('Alt+ArrowUp');
      expect(await linked.locator('.sortable-name').allTextContents()).toEqual(['Gamma', 'Beta']);
      // The moved item's handle kept the focus.
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toMatch(/^Reorder Gamma/);

      const category = page.getByRole('combobox', { name: 'Category' });
      await category.fill('trav');
      await page.getByRole('option', { name: 'Travel' }).click();
      expect(await category.getAttribute('aria-expanded')).toBe('false');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      const saved = (await server.call('GET', `/api/articles/${id}?status=draft&populate[tags]=true&populate[category]=true`)).body.data;
      expect(saved.tags.map((t: { name: string }) => t.name)).toEqual(['Gamma', 'Beta']);
      expect(saved.category.name).toBe('Travel');

      // Each linked entry opens its own edit view.
      await page.getByRole('link', { name: 'Travel' }).click();
      await page.getByRole('heading', { name: 'Travel', level: 1 }).waitFor();
      expect(decodeURIComponent(page.url())).toContain('/admin/content/api::category.category/');
      await page.context().close();
    }, 60_000);
  }
});
