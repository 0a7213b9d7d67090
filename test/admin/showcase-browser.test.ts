/**
 * The kinds of field a form edits, on the fixture type that holds every kind (test/fixtures/
 * all-types), in a real browser (Debian's chromium through playwright-core): a timestamp is a
 * date-and-time control like a datetime, saved as the instant typed and shown again from
 * Strapi's unix-milliseconds answer; no field of the type is left read-only. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { ALL_TYPES_CONTENT_TYPES, startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/showcase-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const SHOWCASE = `/admin/content/${encodeURIComponent('api::showcase.showcase')}`;

describe.skipIf(!executable)('Folio Admin field kinds', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  test('a timestamp is typed as a date and time, saved as that instant, and shown again when the entry is read back', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 }, timezoneId: 'UTC' })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.goto(`${SHOWCASE.replace(/^/, server.url)}/new`);
    await page.getByLabel('A string', { exact: true }).fill('With a timestamp');
    expect(await page.locator('.field.readonly').count()).toBe(0);
    const stamp = page.getByLabel('A timestamp', { exact: true });
    expect(await stamp.getAttribute('type')).toBe('datetime-local');
    await stamp.fill('2026-03-04T05:06');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const saved = (await server.call('GET', `/api/showcases/${id}?status=draft`)).body.data;
    expect(new Date(Number(saved.aTimestamp)).toISOString()).toBe('2026-03-04T05:06:00.000Z');
    await page.reload();
    expect(await page.getByLabel('A timestamp', { exact: true }).inputValue()).toBe('2026-03-04T05:06');
    await page.context().close();
  }, 60_000);
});
