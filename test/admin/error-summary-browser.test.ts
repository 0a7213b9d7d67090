/**
 * Errors as an editor reads them, in a real browser (Debian's chromium through
 * playwright-core): publishing an article whose SEO component lacks its required meta title
 * says "Meta title (SEO) is required" in a summary at the top (focused, each item leading to
 * its field) and "Meta title is required" at the field, never the validator's wording, while
 * the REST API's `details` keep Strapi's. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/error-summary-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin errors in words', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    browser = await launchBrowser(executable!);
    ({ page } = await recordingPage(browser));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  test('publishing with a missing required component field names it in words, at the top and at the field; REST keeps Strapi’s message', async () => {
    const made = await server.call('POST', '/api/articles?status=draft', {
      body: { data: { title: 'Needs SEO', seo: { metaDescription: 'only a description' } } },
    });
    expect(made.status).toBe(201);
    await page.goto(`${server.url}${ARTICLE}/${made.body.data.documentId}?locale=en`);
    await page.getByLabel('Meta title', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();

    const summary = page.locator('#error-summary');
    await summary.waitFor();
    expect(await summary.getByRole('heading').textContent()).toBe('The entry was not published: one field needs your attention.');
    expect(await summary.getByRole('listitem').allTextContents()).toEqual(['Meta title (SEO) is required']);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('error-summary');
    const field = page.getByLabel('Meta title', { exact: true });
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[id="field-seo.metaTitle-error"]').textContent()).toBe('Meta title is required');
    const text = await page.locator('main').textContent();
    expect(text).not.toContain('must be a');
    expect(text).not.toContain('final value');

    // The summary's item leads to the field.
    await summary.getByRole('link', { name: 'Meta title (SEO) is required' }).click();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('field-seo.metaTitle');

    // Filled in, it publishes and the summary goes away.
    await field.fill('A meta title');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('status').filter({ hasText: 'Published' }).waitFor();
    expect(await summary.count()).toBe(0);

    const rest = await server.call('POST', '/api/articles', { body: { data: { title: 'Via REST', seo: { metaDescription: 'x' } } } });
    expect(rest.status).toBe(400);
    expect(rest.body.error.details.errors[0]).toMatchObject({
      path: ['seo', 'metaTitle'],
      message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.',
    });
  }, 60_000);

  test('a title over its maximum length is said in words at the field and in the summary', async () => {
    await page.goto(`${server.url}${ARTICLE}/new`);
    await page.getByLabel('Title', { exact: true }).fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#error-summary').waitFor();
    expect(await page.locator('#field-title-error').textContent()).toBe('Title is too long: at most 200 characters');
    expect(await page.locator('#error-summary').getByRole('heading').textContent()).toBe('The entry was not saved: one field needs your attention.');
  }, 60_000);
});
