/**
 * The content manager's editors in a real browser (Debian's chromium through playwright-core):
 * an article with a uid, a component, a dynamic zone, relations reordered by drag and by
 * keyboard and an uploaded cover, saved with Ctrl+S, published and unpublished, each step
 * checked through the REST API; then the list's filter, bulk publish and bulk delete, the
 * unsaved-changes guard and delete from the edit view. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/editors-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ARTICLE_ADMIN = `/admin/content/${encodeURIComponent('api::article.article')}`;
const DEEP = 'populate[tags]=true&populate[cover]=true&populate[seo]=true&populate[blocks][populate]=*';

describe.skipIf(!executable)('Folio Admin editors in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let requests: string[];
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    for (const name of ['Tag A', 'Tag B', 'Tag C']) await server.call('POST', '/api/tags', { body: { data: { name } } });
    browser = await launchBrowser(executable!);
    ({ page, requests } = await recordingPage(browser));
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    // A PostgreSQL database, a browser and a login: more than the default 5 s on a loaded machine.
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const draft = async (documentId: string) => (await server.call('GET', `/api/articles/${documentId}?status=draft&${DEEP}`)).body.data;
  const linkedTags = (list: { name: string }[]) => list.map((t) => t.name);
  const relationOrder = () => page.getByRole('list', { name: 'Tags: linked entries' }).locator('.sortable-name').allTextContents();

  test('an article with a uid, a component, a dynamic zone, reordered relations and an uploaded cover is saved, published and unpublished', async () => {
    await page.goto(`${server.url}${ARTICLE_ADMIN}/new`);
    await page.getByLabel('Title', { exact: true }).fill('Browser Story');
    // The uid follows its target field on a new entry.
    expect(await page.getByLabel('Slug', { exact: true }).inputValue()).toBe('browser-story');

    const search = page.getByRole('combobox', { name: 'Tags' });
    await search.click();
    for (const name of ['Tag A', 'Tag B', 'Tag C']) await page.getByRole('option', { name }).click();
    expect(await relationOrder()).toEqual(['Tag A', 'Tag B', 'Tag C']);
    // By drag: Tag C's handle dropped on Tag A.
    await page.getByRole('button', { name: /^Reorder Tag C/ }).dragTo(page.locator('li.sortable-item', { hasText: 'Tag A' }));
    expect(await relationOrder()).toEqual(['Tag C', 'Tag A', 'Tag B']);
    // By keyboard: Alt+ArrowUp on Tag B's handle, which keeps the focus.
    await page.getByRole('button', { name: /^Reorder Tag B/ }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    expect(await relationOrder()).toEqual(['Tag C', 'Tag B', 'Tag A']);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toMatch(/^Reorder Tag B/);

    await page.getByRole('button', { name: 'Add SEO' }).click();
    await page.getByLabel('Meta title', { exact: true }).fill('Meta of the story');
    await page.getByLabel('Component to add to Blocks').selectOption({ label: 'Quote' });
    await page.getByRole('button', { name: 'Add to Blocks' }).click();
    await page.locator('[id="field-blocks.0.title"]').fill('A quote title');
    await page.getByLabel('Component to add to Blocks').selectOption({ label: 'Rich text' });
    await page.getByRole('button', { name: 'Add to Blocks' }).click();
    await page.locator('[id="field-blocks.1.body"]').fill('Some *markdown*');
    await page.getByRole('button', { name: 'Move Rich text (Blocks 2) up' }).click();

    await page.getByLabel('Upload a file to Cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Remove cover.png' }).waitFor();

    // Ctrl+S saves.
    await page.keyboard.press('Control+s');
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    const documentId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const saved = await draft(documentId);
    expect(saved).toMatchObject({ title: 'Browser Story', slug: 'browser-story', seo: { metaTitle: 'Meta of the story' }, cover: { name: 'cover.png' } });
    expect(linkedTags(saved.tags)).toEqual(['Tag C', 'Tag B', 'Tag A']);
    expect(saved.blocks).toMatchObject([
      { __component: 'shared.rich-text', body: 'Some *markdown*' },
      { __component: 'shared.quote', title: 'A quote title' },
    ]);
    expect((await server.call('GET', `/api/articles/${documentId}`)).status).toBe(404);

    // Regenerate keeps the entry's own slug (it does not collide with itself).
    await page.getByLabel('Slug', { exact: true }).fill('typed-by-hand');
    await page.getByRole('button', { name: 'Regenerate Slug' }).click();
    await page.waitForFunction(() => (globalThis as any).document.getElementById('field-slug')?.value === 'browser-story');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('status').filter({ hasText: 'Published' }).waitFor();
    const published = (await server.call('GET', `/api/articles/${documentId}?${DEEP}`)).body.data;
    expect(linkedTags(published.tags)).toEqual(['Tag C', 'Tag B', 'Tag A']);
    expect(published).toMatchObject({
      seo: { metaTitle: 'Meta of the story' },
      cover: { name: 'cover.png' },
      blocks: [{ __component: 'shared.rich-text' }, { __component: 'shared.quote' }],
    });

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    expect((await server.call('GET', `/api/articles/${documentId}`)).status).toBe(404);
    const origin = new URL(server.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  }, 60_000);

  test('the list filters by attribute and operator, bulk-publishes and bulk-deletes the selected rows', async () => {
    for (const title of ['Filter one', 'Filter two', 'Other']) await server.call('POST', '/api/articles?status=draft', { body: { data: { title } } });
    await page.goto(`${server.url}${ARTICLE_ADMIN}`);
    await page.getByLabel('Filter attribute').selectOption('title');
    await page.getByLabel('Filter operator').selectOption('$startsWithi');
    await page.getByLabel('Filter value').fill('filter');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Remove filter title starts with "filter"' }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length === 2);
    expect(decodeURIComponent(page.url())).toContain('filters[title][$startsWithi]=filter');
    expect(await page.locator('tbody tr').allTextContents()).not.toContain(expect.stringContaining('Other'));

    await page.getByLabel('Select all entries on this page').check();
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await page.getByText('Published 2 entries').waitFor();
    const titles = async () =>
      (await server.call('GET', '/api/articles?filters[title][$startsWith]=Filter&sort=title')).body.data.map((a: { title: string }) => a.title);
    expect(await titles()).toEqual(['Filter one', 'Filter two']);

    await page.getByLabel('Select Filter two').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the selected entries?' }).getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByText('Deleted 1 entry').waitFor();
    expect(await titles()).toEqual(['Filter one']);
  }, 60_000);

  test('leaving an edited form asks first, and an entry is deleted from its edit view after a confirmation', async () => {
    await page.goto(`${server.url}${ARTICLE_ADMIN}?q=Other`);
    await page.getByRole('link', { name: 'Other' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Other, edited');
    let asked = '';
    page.once('dialog', (dialog) => void ((asked = dialog.message()), dialog.dismiss()));
    await page.getByRole('link', { name: '← Article' }).click();
    expect(asked).toContain('unsaved changes');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Other, edited');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Confirm delete' }).click();
    // Back on the list (the edit view's heading is "Article" too: wait for the list's own button).
    await page.getByRole('link', { name: 'Create new entry' }).waitFor();
    expect((await server.call('GET', '/api/articles?status=draft&filters[title][$startsWith]=Other')).body.data).toEqual([]);
  }, 60_000);

  test('a new locale version is filled in from another locale; blocks are written as Strapi nodes; the library dialog picks a file', async () => {
    const en = await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'In English', summary: 'Summary EN' } } });
    const id = en.body.data.documentId;
    await page.goto(`${server.url}${ARTICLE_ADMIN}/${id}?locale=fr`);
    await page.getByLabel('Locale to copy from').selectOption('en');
    await page.getByRole('button', { name: 'Fill in from another locale' }).click();
    await page.getByText('Filled in from en').waitFor();
    expect(await page.getByLabel('Summary', { exact: true }).inputValue()).toBe('Summary EN');
    await page.getByLabel('Title', { exact: true }).fill('En français');

    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.getByRole('combobox', { name: 'Text style' }).selectOption('heading-2');
    await page.keyboard.type('Un ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('titre');
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('un');
    await page.keyboard.press('Enter');
    await page.keyboard.type('deux');

    await page.getByRole('button', { name: 'Choose from the library for Cover' }).click();
    await page.getByRole('dialog', { name: 'Media library: choose for Cover' }).getByRole('button', { name: 'Pick cover.png' }).click();
    await page.getByRole('button', { name: 'Remove cover.png' }).waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    const fr = (await server.call('GET', `/api/articles/${id}?status=draft&locale=fr&populate[cover]=true`)).body.data;
    expect(fr).toMatchObject({ title: 'En français', summary: 'Summary EN', locale: 'fr', cover: { name: 'cover.png' } });
    expect(fr.body).toEqual([
      {
        type: 'heading',
        level: 2,
        children: [
          { type: 'text', text: 'Un ' },
          { type: 'text', text: 'titre', bold: true },
        ],
      },
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: 'un' }] },
          { type: 'list-item', children: [{ type: 'text', text: 'deux' }] },
        ],
      },
    ]);
    expect((await server.call('GET', `/api/articles/${id}?status=draft&locale=en`)).body.data.title).toBe('In English');
  }, 60_000);
});
