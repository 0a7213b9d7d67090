/**
 * The rich-text (`blocks`) editor as an editor uses it, in a real browser (Debian's chromium
 * through playwright-core), at 1366×768 and 390×844: a visual editor whose toolbar buttons are
 * named, written with the keyboard (text style, Ctrl+B / I / U, Ctrl+K for a link, list
 * buttons, Tab to nest, a quote, a code block) and an image from the Media Library, saved as
 * Strapi's blocks JSON; blocks nobody touched (keys in another order, a mark set to false, an
 * indentLevel the editor recomputes) saved back exactly; axe finds nothing serious. Skipped without chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const executable = findChromium();
if (!executable) console.warn('[test/admin/rich-text-browser] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
const text = (t: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: t, ...marks });

/** Blocks as Strapi's editor writes them, with what Folio's editor does not know. */
const UNTOUCHED = [
  { type: 'paragraph', children: [text('Kept '), { type: 'link', url: 'https://example.com', children: [text('exactly')] }, text('')] },
  {
    type: 'list',
    format: 'ordered',
    children: [
      { type: 'list-item', children: [text('one')] },
      { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('nested')] }] },
    ],
  },
  { children: [text('key order differs')], type: 'quote' },
  { type: 'paragraph', children: [text('explicitly not bold', { bold: false })] },
];

/** The editor learns of a caret the browser moved (arrow keys, End, a click) from selectionchange, a task of its own: let it run. */
const settle = (page: Page) => page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 0))));

