/**
 * Accessibility of Folio Admin in a real browser (Debian's chromium through playwright-core):
 * axe-core (injected from node_modules, nothing fetched) audits every page at a desktop and a
 * phone viewport: login, first run, the list, the edit view of an article and of a type with
 * every field kind, the library picker, the Media Library, every settings page. Any serious
 * or critical violation fails the test, listed with where it is. Then the editor's path done
 * with the keyboard alone: log in, open an article, change a field, save.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { ALL_TYPES_CONTENT_TYPES, startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/a11y-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
const SHOWCASE = `/admin/content/${encodeURIComponent('api::showcase.showcase')}`;

/** The serious and critical violations on the page as it stands, one line each, naming where. */
async function audit(page: Page, where: string): Promise<string[]> {
  // Evaluated through the DevTools protocol: the admin's CSP (script-src 'self') does not apply.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    // A page axe found nothing to check on would pass silently: count what it checked.
    if (result.passes.length === 0) throw new Error('axe checked nothing');
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  return (violations as { id: string; impact: string; help: string; nodes: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.join(' | ')}`);
}

async function logIn(page: Page, url: string) {
  await page.goto(`${url}/admin`);
  await page.getByLabel('Email').fill('root@example.com');
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

describe.skipIf(!executable)('Folio Admin accessibility', () => {
  let server: TestServer;
  let showcase: TestServer;
  let browser: Browser;
  let articleId: string;
  beforeAll(async () => {
    [server, showcase] = await Promise.all([startServer(), startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES })]);
    for (const s of [server, showcase])
      await new AdminAccounts(s.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const auth = { authorization: `Bearer ${server.tokens.fullAccess}` };
    const form = new FormData();
    form.append('files', new File([PNG], 'cover.png', { type: 'image/png' }));
    form.append('files', new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    const files = (await (await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: auth })).json()) as { id: number }[];
    const tag = (await server.call('POST', '/api/tags', { body: { data: { name: 'Tag A' } } })).body.data.documentId;
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }];
    const data = {
      title: 'Accessible article',
      summary: 'Short',
      body,
      views: 3,
      rating: 4.5,
      featured: true,
      publishDate: '2026-01-02',
      meta: { a: 1 },
      cover: files[0]!.id,
      gallery: [files[0]!.id],
      tags: [tag],
      seo: { metaTitle: 'Meta' },
      links: [{ label: 'Home', url: 'https://example.com' }],
      blocks: [{ __component: 'shared.quote', title: 'Ann', body: 'Quoted' }],
    };
    const made = await server.call('POST', '/api/articles?status=draft', { body: { data } });
    expect(made.status).toBe(201);
    articleId = made.body.data.documentId;
    await server.call('POST', '/api/articles', { body: { data: { title: 'Second article' } } });
    await server.instance.webhooks.create({ name: 'hook', url: 'http://127.0.0.1:9/hook', events: ['entry.create'] });
    await server.call('POST', '/api/auth/local/register', { body: { username: 'reader', email: 'reader@example.com', password: 'reader password' } });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), showcase?.stop()]);
  });

  test('no page has a serious or critical axe violation, at a desktop and at a phone viewport', async () => {
    const found: string[] = [];
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const check = async (where: string) => found.push(...(await audit(page, `${name} ${where}`)));

      // First run and login on a server of their own, before and after its first admin.
      const fresh = await startServer({ publicAccess: false });
      try {
        await page.goto(`${fresh.url}/admin`);
        await page.getByRole('button', { name: 'Create admin' }).waitFor();
        await check('first run');
      } finally {
        await fresh.stop();
      }
      await page.goto(`${server.url}/admin`);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await check('login');

      await logIn(page, server.url);
      await check('home');
      await page.goto(`${server.url}${ARTICLE}`);
      await page.getByRole('link', { name: 'Accessible article' }).waitFor();
      await page.getByLabel('Select Accessible article').check();
      await check('list with a selection');
      await page.goto(`${server.url}${ARTICLE}/${articleId}?locale=en`);
      await page.locator('#field-title').waitFor();
      await page.getByRole('button', { name: 'Remove cover.png' }).first().waitFor();
      await check('article edit');
      await page.getByRole('button', { name: 'Choose from the library for Cover' }).click();
      await page.getByRole('button', { name: 'Pick cover.png' }).waitFor();
      await check('library picker');
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}${ARTICLE}/new`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      await check('article new');
      await page.goto(`${server.url}/admin/media`);
      await page.getByRole('button', { name: 'Details of cover.png' }).click();
      await page.getByLabel('Alternative text').waitFor();
      await check('media library grid with details');
      await page.goto(`${server.url}/admin/media?view=list`);
      await page.getByRole('button', { name: 'Details of notes.txt' }).waitFor();
      await check('media library list');
      for (const [path, ready] of [
        ['roles', 'Public'],
        ['roles/public', 'find'],
        ['tokens', 'Create token'],
        ['locales', 'Add locale'],
        ['webhooks', 'hook'],
        ['webhooks/hook', 'hook'],
        ['users', 'reader'],
        ['admins', 'root@example.com'],
      ] as const) {
        await page.goto(`${server.url}/admin/settings/${path}`);
        await page.locator('main').getByText(ready).first().waitFor();
        await check(`settings/${path}`);
      }
      await logIn(page, showcase.url);
      await page.goto(`${showcase.url}${SHOWCASE}/new`);
      await page.getByLabel('A string', { exact: true }).waitFor();
      await check('every field kind (showcase) new');
      await context.close();
    }
    expect(found).toEqual([]);
  }, 180_000);

  test('with the keyboard alone: log in, open an article, change its title, save', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const focused = () =>
      page.evaluate(() => {
        const el = (globalThis as any).document.activeElement;
        return `${el?.tagName ?? ''} ${el?.getAttribute('aria-label') ?? el?.id ?? ''} ${el?.textContent?.trim().slice(0, 40) ?? ''}`;
      });
    /** Tab until `test` holds for the focused element, at most `max` presses. */
    async function tabTo(match: RegExp, max = 60) {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab');
        if (match.test(await focused())) return;
      }
      throw new Error(`never reached ${match} with Tab (last: ${await focused()})`);
    }
    await page.goto(`${server.url}/admin`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await tabTo(/^INPUT .*email/i);
    await page.keyboard.type('root@example.com');
    await tabTo(/^INPUT .*password/i);
    await page.keyboard.type('correct horse');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await tabTo(/^A .*Article$/);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Second article' }).waitFor();
    await tabTo(/^A .*Second article/);
    await page.keyboard.press('Enter');
    await page.getByLabel('Title', { exact: true }).waitFor();
    await tabTo(/^INPUT field-title/);
    await page.keyboard.press('End');
    await page.keyboard.type(', typed');
    await tabTo(/^BUTTON .*Save$/);
    await page.keyboard.press('Enter');
    // Exactly "Saved": a substring match would also find "Unsaved changes", shown since the typing.
    await page.getByText('Saved', { exact: true }).waitFor();
    const drafts = (await server.call('GET', '/api/articles?status=draft&filters[title][$startsWith]=Second')).body.data;
    expect(drafts[0].title).toBe('Second article, typed');
    // Focus is visible: the control Tab reaches next has an outline.
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = (globalThis as any).document.activeElement;
      return `${el.tagName} ${(globalThis as any).getComputedStyle(el).outlineStyle}`;
    });
    expect(outline).not.toMatch(/BODY|none/);
    await context.close();
  }, 90_000);
});
