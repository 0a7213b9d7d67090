/**
 * Folio Admin in a real browser (Debian's chromium through playwright-core): first run,
 * log in, create / save / publish / unpublish an article checked through the public REST
 * API, a validation error at its field, deep links, logout, and no request to another host.
 * Skipped with a message when no chromium is installed (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

describe.skipIf(!executable)('Folio Admin in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    await server.instance.roles.grant('public', ['api::article.article.find']);
    browser = await launchBrowser(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const publicTitles = async () => (await server.call('GET', '/api/articles')).body.data.map((a: { title: string }) => a.title);

  test('first run, then create, save, publish and unpublish an article, with a validation error at its field, then log out', async () => {
    const { page, requests } = await recordingPage(browser);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Create admin' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();

    // The login page, with its contract labels.
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.getByRole('navigation', { name: 'Content manager' }).getByRole('link', { name: 'Article', exact: true }).click();
    await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Homepage' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Create new entry' }).click();

    // A title over its maxLength (200): the server's error lands at the field.
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#field-title-error').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-title-error').textContent()).toBe('Title is too long: at most 200 characters');

    await title.fill('Written in the browser');
    await page.getByLabel('Views', { exact: true }).fill('7');
    await page.getByLabel('Featured', { exact: true }).check();
    await page.getByLabel('Kind', { exact: true }).selectOption('guide');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    expect(page.url()).toMatch(/\/admin\/content\/api%3A%3Aarticle\.article\/[a-z0-9]+\?locale=en$/);
    expect(await publicTitles()).not.toContain('Written in the browser');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('status').filter({ hasText: 'Published' }).waitFor();
    expect(await publicTitles()).toContain('Written in the browser');
    const [article] = (await server.call('GET', '/api/articles')).body.data;
    expect(article).toMatchObject({ views: 7, featured: true, kind: 'guide' });

    await title.fill('Edited after publishing');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('status').filter({ hasText: 'Modified' }).waitFor();
    expect(await publicTitles()).toEqual(['Written in the browser']);
    await page.getByRole('button', { name: 'Discard changes' }).waitFor();

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
    expect(await publicTitles()).toEqual([]);

    // A deep link opens its view directly; the list shows the row with its badge.
    await page.goto(`${server.url}/admin/content/${encodeURIComponent('api::article.article')}?q=Edited`);
    const row = page.getByRole('row').filter({ hasText: 'Edited after publishing' });
    await row.getByText('Draft').waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const origin = new URL(server.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  }, 90_000);
});