async function serious(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () =>
    (await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] })).violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n: any) => n.target.join(' ')),
    })),
  );
  return (violations as { id: string; impact: string; nodes: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.join(' | ')}`);
}

describe.skipIf(!executable)('Folio Admin rich-text editor', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const form = new FormData();
    form.append('files', new File([PNG], 'pixel.png', { type: 'image/png' }));
    await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    browser = await launchBrowser(executable!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, 30_000);

  async function open(viewport: { width: number; height: number }) {
    const page = await (await browser.newContext({ viewport })).newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('root@example.com');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    return page;
  }

  const body = async (id: string) => (await server.call('GET', `/api/articles/${id}?status=draft`)).body.data.body;

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width}×${viewport.height}: written with the toolbar and the keyboard, saved as Strapi blocks; untouched blocks saved back exactly`, async () => {
      const made = await server.call('POST', '/api/articles?status=draft', { body: { data: { title: `Rich ${viewport.width}`, body: UNTOUCHED } } });
      const id = made.body.data.documentId;
      const page = await open(viewport);
      await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
      const editor = page.getByRole('textbox', { name: 'Body' });
      await editor.waitFor();
      expect(await editor.getAttribute('contenteditable')).toBe('true');
      const toolbar = page.getByRole('toolbar', { name: 'Body formatting' });
      for (const name of ['Bold', 'Italic', 'Underline', 'Strikethrough', 'Code', 'Link', 'Bulleted list', 'Numbered list', 'Image', 'Undo', 'Redo']) {
        expect(await toolbar.getByRole('button', { name, exact: true }).count()).toBe(1);
      }
      expect(await serious(page)).toEqual([]);

      // Saved without touching the body: the very JSON comes back.
      await page.getByLabel('Summary', { exact: true }).fill('Touched the summary only');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved', { exact: true }).waitFor();
      expect(await body(id)).toEqual(UNTOUCHED);

      // Write after the last block: a heading, a paragraph with marks and a link, a list, a quote, code.
      // The caret at the end of the last paragraph. Checked, as the browser moves it: on a phone a click can land
      // while the page still scrolls, and an End pressed meanwhile may not be applied yet.
      const caretAtEnd = () =>
        page.evaluate(() => {
          const selection = (globalThis as any).getSelection();
          return selection.anchorNode?.textContent === 'explicitly not bold' && selection.anchorOffset === 'explicitly not bold'.length;
        });
      for (let i = 0; i < 5 && !(await caretAtEnd()); i++) {
        await editor.getByText('explicitly not bold').click();
        await page.keyboard.press('End');
      }
      expect(await caretAtEnd()).toBe(true);
      await settle(page);
      await page.keyboard.press('Enter');
      await toolbar.getByRole('combobox', { name: 'Text style' }).selectOption('heading-2');
      await page.keyboard.type('A title');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Plain ');
      await page.keyboard.press('Control+b');
      expect(await toolbar.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
      await page.keyboard.type('bold');
      await page.keyboard.press('Control+b');
      await page.keyboard.type(' ');
      await page.keyboard.press('Control+i');
      await page.keyboard.type('italic');
      await page.keyboard.press('Control+i');
      await page.keyboard.type(' ');
      await page.keyboard.press('Control+u');
      await page.keyboard.type('under');
      await page.keyboard.press('Control+u');
      await page.keyboard.type(' ');
      // Ctrl+K with nothing selected: the URL is inserted as a linked text.
      await page.keyboard.press('Control+k');
      await page.getByLabel('Link URL').fill('https://folio.test/a');
      await page.getByRole('button', { name: 'Apply link' }).click();
      await page.keyboard.press('Enter');

      await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
      await page.keyboard.type('first');
      await page.keyboard.press('Enter');
      await page.keyboard.type('inner');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.type('second');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await toolbar.getByRole('combobox', { name: 'Text style' }).selectOption('quote');
      await page.keyboard.type('Quoted');
      await page.keyboard.press('Enter');
      await toolbar.getByRole('combobox', { name: 'Text style' }).selectOption('code_block');
      await page.keyboard.type('let a = 1;');
      await page.keyboard.press('Control+Enter');
      await toolbar.getByRole('button', { name: 'Image' }).click();
      await page.getByRole('dialog', { name: 'Media library: choose an image' }).getByRole('button', { name: 'Pick pixel.png' }).click();

      await page.keyboard.press('Control+s');
      await page.getByText('Saved', { exact: true }).waitFor();
      const saved = await body(id);
      expect(saved.slice(0, 4)).toEqual(UNTOUCHED);
      expect(saved.slice(4, 10)).toEqual([
        { type: 'heading', level: 2, children: [text('A title')] },
        {
          type: 'paragraph',
          children: [
            text('Plain '),
            text('bold', { bold: true }),
            text(' '),
            text('italic', { italic: true }),
            text(' '),
            text('under', { underline: true }),
            text(' '),
            { type: 'link', url: 'https://folio.test/a', children: [text('https://folio.test/a')] },
            text(''),
          ],
        },
        {
          type: 'list',
          format: 'unordered',
          children: [
            { type: 'list-item', children: [text('first')] },
            { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('inner')] }] },
            { type: 'list-item', children: [text('second')] },
          ],
        },
        { type: 'quote', children: [text('Quoted')] },
        { type: 'code', children: [text('let a = 1;')] },
        { type: 'image', image: expect.objectContaining({ name: 'pixel.png', mime: 'image/png' }), children: [text('')] },
      ]);
      expect(await serious(page)).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  test('the toolbar is one Tab stop whose controls the arrow keys reach, and a selected word becomes a link with Ctrl+K', async () => {
    const made = await server.call('POST', '/api/articles?status=draft', {
      body: { data: { title: 'Keys', body: [{ type: 'paragraph', children: [text('make this a link')] }] } },
    });
    const id = made.body.data.documentId;
    const page = await open({ width: 1366, height: 768 });
    await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
    const editor = page.getByRole('textbox', { name: 'Body' });
    await editor.waitFor();
    const style = page.getByRole('combobox', { name: 'Text style' });
    // Every heading level Strapi's blocks know, 1 to 6, beside paragraphs, quotes and code.
    expect(await style.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Heading 1', 'Heading 2', 'Heading 3', 'Heading 4', 'Heading 5', 'Heading 6', 'Quote', 'Code block']),
    );
    await style.focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toBe('Bold');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toBe('Italic');
    // Only the control last focused is in the Tab order.
    expect(await page.locator('.rich-toolbar [tabindex="0"]').count()).toBe(1);

    // Select "make" and strike it through with the toolbar's button.
    await editor.click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowRight');
    await settle(page);
    await page.getByRole('toolbar', { name: 'Body formatting' }).getByRole('button', { name: 'Strikethrough' }).click();
    expect(await page.getByRole('toolbar', { name: 'Body formatting' }).getByRole('button', { name: 'Strikethrough' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // Select "this" (characters 6–9) and link it.
    await editor.click();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowRight');
    await settle(page);
    await page.keyboard.press('Control+k');
    await page.getByLabel('Link URL').fill('https://folio.test/this');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    expect(await body(id)).toEqual([
      {
        type: 'paragraph',
        children: [
          text('make', { strikethrough: true }),
          text(' '),
          { type: 'link', url: 'https://folio.test/this', children: [text('this')] },
          text(' a link'),
        ],
      },
    ]);
    await page.context().close();
  }, 60_000);
});
