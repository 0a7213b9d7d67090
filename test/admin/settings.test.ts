/**
 * Settings in a real browser (Debian's chromium through playwright-core): each change made
 * on a settings page is checked where it matters, on the public API. Roles (a permission
 * checked for Public takes effect on anonymous calls), API tokens (the key shown once works
 * on /api), Locales (listed by /api/i18n/locales), Webhooks (a delivery reaches a receiver on
 * 127.0.0.1 and shows in the log), Users (a blocked user cannot log in), and an Editor sees
 * no Settings. Skipped with a message when no chromium is installed (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/settings] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

/** Polls until `check` holds, at most `tries` times, yielding to the event loop between tries (no fixed sleeps). */
async function eventually(check: () => Promise<boolean>, tries = 500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met');
}

async function logIn(page: Page, url: string, email: string, password: string) {
  await page.goto(`${url}/admin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

describe.skipIf(!executable)('Settings in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let requests: string[];
  const received: { event: string; body: any }[] = [];
  let receiver: ReturnType<typeof Bun.serve>;
  const bearer = () => ({ authorization: `Bearer ${server.tokens.fullAccess}` });

  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
    receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      async fetch(request) {
        received.push({ event: request.headers.get('x-folio-event') ?? '', body: await request.json().catch(() => null) });
        return new Response('ok');
      },
    });
    browser = await launchBrowser(executable!);
    ({ page, requests } = await recordingPage(browser));
    await logIn(page, server.url, 'root@example.com', 'correct horse');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    receiver?.stop(true);
    await server?.stop();
  });

  test('checking find for Public on Article and saving opens anonymous GET /api/articles at once (403 → 200)', async () => {
    expect((await server.call('GET', '/api/articles')).status).toBe(403);
    await page.getByRole('navigation', { name: 'Content manager' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Roles', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Public', exact: true }).click();
    const article = page.getByRole('group', { name: 'Article', exact: true });
    const find = article.getByRole('checkbox', { name: 'find', exact: true });
    expect(await find.isChecked()).toBe(false);
    expect(await article.getByRole('checkbox', { name: 'create', exact: true }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Homepage', exact: true }).count()).toBe(1);
    await find.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await server.call('GET', '/api/articles')).status).toBe(200);
    expect((await server.call('GET', '/api/articles/abc')).status).toBe(403);
    // A reload (deep link) shows the saved state.
    await page.reload();
    expect(await page.getByRole('group', { name: 'Article', exact: true }).getByRole('checkbox', { name: 'find', exact: true }).isChecked()).toBe(true);
  }, 60_000);

  test('a token created on the API tokens page shows its key once, and that key works on /api', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('site build');
    await page.getByLabel('Token type').selectOption('read-only');
    await page.getByLabel('Token duration').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    const key = await page.getByLabel('Access key', { exact: true }).inputValue();
    expect(key).toMatch(/^[0-9a-f]{256}$/);
    await server.instance.roles.revoke('public', ['api::article.article.find']);
    expect((await server.call('GET', '/api/articles')).status).toBe(403);
    expect((await server.call('GET', '/api/articles', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await server.call('POST', '/api/articles', { body: { data: { title: 'x' } }, headers: { authorization: `Bearer ${key}` } })).status).toBe(403);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row').filter({ hasText: 'site build' }).waitFor();
    expect(await page.content()).not.toContain(key);
    // Revoked from the page: the key stops working.
    await page.getByRole('button', { name: 'Revoke site build' }).click();
    await page.getByRole('status').filter({ hasText: 'Token site build revoked' }).waitFor();
    expect((await server.call('GET', '/api/articles', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  }, 60_000);

  test('a locale added on the Locales page appears in /api/i18n/locales', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Locales' }).click();
    await page.getByLabel('Code').fill('de');
    await page.getByLabel('Display name').fill('German (de)');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await page.getByRole('cell', { name: 'German (de)' }).waitFor();
    const listed = await server.call('GET', '/api/i18n/locales', { headers: bearer() });
    expect(listed.body.map((l: { code: string }) => l.code)).toContain('de');
    await page.getByRole('button', { name: 'Remove de' }).click();
    await page.getByRole('status').filter({ hasText: 'Locale de removed' }).waitFor();
    expect((await server.call('GET', '/api/i18n/locales', { headers: bearer() })).body.map((l: { code: string }) => l.code)).not.toContain('de');
  }, 60_000);

  test('a webhook created on the Webhooks page fires on an entry created through the API, and its delivery shows in the log', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name', { exact: true }).fill('site rebuild');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${receiver.port}/hook`);
    await page.getByRole('group', { name: 'Events' }).getByRole('checkbox', { name: 'entry.create', exact: true }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('link', { name: 'site rebuild' }).waitFor();
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Fires a webhook' } }, headers: bearer() });
    expect(created.status).toBe(201);
    await eventually(async () => received.some((r) => r.event === 'entry.create'));
    expect(received.find((r) => r.event === 'entry.create')!.body.entry.title).toBe('Fires a webhook');
    // The attempt is recorded once the answer is in; then the log shows it.
    await eventually(async () => ((await server.instance.webhooks.deliveries('site rebuild')) ?? []).some((a) => a.status === 200));
    await page.getByRole('link', { name: 'site rebuild' }).click();
    const row = page.getByRole('row').filter({ hasText: 'entry.create' });
    await row.waitFor();
    expect(await row.textContent()).toContain('HTTP 200');
  }, 60_000);

  test('blocking a user on the Users page makes their login fail', async () => {
    await server.instance.users.create({ email: 'reader@example.com', username: 'reader', password: 'reader password', role: 'authenticated' });
    const loginAs = () => server.call('POST', '/api/auth/local', { body: { identifier: 'reader@example.com', password: 'reader password' } });
    expect((await loginAs()).status).toBe(200);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByLabel('Search users').fill('reader');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Block reader' }).click();
    await page.getByRole('button', { name: 'Unblock reader' }).waitFor();
    const refused = await loginAs();
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('blocked');
    const origin = new URL(server.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  }, 60_000);

  test('an Editor sees no Settings link, and a deep link to the settings shows no settings', async () => {
    const { page: editor } = await recordingPage(browser);
    await logIn(editor, server.url, 'ed@example.com', 'editor password');
    await editor.getByRole('link', { name: 'Media Library' }).waitFor();
    expect(await editor.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await editor.goto(`${server.url}/admin/settings/roles`);
    await editor.getByText('Only a Super Admin may open the settings.').waitFor();
    expect(await editor.getByRole('checkbox').count()).toBe(0);
    await editor.context().close();
  }, 60_000);
});
