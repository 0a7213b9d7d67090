/**
 * The edit view's Preview link as an editor uses it, in a real browser (Debian's chromium
 * through playwright-core), at 1366×768 and on a 390×844 phone: with FOLIO_PREVIEW_URL the side
 * panel has a "Preview" link (named as opening a new tab) to the saved draft in its locale, and
 * a link to the published version while the draft differs from it; clicking it opens the site in
 * a new tab (answered by the test: nothing leaves the machine). Without FOLIO_PREVIEW_URL there
 * is no Preview box. axe on each page. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, pageWidth, screenshot, seriousViolations } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/preview-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const TEMPLATE = 'https://site.example/api/preview?type={pluralApiId}&id={documentId}&locale={locale}&status={status}';
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin preview link', () => {
  let withPreview: TestServer;
  let without: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    withPreview = await startServer({ config: { previewUrl: TEMPLATE } });
    without = await startServer();
    for (const server of [withPreview, without])
      await new AdminAccounts(server.instance.db).create({ email: 'ann@example.com', password: 'correct horse' }, { first: true });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await withPreview?.stop();
    await without?.stop();
  }, 30_000);

  async function open(server: TestServer, viewport: { width: number; height: number }): Promise<{ page: Page; requests: string[] }> {
    const context = await browser.newContext({ viewport });
    // The site a preview opens: answered here, so nothing leaves the machine.
    await context.route('https://site.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Site preview</title><h1>Site preview</h1>' }),
    );
    const page = await context.newPage();
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

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`at ${viewport.width}×${viewport.height}: the side panel's Preview link opens the saved draft in a new tab, with the published version beside it`, async () => {
      // Published in French, then changed: a draft that differs from what is published.
      const id = (await withPreview.call('POST', '/api/articles?locale=fr', { body: { data: { title: `Aperçu ${size}` } } })).body.data.documentId;
      expect((await withPreview.call('PUT', `/api/articles/${id}?locale=fr&status=draft`, { body: { data: { title: `Aperçu changé ${size}` } } })).status).toBe(
        200,
      );
      const { page, requests } = await open(withPreview, viewport);
      const found: string[] = [];
      await page.goto(`${withPreview.url}${ARTICLE}/${id}?locale=fr`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      expect(await page.getByTestId('status').textContent()).toBe('Modified');

      const box = page.getByRole('region', { name: 'Preview' });
      const preview = box.getByRole('link', { name: 'Preview (opens in a new tab)', exact: true });
      await preview.scrollIntoViewIfNeeded();
      expect(await preview.getAttribute('href')).toBe(`https://site.example/api/preview?type=articles&id=${id}&locale=fr&status=draft`);
      expect(await preview.getAttribute('target')).toBe('_blank');
      expect(await preview.getAttribute('rel')).toBe('noopener noreferrer');
      const publishedLink = box.getByRole('link', { name: 'Published version (opens in a new tab)' });
      expect(await publishedLink.getAttribute('href')).toBe(`https://site.example/api/preview?type=articles&id=${id}&locale=fr&status=published`);
      await box.getByText('See the saved draft on the site.').waitFor();
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'edit view with a preview link')));
      await screenshot(page, `preview-${size}-panel`);

      // Unsaved changes: the box says the preview shows what is saved.
      await page.getByLabel('Title', { exact: true }).fill(`Aperçu encore ${size}`);
      await box.getByText('The preview shows what is saved: save first to see your changes.').waitFor();

      // The link opens the site in a new tab; the admin stays where it was.
      await preview.scrollIntoViewIfNeeded();
      const [tab] = await Promise.all([page.context().waitForEvent('page'), preview.click()]);
      await tab.waitForLoadState();
      expect(tab.url()).toBe(`https://site.example/api/preview?type=articles&id=${id}&locale=fr&status=draft`);
      expect(await tab.title()).toBe('Site preview');
      expect(page.url()).toBe(`${withPreview.url}${ARTICLE}/${id}?locale=fr`);
      await tab.close();

      // Saved: still there, the note is the usual one again.
      await page.keyboard.press('Control+s');
      await page.getByRole('status').getByText('Saved').waitFor();
      await box.getByText('See the saved draft on the site.').waitFor();
      expect(await preview.getAttribute('href')).toEndWith('&locale=fr&status=draft');

      expect(found).toEqual([]);
      // The only request for the site was the new tab's, answered by the test's route.
      expect(requests.filter((url) => !url.startsWith(withPreview.url))).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  test('a draft never published has only the Preview link, and without FOLIO_PREVIEW_URL there is no Preview box', async () => {
    const { page } = await open(withPreview, { width: 1366, height: 768 });
    await page.goto(`${withPreview.url}${ARTICLE}/new?locale=en`);
    await page.getByLabel('Title', { exact: true }).fill('Only a draft');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const box = page.getByRole('region', { name: 'Preview' });
    await box.getByRole('link', { name: 'Preview (opens in a new tab)' }).waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('Draft');
    expect(await box.getByRole('link', { name: /^Published version/ }).count()).toBe(0);
    await page.context().close();

    const other = await open(without, { width: 1366, height: 768 });
    const plain = (await without.call('POST', '/api/articles?locale=en', { body: { data: { title: 'No preview' } } })).body.data.documentId;
    await other.page.goto(`${without.url}${ARTICLE}/${plain}?locale=en`);
    await other.page.getByRole('region', { name: 'Information' }).waitFor();
    await other.page.getByRole('button', { name: 'History', exact: true }).waitFor();
    expect(await other.page.getByRole('region', { name: 'Preview' }).count()).toBe(0);
    expect(await other.page.getByRole('link', { name: /Preview/ }).count()).toBe(0);
    await other.page.context().close();
  }, 60_000);
});
