/**
 * "Configure the view" over /admin/api: each content type's labels, descriptions,
 * placeholders, entry title, list columns, default sort, page size and edit layout (order and
 * widths), stored in the database and applied to what GET /admin/api/schema says; bad input
 * is a 400 naming each field and writes nothing; only a Super Admin writes; and the
 * configuration moves with the installation through `folio export` / `folio import` and
 * `folio backup` / `folio restore`. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { AdminAccounts } from '../../src/admin/accounts';
import { scratchInstallations } from '../helpers/installations';
import { spawnCli, tempDir, type CliOptions } from '../helpers/spawn';
import { startServer, type TestServer } from '../helpers/server';

const VIEW = `/admin/api/views/${encodeURIComponent('api::article.article')}`;
const { installation } = scratchInstallations({ name: 'folio_views' });

async function login(server: TestServer, email: string, password: string) {
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { data } = (await response.json()) as { data: { csrfToken: string } };
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken };
}

const CONFIG = {
  mainField: 'slug',
  defaultSort: 'title:asc',
  pageSize: 50,
  list: ['title', 'kind', 'publishDate'],
  fields: { publishDate: { label: 'Goes live on', description: 'The day readers see it', placeholder: 'YYYY-MM-DD' }, title: { label: 'Headline' } },
  edit: [
    { name: 'title', size: 8 },
    { name: 'publishDate', size: 4 },
    { name: 'slug', size: 12 },
  ],
};

const articleOf = async (server: TestServer, headers: Record<string, string>) =>
  (await server.call('GET', '/admin/api/schema', { headers })).body.data.contentTypes.find((c: { uid: string }) => c.uid === 'api::article.article');

describe('view configuration', () => {
  let server: TestServer;
  let root: Record<string, string>;
  let editor: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ publicAccess: false });
    const accounts = new AdminAccounts(server.instance.db);
    await accounts.create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    await accounts.create({ email: 'ed@example.com', password: 'editor password', role: 'editor' });
    root = await login(server, 'root@example.com', 'correct horse');
    editor = await login(server, 'ed@example.com', 'editor password');
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  test('without a configuration the schema gives the defaults: four short columns and the last update, newest first, 20 a page, Strapi’s widths', async () => {
    const article = await articleOf(server, root);
    expect(article.view).toEqual({
      mainField: 'title',
      defaultSort: 'updatedAt:desc',
      pageSize: 20,
      list: ['title', 'slug', 'summary', 'kind', 'updatedAt'],
      edit: expect.arrayContaining([
        { name: 'title', size: 6 },
        { name: 'views', size: 4 },
        { name: 'body', size: 12 },
      ]),
      configured: false,
    });
    expect(article.attributes[0].label).toBeUndefined();
  });

  test('a saved configuration is applied: labels and texts, entry title, columns, sort, page size, order and widths', async () => {
    const put = await server.call('PUT', VIEW, { body: { data: CONFIG }, headers: root });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(CONFIG);
    const article = await articleOf(server, editor);
    expect(article.view).toMatchObject({ mainField: 'slug', defaultSort: 'title:asc', pageSize: 50, list: ['title', 'kind', 'publishDate'], configured: true });
    expect(article.mainField).toBe('slug');
    // The edit order: the configured fields first, the others after them with their default widths.
    expect(article.attributes.slice(0, 4).map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([
      ['title', 8],
      ['publishDate', 4],
      ['slug', 12],
      ['summary', 6],
    ]);
    expect(article.attributes[1]).toMatchObject({
      name: 'publishDate',
      label: 'Goes live on',
      description: 'The day readers see it',
      placeholder: 'YYYY-MM-DD',
    });
    expect(article.attributes[0].label).toBe('Headline');
    expect(article.attributes).toHaveLength(19);
    expect((await server.call('GET', VIEW, { headers: editor })).body.data).toEqual(CONFIG);
  });

  test('bad input is a 400 naming each problem, and nothing is written', async () => {
    const bad = await server.call('PUT', VIEW, {
      body: {
        data: {
          pageSize: 7,
          list: ['title', 'nope'],
          fields: { title: { label: 'x'.repeat(101), colour: 'red' }, ghost: { label: 'Boo' } },
          edit: [{ name: 'title', size: 5 }],
          extra: 1,
          defaultSort: 'cover:asc',
        },
      },
      headers: root,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: { path: (string | number)[] }) => e.path.join('.')).sort()).toEqual(
      ['defaultSort', 'edit.0.size', 'extra', 'fields.ghost', 'fields.title.colour', 'fields.title.label', 'list.1', 'pageSize'].sort(),
    );
    expect((await server.call('PUT', VIEW, { body: { data: { fields: { title: { label: 'a\u0000b' } } } }, headers: root })).status).toBe(400);
    expect((await server.call('PUT', VIEW, { body: { data: 'nope' }, headers: root })).status).toBe(400);
    expect((await server.call('PUT', VIEW, { raw: '{"data":', headers: { ...root, 'content-type': 'application/json' } })).status).toBe(400);
    expect((await server.call('GET', VIEW, { headers: root })).body.data).toEqual(CONFIG);
  });

  test('only a Super Admin configures; an unknown type is a 404; DELETE brings the defaults back', async () => {
    expect((await server.call('PUT', VIEW, { body: { data: {} }, headers: editor })).status).toBe(403);
    expect((await server.call('DELETE', VIEW, { headers: editor })).status).toBe(403);
    expect((await server.call('PUT', VIEW, { body: { data: {} } })).status).toBe(401);
    expect((await server.call('GET', '/admin/api/views/api::nope.nope', { headers: root })).status).toBe(404);
    expect((await server.call('DELETE', VIEW, { headers: root })).status).toBe(204);
    expect((await articleOf(server, root)).view.configured).toBe(false);
  });
});

describe('view configuration moves with the installation', () => {
  async function configured(at: CliOptions) {
    const server = await startServer({ dataDir: at.data ?? undefined, config: { databaseUrl: at.database ?? undefined } });
    await new AdminAccounts(server.instance.db).create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    const headers = await login(server, 'root@example.com', 'correct horse');
    expect((await server.call('PUT', VIEW, { body: { data: CONFIG }, headers })).status).toBe(200);
    await server.stop({ keepData: true });
  }
  async function viewIn(at: CliOptions) {
    const server = await startServer({ dataDir: at.data ?? undefined, config: { databaseUrl: at.database ?? undefined } });
    try {
      const headers = await login(server, 'root@example.com', 'correct horse');
      return (await server.call('GET', VIEW, { headers })).body.data;
    } finally {
      await server.stop({ keepData: true });
    }
  }

  test('through folio export and folio import, and through folio backup and folio restore', async () => {
    const source = await installation();
    await configured(source);
    const archive = join(tempDir('folio-views-'), 'export.tar.gz');
    const exported = await spawnCli(['export', archive], source);
    expect(exported.code).toBe(0);
    const imported = await installation();
    const run = await spawnCli(['import', archive], imported);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await viewIn(imported)).toEqual(CONFIG);

    const backup = join(tempDir('folio-views-'), 'backup.tar.gz');
    expect((await spawnCli(['backup', backup], source)).code).toBe(0);
    const restored = await installation();
    const restore = await spawnCli(['restore', backup], restored);
    expect(restore.code).toBe(0);
    expect(await viewIn(restored)).toEqual(CONFIG);
  }, 120_000);
});
