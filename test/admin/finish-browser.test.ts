/**
 * The admin's last gaps in a real browser (Debian's chromium through playwright-core): the
 * list's bulk publish as one server-side action, Publish with unsaved changes (saved and
 * published, never lost), the unsaved-changes guard on the browser's Back button, and a media field's library picker paging through more than one page of files.
 * Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/finish-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ARTICLE_ADMIN = `/admin/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin: bulk actions, Back guard, library picker', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let requests: string[];
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    browser = await launchBrowser(executable!);
    ({ page, requests } = await recordingPage(browser));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const titles = async () => (await server.call('GET', '/api/articles?sort=title')).body.data.map((a: { title: string }) => a.title);

  test('selecting three drafts and pressing Publish selected publishes them with one request; the public API shows them', async () => {
    for (const title of ['Bulk one', 'Bulk two', 'Bulk three', 'Left alone'])
      await server.call('POST', '/api/articles?status=draft', { body: { data: { title } } });
    await page.goto(`${server.url}${ARTICLE_ADMIN}?sort=title:asc`);
    for (const name of ['Bulk one', 'Bulk three', 'Bulk two']) await page.getByLabel(`Select ${name}`).check();
    const before = requests.length;
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await page.getByText('Published 3 entries').waitFor();
    expect(await titles()).toEqual(['Bulk one', 'Bulk three', 'Bulk two']);
    const writes = requests.slice(before).filter((url) => url.includes('/actions/'));
    expect(writes).toEqual([`${server.url}/admin/api/content/${encodeURIComponent('api::article.article')}/actions/bulk-publish`]);
    await page.getByRole('row').filter({ hasText: 'Bulk two' }).getByText('Published').waitFor();
  }, 60_000);

  test('Publish with unsaved changes saves and publishes them; a published entry edited can be published again at once; Unpublish keeps them in the form', async () => {
    const id = (await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Unsaved first' } } })).body.data.documentId;
    const published = async () => (await server.call('GET', `/api/articles/${id}`)).body.data?.title;
    await page.goto(`${server.url}${ARTICLE_ADMIN}/${id}?locale=en`);
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Edited, not saved');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Saved and published').waitFor();
    expect(await published()).toBe('Edited, not saved');
    expect(await title.inputValue()).toBe('Edited, not saved');
    expect(await page.getByText('Unsaved changes').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).toBe(true);
    // Published, then edited: Publish is offered again and publishes the edit.
    await title.fill('Edited again');
    expect(await page.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Saved and published').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid=status]')?.textContent === 'Published');
    expect(await published()).toBe('Edited again');
    // Unpublish with unsaved changes: unpublished, the edits still in the form and still unsaved.
    await title.fill('Kept in the form');
    await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
    await page.getByText('Unpublished', { exact: true }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid=status]')?.textContent === 'Draft');
    expect(await published()).toBeUndefined();
    expect(await title.inputValue()).toBe('Kept in the form');
    await page.getByText('Unsaved changes').waitFor();
    expect((await server.call('GET', `/api/articles/${id}?status=draft`)).body.data.title).toBe('Edited again');
  }, 60_000);

  test("the browser's Back with unsaved changes asks: Cancel keeps the edits and the address, OK leaves", async () => {
    await page.goto(`${server.url}${ARTICLE_ADMIN}?q=Left`);
    await page.getByRole('link', { name: 'Left alone' }).click();
    const title = page.getByLabel('Title', { exact: true });
    await title.waitFor();
    const editUrl = page.url();
    await title.fill('Left alone, edited');

    let asked = '';
    page.once('dialog', (dialog) => void ((asked = dialog.message()), dialog.dismiss()));
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction((url) => (globalThis as any).location.href === url, editUrl);
    expect(asked).toContain('unsaved changes');
    expect(await title.inputValue()).toBe('Left alone, edited');

    asked = '';
    page.once('dialog', (dialog) => void ((asked = dialog.message()), dialog.accept()));
    await page.goBack({ waitUntil: 'commit' });
    await page.getByRole('link', { name: 'Create new entry' }).waitFor();
    expect(asked).toContain('unsaved changes');
    expect(page.url()).toBe(`${server.url}${ARTICLE_ADMIN}?q=Left`);
    expect((await server.call('GET', '/api/articles?status=draft&filters[title][$startsWith]=Left')).body.data[0].title).toBe('Left alone');
  }, 60_000);

  test("a media field's library picker pages through more than one page of files, searches and picks from page two", async () => {
    // 30 images (the page holds 24), uploaded oldest first: file-01 is the oldest, on page two.
    for (const batch of [
      [1, 15],
      [16, 30],
    ]) {
      const form = new FormData();
      for (let i = batch[0]!; i <= batch[1]!; i++) form.append('files', new File([PNG], `file-${String(i).padStart(2, '0')}.png`, { type: 'image/png' }));
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      const csrf: string = await page.evaluate(async () => ((await (await fetch('/admin/api/session')).json()) as any).data.csrfToken);
      expect((await fetch(`${server.url}/admin/api/files`, { method: 'POST', body: form, headers: { cookie, 'x-folio-csrf': csrf } })).status).toBe(201);
    }
    await page.goto(`${server.url}${ARTICLE_ADMIN}/new`);
    await page.getByLabel('Title', { exact: true }).fill('With a picked cover');
    await page.getByRole('button', { name: 'Choose from the library for Cover' }).click();
    const dialog = page.getByRole('dialog', { name: 'Media library: choose for Cover' });
    await dialog.getByRole('button', { name: 'Pick file-30.png' }).waitFor();
    expect(await dialog.getByRole('button', { name: /^Pick / }).count()).toBe(24);
    expect(await dialog.getByRole('button', { name: 'Pick file-01.png' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Next page' }).click();
    await dialog.getByText('Page 2').waitFor();
    await dialog.getByRole('button', { name: 'Pick file-01.png' }).waitFor();
    expect(await dialog.getByRole('button', { name: /^Pick / }).count()).toBe(6);
    expect(await dialog.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    await dialog.getByLabel('Search the library').fill('file-1');
    await dialog.getByRole('button', { name: 'Pick file-19.png' }).waitFor();
    expect(await dialog.getByRole('button', { name: /^Pick / }).count()).toBe(10);
    await dialog.getByRole('button', { name: 'Pick file-10.png' }).click();
    await page.getByRole('button', { name: 'Remove file-10.png' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    const saved = (await server.call('GET', '/api/articles?status=draft&filters[title][$eq]=With a picked cover&populate[cover]=true')).body.data[0];
    expect(saved.cover.name).toBe('file-10.png');
    // Only pages were asked for: never a request for every file.
    const listings = requests.filter((url) => url.includes('/admin/api/files?'));
    expect(listings.length).toBeGreaterThanOrEqual(3);
    for (const url of listings) expect(new URL(url).searchParams.get('type')).toBe('image');
  }, 90_000);
});
