/**
 * The two installations test/postgres/copy.test.ts copies: one of every attribute kind
 * (ALL_TYPES_CONTENT_TYPES) and the example blog with locales, drafts, users, roles and files,
 * each seeded through the REST API, and everything a client can read back from either.
 */
import { expect } from 'bun:test';
import type { TestServer } from '../helpers/server';
import { makeImage, upload } from '../upload/helpers';

export async function ok(server: TestServer, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const res = await server.call(method, path, { body, headers });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Everything a client can read, for comparing an installation before and after the copy. */
export async function readEverything(server: TestServer, auth: string): Promise<Record<string, unknown>> {
  const h = { authorization: `Bearer ${auth}` };
  const out: Record<string, unknown> = {};
  for (const ct of server.instance.registry.contentTypes) {
    const path = ct.kind === 'singleType' ? ct.singularName : ct.pluralName;
    for (const status of ct.draftAndPublish ? ['draft', 'published'] : ['published']) {
      const locales = ct.localized ? ['en', 'fr'] : ['en'];
      for (const locale of locales) {
        const res = await server.call(
          'GET',
          `/api/${path}?populate=*&status=${status}&locale=${locale}${ct.kind === 'singleType' ? '' : '&pagination[pageSize]=100&sort=id:asc'}`,
          { headers: h },
        );
        out[`${path} ${status} ${locale}`] = { status: res.status, body: res.body };
      }
    }
  }
  const users = await server.call('GET', '/api/users', { headers: h });
  out.users = { status: users.status, body: users.body };
  // Each user's role, as the installation links them (ids included).
  const roles: Record<string, unknown> = {};
  for (const user of Array.isArray(users.body) ? users.body : []) roles[user.username] = await server.instance.users.role(user.id);
  out.userRoles = roles;
  out.roles = await server.instance.db.all('SELECT "id", "documentId", "name", "description", "type", "createdAt", "updatedAt" FROM folio_roles ORDER BY "id"');
  out.permissions = await server.instance.roles.permissions();
  out.locales = await server.instance.locales.list();
  // lastUsedAt moves with every use; everything else must be the same.
  out.tokens = (await server.instance.tokens.list()).map(({ lastUsedAt: _, ...token }) => token);
  const files = await server.call('GET', '/api/upload/files?sort=id:asc', { headers: h });
  out.files = { status: files.status, body: files.body };
  return out;
}

// ---------------------------------------------------------------------------------------
// installation 1: every attribute kind (test/fixtures/all-types)

export const PNG_SIZE = 6;
export const SCALARS = {
  aString: 'Héllo wörld',
  aText: 'Line one\nLine two',
  aRichText: '## Title\n\n**bold**',
  aBlocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'Blocks', bold: true }] }],
  anEmail: 'ada@example.com',
  aUid: 'hello-world',
  anEnumeration: 'gamma',
  anInteger: -42,
  aBigInteger: '9007199254740993',
  aFloat: 3.14159,
  aDecimal: 4.5,
  aBoolean: true,
  aDate: '2024-05-01',
  aTime: '13:45:30.250',
  aDateTime: '2024-05-01T12:34:56.789Z',
  aTimestamp: '2023-01-02T03:04:05.006Z',
  aJson: { nested: { list: [1, 'two', { three: [true, null] }] }, empty: {}, zero: 0, big: 12345678901234 },
};

export async function seedAllTypes(server: TestServer) {
  const token = { authorization: `Bearer ${server.tokens.fullAccess}` };
  const png = await makeImage(PNG_SIZE, PNG_SIZE);
  const uploaded = await upload(server.url, {
    files: [
      { bytes: png, filename: 'one.png' },
      { bytes: png, filename: 'two.png' },
    ],
    headers: token,
  });
  expect(uploaded.status).toBe(201);
  const [f1, f2] = uploaded.body.map((f: { id: number }) => f.id);

  const created: string[] = [];
  for (let i = 0; i < 5; i++) {
    const data =
      i === 0
        ? {
            ...SCALARS,
            aComponent: { label: 'Single', count: 1 },
            aRepeatableComponent: [
              { label: 'R1', count: 10 },
              { label: 'R2', count: 20 },
              { label: 'R3', count: 30 },
            ],
            aDynamicZone: [
              { __component: 'parts.note', body: 'First a note' },
              { __component: 'parts.card', label: 'Then a card', count: 2 },
              { __component: 'parts.note', body: 'Another note' },
            ],
            aSingleMedia: f1,
            aMultipleMedia: [f2, f1],
          }
        : { aString: `showcase ${i}`, anInteger: i, aBigInteger: String(-9223372036854775807n + BigInt(i)), aRepeatableComponent: [{ label: `only ${i}` }] };
    created.push((await ok(server, 'POST', '/api/showcases', { data })).data.documentId);
  }
  const [s1, s2, s3, s4, s5] = created as [string, string, string, string, string];
  await ok(server, 'PUT', `/api/showcases/${s1}`, {
    data: { aOneToOne: s2, aOneToMany: [s4, s3], aManyToOne: s5, aManyToMany: [s5, s2, s3] },
  });
  await ok(server, 'PUT', `/api/showcases/${s2}`, { data: { aManyToMany: { connect: [s3, { documentId: s1, position: { start: true } }] } } });
  // One document deleted: its id stays a gap in the sequence.
  const gone = (await ok(server, 'POST', '/api/showcases', { data: { aString: 'deleted' } })).data.documentId;
  expect((await server.call('DELETE', `/api/showcases/${gone}`)).status).toBe(204);
}

