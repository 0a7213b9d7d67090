/**
 * Folio Admin's layout as an editor meets it, in a real browser (Debian's chromium through
 * playwright-core), at 1366×768, 1920×1080 and on a 390×844 phone: the header keeps a small
 * fixed height on every page; the edit view puts a side panel beside the form (status,
 * actions, dates, locale versions) whose Save and Publish stay in view down a long form; on a
 * phone they sit in a bar at the bottom, the navigation folds behind a Menu button, and no
 * page is wider than the screen. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, screenshot } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/layout-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin layout', () => {
  let server: TestServer;
  let browser: Browser;
  let articleId: string;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const made = await server.call('POST', '/api/articles?status=draft', {
      body: {
        data: {
          title: 'A long article',
          summary: 'Short',
          links: Array.from({ length: 8 }, (_, i) => ({ label: `Link ${i}`, url: `https://example.com/${i}` })),
        },
      },
    });
    articleId = made.body.data.documentId;
    const form = new FormData();
    form.append('files', new File([PNG], 'a-file-with-a-rather-long-name.png', { type: 'image/png' }));
    await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    await server.call('PUT', `/api/articles/${articleId}?locale=fr`, { body: { data: { title: 'Un long article' } } });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    return page;
  }

  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;
  const inView = async (page: Page, name: string) => {
    const b = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
    const height = page.viewportSize()!.height;
    return b.y >= 0 && b.y + b.height <= height;
  };

  test('the header keeps a small fixed height on the home, Media Library and Roles pages, on a laptop and a large screen', async () => {
    for (const viewport of [
      { width: 1366, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      const page = await open(viewport);
      for (const [path, ready] of [
        ['/admin', 'Home'],
        ['/admin/media', 'Media Library'],
        ['/admin/settings/roles', 'Settings'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.getByRole('heading', { name: ready, level: 1 }).waitFor();
        const header = await box(page, 'header.topbar');
        expect(header.height).toBeLessThanOrEqual(64);
      }
      await page.context().close();
    }
  }, 60_000);

  test('at 1366×768 the edit view has the side panel beside the form, and Save and Publish stay in view at the bottom of a long form', async () => {
    const page = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}${ARTICLE}/${articleId}?locale=en`);
    await page.getByLabel('Title', { exact: true }).waitFor();
    const form = await box(page, 'form#edit-form');
    const panel = await box(page, 'aside.side');
    expect(panel.x).toBeGreaterThanOrEqual(form.x + form.width);
    expect(Math.abs(panel.y - form.y)).toBeLessThan(10);

    const aside = page.getByRole('complementary', { name: 'Document' });
    expect(await aside.getByText('Last saved').count()).toBe(1);
    // Created and last saved by whom, as history keeps it: here the public API wrote it.
    const facts = async () => (await aside.getByRole('region', { name: 'Information' }).locator('dd').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect((await facts())[1]).toEndWith(' by the public API');
    expect((await facts())[2]).toEndWith(' by the public API');
    const locales = aside.getByRole('region', { name: 'Locales' });
    await locales.getByRole('link', { name: 'French (fr)' }).waitFor();
    const states = async () => (await locales.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(await states()).toEqual(['English (en) Draft', 'French (fr) Published']);

    await page.evaluate(() => (globalThis as any).scrollTo(0, (globalThis as any).document.documentElement.scrollHeight));
    expect(await page.evaluate(() => (globalThis as any).scrollY)).toBeGreaterThan(500);
    expect(await inView(page, 'Save')).toBe(true);
    expect(await inView(page, 'Publish')).toBe(true);
    // The header too stays at the top.
    expect((await box(page, 'header.topbar')).y).toBe(0);

    // The panel's actions work from there: Publish, then the locale list says so.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('status').filter({ hasText: 'Published' }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.locale-list .badge-published').length === 2);
    expect(await states()).toEqual(['English (en) Published', 'French (fr) Published']);
    expect(await aside.getByText('Not published').count()).toBe(0);
    // Published by the admin: the last write is theirs, the creation still the public API's.
    expect((await facts())[1]).toEndWith(' by the public API');
    expect((await facts())[2]).toEndWith(' by root@example.com');
    await page.context().close();
  }, 60_000);

  test('on wide screens the side panel stays in view as a whole as the form scrolls: its Save and Publish box covers none of the boxes below it', async () => {
    for (const viewport of [
      { width: 1366, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      const page = await open(viewport);
      await page.goto(`${server.url}${ARTICLE}/${articleId}?locale=en`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      await page.getByRole('region', { name: 'Locales' }).getByRole('link', { name: 'French (fr)' }).waitFor();
      const overlaps = () =>
        page.evaluate(() => {
          const boxes = [...(globalThis as any).document.querySelectorAll('aside.side > .box')]
            .filter((b: any) => b.offsetParent)
            .map((b: any) => ({ name: b.getAttribute('aria-label') ?? b.querySelector('h2')?.textContent, r: b.getBoundingClientRect() }));
          const found: string[] = [];
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, b] = [boxes[i].r, boxes[j].r];
              if (a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) found.push(`${boxes[i].name} over ${boxes[j].name}`);
            }
          return found;
        });
      const height = await page.evaluate(() => (globalThis as any).document.documentElement.scrollHeight);
      expect(height).toBeGreaterThan(viewport.height + 400);
      for (let y = 0; y <= height; y += 120) {
        await page.evaluate((top) => (globalThis as any).scrollTo(0, top), y);
        expect(`${y}: ${(await overlaps()).join(', ')}`).toBe(`${y}: `);
        // Nothing of the panel slides under the header either.
        expect((await box(page, 'aside.side')).y).toBeGreaterThanOrEqual((await box(page, 'header.topbar')).height);
        expect(await inView(page, 'Save')).toBe(true);
        expect(await inView(page, 'Publish')).toBe(true);
      }
      await screenshot(page, `layout-side-panel-scrolled-${viewport.width}`);
      await page.context().close();
    }
  }, 60_000);

  test('on a 390×844 phone nothing is wider than the screen, the menu folds, and Save and Publish sit in a bar at the bottom', async () => {
    const page = await open({ width: 390, height: 844 });
    const nav = page.getByRole('navigation', { name: 'Content manager' });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Article', exact: true }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    expect(await nav.isVisible()).toBe(false);

    const width = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
    for (const [path, ready] of [
      [ARTICLE, 'A long article'],
      [`${ARTICLE}/${articleId}?locale=en`, 'Title'],
      [`${ARTICLE}/new`, 'Title'],
      ['/admin/media', 'Upload files'],
      ['/admin/media?view=list', 'Upload files'],
      ['/admin/settings/users', 'Users'],
      ['/admin/settings/admins', 'Admin users'],
      ['/admin/settings/roles', 'Public'],
      ['/admin/settings/locales', 'Add locale'],
      ['/admin/settings/tokens', 'Create token'],
      ['/admin/settings/webhooks', 'Create webhook'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.locator('main').getByText(ready, { exact: true }).first().waitFor();
      expect(`${path}: ${await width()}`).toBe(`${path}: 390`);
    }

    await page.goto(`${server.url}${ARTICLE}/${articleId}?locale=en`);
    await page.getByLabel('Title', { exact: true }).waitFor();
    const save = (await page.getByRole('button', { name: 'Save', exact: true }).boundingBox())!;
    expect(save.y + save.height).toBeGreaterThan(844 - 80);
    expect(await inView(page, 'Publish')).toBe(true);
    await page.evaluate(() => (globalThis as any).scrollTo(0, 3000));
    expect(await inView(page, 'Save')).toBe(true);
    // The rarer actions follow the form.
    await page.getByRole('region', { name: 'More actions' }).getByRole('button', { name: 'Delete' }).waitFor();
    await page.context().close();
  }, 60_000);
});
