/**
 * Releases as an editor uses them, in a real browser (Debian's chromium through
 * playwright-core), at 1366×768 and on a 390×844 phone: the "Releases" page in the navigation
 * (create one with a name, a date and time and its time zone; the list with status and
 * schedule), "Add to release" in an entry's side panel (a pending release, publish, this
 * locale), the home page's scheduled releases, a release's page (its entries, Publish now, a
 * failure naming the entry and the field in words, Remove an entry, Publish again, Delete).
 * axe on each page; nothing scrolls sideways; nothing leaves the server. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, pageWidth, screenshot, seriousViolations } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/releases-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
const API_ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;

describe.skipIf(!executable)('Folio Admin releases', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: { cookie: string; csrf: string };
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'ann@example.com', password: 'correct horse' }, { first: true });
    const login = await server.call('POST', '/admin/api/login', { body: { email: 'ann@example.com', password: 'correct horse' } });
    admin = { cookie: login.headers.get('set-cookie')!.split(';')[0]!, csrf: login.body.data.csrfToken };
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  const headers = () => ({ cookie: admin.cookie, 'x-folio-csrf': admin.csrf, origin: server.url });

  /** A draft article in English (a draft may lack its title: publishing it then fails). */
  async function draft(data: Record<string, unknown>): Promise<string> {
    const made = await server.call('POST', `${API_ARTICLE}?locale=en`, { headers: headers(), body: { data } });
    expect(made.status).toBe(201);
    return made.body.data.documentId;
  }

  async function open(viewport: { width: number; height: number }): Promise<{ page: Page; requests: string[] }> {
    const page = await (await browser.newContext({ viewport, timezoneId: 'Europe/Paris', locale: 'en-GB' })).newPage();
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

  /** The entry's side panel: "Add to release" → the release, publish, Add. */
  async function addToRelease(page: Page, id: string, release: string) {
    await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
    const box = page.getByRole('region', { name: 'Releases' });
    await box.getByText('This English (en) version is in no release.').waitFor();
    const add = box.getByRole('button', { name: 'Add to release' });
    await add.scrollIntoViewIfNeeded();
    await add.click();
    const form = box.getByRole('form', { name: 'Add to release' });
    await form.getByLabel('Release').selectOption(release);
    expect(await form.getByRole('radio', { name: 'Publish', exact: true }).isChecked()).toBe(true);
    await form.getByText('For this locale: English (en).').waitFor();
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await box.getByText(`Added to ${release}: it will be published with the release.`).waitFor();
    await box.getByRole('link', { name: release }).waitFor();
  }

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`at ${viewport.width}×${viewport.height}: create and schedule a release, add entries from their side panel, see a failure in words, remove the entry, publish, delete`, async () => {
      const good = await draft({ title: `Spring is here ${size}` });
      const bad = await draft({ summary: `No title yet ${size}` });
      const name = `Spring launch ${size}`;
      const { page, requests } = await open(viewport);
      const found: string[] = [];

      // The Releases page from the navigation (behind "Menu" on a phone).
      if (viewport.width < 700) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Releases' }).click();
      await page.getByRole('heading', { level: 1, name: 'Releases' }).waitFor();
      expect(await page.locator('#app-nav a[href="/admin/releases"]').getAttribute('aria-current')).toBe('page');
      const form = page.getByRole('form', { name: 'New release' });
      // No name: said at the field, nothing created.
      await form.getByRole('button', { name: 'Create release' }).click();
      await form.getByText('Give the release a name').waitFor();
      expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
      found.push(...(await seriousViolations(page, 'releases list, name missing')));
      // A time that has passed: said at the field in words.
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Date and time (optional)').fill('2001-01-01T09:00');
      await form.getByRole('button', { name: 'Create release' }).click();
      await form.getByText('Choose a time in the future').waitFor();
      expect(await form.getByLabel('Date and time (optional)').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, `releases-${size}-form-errors`);
      // 20 March 2030, 09:00 in Paris (the browser's zone, chosen first) is 08:00 UTC.
      expect(await form.getByLabel('Time zone').inputValue()).toBe('Europe/Paris');
      await form.getByLabel('Date and time (optional)').fill('2030-03-20T09:00');
      await form.getByRole('button', { name: 'Create release' }).click();

      // Its page: pending, when it publishes in its zone, no entry yet.
      await page.getByRole('heading', { level: 1, name }).waitFor();
      expect(page.url()).toBe(`${server.url}/admin/releases/${encodeURIComponent(name)}`);
      expect(await page.getByTestId('release-status').textContent()).toBe('Pending');
      await page.getByText('20 Mar 2030, 09:00 (Europe/Paris)').waitFor();
      await page.getByText('No entry yet. Open an entry and use “Add to release” in its side panel.').waitFor();
      const stored = await server.call('GET', `/admin/api/releases/${encodeURIComponent(name)}`, { headers: headers() });
      expect(stored.body.data).toMatchObject({ name, status: 'pending', scheduledAt: '2030-03-20T08:00:00.000Z', timezone: 'Europe/Paris', entries: [] });
      found.push(...(await seriousViolations(page, 'release, empty')));

      // The list: status and schedule.
      await page.getByRole('link', { name: '← Releases' }).click();
      const row = page
        .getByRole('table', { name: 'Releases' })
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name, exact: true }) });
      await row.waitFor();
      expect((await row.getByRole('cell').allTextContents()).slice(1)).toEqual(['Pending', '20 Mar 2030, 09:00 (Europe/Paris)', '0']);
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'releases list')));
      await screenshot(page, `releases-${size}-list`);

      // The home page lists it among the scheduled releases.
      await page.goto(`${server.url}/admin`);
      const scheduled = page.getByRole('region', { name: 'Scheduled releases' });
      await scheduled.getByRole('link', { name }).waitFor();
      expect(await scheduled.textContent()).toContain('20 Mar 2030, 09:00 (Europe/Paris) · 0 entries');
      found.push(...(await seriousViolations(page, 'home with scheduled releases')));

      // Add both drafts from their side panels.
      await addToRelease(page, good, name);
      found.push(...(await seriousViolations(page, 'edit view, added to a release')));
      await screenshot(page, `releases-${size}-panel`);
      await addToRelease(page, bad, name);
      expect(await pageWidth(page)).toBe(viewport.width);

      // The release: two entries by their titles; Publish now asks first, then fails on the untitled one.
      await page.getByRole('region', { name: 'Releases' }).getByRole('link', { name }).click();
      const entries = page.getByRole('region', { name: 'Entries (2)' });
      await entries.getByRole('link', { name: `Spring is here ${size}` }).waitFor();
      await page.getByRole('button', { name: 'Publish now' }).click();
      const confirm = page.getByRole('alertdialog', { name: /^Publish the 2 entries of this release now\?/ });
      await confirm.waitFor();
      found.push(...(await seriousViolations(page, 'release, confirm publish')));
      await confirm.getByRole('button', { name: 'Publish', exact: true }).click();
      const failure = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Publishing failed: nothing was changed' }) });
      await failure.waitFor();
      expect(await page.getByTestId('release-status').textContent()).toBe('Failed');
      const said = (await failure.textContent())!.replace(/\s+/g, ' ');
      expect(said).toContain('could not be published: Title is required.');
      expect(said).toContain('Open the entry, fix the field “Title”, save, then publish the release again.');
      expect(said).toMatch(/^Publishing failed: nothing was changedArticle “.+” \(English \(en\)\)/);
      expect(await failure.getByRole('link').getAttribute('href')).toBe(`${ARTICLE}/${bad}?locale=en`);
      expect((await server.call('GET', `/api/articles/${good}?locale=en&status=published`)).status).toBe(404);
      expect(await pageWidth(page)).toBe(viewport.width);
      found.push(...(await seriousViolations(page, 'release, failed')));
      await screenshot(page, `releases-${size}-failed`, { fullPage: true });

      // Remove the untitled entry, publish again: done, the good one is out.
      const untitled = entries.getByRole('listitem').filter({ hasNot: page.getByRole('link', { name: `Spring is here ${size}` }) });
      await untitled.getByRole('button', { name: /^Remove .+ \(en\) from the release$/ }).click();
      await page.getByRole('region', { name: 'Entries (1)' }).waitFor();
      await page.getByRole('button', { name: 'Publish now' }).click();
      await page
        .getByRole('alertdialog', { name: /^Publish the entry of this release now\?/ })
        .getByRole('button', { name: 'Publish', exact: true })
        .click();
      await page.getByText('Published: every entry of the release is out').waitFor();
      expect(await page.getByTestId('release-status').textContent()).toBe('Done');
      expect(await page.getByRole('button', { name: 'Publish now' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      const published = await server.call('GET', `/api/articles/${good}?locale=en&status=published`);
      expect(published.body.data.title).toBe(`Spring is here ${size}`);
      expect((await server.call('GET', `/api/articles/${bad}?locale=en&status=published`)).status).toBe(404);
      found.push(...(await seriousViolations(page, 'release, done')));
      await screenshot(page, `releases-${size}-done`);

      // Delete asks first, then the list no longer has it.
      await page.getByRole('button', { name: 'Delete release' }).click();
      await page
        .getByRole('alertdialog', { name: 'Delete this release? Its entries stay as they are.' })
        .getByRole('button', { name: 'Delete release' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Releases' }).waitFor();
      await page.getByRole('form', { name: 'New release' }).waitFor();
      expect(await page.getByRole('link', { name, exact: true }).count()).toBe(0);
      expect((await server.call('GET', `/admin/api/releases/${encodeURIComponent(name)}`, { headers: headers() })).status).toBe(404);

      expect(found).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
      await page.context().close();
    }, 120_000);
  }

  test('an entry whose document has no title is named by its type, never by its documentId', async () => {
    const untitled = await draft({ summary: 'No title yet' });
    const titled = await draft({ title: 'Has a title' });
    const name = 'Names of entries';
    expect((await server.call('POST', '/admin/api/releases', { headers: headers(), body: { name } })).status).toBe(201);
    for (const documentId of [untitled, titled]) {
      const added = await server.call('POST', `/admin/api/releases/${encodeURIComponent(name)}/entries`, {
        headers: headers(),
        body: { type: 'api::article.article', documentId, action: 'publish' },
      });
      expect(added.status).toBe(200);
    }
    const { page } = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}/admin/releases/${encodeURIComponent(name)}`);
    const entries = page.getByRole('region', { name: 'Entries (2)' });
    await entries.getByRole('link', { name: 'Has a title' }).waitFor();
    const link = entries.getByRole('link', { name: 'Untitled (Article)' });
    await link.waitFor();
    expect(await entries.textContent()).not.toContain(untitled);
    expect(await link.getAttribute('href')).toBe(`${ARTICLE}/${untitled}?locale=en`);
    await entries.getByRole('button', { name: 'Remove Untitled (Article) (en) from the release' }).waitFor();
    await page.context().close();
  }, 60_000);

  test('an entry without a pending release is told where to make one, and a type without draft & publish has no Releases box', async () => {
    const id = await draft({ title: 'Lonely' });
    for (const r of (await server.call('GET', '/admin/api/releases', { headers: headers() })).body.data)
      await server.call('DELETE', `/admin/api/releases/${encodeURIComponent(r.name)}`, { headers: headers() });
    const { page } = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
    const box = page.getByRole('region', { name: 'Releases' });
    await box.getByRole('button', { name: 'Add to release' }).click();
    await box.getByText('No release is pending. Create one on the Releases page.').waitFor();
    expect(await box.getByRole('link', { name: 'Create one on the Releases page' }).getAttribute('href')).toBe('/admin/releases');
    // A category (no draft & publish) cannot be in a release: no box.
    const category = (await server.call('POST', '/api/categories', { body: { data: { name: 'Seasons' } } })).body.data.documentId;
    await page.goto(`${server.url}/admin/content/${encodeURIComponent('api::category.category')}/${category}`);
    await page.getByLabel('Name', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Information' }).waitFor();
    expect(await page.getByRole('region', { name: 'Releases' }).count()).toBe(0);
    // An unknown release's page says so.
    await page.goto(`${server.url}/admin/releases/${encodeURIComponent('No such thing')}`);
    await page.getByRole('heading', { level: 1, name: 'Release not found' }).waitFor();
    await page.context().close();
  }, 60_000);
});