// ---------------------------------------------------------------------------------------
// installation 2: the example content types, with users, roles, tokens and locales

export const PASSWORD = 'Copied-pass-1';

export interface ExampleSeed {
  userId: number;
  jwt: string;
  customTokenKey: string;
  editorActions: string[];
}

export async function seedExample(server: TestServer): Promise<ExampleSeed> {
  const post = async (path: string, data: Record<string, unknown>, query = '') => (await ok(server, 'POST', `/api/${path}${query}`, { data })).data;
  const ada = await post('authors', { name: 'Ada', email: 'ada@example.com', bio: 'First' });
  const bob = await post('authors', { name: 'Bob', email: 'bob@example.com', mentor: ada.documentId });
  const news = await post('categories', { name: 'News', slug: 'news', position: 1 });
  await ok(server, 'PUT', `/api/categories/${news.documentId}?locale=fr`, { data: { name: 'Actualités' } });
  const tags: string[] = [];
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) tags.push((await post('tags', { name, color: '#a0b1c2' })).documentId);
  const [alpha, beta, gamma, delta] = tags as [string, string, string, string];

  const a2 = await post('articles', { title: 'Second', views: 2, tags: [beta] });
  const a1 = await post('articles', {
    title: 'First',
    slug: 'first',
    summary: 'With everything',
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
    kind: 'guide',
    views: 7,
    rating: 4.25,
    featured: true,
    publishDate: '2024-02-29',
    meta: { readingTime: 3, keywords: ['x', 'y'] },
    category: news.documentId,
    author: bob.documentId,
    tags: { connect: [gamma, alpha, { documentId: delta, position: { before: gamma } }] },
    related: [a2.documentId],
    seo: { metaTitle: 'First SEO', metaDescription: 'About the first' },
    links: [
      { label: 'Docs', url: 'https://example.com/docs' },
      { label: 'Repo', url: 'https://example.com/repo', newTab: true },
    ],
    blocks: [
      { __component: 'shared.quote', title: 'Q', body: 'To be' },
      { __component: 'shared.rich-text', body: '**rich**' },
    ],
  });
  await ok(server, 'PUT', `/api/articles/${a1.documentId}?locale=fr`, {
    data: { title: 'Premier', summary: 'Avec tout', seo: { metaTitle: 'Premier SEO' }, blocks: [{ __component: 'shared.quote', title: 'Citation' }] },
  });
  // A draft that was never published, and a draft change on top of a published version.
  await post('articles', { title: 'Draft only', tags: [alpha] }, '?status=draft');
  await ok(server, 'PUT', `/api/articles/${a2.documentId}?status=draft`, { data: { title: 'Second (edited draft)' } });
  await ok(server, 'PUT', '/api/global', { data: { siteName: 'Folio', siteDescription: 'Copied', defaultSeo: { metaTitle: 'Global SEO' } } });
  await ok(server, 'PUT', '/api/homepage', { data: { headline: 'Welcome', featuredArticles: [a2.documentId, a1.documentId], seo: { metaTitle: 'Home' } } });

  const { instance } = server;
  await instance.roles.create('Editor', 'Edits articles');
  const editorActions = ['api::article.article.find', 'api::article.article.update', 'api::tag.tag.find'];
  await instance.roles.grant('editor', editorActions);
  await instance.users.create({ username: 'editor1', email: 'editor1@example.com', password: PASSWORD, role: 'editor' });
  const registered = await server.call('POST', '/api/auth/local/register', { body: { username: 'reader', email: 'reader@example.com', password: PASSWORD } });
  expect(registered.status).toBe(200);
  const custom = await instance.tokens.create('custom-authors', 'custom', undefined, 'authors only', ['api::author.author.find']);
  return {
    userId: registered.body.user.id,
    jwt: registered.body.jwt,
    customTokenKey: custom.accessKey,
    editorActions: (await instance.roles.permissions('editor')).map((p) => p.action).sort(),
  };
}

// ---------------------------------------------------------------------------------------
