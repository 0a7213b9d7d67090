/**
 * An entry's History as an editor uses it, in a real browser (Debian's chromium through
 * playwright-core), at 1366×768 and on a 390×844 phone: the side panel's "History" button
 * opens a dialog named "History" listing the versions (who, when, status, changed fields);
 * choosing an older one shows its content and its differences from the current draft;
 * "Restore this version" asks first, then makes it the draft (the form shows it, the API
 * answers it) and the list shows the restore as a new version. Escape closes the dialog and
 * gives the focus back to the button. axe on each state; nothing leaves the server.
 * Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, pageWidth, screenshot, seriousViolations } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/history-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
const API_ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin history', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: { cookie: string; csrf: string };
  let tagId: string;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'ann@example.com', password: 'correct horse' }, { first: true });
    const login = await server.call('POST', '/admin/api/login', { body: { email: 'ann@example.com', password: 'correct horse' } });
    admin = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, csrf: login.body.data.csrfToken };
    tagId = (await server.call('POST', '/api/tags', { body: { data: { name: 'Seasons' } } })).body.data.documentId;
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  /** An article written twice: by Ann in the admin (with a tag), then by an API token (new title, no tag, a summary). */
  async function article(): Promise<string> {
    const headers = { cookie: admin.cookie, 'x-folio-csrf': admin.csrf, origin: server.url };
    const made = await server.call('POST', `${API_ARTICLE}?locale=en`, { headers, body: { data: { title: 'Spring is here', tags: [tagId] } } });
    expect(made.status).toBe(201);
    const id = made.body.data.documentId;
    const put = await server.call('PUT', `/api/articles/${id}?locale=en&status=draft`, {
      body: { data: { title: 'Spring has come', summary: 'Longer days', tags: [] } },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    expect(put.status).toBe(200);
    return id;
  }

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

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`at ${viewport.width}×${viewport.height}: History lists the versions, shows an older one's differences, and restores it as the draft`, async () => {
      const id = await article();
      const { page, requests } = await open(viewport);
      const found: string[] = [];
      await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Spring has come');

      found.push(...(await seriousViolations(page, 'edit view')));
      const history = page.getByRole('button', { name: 'History', exact: true });
      await history.scrollIntoViewIfNeeded();
      await screenshot(page, `history-${size}-panel`);
      await history.click();
      const dialog = page.getByRole('dialog', { name: 'History' });
      await dialog.waitFor();
      const versions = dialog.getByRole('region', { name: 'Versions' }).getByRole('button');
      await versions.first().waitFor();
      const texts = (await versions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      expect(texts).toHaveLength(2);
      // Newest first: the token's save (who, status, changed fields), then Ann's creation.
      expect(texts[0]).toMatch(/Draft Saved by API token “.+” Changed: Title, Summary, Tags$/);
      expect(texts[1]).toMatch(/Draft Created by ann@example\.com Changed: Title, Kind, Views, Featured and 1 more$/);
      expect(await versions.first().getAttribute('aria-current')).toBe('true');
      await dialog.getByText('This is the current draft.').waitFor();
      found.push(...(await seriousViolations(page, 'history, current version')));

      // The older version: its content, and what differs from the current draft, in words.
      await versions.nth(1).click();
      expect(await versions.nth(1).getAttribute('aria-current')).toBe('true');
      const details = dialog.getByRole('region', { name: /^Version of / });
      await details.getByRole('heading', { name: 'Differences from the current draft' }).waitFor();
      await details.locator('ul.diff').getByText('Seasons').waitFor();
      const diffs = await details
        .locator('ul.diff > li')
        .evaluateAll((items) =>
          items.map((li: any) => [
            li.querySelector('.diff-name').textContent,
            li.querySelector('.diff-old').textContent,
            li.querySelector('.diff-new').textContent,
          ]),
        );
      expect(diffs).toEqual([
        ['Title', 'This versionSpring is here', 'Current draftSpring has come'],
        ['Summary', 'This version(empty)', 'Current draftLonger days'],
        ['Tags', 'This versionSeasons', 'Current draft(empty)'],
      ]);
      expect(await details.locator('dl.version-content').textContent()).toContain('Spring is here');
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'history, older version')));
      await screenshot(page, `history-${size}-older`);

      // Restore asks first; Cancel changes nothing.
      await details.getByRole('button', { name: 'Restore this version' }).click();
      const confirm = details.getByRole('alertdialog', { name: 'Restore this version as the draft?' });
      await confirm.waitFor();
      found.push(...(await seriousViolations(page, 'history, confirm restore')));
      await screenshot(page, `history-${size}-confirm`);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await confirm.count()).toBe(0);
      await details.getByRole('button', { name: 'Restore this version' }).click();
      await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
      await dialog.getByText(/^Restored: the draft now holds the version of .+\. Nothing was published\.$/).waitFor();

      // The restore is a new version at the top, selected; the draft is the old content again.
      await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.versions button.version').length === 3);
      const after = (await versions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      expect(after[0]).toMatch(/Draft Restored from .+ by ann@example\.com Changed: Title, Summary, Tags$/);
      expect(await versions.first().getAttribute('aria-current')).toBe('true');
      await dialog.getByText('This is the current draft.').waitFor();
      await screenshot(page, `history-${size}-restored`);
      const draft = await server.call('GET', `/api/articles/${id}?locale=en&status=draft&populate=tags`);
      expect(draft.body.data).toMatchObject({ title: 'Spring is here', summary: null, tags: [{ documentId: tagId }] });
      expect(draft.body.data.publishedAt).toBeNull();
      expect((await server.call('GET', `/api/articles/${id}?locale=en&status=published`)).status).toBe(404);

      // Escape closes it and the focus is back on the button; the form shows the restored draft.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // (The panel may render the button anew as the form reloads: the focus lands on it once it has.)
      await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'history-open', undefined, { timeout: 2_000 });
      expect(await history.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
      await page.waitForFunction(() => ((globalThis as any).document.getElementById('field-title') as any)?.value === 'Spring is here');
      expect(await page.getByRole('group', { name: 'Tags' }).textContent()).toContain('Seasons');
      expect(found).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  test('the dialog keeps the keyboard inside it, and a new entry has no History button', async () => {
    const id = await article();
    const { page } = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    await dialog.getByRole('region', { name: 'Versions' }).getByRole('button').first().waitFor();
    // Its heading has the focus; Tab after Tab goes round the dialog's controls and never leaves it.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe('History');
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!(globalThis as any).document.activeElement.closest('[role=dialog]'))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!(globalThis as any).document.activeElement.closest('[role=dialog]'))).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${server.url}${ARTICLE}/new`);
    await page.getByLabel('Title', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'History', exact: true }).count()).toBe(0);
    await page.context().close();
  }, 60_000);
});
