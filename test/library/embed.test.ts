// test/blog.test.ts, in the front end's project; its schemas in test/fixtures/content-types/
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { strapi } from '@strapi/client';
import { startFolio, type Folio } from 'folio-cms';

let folio: Folio;

beforeAll(async () => {
  folio = await startFolio({
    contentTypes: `${import.meta.dir}/fixtures/content-types`, // post.json, author.json
    database: ':memory:',
    seed: {
      authors: [{ $key: 'ada', name: 'Ada Lovelace' }],
      posts: [{ title: 'Hello, world', body: 'First post.', author: '$ada' }],
    },
  });
});

afterAll(() => folio.stop());

test('the blog reads its seeded post and author through @strapi/client', async () => {
  const client = strapi({ baseURL: `${folio.url}/api`, auth: folio.token('read-only') });

  const posts = await client.collection('posts').find({ populate: ['author'] });
  expect(posts.data).toHaveLength(1);
  expect(posts.data[0]).toMatchObject({ title: 'Hello, world', author: { name: 'Ada Lovelace' } });

  const ada = await client.collection('authors').findOne(folio.seeded.ada!);
  expect(ada.data.name).toBe('Ada Lovelace');
});

// ---- Above: docs/embedding.md's "Embed it" example, verbatim (a test below keeps them equal). ----
// Below: the options of startFolio() one by one, on SQLite, and on PostgreSQL with
// FOLIO_TEST_DATABASE_URL (each instance then gets a fresh database of its own).

import { describe, setDefaultTimeout } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson } from '../helpers/call';
import { dropAll, FIXTURE_CONTENT_TYPES, freshDatabase } from './fixtures/databases';

// Each start on PostgreSQL migrates a fresh database; the loops below start several, on a loaded machine.
setDefaultTimeout(60_000);
// Dropping a dozen PostgreSQL databases takes longer than a hook's default 5 s.
afterAll(() => dropAll(), 60_000);

