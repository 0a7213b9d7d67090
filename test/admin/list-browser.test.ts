/**
 * The list and "Configure the view" as an editor and a Super Admin use them, in a real
 * browser (Debian's chromium through playwright-core), at 1366×768 and 390×844: search,
 * filters, a column chosen, sort by a column, page size and pages, the locale switch, bulk
 * unpublish, status badges, the empty states; then the view configured (labels, description,
 * widths, order, columns, default sort, page size) and applied to the list and the edit view.
 * axe on each page. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, screenshot } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/list-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
const AUTHOR = `/admin/content/${encodeURIComponent('api::author.author')}`;

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

describe.skipIf(!executable)('Folio Admin lists and views', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    for (let i = 1; i <= 25; i++) {
      const kind = i % 3 === 0 ? 'opinion' : 'news';
      const made = await server.call('POST', `/api/articles${i <= 20 ? '' : '?status=draft'}`, {
        body: { data: { title: `Story ${String(i).padStart(2, '0')}`, kind, views: i } },
      });
      if (i === 1) await server.call('PUT', `/api/articles/${made.body.data.documentId}?locale=fr`, { body: { data: { title: 'Histoire 01' } } });
    }
    browser = await launchBrowser(executable!);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function open(viewport: { width: number; height: number }) {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    return page;
  }
  const rows = (page: Page) => page.locator('tbody tr');
  const width = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}×${viewport.height}: search, filter, sort, page size, locale, columns, bulk unpublish and the empty states`, async () => {
      const page = await open(viewport);
      const found: string[] = [];
      await page.goto(`${server.url}${ARTICLE}`);
      await page.getByText('25 entries').waitFor();
      // Newest first by default, 20 a page.
      expect(await rows(page).count()).toBe(20);
      const newest = (await server.call('GET', '/api/articles?status=draft&sort=updatedAt:desc&pagination[pageSize]=1')).body.data[0].title;
      expect(await rows(page).first().getByRole('link').textContent()).toBe(newest);
      expect(await rows(page).filter({ hasText: 'Story 25' }).textContent()).toContain('Draft');
      expect(await rows(page).filter({ hasText: 'Story 20' }).textContent()).toContain('Published');
      found.push(...(await serious(page, 'list')));
      expect(await width(page)).toBe(viewport.width);

      // Page size and pages.
      await page.getByLabel('Entries per page').selectOption('10');
      await page.getByText('Page 1 of 3').waitFor();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('Page 2 of 3').waitFor();
      expect(new URL(page.url()).searchParams.get('pageSize')).toBe('10');

      // Sort by a column (Title, ascending).
      await page.goto(`${server.url}${ARTICLE}`);
      await page.getByRole('button', { name: 'Title', exact: true }).click();
      await page.waitForFunction(() => (globalThis as any).document.querySelector('tbody tr a')?.textContent === 'Story 01');
      expect(await page.getByRole('columnheader', { name: /Title/ }).getAttribute('aria-sort')).toBe('ascending');

      // Search, then a filter in the same row; the list narrows.
      await page.getByRole('searchbox', { name: 'Search Article' }).fill('Story 1');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByText('10 entries').waitFor();
      await page.getByLabel('Filter attribute').selectOption('kind');
      await page.getByLabel('Filter operator').selectOption('$eq');
      await page.getByLabel('Filter value').fill('opinion');
      // The filter's controls: one row on a laptop; on a phone they wrap, each inside the screen.
      const controls = await Promise.all(
        ['Filter attribute', 'Filter operator', 'Filter value'].map(async (name) => (await page.getByLabel(name, { exact: true }).boundingBox())!),
      );
      await screenshot(page, `list-filters-${viewport.width}`);
      if (viewport.width > 768) expect(new Set(controls.map((b) => Math.round(b.y + b.height / 2))).size).toBe(1);
      for (const b of controls) expect(b.x + b.width).toBeLessThanOrEqual(viewport.width);
      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByText('3 entries').waitFor();
      expect(await rows(page).allTextContents()).toEqual([
        expect.stringContaining('Story 12'),
        expect.stringContaining('Story 15'),
        expect.stringContaining('Story 18'),
      ]);

      // Bulk unpublish two of them: their badges say Draft.
      await page.getByLabel('Select Story 12').check();
      await page.getByLabel('Select Story 15').check();
      await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Unpublish selected' }).click();
      await page.getByText('Unpublished 2 entries').waitFor();
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody .badge-draft').length === 2);
      expect((await server.call('GET', '/api/articles?filters[title][$in][0]=Story 12&filters[title][$in][1]=Story 15')).body.data).toEqual([]);

      // Nothing matches: the empty state says so and clears.
      await page.getByRole('searchbox', { name: 'Search Article' }).fill('nothing like this');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByText('No Article matches “nothing like this” with these filters.').waitFor();
      found.push(...(await serious(page, 'empty search')));
      await page.getByRole('button', { name: 'Clear search and filters' }).click();
      await page.getByText('25 entries').waitFor();

      // A column chosen (Views), kept in this browser. Phones show the title and the status only, and no column choice.
      if (viewport.width > 768) {
        await page.locator('summary', { hasText: 'Columns' }).click();
        await page.getByLabel('Views', { exact: true }).check();
        await page.getByRole('columnheader', { name: 'Views' }).waitFor();
        await page.reload();
        await page.getByRole('columnheader', { name: 'Views' }).waitFor();
      } else expect(await page.locator('summary', { hasText: 'Columns' }).isVisible()).toBe(false);
      expect(await width(page)).toBe(viewport.width);

      // The locale switch: the French list holds the one French version.
      await page.getByLabel('Locale', { exact: true }).selectOption('fr');
      await page.getByText('1 entry').waitFor();
      expect(await rows(page).first().getByRole('link').textContent()).toBe('Histoire 01');

      // A type with no entry at all: what to do.
      await page.goto(`${server.url}${AUTHOR}`);
      await page.getByText(/^No Author yet/).waitFor();
      await page.locator('.empty').getByRole('link', { name: 'Create the first Author' }).waitFor();
      found.push(...(await serious(page, 'empty type')));
      expect(found).toEqual([]);
      // Republish what this run unpublished, for the other viewport's run.
      for (const title of ['Story 12', 'Story 15']) {
        const id = (await server.call('GET', `/api/articles?status=draft&filters[title][$eq]=${title}`)).body.data[0].documentId;
        await server.call('PUT', `/api/articles/${id}`, { body: { data: {} } });
      }
      await page.context().close();
    }, 90_000);
  }

  test('a Super Admin configures the view: labels, help, widths, order, columns, sort and page size apply to the list and the edit view', async () => {
    const page = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}${ARTICLE}`);
    await page.getByRole('link', { name: 'Configure the view' }).click();
    await page.getByRole('heading', { name: 'Configure the view: Article' }).waitFor();
    expect(await serious(page, 'configure')).toEqual([]);

    await page.getByLabel('Default sort').selectOption('views');
    await page.getByLabel('Sort order').selectOption('desc');
    await page.getByLabel('Entries per page', { exact: true }).selectOption('10');
    // Columns: remove Slug and Summary, add Views.
    await page.getByRole('list', { name: 'List columns' }).getByRole('button', { name: 'Remove Slug' }).click();
    await page.getByRole('list', { name: 'List columns' }).getByRole('button', { name: 'Remove Summary' }).click();
    await page.getByLabel('Column to add').selectOption('views');
    await page.getByRole('button', { name: 'Add column' }).click();
    // The edit view: Publish date first, relabelled, with a description, full width.
    await page.getByLabel('Label of Publish date').fill('Goes live on');
    await page.getByLabel('Description of Publish date').fill('The day readers first see it');
    await page.getByLabel('Width of Publish date').selectOption('12');
    await page.getByLabel('Placeholder of Summary').fill('One sentence readers see first');
    for (let i = 0; i < 9; i++) {
      const up = page.getByRole('list', { name: 'Fields of the edit view' }).getByRole('button', { name: 'Move Publish date up' });
      if (await up.isDisabled()) break;
      await up.click();
    }
    await page.getByRole('button', { name: 'Save the view' }).click();
    await page.getByText('View saved: the list and the edit view use it now').waitFor();

    await page.goto(`${server.url}${ARTICLE}`);
    await page.getByText('Page 1 of 3').waitFor();
    expect(await page.locator('thead th').allTextContents()).toEqual(['', 'Title', 'Kind', 'Last updated', 'Views ▼', 'Status']);
    expect(await rows(page).first().getByRole('link').textContent()).toBe('Story 25');

    await rows(page).first().getByRole('link').click();
    const date = page.getByLabel('Goes live on', { exact: true });
    await date.waitFor();
    expect(await page.locator('#field-publishDate-description').textContent()).toBe('The day readers first see it');
    expect(await date.getAttribute('aria-describedby')).toContain('field-publishDate-description');
    // First in the form, full width.
    const first = await page.locator('form#edit-form > div').first().getAttribute('class');
    expect(first).toBe('w-12');
    expect(await page.locator('form#edit-form > div').first().locator('#field-publishDate').count()).toBe(1);
    expect(await page.getByLabel('Summary', { exact: true }).getAttribute('placeholder')).toBe('One sentence readers see first');
    expect(await serious(page, 'configured edit view')).toEqual([]);

    // Reset: the defaults come back.
    await page.goto(`${server.url}/admin/configure/${encodeURIComponent('api::article.article')}`);
    await page.getByRole('button', { name: 'Reset to the defaults' }).click();
    await page.getByText('Back to the defaults').waitFor();
    expect((await server.call('GET', '/admin/api/views/api::article.article')).status).toBe(401);
    await page.context().close();
  }, 90_000);
});
