/**
 * The first start shows something (issue #44): `folio serve` on a new database of the example
 * content types writes example content (articles with authors, a category, tags, a cover
 * image, a rich-text body, French versions; the global settings and the homepage) and lets the
 * public role read it, saying so with the command that takes it back; never for an existing
 * database, for content types of one's own, or with FOLIO_EXAMPLE_CONTENT=false. `/` answers a
 * page (JSON when asked) and `/favicon.ico` an icon. Spawned from source; on PostgreSQL
 * (FOLIO_TEST_DATABASE_URL) each installation has a database of its own.
 */
import { describe, expect, it } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchInstallations } from '../helpers/installations';
import { copyContentTypes, lines, runCli, serve, type CliOptions, type SpawnedServer } from '../helpers/spawn';
import { startServer } from '../helpers/server';

const SLOW = 90_000;
const { installation } = scratchInstallations({ name: 'folio_first_start' });

function ok(args: string[], where: CliOptions): string {
  const run = runCli(args, where);
  if (run.code !== 0) throw new Error(`folio ${args.join(' ')} → ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

const titles = async (server: SpawnedServer, query = '') => {
  const res = await server.call('GET', `/api/articles?sort=title${query}`);
  return res.status === 200 ? res.body.data.map((a: { title: string }) => a.title) : res.status;
};

describe('the first start of the example content types', () => {
  it(
    'writes example content with relations, a cover, rich text and French versions, lets the public read it and says how to take that back',
    async () => {
      const where = await installation();
      const server = await serve(where);
      let revoke: string;
      try {
        const banner = server.stdout();
        expect(banner).toContain(
          'New installation of the example content types: wrote example content (2 authors, 2 categories, 3 tags, 4 articles, global, homepage; English and French) and let the public role read it (find, findOne)',
        );
        expect(banner).not.toContain('No role grants any content action');
        revoke = /^ {2}Take the public grants back: {2}(.+)$/m.exec(banner)![1]!;
        expect(revoke).toMatch(
          /^npx bun (\S+\/)?src\/cli\.ts permissions revoke public articles\.find articles\.findOne authors\.find authors\.findOne categories\.find categories\.findOne global\.find homepage\.find tags\.find tags\.findOne --data /,
        );

        expect(await titles(server)).toEqual(['Moving a Strapi project in', 'Welcome to Folio', 'Write your first article']);
        const welcome = (await server.call('GET', '/api/articles?filters[slug][$eq]=welcome-to-folio&populate=*')).body.data[0];
        expect(welcome).toMatchObject({
          title: 'Welcome to Folio',
          author: { name: 'Ada Lovelace' },
          category: { name: 'Guides' },
          seo: { metaTitle: 'Welcome to Folio' },
        });
        expect(welcome.tags.map((t: { name: string }) => t.name).sort()).toEqual(['REST API', 'getting started']);
        expect(welcome.body[0]).toMatchObject({ type: 'paragraph' });
        expect(welcome.body.map((b: { type: string }) => b.type)).toContain('heading');
        expect(welcome.cover).toMatchObject({ mime: 'image/png', width: 640, height: 360, alternativeText: 'A blue and violet gradient' });
        expect(Object.keys(welcome.cover.formats).sort()).toEqual(['small', 'thumbnail']);
        const image = await fetch(`${server.url}${welcome.cover.url}`);
        expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);

        expect(await titles(server, '&locale=fr')).toEqual(['Bienvenue dans Folio', 'Écrire votre premier article']);
        const french = await server.call('GET', `/api/articles/${welcome.documentId}?locale=fr&populate=category`);
        expect(french.body.data).toMatchObject({ title: 'Bienvenue dans Folio', locale: 'fr' });
        expect((await server.call('GET', '/api/categories?locale=fr&sort=position')).body.data.map((c: { name: string }) => c.name)).toEqual([
          'Guides',
          'Actualités',
        ]);
        expect((await server.call('GET', '/api/homepage?populate=featuredArticles')).body.data.featuredArticles.map((a: { title: string }) => a.title)).toEqual(
          ['Welcome to Folio', 'Write your first article'],
        );
        expect((await server.call('GET', '/api/homepage?locale=fr')).body.data.headline).toBe('Un CMS headless qui parle Strapi 5');
        expect((await server.call('GET', '/api/global')).body.data.siteName).toBe('Folio example blog');
        // Drafts stay out of public reads; writing stays closed.
        expect((await server.call('GET', '/api/articles?status=draft')).status).toBe(200);
        expect((await server.call('POST', '/api/articles', { body: { data: { title: 'x' } } })).status).toBe(403);
        expect(lines(ok(['permissions', 'list', 'public'], where)).filter((l) => l.includes('api::'))).toHaveLength(10);
      } finally {
        await server.stop();
      }

      // The command the banner gave takes the grants back; a later start writes nothing again.
      const words = revoke.split(' ');
      const args = words.slice(words.indexOf('permissions'), words.indexOf('--data'));
      ok(args, where);
      const again = await serve(where);
      try {
        expect(again.stdout()).not.toContain('example content');
        expect(again.stdout()).toContain('No role grants any content action');
        expect(await titles(again)).toBe(403);
      } finally {
        await again.stop();
      }
      ok(['permissions', 'grant', 'public', 'articles.find'], where);
      const third = await serve(where);
      try {
        expect(await titles(third)).toHaveLength(3);
      } finally {
        await third.stop();
      }
    },
    SLOW,
  );

  it(
    'writes nothing for a database that existed before, for content types of ones own, or with FOLIO_EXAMPLE_CONTENT=false',
    async () => {
      const migrated = await installation();
      ok(['migrate'], migrated);
      const own = await installation();
      const types = copyContentTypes();
      const tag = JSON.parse(readFileSync(join(types, 'tag.json'), 'utf8'));
      tag.attributes.slug = { type: 'uid', targetField: 'name' };
      writeFileSync(join(types, 'tag.json'), JSON.stringify(tag));
      own.contentTypes = types;
      const off = { ...(await installation()), env: { FOLIO_EXAMPLE_CONTENT: 'false' } };
      for (const where of [migrated, own, off]) {
        const server = await serve(where);
        try {
          expect(server.stdout()).not.toContain('example content');
          expect(server.stdout()).toContain('No role grants any content action');
          expect(await titles(server)).toBe(403);
        } finally {
          await server.stop();
        }
        ok(['permissions', 'grant', 'public', 'articles.find'], where);
        const reread = await serve(where);
        try {
          expect(await titles(reread)).toEqual([]);
        } finally {
          await reread.stop();
        }
      }
    },
    SLOW,
  );
});

describe('/ and /favicon.ico', () => {
  it('/ is a small page linking the admin, the OpenAPI document, GraphQL and the docs; JSON when asked; /favicon.ico an icon', async () => {
    const server = await startServer({ publicAccess: false });
    try {
      const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await page.text();
      for (const href of ['/admin', '/api/openapi.json', '/graphql', 'https://docs.strapi.io/cms/api/rest']) expect(html).toContain(`href="${href}"`);
      expect(html).toContain('<code>/api/articles</code>');
      expect(html).not.toContain('<script');
      expect((await fetch(`${server.url}/`)).headers.get('content-type')).toBe('text/html; charset=utf-8');

      const asJson = await server.call('GET', '/', { headers: { accept: 'application/json' } });
      expect(asJson.status).toBe(200);
      expect(asJson.body).toMatchObject({
        name: 'Folio',
        links: { admin: '/admin', openapi: '/api/openapi.json', graphql: '/graphql', docs: 'https://docs.strapi.io/cms/api/rest' },
      });
      expect(asJson.body.contentRoutes).toContain('/api/articles');

      const icon = await fetch(`${server.url}/favicon.ico`);
      expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/x-icon']);
      const bytes = new Uint8Array(await icon.arrayBuffer());
      expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
      expect([...bytes.subarray(22, 26)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      // Other unknown paths still answer the JSON 404 envelope.
      expect((await server.call('GET', '/nope')).body.error.status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
