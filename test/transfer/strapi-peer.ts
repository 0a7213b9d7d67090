/**
 * A private Strapi 5 project made from the shared peer (/work/shared/peers/strapi/app): its
 * config, src and .env copied into a temp folder, node_modules linked, its own database and
 * uploads. Tests seed it through its REST API without touching the shared peer's data, then
 * import the folder as the Strapi project it is.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const PEER_APP = resolve(import.meta.dir, '../../../shared/peers/strapi/app');

/** Why the peer cannot run here, or undefined when it can. */
export function peerMissing(): string | undefined {
  if (!existsSync(join(PEER_APP, 'node_modules', '@strapi', 'strapi'))) {
    return `the Strapi peer is not installed (${PEER_APP}); run shared/peers/strapi/setup.sh`;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

export interface StrapiProject {
  dir: string;
  url: string;
  tokens: { fullAccess: string; readOnly: string };
  /** `env`: more variables for the server (NODE_PATH for packages beside the linked node_modules). */
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  /** fetch with the full-access token; throws on a status other than `expect` (default 2xx). */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<any>;
  /** `strapi export --no-encrypt` (and `--no-compress` unless `gzip`) into `base`; returns the archive's path. */
  exportArchive(base: string, gzip?: boolean): string;
}

export function makeProject(): StrapiProject {
  const dir = mkdtempSync(join(tmpdir(), 'folio-strapi-'));
  for (const part of ['config', 'src', 'package.json', '.env']) cpSync(join(PEER_APP, part), join(dir, part), { recursive: true });
  symlinkSync(join(PEER_APP, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, '.tmp'), { recursive: true });
  mkdirSync(join(dir, 'public', 'uploads'), { recursive: true });
  let child: ChildProcess | undefined;
  const project: StrapiProject = {
    dir,
    url: '',
    tokens: { fullAccess: '', readOnly: '' },
    async start(env = {}) {
      const port = await freePort();
      project.url = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath.includes('bun') ? 'node' : process.execPath, ['node_modules/@strapi/strapi/bin/strapi.js', 'start'], {
        cwd: dir,
        env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true', BROWSER: 'none', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout!.on('data', (d) => (log += d));
      child.stderr!.on('data', (d) => (log += d));
      // Bounded polling: a cold start takes seconds to a minute on a loaded machine.
      const deadline = Date.now() + 240_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`strapi exited during start-up:\n${log.slice(-3000)}`);
        const status = await fetch(`${project.url}/api/articles`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        if (Date.now() > deadline) throw new Error(`strapi did not start within 240 s:\n${log.slice(-3000)}`);
        await Bun.sleep(250);
      }
      project.tokens = JSON.parse(readFileSync(join(dir, '.tokens.json'), 'utf8'));
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    exportArchive(base, gzip = true) {
      const run = spawnSync('node', ['node_modules/@strapi/strapi/bin/strapi.js', 'export', '--no-encrypt', ...(gzip ? [] : ['--no-compress']), '-f', base], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true' },
        encoding: 'utf8',
      });
      const file = `${base}${gzip ? '.tar.gz' : '.tar'}`;
      if (run.status !== 0 || !existsSync(file)) throw new Error(`strapi export failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
      return file;
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { Authorization: `Bearer ${project.tokens.fullAccess}` };
      let body = init.body;
      if (init.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      const response = await fetch(`${project.url}${path}`, { ...init, body, headers: { ...headers, ...(init.headers as object) } });
      const text = await response.text();
      if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text}`);
      return text ? JSON.parse(text) : null;
    },
  };
  return project;
}

/** A small valid PNG (w×h, one colour), for uploads. */
export function png(width: number, height: number): Uint8Array {
  const { deflateSync, crc32 } = require('node:zlib') as typeof import('node:zlib');
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([200, (x * 7) % 256, (y * 5) % 256], y * (width * 3 + 1) + 1 + x * 3);
  const sig = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return new Uint8Array(Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

export const USER = { username: 'reader', email: 'reader@example.com', password: 'Secret-pass-1' };

/**
 * Seeds every attribute kind of the blog fixture: media (single, multiple, in components),
 * ordered relations (tags in a chosen order), components, a dynamic zone, a French version,
 * a draft-only document, a published document with a newer draft, single types, a user.
 */
export async function seed(p: StrapiProject): Promise<void> {
  const upload = async (name: string, w: number, h: number) => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png(w, h))], { type: 'image/png' }), name);
    return (await p.api('/api/upload', { method: 'POST', body: form }))[0] as { id: number };
  };
  const cover = await upload('cover.png', 640, 400);
  const photo = await upload('photo.png', 40, 30);
  const create = async (path: string, data: unknown, query = '') => (await p.api(`/api/${path}${query}`, { method: 'POST', json: { data } })).data;
  const tags = [];
  for (const name of ['alpha', 'beta', 'gamma']) tags.push(await create('tags', { name, color: '#a0b0c0' }));
  const category = await create('categories', { name: 'News', slug: 'news', position: 1 });
  await p.api(`/api/categories/${category.documentId}?locale=fr`, { method: 'PUT', json: { data: { name: 'Actualités' } } });
  const mentor = await create('authors', {
    name: 'Ada',
    email: 'ada@example.com',
    bio: 'First',
    internalNotes: 'secret',
    birthday: '1815-12-10',
    avatar: photo.id,
  });
  const author = await create('authors', { name: 'Grace', email: 'grace@example.com', mentor: mentor.documentId });
  const older = await create('articles', { title: 'Older', slug: 'older', views: 1 });
  const main = await create('articles', {
    title: 'Hello',
    slug: 'hello',
    summary: 'A summary',
    kind: 'guide',
    views: 42,
    rating: 4.5,
    featured: true,
    publishDate: '2024-05-01',
    meta: { a: [1, 2], b: 'x' },
    body: [
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Hi ' },
          { type: 'text', text: 'there', bold: true },
        ],
      },
    ],
    cover: cover.id,
    gallery: [photo.id, cover.id],
    category: category.documentId,
    author: author.documentId,
    tags: [tags[2].documentId, tags[0].documentId, tags[1].documentId],
    related: [older.documentId],
    seo: { metaTitle: 'Hello SEO', metaDescription: 'desc', shareImage: cover.id },
    links: [
      { label: 'One', url: 'https://one.example', newTab: true },
      { label: 'Two', url: 'https://two.example' },
    ],
    blocks: [
      { __component: 'shared.quote', title: 'Q', body: 'To be' },
      { __component: 'shared.rich-text', body: '# Title' },
      { __component: 'shared.media', file: photo.id },
    ],
  });
  await p.api(`/api/articles/${main.documentId}?locale=fr`, {
    method: 'PUT',
    json: {
      data: {
        title: 'Bonjour',
        slug: 'bonjour',
        seo: { metaTitle: 'SEO fr' },
        blocks: [{ __component: 'shared.quote', title: 'Citation' }],
        tags: [tags[1].documentId],
      },
    },
  });
  await create('articles', { title: 'Only a draft', slug: 'only-a-draft', tags: [tags[0].documentId] }, '?status=draft');
  const edited = await create('articles', { title: 'Published title', slug: 'edited', views: 7 });
  await p.api(`/api/articles/${edited.documentId}?status=draft`, { method: 'PUT', json: { data: { title: 'Newer draft title', views: 8 } } });
  await p.api('/api/homepage', {
    method: 'PUT',
    json: { data: { headline: 'Welcome', intro: '**hi**', featuredArticles: [edited.documentId, main.documentId], seo: { metaTitle: 'Home' } } },
  });
  await p.api('/api/global', {
    method: 'PUT',
    json: { data: { siteName: 'Blog', contactEmail: 'hi@example.com', defaultSeo: { metaTitle: 'Default', shareImage: photo.id } } },
  });
  await fetch(`${p.url}/api/auth/local/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(USER) }).then(
    async (r) => {
      if (!r.ok) throw new Error(`register: ${r.status} ${await r.text()}`);
    },
  );
}

/** Every document of every type, as each status and locale shows it, fully populated one level. */
export const QUERIES = [
  '/api/articles?populate=*&pagination[pageSize]=100',
  '/api/articles?populate=*&status=draft&pagination[pageSize]=100',
  '/api/articles?populate=*&locale=fr&pagination[pageSize]=100',
  '/api/articles?populate=*&locale=fr&status=draft&pagination[pageSize]=100',
  '/api/authors?populate=*&pagination[pageSize]=100',
  '/api/categories?populate=*&pagination[pageSize]=100',
  '/api/categories?populate=*&locale=fr&pagination[pageSize]=100',
  '/api/tags?populate=*&pagination[pageSize]=100',
  '/api/tags?populate=*&status=draft&pagination[pageSize]=100',
  '/api/homepage?populate=*',
  '/api/homepage?populate=*&status=draft',
  '/api/global?populate=*',
  '/api/articles?populate[blocks][populate]=*&populate[seo][populate]=*&populate[links]=true&pagination[pageSize]=100',
  '/api/upload/files',
  '/api/i18n/locales',
];

/** Every query's status and body, asked with `token`. */
export async function answers(base: string, token: string, queries = QUERIES): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of queries) {
    const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    out[path] = { status: response.status, body: await response.json() };
  }
  return out;
}

/** Names past Strapi's 55-character limit, which Strapi shortens with a hash (and Folio keeps whole, under PostgreSQL's 63). */
export const LONG = {
  collection: 'reading_lists_kept_for_the_identifier_shortening_test_run',
  column: 'anAttributeWhoseNameIsFarTooLongForADatabaseIdentifierLimit',
  relation: 'recommendedArticlesForReadersOfThisLongList',
};

/** A content type of a project, with the routes, controller and service Strapi's generator writes. */
function addType(dir: string, name: string, schema: object): void {
  const base = join(dir, 'src', 'api', name);
  mkdirSync(join(base, 'content-types', name), { recursive: true });
  writeFileSync(join(base, 'content-types', name, 'schema.json'), JSON.stringify(schema, null, 2));
  for (const [kind, factory] of [
    ['controllers', 'createCoreController'],
    ['routes', 'createCoreRouter'],
    ['services', 'createCoreService'],
  ]) {
    mkdirSync(join(base, kind!), { recursive: true });
    writeFileSync(
      join(base, kind!, `${name}.js`),
      `'use strict';\nconst { factories } = require('@strapi/strapi');\nmodule.exports = factories.${factory}('api::${name}.${name}');\n`,
    );
  }
}

/**
 * Adds two content types to a project (before it starts) whose table, component join table,
 * column and link table names Strapi must shorten: `reading-list` (long collectionName, long
 * attribute, repeatable component, draft & publish) and `shelf` (a long relation name).
 */
export function addLongNamedTypes(dir: string): void {
  addType(dir, 'reading-list', {
    kind: 'collectionType',
    collectionName: LONG.collection,
    info: { singularName: 'reading-list', pluralName: 'reading-lists', displayName: 'Reading list' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, [LONG.column]: { type: 'string' }, links: { type: 'component', repeatable: true, component: 'shared.link' } },
  });
  addType(dir, 'shelf', {
    kind: 'collectionType',
    collectionName: 'shelves',
    info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, [LONG.relation]: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' } },
  });
}

/** Entries of the long-named types (after seed(): the shelf links two articles, in a chosen order). */
export async function seedLongNames(p: StrapiProject): Promise<void> {
  const articles = (await p.api('/api/articles?sort=id:asc')).data as { documentId: string }[];
  await p.api('/api/reading-lists', {
    method: 'POST',
    json: {
      data: {
        title: 'Summer',
        [LONG.column]: 'kept whole',
        links: [
          { label: 'A', url: 'https://a.example' },
          { label: 'B', url: 'https://b.example' },
        ],
      },
    },
  });
  await p.api('/api/shelves', { method: 'POST', json: { data: { name: 'Top', [LONG.relation]: [articles[1]!.documentId, articles[0]!.documentId] } } });
}

export const LONG_QUERIES = ['/api/reading-lists?populate=*', '/api/reading-lists?populate=*&status=draft', '/api/shelves?populate=*'];

/** Adds `comment` (draft & publish; morphToOne `subject`, morphToMany `mentions`) and `pin` (no draft & publish; morphToMany `items`). */
export function addMorphTypes(dir: string): void {
  addType(dir, 'comment', {
    kind: 'collectionType',
    collectionName: 'comments',
    info: { singularName: 'comment', pluralName: 'comments', displayName: 'Comment' },
    options: { draftAndPublish: true },
    attributes: { body: { type: 'string' }, subject: { type: 'relation', relation: 'morphToOne' }, mentions: { type: 'relation', relation: 'morphToMany' } },
  });
  addType(dir, 'pin', {
    kind: 'collectionType',
    collectionName: 'pins',
    info: { singularName: 'pin', pluralName: 'pins', displayName: 'Pin' },
    options: { draftAndPublish: false },
    attributes: { label: { type: 'string' }, items: { type: 'relation', relation: 'morphToMany' } },
  });
}

/**
 * Writes polymorphic links through Strapi's document service (its REST API refuses morph keys
 * with strictParams): run while the server is stopped, after seed(). Strapi stores the row ids
 * it is given: the comment names published rows, the pin the draft of the newest article.
 */
export function seedMorphs(p: StrapiProject): void {
  const script = `
const { createStrapi } = require('@strapi/strapi');
(async () => {
  const app = await createStrapi({ appDir: process.cwd(), distDir: process.cwd() }).load();
  try {
    const tags = await app.documents('api::tag.tag').findMany({ status: 'published', sort: 'id:asc' });
    const articles = await app.documents('api::article.article').findMany({ status: 'published', sort: 'id:asc' });
    const drafts = await app.documents('api::article.article').findMany({ status: 'draft', sort: 'id:desc' });
    await app.documents('api::comment.comment').create({ status: 'published', data: { body: 'first',
      subject: { __type: 'api::tag.tag', id: tags[0].id },
      mentions: [{ __type: 'api::article.article', id: articles[1].id }, { __type: 'api::tag.tag', id: tags[2].id }, { __type: 'api::article.article', id: articles[0].id }] } });
    await app.documents('api::comment.comment').create({ status: 'published', data: { body: 'no links' } });
    await app.documents('api::pin.pin').create({ data: { label: 'p', items: [{ __type: 'api::article.article', id: drafts[0].id }, { __type: 'api::tag.tag', id: tags[1].id }] } });
  } finally {
    await app.destroy();
  }
})().catch((e) => { console.error(e); process.exit(1); });`;
  const run = spawnSync('node', ['-e', script], {
    cwd: p.dir,
    env: { ...process.env, NODE_ENV: 'production', STRAPI_TELEMETRY_DISABLED: 'true' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`seeding morph links failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}

export const MORPH_QUERIES = ['/api/comments?populate=*', '/api/comments?populate=*&status=draft', '/api/pins?populate=*'];
