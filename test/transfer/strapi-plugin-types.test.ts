/**
 * `folio import strapi` of a project whose plugins have content types of their own: a private
 * copy of the Strapi 5.54.0 peer with test/fixtures/projects/plugin-types-js's local plugin
 * (src/plugins/bookmarks) and npm plugin (folio-fixture-menus, beside the linked node_modules,
 * found through NODE_PATH; in the project's node_modules for Folio) is seeded through the plugins' own routes, its answers recorded,
 * then stopped and imported. Strapi made the plugin types' tables (names Folio's registry gives
 * them, or the import could not read them); Folio, serving the project, answers the plugins'
 * routes exactly as Strapi did (ids, documentIds, timestamps, relations, components). Skips when
 * the peer is not installed. Both engines (the Strapi side is SQLite).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database as BunDatabase } from 'bun:sqlite';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { PROJECTS } from '../helpers/project';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';
import { makeProject, peerMissing, type StrapiProject } from './strapi-peer';

const missing = peerMissing();
if (missing) console.warn(`skipping test/transfer/strapi-plugin-types.test.ts: ${missing}`);

const FIXTURE = join(PROJECTS, 'plugin-types-js');
const ROUTES = ['/api/bookmarks/items', '/api/bookmarks/rows?prefix=', '/api/bookmarks/count', '/api/menus/tree'];
const databases: string[] = [];
const dirs: string[] = [];

/** The plugins of the fixture added to a copy of the peer: files, config/plugins entries, package.json dependencies. */
function addPlugins(dir: string): void {
  cpSync(join(FIXTURE, 'src/plugins'), join(dir, 'src/plugins'), { recursive: true });
  cpSync(join(FIXTURE, 'node_modules'), join(dir, 'extra_modules'), { recursive: true });
  const config = readFileSync(join(dir, 'config/plugins.js'), 'utf8').replace(
    'module.exports = ({ env }) => ({\n',
    "module.exports = ({ env }) => ({\n  bookmarks: { enabled: true, resolve: './src/plugins/bookmarks' },\n  menus: { config: { maxDepth: 3 } },\n",
  );
  writeFileSync(join(dir, 'config/plugins.js'), config);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  Object.assign(pkg.dependencies, JSON.parse(readFileSync(join(FIXTURE, 'package.json'), 'utf8')).dependencies);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * An answer with what differs for every type, plugin's or not (docs/project-code.md "What differs"), set
 * aside: a type without draft & publish populates a draft & publish target's draft in Strapi's
 * document service (Folio: its published version, so the article is compared by documentId and values).
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'article' && v) {
      const { documentId, title, slug } = v as Record<string, unknown>;
      out[key] = { documentId, title, slug };
      continue;
    }
    out[key] = comparable(v);
  }
  return out;
}

describe.skipIf(!!missing)('folio import strapi: plugin content types', () => {
  let project: StrapiProject;
  const strapi: Record<string, unknown> = {};
  let tables: string[] = [];

  beforeAll(async () => {
    project = makeProject();
    dirs.push(project.dir);
    addPlugins(project.dir);
    await project.start({ NODE_PATH: join(project.dir, 'extra_modules') });
    try {
      const article = (await project.api('/api/articles', { method: 'POST', json: { data: { title: 'Bookmarked', slug: 'bookmarked' } } })).data;
      const list = await call(project.url, 'POST', '/api/bookmarks/lists', { name: 'Reading' });
      await call(project.url, 'POST', '/api/bookmarks/items', { title: 'First read', article: article.documentId, seo: { metaTitle: 'First' }, list: list.id });
      await call(project.url, 'POST', '/api/bookmarks/items', { title: 'another one' });
      const home = await call(project.url, 'POST', '/api/menus/items', { title: 'Home Page', order: 1 });
      await call(project.url, 'POST', '/api/menus/items', { title: 'About', path: '/about-us', order: 2, parent: home.documentId });
      for (const path of ROUTES) strapi[path] = await call(project.url, 'GET', path);
    } finally {
      await project.stop();
    }
    // Folio reads the project's own node_modules (not NODE_PATH): the plugins' packages take the link's place.
    rmSync(join(project.dir, 'node_modules'));
    cpSync(join(FIXTURE, 'node_modules'), join(project.dir, 'node_modules'), { recursive: true });
    const db = new BunDatabase(join(project.dir, '.tmp/data.db'), { readonly: true });
    tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'bookmark%' OR name LIKE 'menus%') ORDER BY name")
      .all()
      .map((t) => t.name);
    db.close();
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test("Strapi's tables for the plugin types are the ones Folio's registry names", () => {
    expect(tables).toEqual([
      'bookmark_lists',
      'bookmarks_bookmark',
      'bookmarks_bookmark_article_lnk',
      'bookmarks_bookmark_cmps',
      'bookmarks_bookmark_list_lnk',
      'menus_items',
      'menus_items_parent_lnk',
    ]);
  });

  test("the plugin types' rows come over: the plugins' routes answer in Folio exactly as in Strapi", async () => {
    const data = tempDir('folio-import-plugin-types-');
    dirs.push(data);
    const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_import') : undefined;
    if (databaseUrl) databases.push(databaseUrl);
    const config = resolveConfig({ data: join(data, 'data'), contentTypes: join(data, 'content-types'), ...(databaseUrl ? { database: databaseUrl } : {}) });
    const report = await importStrapi({ source: project.dir, config, out: { write: () => {} } });
    expect(report.documents.filter((d) => d.uid.startsWith('plugin::'))).toEqual([
      { uid: 'plugin::bookmarks.bookmark', documents: 2, versions: 2 },
      { uid: 'plugin::bookmarks.bookmark-list', documents: 1, versions: 1 },
      { uid: 'plugin::menus.menu-item', documents: 2, versions: 2 },
    ]);
    expect(report.notes).toContainEqual(expect.stringContaining('plugin content types (plugin::bookmarks.bookmark, plugin::bookmarks.bookmark-list'));
    // Folio serves the project itself, so its plugins declare their types (the peer's bootstrap is Strapi's admin setup: left out).
    writeFileSync(join(project.dir, 'src/index.js'), 'module.exports = {};\n');
    const server = await startServer({ dataDir: join(data, 'data'), contentTypes: project.dir, config: { databaseUrl: config.databaseUrl } });
    try {
      for (const path of ROUTES) expect({ path, body: comparable((await server.call('GET', path)).body) }).toEqual({ path, body: comparable(strapi[path]) });
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);
});
