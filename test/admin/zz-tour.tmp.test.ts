import { afterAll, beforeAll, describe, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, screenshot } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const ARTICLE = `/admin/content/${encodeURIComponent('api::article.article')}`;
describe('tour', () => {
  let server: TestServer;
  let browser: Browser;
  let id: string;
  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    for (let i = 0; i < 6; i++)
      await server.call('POST', `/api/articles${i % 2 ? '?status=draft' : ''}`, { body: { data: { title: `Story ${i}`, summary: 'A summary' } } });
    await server.call('POST', '/api/articles?status=draft', { body: { data: { summary: 'untitled' } } });
    const made = await server.call('POST', '/api/articles?status=draft', {
      body: {
        data: {
          title: 'A long article',
          summary: 'Short',
          body: [
            { type: 'heading', level: 1, children: [{ type: 'text', text: 'Heading' }] },
            {
              type: 'paragraph',
              children: [
                { type: 'text', text: 'Hello ' },
                { type: 'text', text: 'bold', bold: true },
              ],
            },
          ],
          links: Array.from({ length: 4 }, (_, i) => ({ label: `Link ${i}`, url: `https://example.com/${i}` })),
        },
      },
    });
    id = made.body.data.documentId;
    browser = await launchBrowser(findChromium()!);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`tour ${viewport.width}`, async () => {
      const page = await (await browser.newContext({ viewport })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.url}/admin`);
      await page.getByLabel('Email').fill('root@example.com');
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Log out' }).waitFor();
      await page.getByRole('region', { name: 'Recent drafts' }).waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, `tour-home-${viewport.width}`, { fullPage: true });
      await page.goto(`${server.url}${ARTICLE}`);
      await page.getByText('Story 1', { exact: true }).waitFor();
      await screenshot(page, `tour-list-${viewport.width}`, { fullPage: true });
      await page.goto(`${server.url}${ARTICLE}/${id}?locale=en`);
      await page.getByRole('textbox', { name: 'Body' }).waitFor();
      await page.waitForTimeout(500);
      await screenshot(page, `tour-edit-${viewport.width}`);
      await page.getByLabel('Title', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.waitForTimeout(800);
      await screenshot(page, `tour-edit-error-${viewport.width}`);
      await page.context().close();
    }, 60_000);
  }
});
