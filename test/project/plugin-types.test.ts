/**
 * Plugins' own content types and npm plugins' server code (test/fixtures/projects/plugin-types-js,
 * run on a copy of the Strapi 5.54.0 peer too): a local plugin (config/plugins resolve) declaring
 * two types in its server code, one related to an api:: type, a component and the other; an npm
 * plugin in the project's node_modules (a dependency of package.json, its server through
 * package.json exports), enabled by being installed; an admin-only npm plugin with no server
 * code. The types get Strapi's uids and tables, are read and written by the plugins' controllers
 * through strapi.documents, strapi.db.query and the entity service with their lifecycles, have no
 * core REST routes, and appear in GraphQL under Strapi's names. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveActions } from '../../src/auth/actions';
import { readProject } from '../../src/project/config';
import { enabledPlugins } from '../../src/project/plugins/enabled';
import { copyProject, PROJECTS } from '../helpers/project';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, TEST_DATABASE_URL, type TestServer } from '../helpers/server';
import { cliOutput, removeTempDirs, tempDir } from '../helpers/spawn';

const FIXTURE = join(PROJECTS, 'plugin-types-js');
let root: string;
let server: TestServer;
beforeAll(async () => {
  root = copyProject('plugin-types-js');
  server = await startServer({ contentTypes: root });
}, 30_000);
afterAll(async () => {
  await server.stop();
  removeTempDirs();
}, 30_000);

describe("plugins' content types in the registry", () => {
  test('each type a plugin declares is plugin::<plugin>.<singularName>, its table collectionName or <plugin>_<singularName>', () => {
    const types = server.instance.registry.contentTypes.filter((ct) => ct.plugin).map((ct) => [ct.uid, ct.tableName, ct.plugin]);
    expect(types).toEqual([
      ['plugin::bookmarks.bookmark', 'bookmarks_bookmark', 'bookmarks'],
      ['plugin::bookmarks.bookmark-list', 'bookmark_lists', 'bookmarks'],
      ['plugin::menus.menu-item', 'menus_items', 'menus'],
    ]);
  });

  test("the plugin object lists its types by short name with Strapi's collectionName", async () => {
    const { body } = await server.call('GET', '/api/bookmarks/types');
    expect(body).toEqual([
      { name: 'bookmark', uid: 'plugin::bookmarks.bookmark', collectionName: 'bookmarks_bookmark' },
      { name: 'bookmark-list', uid: 'plugin::bookmarks.bookmark-list', collectionName: 'bookmark_lists' },
    ]);
  });

  test('a plugin type has no core REST route: /api/<pluralName> is not found', async () => {
    expect((await server.call('GET', '/api/bookmark-lists')).status).toBe(404);
    expect((await server.call('GET', '/api/menu-items')).status).toBe(404);
  });
});

describe("a local plugin's controller writing and reading its types", () => {
  let article: string;
  let list: number;
  let first: string;
  test('the entity service creates a row of one type, which another type relates to', async () => {
    const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Bookmarked', slug: 'bookmarked' } } });
    article = created.body.data.documentId;
    const added = await server.call('POST', '/api/bookmarks/lists', { body: { name: 'Reading' } });
    expect(added.status).toBe(200);
    // As Strapi's entity service answers it: a type without i18n has locale null, one without draft & publish a publishedAt.
    expect(added.body).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      name: 'Reading',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
      locale: null,
    });
    list = added.body.id;
  });

  test('strapi.documents creates with a relation to an api:: type, a component and a plugin type; the lifecycle sets the label', async () => {
    const created = await server.call('POST', '/api/bookmarks/items', {
      body: { title: 'First read', article, seo: { metaTitle: 'First' }, list },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      title: 'First read',
      label: 'FIRST READ',
      locale: null,
      seo: { metaTitle: 'First' },
      list: { name: 'Reading', locale: null },
    });
    expect(Object.keys(created.body)).toEqual(['id', 'documentId', 'title', 'label', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'seo', 'list']);
    first = created.body.documentId;
    await server.call('POST', '/api/bookmarks/items', { body: { title: 'another one' } });
  });

  test('strapi.documents reads them back with the relations and the component populated', async () => {
    const { body } = await server.call('GET', '/api/bookmarks/items');
    expect(body.map((b: any) => [b.title, b.label, b.article?.title ?? null, b.seo?.metaTitle ?? null, b.list?.name ?? null])).toEqual([
      ['First read', 'FIRST READ', 'Bookmarked', 'First', 'Reading'],
      ['another one', 'ANOTHER ONE', null, null, null],
    ]);
  });

  test('an update runs beforeUpdate; strapi.db.query reads the rows with select, where and orderBy', async () => {
    await server.call('PUT', `/api/bookmarks/items/${first}`, { body: { title: 'Always first' } });
    expect((await server.call('GET', '/api/bookmarks/rows?prefix=A')).body).toEqual([
      { title: 'Always first', label: 'ALWAYS FIRST' },
      { title: 'another one', label: 'ANOTHER ONE' },
    ]);
  });

  test('the entity service counts; a delete removes the document', async () => {
    expect((await server.call('GET', '/api/bookmarks/count')).body).toEqual({ count: 2, lists: 1 });
    await server.call('DELETE', `/api/bookmarks/items/${first}`);
    expect((await server.call('GET', '/api/bookmarks/count')).body).toEqual({ count: 1, lists: 1 });
  });
});

describe('an npm plugin in the project’s node_modules', () => {
  test('its server runs: config/plugins config over its defaults, bootstrap, a service and a controller on its own route', async () => {
    const { body } = await server.call('GET', '/api/menus/tree');
    expect(body).toEqual({ label: 'Menu', maxDepth: 3, bootstrapped: true, items: [] });
  });

  test("its controller's actions are grantable: a route without auth: false is forbidden until the role holds plugin::menus.menu.tree", async () => {
    const denied = await server.call('GET', '/api/menus/guarded-tree');
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ status: 403, name: 'ForbiddenError', message: 'Forbidden' });
    await server.instance.roles.grant('public', resolveActions(server.instance.registry, ['plugin::menus.menu.tree']));
    const allowed = await server.call('GET', '/api/menus/guarded-tree');
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ label: 'Menu', maxDepth: 3 });
  });

  test('its type is written through strapi.documents with its lifecycle, and read through strapi.db.query with a populated relation', async () => {
    const home = await server.call('POST', '/api/menus/items', { body: { title: 'Home Page', order: 1 } });
    expect(home.body).toMatchObject({ title: 'Home Page', path: '/home-page', order: 1 });
    await server.call('POST', '/api/menus/items', { body: { title: 'About', path: '/about-us', order: 2, parent: home.body.documentId } });
    const { body } = await server.call('GET', '/api/menus/tree');
    // Strapi's answer: select adds the row's id when it populates; the populated relation keeps to its own select.
    expect(body.items).toEqual([
      { title: 'Home Page', path: '/home-page', order: 1, id: expect.any(Number), parent: null },
      { title: 'About', path: '/about-us', order: 2, id: expect.any(Number), parent: { title: 'Home Page' } },
    ]);
  });
});

describe('GraphQL', () => {
  test("plugin types are in the schema under Strapi's names (the plugin's name before the type's)", async () => {
    const { body } = await server.call('POST', '/graphql', {
      body: { query: '{ __schema { queryType { fields { name } } } b: __type(name: "BookmarksBookmark") { fields { name } } }' },
    });
    const queries = body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    // The names the peer's introspection lists for the same plugins.
    expect(queries.filter((q: string) => /^(bookmarks|menus)/.test(q))).toEqual([
      'bookmarksBookmark',
      'bookmarksBookmarks_connection',
      'bookmarksBookmarks',
      'bookmarksBookmarkList',
      'bookmarksBookmarkLists_connection',
      'bookmarksBookmarkLists',
      'menusMenuItem',
      'menusMenuItems_connection',
      'menusMenuItems',
    ]);
    expect(body.data.b.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['documentId', 'title', 'label', 'article', 'seo', 'list']));
  });
});

describe('GraphQL reads', () => {
  test("plugin types answer GraphQL's shadow CRUD queries, relations included, as Strapi's did for the same writes", async () => {
    const query = '{ menusMenuItems(sort: "order:asc") { title path order parent { title } } bookmarksBookmarkLists { name bookmarks { title } } }';
    const { body } = await server.call('POST', '/graphql', { body: { query }, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect(body).toEqual({
      data: {
        menusMenuItems: [
          { title: 'Home Page', path: '/home-page', order: 1, parent: null },
          { title: 'About', path: '/about-us', order: 2, parent: { title: 'Home Page' } },
        ],
        bookmarksBookmarkLists: [{ name: 'Reading', bookmarks: [] }],
      },
    });
  });
});

describe("the document service's locale of a type without i18n", () => {
  test('is null in strapi.documents answers but left out of a REST answer through a custom controller, as Strapi sanitizes it', async () => {
    const other = await startServer({
      contentTypes: copyProject('plugin-types-js', {
        'src/api/tag/routes/tag.js': "module.exports = require('@strapi/strapi').factories.createCoreRouter('api::tag.tag');\n",
        'src/api/tag/controllers/tag.js':
          "module.exports = require('@strapi/strapi').factories.createCoreController('api::tag.tag', () => ({ async find(ctx) { return super.find(ctx); } }));\n",
      }),
    });
    try {
      const doc = await other.instance.project!.strapi.documents('api::tag.tag').create({ data: { name: 'plain' }, status: 'published' });
      expect(doc.locale).toBeNull();
      const { body } = await other.call('GET', '/api/tags');
      expect(body.data).toEqual([expect.objectContaining({ name: 'plain' })]);
      expect('locale' in body.data[0]).toBe(false);
    } finally {
      await other.stop();
    }
  }, 30_000);
});

describe('folio export and import', () => {
  test("carry the plugin types' rows: the plugins' routes answer the same from the imported installation", async () => {
    const project = copyProject('plugin-types-js');
    const source = await startServer({ contentTypes: project });
    const paths = ['/api/bookmarks/items', '/api/menus/tree'];
    const before: unknown[] = [];
    try {
      const list = await source.call('POST', '/api/bookmarks/lists', { body: { name: 'Kept' } });
      await source.call('POST', '/api/bookmarks/items', { body: { title: 'Moved along', seo: { metaTitle: 'Moved' }, list: list.body.id } });
      const home = await source.call('POST', '/api/menus/items', { body: { title: 'Home', order: 1 } });
      await source.call('POST', '/api/menus/items', { body: { title: 'Child', order: 2, parent: home.body.documentId } });
      for (const path of paths) before.push((await source.call('GET', path)).body);
    } finally {
      await source.stop({ keepData: true });
    }
    const archive = join(tempDir(), 'site.tar.gz');
    const database = source.instance.config.databaseUrl;
    cliOutput(['export', archive, '--project', project], { contentTypes: null, data: source.dataDir, ...(database ? { database } : {}) });
    const data = tempDir();
    const target = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
    try {
      cliOutput(['import', archive, '--project', project], { contentTypes: null, data, ...(target ? { database: target } : {}) });
      const other = await startServer({ contentTypes: project, dataDir: data, ...(target ? { config: { databaseUrl: target } } : {}) });
      try {
        const after: unknown[] = [];
        for (const path of paths) after.push((await other.call('GET', path)).body);
        expect(after).toEqual(before);
        expect((before[0] as { title: string }[]).map((b) => b.title)).toEqual(['Moved along']);
      } finally {
        await other.stop();
      }
    } finally {
      if (target && TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, [target]);
    }
  }, 60_000);
});

describe('the admin', () => {
  test("the content manager lists a plugin's types but those pluginOptions['content-manager'].visible: false hides", async () => {
    const made = await server.call('POST', '/admin/api/setup', { body: { email: 'root@example.com', password: 'correct horse' } });
    const cookie = made.headers.get('set-cookie')!.split(';')[0]!;
    const { body } = await server.call('GET', '/admin/api/schema', { headers: { cookie } });
    const uids = body.data.contentTypes.map((ct: { uid: string }) => ct.uid);
    expect(uids).toContain('plugin::bookmarks.bookmark-list');
    expect(uids).toContain('plugin::menus.menu-item');
    expect(uids).not.toContain('plugin::bookmarks.bookmark');
  });
});

describe('which plugins run', () => {
  test('a declared plugin, then an installed one; an admin-only plugin is left out with a warning naming it', () => {
    const project = readProject(copyProject('plugin-types-js'), {})!;
    const found = enabledPlugins(project);
    expect(found.plugins.map((p) => [p.name, p.source, p.packageName])).toEqual([
      ['bookmarks', 'local', undefined],
      ['menus', 'npm', 'folio-fixture-menus'],
    ]);
    expect(found.plugins[1]!.file).toEndWith(join('folio-fixture-menus', 'dist', 'server', 'index.js'));
    expect(found.warnings).toEqual([expect.stringContaining('plugin theme (folio-fixture-theme) has no server code')]);
  });

  test('config/plugins as Strapi reads it: a resolve without enabled does not run, true enables, a plugin not installed is a warning', () => {
    const root = copyProject('plugin-types-js');
    writeFileSync(
      join(root, 'config/plugins.js'),
      "module.exports = { bookmarks: { resolve: './src/plugins/bookmarks' }, menus: true, 'site-map': { enabled: true } };\n",
    );
    const found = enabledPlugins(readProject(root, {})!);
    expect(found.plugins.map((p) => p.name)).toEqual(['menus']);
    expect(found.warnings).toEqual([
      expect.stringContaining('plugin site-map is enabled in config/plugins but not installed'),
      expect.stringContaining('plugin theme (folio-fixture-theme) has no server code'),
    ]);
    const other = copyProject('plugin-types-js', { 'config/plugins.js': 'module.exports = { siteMap: { enabled: true } };\n' });
    expect(() => enabledPlugins(readProject(other, {})!)).toThrow('Plugin name "siteMap" is not in kebab (an-example-of-kebab-case)');
  });

  test('config/plugins enabled: false keeps an installed plugin from running, and its types out of the registry', async () => {
    const root = copyProject('plugin-types-js');
    writeFileSync(
      join(root, 'config/plugins.js'),
      "module.exports = { bookmarks: { enabled: true, resolve: './src/plugins/bookmarks' }, menus: { enabled: false } };\n",
    );
    const other = await startServer({ contentTypes: root });
    try {
      expect(other.instance.registry.contentType('plugin::menus.menu-item')).toBeUndefined();
      expect((await other.call('GET', '/api/menus/tree')).status).toBe(404);
    } finally {
      await other.stop();
    }
  }, 30_000);

  test("a plugin type's key that is not its singularName stops start-up naming the plugin and the type", async () => {
    const root = copyProject('plugin-types-js');
    const index = join(root, 'src/plugins/bookmarks/server/index.js');
    const text = (await Bun.file(index).text()).replace("'bookmark-list': {", 'bookmarkList: {');
    writeFileSync(index, text);
    await expect(startServer({ contentTypes: root })).rejects.toThrow(
      'plugin bookmarks, content type bookmarkList (src/plugins/bookmarks/strapi-server.js): The key of the content-type should be the same as its singularName. Found bookmarkList and bookmark-list.',
    );
  });

  test("the project's src/extensions/<plugin>/content-types/<name>/schema.json is laid over the plugin's schema", async () => {
    const schema = JSON.parse(await Bun.file(join(FIXTURE, 'node_modules/folio-fixture-menus/dist/server/content-types/menu-item/schema.json')).text());
    schema.attributes.icon = { type: 'string' };
    const root = copyProject('plugin-types-js', {
      'src/extensions/menus/content-types/menu-item/schema.json': JSON.stringify({ attributes: schema.attributes }),
    });
    const other = await startServer({ contentTypes: root });
    try {
      const item = other.instance.registry.contentType('plugin::menus.menu-item')!;
      expect(Object.keys(item.attributes)).toEqual(['title', 'path', 'order', 'parent', 'icon']);
      expect(item.tableName).toBe('menus_items');
      const created = await other.call('POST', '/api/menus/items', { body: { title: 'Shop', icon: 'cart' } });
      expect(created.body).toMatchObject({ title: 'Shop', icon: 'cart', path: '/shop' });
    } finally {
      await other.stop();
    }
  }, 30_000);

  test("an npm plugin's server file that throws stops start-up naming the file and the cause", async () => {
    const root = copyProject('plugin-types-js', { 'node_modules/folio-fixture-menus/dist/server/index.js': "throw new Error('menus cannot start');\n" });
    await expect(startServer({ contentTypes: root })).rejects.toThrow(
      'Could not load node_modules/folio-fixture-menus/dist/server/index.js (node_modules/folio-fixture-menus/dist/server/index.js:1:11): menus cannot start',
    );
  });

  test("a plugin type's invalid schema stops start-up naming the plugin and the type", async () => {
    const root = copyProject('plugin-types-js');
    const schema = join(root, 'src/plugins/bookmarks/server/content-types/bookmark-list/schema.json');
    writeFileSync(schema, (await Bun.file(schema).text()).replace('"type": "string"', '"type": "strin"'));
    await expect(startServer({ contentTypes: root })).rejects.toThrow('plugin bookmarks, content type bookmark-list (src/plugins/bookmarks/strapi-server.js)');
  });
});
