/**
 * The edit view's Preview link (src/admin/preview.ts): FOLIO_PREVIEW_URL filled for the
 * document being edited (status draft while a draft is open), or a Strapi project's own
 * `config/admin` preview handler instead. Both engines.
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { startServer, type TestServer } from '../helpers/server';
import { copyProject } from '../helpers/project';
import { killSpawned, spawnCli } from '../helpers/spawn';

const TEMPLATE = 'https://site.example/api/preview?secret=s3cret&type={pluralApiId}&uid={uid}&id={documentId}&locale={locale}&status={status}';

async function editor(server: TestServer) {
  await new AdminAccounts(server.instance.db).create({ email: 'preview@example.com', password: 'correct horse', role: 'editor' });
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'preview@example.com', password: 'correct horse' }),
  });
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]! };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await killSpawned();
  for (const server of servers.splice(0)) await server.stop();
});

describe('preview', () => {
  it('fills FOLIO_PREVIEW_URL for the document being edited: its draft, its locale; the published version on request', async () => {
    const server = await startServer({ config: { previewUrl: TEMPLATE } });
    servers.push(server);
    const headers = await editor(server);
    const article = (await server.call('POST', '/api/articles?locale=fr', { body: { data: { title: 'Aperçu' } } })).body.data.documentId;
    const read = await server.call('GET', `/admin/api/content/${encodeURIComponent('api::article.article')}/${article}?locale=fr`, { headers });
    expect(read.status).toBe(200);
    expect(read.body.meta.previewUrl).toBe(
      `https://site.example/api/preview?secret=s3cret&type=articles&uid=api%3A%3Aarticle.article&id=${article}&locale=fr&status=draft`,
    );
    const published = await server.call('GET', `/admin/api/preview/${encodeURIComponent('api::article.article')}/${article}?locale=fr&status=published`, {
      headers,
    });
    expect(published.body.data.url).toEndWith('&locale=fr&status=published');

    // Without draft & publish or i18n: the only version, no locale.
    const author = (await server.call('POST', '/api/authors', { body: { data: { name: 'Ann' } } })).body.data.documentId;
    const authorRead = await server.call('GET', `/admin/api/content/${encodeURIComponent('api::author.author')}/${author}`, { headers });
    expect(authorRead.body.meta.previewUrl).toBe(
      `https://site.example/api/preview?secret=s3cret&type=authors&uid=api%3A%3Aauthor.author&id=${author}&locale=&status=published`,
    );
    const single = await server.call('PUT', '/api/homepage', { body: { data: { headline: 'Home' } } });
    expect(single.status).toBe(200);
    const home = await server.call('GET', `/admin/api/preview/${encodeURIComponent('api::homepage.homepage')}/single`, { headers });
    expect(home.body.data.url).toContain(`id=${single.body.data.documentId}`);

    expect((await server.call('GET', '/admin/api/schema', { headers })).body.data.preview).toEqual({ enabled: true });
    expect((await server.call('GET', `/admin/api/preview/${encodeURIComponent('api::article.article')}/${article}?status=live`, { headers })).status).toBe(400);
    expect((await server.call('GET', `/admin/api/preview/${encodeURIComponent('api::article.article')}/${article}`)).status).toBe(401);
  }, 30_000);

  it('shows no link without FOLIO_PREVIEW_URL, and refuses a template that is not an http(s) URL or names an unknown placeholder', async () => {
    const server = await startServer();
    servers.push(server);
    const headers = await editor(server);
    const article = (await server.call('POST', '/api/articles', { body: { data: { title: 'No preview' } } })).body.data.documentId;
    expect(
      (await server.call('GET', `/admin/api/content/${encodeURIComponent('api::article.article')}/${article}`, { headers })).body.meta.previewUrl,
    ).toBeNull();
    expect((await server.call('GET', '/admin/api/schema', { headers })).body.data.preview).toEqual({ enabled: false });

    for (const [value, message] of [
      ['ftp://site.example/{documentId}', 'must be an http(s) URL'],
      ['https://site.example/{slug}', 'unknown placeholder {slug}'],
    ]) {
      const run = await spawnCli(['locales', 'list'], { env: { FOLIO_PREVIEW_URL: value } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
    }
  }, 30_000);

  it("uses a project's config/admin preview handler instead (null: no link for that document)", async () => {
    const root = copyProject('blog-js', {
      'config/admin.js': `module.exports = ({ env }) => ({
  preview: {
    enabled: true,
    config: {
      async handler(uid, { documentId, locale, status }) {
        if (uid === 'api::tag.tag') return null;
        const doc = await strapi.documents(uid).findOne({ documentId, locale, status });
        return env('CLIENT_URL', 'https://front.example') + '/' + (doc?.slug ?? doc?.documentId) + '?status=' + status + '&locale=' + locale;
      },
    },
  },
});
`,
    });
    const server = await startServer({ contentTypes: root, config: { previewUrl: TEMPLATE } });
    servers.push(server);
    const headers = await editor(server);
    const article = (await server.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Handled', slug: 'handled' } } })).body.data.documentId;
    const read = await server.call('GET', `/admin/api/content/${encodeURIComponent('api::article.article')}/${article}`, { headers });
    expect(read.body.meta.previewUrl).toBe('https://front.example/handled?status=draft&locale=en');
    const tag = (await server.call('POST', '/api/tags', { body: { data: { name: 'No link' } } })).body.data.documentId;
    expect((await server.call('GET', `/admin/api/content/${encodeURIComponent('api::tag.tag')}/${tag}`, { headers })).body.meta.previewUrl).toBeNull();
  }, 30_000);
});
