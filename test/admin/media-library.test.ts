/**
 * The Media Library: in a real browser (upload two files at once, see an image's formats,
 * edit its alternative text, filter by type, the list view, delete: each checked through
 * /api/upload/files), and its /admin/api/files routes over plain HTTP (an Editor may use
 * them, bad input is a 400 or 404 envelope that changes nothing).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { AdminAccounts } from '../../src/admin/accounts';
import { findChromium, launchBrowser, recordingPage } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, UPLOAD_ACTIONS } from '../upload/helpers';

const executable = findChromium();
if (!executable) console.warn('[test/admin/media-library] skipped: no chromium found (apt-get install chromium, or set FOLIO_TEST_CHROMIUM)');

async function login(server: TestServer, email: string, password: string) {
  const response = await server.call('POST', '/admin/api/login', { body: { email, password } });
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': response.body.data.csrfToken as string };
}

describe('Media Library', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    await server.instance.roles.grant(
      'public',
      UPLOAD_ACTIONS.filter((a) => a.endsWith('.find')),
    );
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
  }, 30_000);
  afterAll(() => server.stop());

  const apiFiles = async () => (await server.call('GET', '/api/upload/files')).body as { id: number; name: string; alternativeText: string | null }[];

  test('an Editor uploads several files at once, edits and deletes them; bad input is an envelope that changes nothing', async () => {
    const editor = await login(server, 'ed@example.com', 'editor password');
    const form = new FormData();
    form.append('files', new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    form.append('files', new File([await makeImage(40, 30)], 'dot.png', { type: 'image/png' }));
    const made = await fetch(`${server.url}/admin/api/files`, { method: 'POST', body: form, headers: editor });
    expect(made.status).toBe(201);
    const [notes, dot] = ((await made.json()) as { data: { id: number; name: string }[] }).data;
    expect([notes!.name, dot!.name]).toEqual(['notes.txt', 'dot.png']);
    const images = await server.call('GET', '/admin/api/files?type=image', { headers: editor });
    expect(images.body.data.map((f: { name: string }) => f.name)).toEqual(['dot.png']);
    const others = await server.call('GET', '/admin/api/files?type=file', { headers: editor });
    expect(others.body.data.map((f: { name: string }) => f.name)).toEqual(['notes.txt']);
    expect((await server.call('GET', '/admin/api/files?type=nope', { headers: editor })).status).toBe(400);
    expect((await server.call('GET', '/admin/api/files?q=%00', { headers: editor })).status).toBe(400);
    expect((await server.call('PUT', `/admin/api/files/${dot!.id}`, { body: { alternativeText: 7 }, headers: editor })).status).toBe(400);
    expect((await server.call('PUT', `/admin/api/files/${dot!.id}`, { body: { name: '' }, headers: editor })).status).toBe(400);
    expect((await server.call('PUT', '/admin/api/files/99999', { body: { caption: 'x' }, headers: editor })).status).toBe(404);
    expect((await server.call('POST', '/admin/api/files', { body: { files: [] }, headers: editor })).status).toBe(400);
    expect((await server.call('PUT', `/admin/api/files/${dot!.id}`, { body: { caption: 'x' }, headers: { cookie: editor.cookie } })).status).toBe(403);
    expect((await apiFiles()).find((f) => f.id === dot!.id)).toMatchObject({ name: 'dot.png', alternativeText: null });
    const edited = await server.call('PUT', `/admin/api/files/${dot!.id}`, { body: { alternativeText: 'A dot' }, headers: editor });
    expect(edited.body.data.alternativeText).toBe('A dot');
    expect((await server.call('DELETE', `/admin/api/files/${notes!.id}`, { headers: editor })).status).toBe(204);
    expect((await apiFiles()).map((f) => f.name)).toEqual(['dot.png']);
    expect((await server.call('GET', '/admin/api/files')).status).toBe(401);
    await server.call('DELETE', `/admin/api/files/${dot!.id}`, { headers: editor });
  });

  describe.skipIf(!executable)('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser(executable!);
    }, 60_000);
    afterAll(() => browser?.close());

    test('upload two files at once, see the formats, edit the alternative text, filter, list view and delete, checked through /api/upload/files', async () => {
      const { page, requests } = await recordingPage(browser);
      await page.goto(`${server.url}/admin`);
      await page.getByLabel('Email').fill('ed@example.com');
      await page.getByLabel('Password').fill('editor password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('link', { name: 'Media Library' }).click();
      await page.getByRole('heading', { name: 'Media Library', level: 1 }).waitFor();
      await page.getByLabel('Upload files').setInputFiles([
        { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(await makeImage(640, 480)) },
        { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('read me') },
      ]);
      await page.getByRole('status').filter({ hasText: 'Uploaded 2 files' }).waitFor();
      expect((await apiFiles()).map((f) => f.name).sort()).toEqual(['photo.png', 'readme.txt']);

      await page.getByRole('button', { name: 'Details of photo.png' }).click();
      const details = page.getByRole('region', { name: 'Details of photo.png' });
      await details.getByRole('list', { name: 'Formats' }).getByRole('link', { name: 'thumbnail' }).waitFor();
      await details.getByLabel('Alternative text').fill('A white rectangle');
      await details.getByLabel('Caption').fill('Blank on purpose');
      await details.getByRole('button', { name: 'Save' }).click();
      await details.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      expect((await apiFiles()).find((f) => f.name === 'photo.png')).toMatchObject({ alternativeText: 'A white rectangle', caption: 'Blank on purpose' });
      await details.getByRole('button', { name: 'Close details' }).click();

      await page.getByLabel('Type', { exact: true }).selectOption('image');
      await page.waitForURL(/type=image/);
      await page.getByRole('button', { name: 'Details of readme.txt' }).waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: /^Details of / }).count()).toBe(1);
      await page.getByLabel('Type', { exact: true }).selectOption('');
      await page.getByRole('button', { name: 'List' }).click();
      await page.getByRole('table', { name: 'Files' }).getByRole('row').filter({ hasText: 'A white rectangle' }).waitFor();

      await page.getByRole('button', { name: 'Details of readme.txt' }).click();
      await page.getByRole('region', { name: 'Details of readme.txt' }).getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('button', { name: 'Details of readme.txt' }).waitFor({ state: 'detached' });
      expect((await apiFiles()).map((f) => f.name)).toEqual(['photo.png']);
      const origin = new URL(server.url).origin;
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      await page.context().close();
    }, 60_000);
  });
});