/** The fenced block after docs/embedding.md's "## Embed it" heading. */
function readmeExample(): string {
  const readme = readFileSync(join(import.meta.dir, '../../docs/embedding.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Embed it'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/embedding.md has no ```ts block under "## Embed it"');
  return match[1]!;
}

/** startFolio() with a TMPDIR of its own; `after` lists what is left in it once the callback ran. */
async function inOwnTmpdir<T>(fn: () => Promise<T>): Promise<{ result?: T; error?: unknown; after: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-lib-tmp-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const result = await fn();
    return { result, after: readdirSync(dir) };
  } catch (error) {
    return { error, after: readdirSync(dir) };
  } finally {
    process.env.TMPDIR = saved;
    if (saved === undefined) delete process.env.TMPDIR;
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the "Embed it" example of docs/embedding.md is this file\'s first lines, verbatim', () => {
  expect(readFileSync(import.meta.path, 'utf8').startsWith(readmeExample())).toBe(true);
});

describe('permissions and tokens', () => {
  test('content stays private unless `permissions` grants a role actions, wildcards expanding as in the CLI', async () => {
    const closed = await startFolio({ contentTypes: FIXTURE_CONTENT_TYPES, database: await freshDatabase() });
    const open = await startFolio({
      contentTypes: FIXTURE_CONTENT_TYPES,
      database: await freshDatabase(),
      permissions: { public: ['api::post.post.find', 'api::author.author.*'] },
      seed: { authors: [{ $key: 'a', name: 'Grace' }], posts: [{ $key: 'p', title: 'Open' }] },
    });
    try {
      expect((await callJson(closed.url, 'GET', '/api/posts')).status).toBe(403);
      expect((await callJson(open.url, 'GET', '/api/posts')).body.data.map((p: any) => p.title)).toEqual(['Open']);
      // find was granted, findOne was not.
      expect((await callJson(open.url, 'GET', `/api/posts/${open.seeded.p}`)).status).toBe(403);
      expect((await callJson(open.url, 'GET', `/api/authors/${open.seeded.a}`)).status).toBe(200);
      expect((await callJson(open.url, 'POST', '/api/authors', { body: { data: { name: 'New' } } })).status).toBe(201);
      expect((await callJson(open.url, 'POST', '/api/posts', { body: { data: { title: 'No' } } })).status).toBe(403);
    } finally {
      await closed.stop();
      await open.stop();
    }
  });

  test('`tokens` creates tokens by name, read-only, full-access and custom with their actions, and token(name) gives their keys', async () => {
    const folio = await startFolio({
      contentTypes: FIXTURE_CONTENT_TYPES,
      database: await freshDatabase(),
      tokens: { reader: 'read-only', editor: { type: 'custom', actions: ['api::post.post.*'] }, admin: { type: 'full-access', description: 'everything' } },
    });
    try {
      const as = (name: string) => ({ headers: { Authorization: `Bearer ${folio.token(name)}` } });
      const post = { body: { data: { title: 'By the editor' } } };
      expect((await callJson(folio.url, 'POST', '/api/posts', { ...post, ...as('editor') })).status).toBe(201);
      expect((await callJson(folio.url, 'GET', '/api/authors', as('editor'))).status).toBe(403);
      expect((await callJson(folio.url, 'GET', '/api/posts', as('reader'))).body.data).toHaveLength(1);
      expect((await callJson(folio.url, 'POST', '/api/posts', { ...post, ...as('reader') })).status).toBe(403);
      expect((await callJson(folio.url, 'POST', '/api/authors', { body: { data: { name: 'Root' } }, ...as('admin') })).status).toBe(201);
      expect((await folio.instance.tokens.list()).map((t) => t.name).sort()).toEqual(['admin', 'editor', 'reader']);
      // Only the tokens asked for exist: no default ones beside them.
      expect(() => folio.token('full-access')).toThrow('no token named "full-access" (tokens: reader, editor, admin)');
    } finally {
      await folio.stop();
    }
  });

  test('without `tokens`, a full-access and a read-only token are there under their type names', async () => {
    const folio = await startFolio({ contentTypes: FIXTURE_CONTENT_TYPES, database: await freshDatabase() });
    try {
      const full = { headers: { Authorization: `Bearer ${folio.token('full-access')}` } };
      expect((await callJson(folio.url, 'POST', '/api/authors', { body: { data: { name: 'Full' } }, ...full })).status).toBe(201);
      const read = { headers: { Authorization: `Bearer ${folio.token('read-only')}` } };
      expect((await callJson(folio.url, 'GET', '/api/authors', read)).body.data).toHaveLength(1);
    } finally {
      await folio.stop();
    }
  });

  test('an unknown action, role or token type stops start-up with its name and leaves no temporary folder', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ permissions: { public: ['api::post.post.publishEverything'] } }, 'Unknown action "api::post.post.publishEverything"'],
      [{ permissions: { editors: ['api::post.post.find'] } }, 'Unknown role "editors"'],
      [{ tokens: { x: 'root' } }, 'Unknown token type "root"'],
      [{ tokens: { x: { type: 'custom', actions: ['api::nope.nope.find'] } } }, 'Unknown action "api::nope.nope.find"'],
    ];
    for (const [options, message] of cases) {
      const database = await freshDatabase();
      const { error, after } = await inOwnTmpdir(() => startFolio({ contentTypes: FIXTURE_CONTENT_TYPES, database, ...options }));
      expect((error as Error)?.message).toContain(message);
      expect(after).toEqual([]);
    }
  });
});

describe('seed', () => {
  test('seeds in order, relations by `$key` as shorthand or connect, a draft-only item (`$status`), and `seeded` keys', async () => {
    const folio = await startFolio({
      contentTypes: FIXTURE_CONTENT_TYPES,
      database: await freshDatabase(),
      seed: {
        authors: [
          { $key: 'ada', name: 'Ada' },
          { $key: 'alan', name: 'Alan' },
        ],
        posts: [
          { $key: 'one', title: 'One', author: '$ada' },
          { $key: 'two', title: 'Two', author: { connect: ['$alan'] } },
          { $key: 'draft', title: 'Draft', author: '$ada', $status: 'draft' },
        ],
      },
    });
    try {
      expect(Object.keys(folio.seeded)).toEqual(['ada', 'alan', 'one', 'two', 'draft']);
      const read = { headers: { Authorization: `Bearer ${folio.token('read-only')}` } };
      const posts = await callJson(folio.url, 'GET', '/api/posts?populate=author&sort=title', read);
      expect(posts.body.data.map((p: any) => [p.title, p.author.name, p.documentId])).toEqual([
        ['One', 'Ada', folio.seeded.one],
        ['Two', 'Alan', folio.seeded.two],
      ]);
      const drafts = await callJson(folio.url, 'GET', '/api/posts?status=draft&sort=title', read);
      expect(drafts.body.data.map((p: any) => p.title)).toEqual(['Draft', 'One', 'Two']);
    } finally {
      await folio.stop();
    }
  });

  test('seeds an inverse side by `$key`, and a relation by a documentId that exists before the seed', async () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-lib-data-'));
    const database = await freshDatabase();
    try {
      const first = await startFolio({
        contentTypes: FIXTURE_CONTENT_TYPES,
        data,
        database,
        seed: {
          posts: [
            { $key: 'a', title: 'A' },
            { $key: 'b', title: 'B' },
          ],
          authors: [{ $key: 'both', name: 'Both', posts: ['$a', '$b'] }],
        },
      });
      const both = first.seeded.both!;
      const read = { headers: { Authorization: `Bearer ${first.token('read-only')}` } };
      const author = await callJson(first.url, 'GET', `/api/authors/${both}?populate=posts`, read);
      expect(author.body.data.posts.map((p: any) => p.title).sort()).toEqual(['A', 'B']);
      await first.stop();
      // A data folder given is kept: a second start on it seeds by the documentId of the first.
      expect(existsSync(data)).toBe(true);
      const second = await startFolio({
        contentTypes: FIXTURE_CONTENT_TYPES,
        data,
        database,
        tokens: {},
        seed: { posts: [{ $key: 'c', title: 'C', author: both }] },
      });
      try {
        const post = await second.documents.findOne(second.contentType('posts'), second.seeded.c, await second.readQuery('posts', { populate: ['author'] }));
        expect(post?.author).toMatchObject({ documentId: both, name: 'Both' });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  test('a reference to a key not seeded before, an unknown type or a failing item stops start-up naming the item', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ posts: [{ title: 'P', author: '$later' }], authors: [{ $key: 'later', name: 'L' }] }, 'seed.posts[0].author: "$later" names no item seeded before it'],
      [{ articles: [{ title: 'x' }] }, 'seed "articles" is no content type\'s API id (known: authors, posts)'],
      [{ posts: [{ title: 'ok' }, { title: 'x'.repeat(121) }] }, 'seed.posts[1]: ValidationError: title must be at most 120 characters'],
      [{ posts: [{ title: 'P', $publish: true }] }, 'seed.posts[0]: unknown key "$publish"'],
      [
        {
          authors: [
            { $key: 'a', name: 'A' },
            { $key: 'a', name: 'B' },
          ],
        },
        'seed.authors[1]: $key "a" is already used',
      ],
      [{ posts: { title: 'one' } }, 'seed "posts" must be an array of objects'],
    ];
    for (const [seed, message] of cases) {
      const database = await freshDatabase();
      const { error, after } = await inOwnTmpdir(() => startFolio({ contentTypes: FIXTURE_CONTENT_TYPES, database, seed: seed as never }));
      expect((error as Error)?.message).toContain(message);
      expect(after).toEqual([]);
    }
  });
});

describe('documents', () => {
  test('`documents` is the service the routes use: a document it creates is read over HTTP, and it reads what HTTP wrote', async () => {
    const folio = await startFolio({ contentTypes: FIXTURE_CONTENT_TYPES, database: await freshDatabase() });
    try {
      const posts = folio.contentType('posts');
      expect(folio.contentType('api::post.post')).toBe(posts);
      const written = await folio.documents.create(posts, { title: 'From code' }, { status: 'draft' });
      const full = { headers: { Authorization: `Bearer ${folio.token('full-access')}` } };
      const draft = await callJson(folio.url, 'GET', `/api/posts/${written.documentId}?status=draft`, full);
      expect(draft.body.data).toMatchObject({ title: 'From code', publishedAt: null });
      await folio.documents.publish(posts, written.documentId);
      await callJson(folio.url, 'POST', '/api/posts', { body: { data: { title: 'From HTTP' } }, ...full });
      const { data, pagination } = await folio.documents.findMany(posts, await folio.readQuery('posts', { sort: 'title', fields: ['title'] }));
      expect(data.map((p) => p.title)).toEqual(['From HTTP', 'From code']);
      expect(pagination.total).toBe(2);
      await expect(folio.readQuery('posts', { filters: { nope: { $eq: 1 } } })).rejects.toThrow('Invalid key nope');
      expect(() => folio.contentType('articles')).toThrow('no content type "articles"');
    } finally {
      await folio.stop();
    }
  });
});

describe('contentTypes as an object', () => {
  test("schemas keyed by their path in Folio's layout load as a folder would, components included", async () => {
    const folio = await startFolio({
      database: await freshDatabase(),
      contentTypes: {
        note: {
          info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
          attributes: { text: { type: 'string' }, seo: { type: 'component', component: 'shared.seo', repeatable: false } },
        },
        'components/shared/seo': { info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string', maxLength: 5 } } },
      },
      seed: { notes: [{ $key: 'n', text: 'Hi', seo: { metaTitle: 'Short' } }] },
    });
    try {
      const read = { headers: { Authorization: `Bearer ${folio.token('full-access')}` } };
      const note = await callJson(folio.url, 'GET', `/api/notes/${folio.seeded.n}?populate=seo`, read);
      expect(note.body.data).toMatchObject({ text: 'Hi', seo: { metaTitle: 'Short' } });
      const bad = await callJson(folio.url, 'POST', '/api/notes', { body: { data: { seo: { metaTitle: 'Too long' } } }, ...read });
      expect(bad.status).toBe(400);
    } finally {
      await folio.stop();
    }
  });

  test('a key outside the layout, a value that is no object or an invalid schema stops start-up, naming it, and leaves nothing', async () => {
    const cases: [unknown, string][] = [
      [{ '../evil': {} }, 'contentTypes key "../evil" is not a schema path'],
      [{ '/etc/evil': {} }, 'contentTypes key "/etc/evil" is not a schema path'],
      [{ page: [] }, 'contentTypes["page"] must be a schema object'],
      [{}, 'contentTypes holds no schema'],
      [{ page: { info: { singularName: 'page', pluralName: 'pages' }, attributes: { n: { type: 'nope' } } } }, 'content-types/page.json'],
      [42, 'contentTypes must be a folder or an object of schemas'],
    ];
    for (const [contentTypes, message] of cases) {
      const { error, after } = await inOwnTmpdir(() => startFolio({ contentTypes: contentTypes as never, database: ':memory:' }));
      expect((error as Error)?.message).toContain(message);
      expect(after).toEqual([]);
    }
  });
});
