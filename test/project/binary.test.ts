/**
 * A Strapi project's code from the compiled executable (dist/folio, built as package.json's
 * "build" script builds it, copied alone into an empty folder): the blog-js project plus a
 * TypeScript controller importing a package of the project's own node_modules and a
 * project-relative TypeScript module, its lifecycle, a custom action granted with the binary's
 * own `folio permissions grant`, and `folio develop` reloading a changed file; a document
 * middleware under GraphQL's root queries and a project policy in resolversConfig; up-extension-js
 * (an extension of users-permissions: a wrapped, a replaced and an added action); plugin-types-js (an npm
 * plugin in the project's node_modules and a local plugin, with content types of their own). Both engines.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { copyProject } from '../helpers/project';
import { TEST_DATABASE_URL } from '../helpers/server';
import { buildCommand, cleanEnv, cliCommand, cliSpawnOptions, killSpawned, removeTempDirs, ROOT, runCli, spawnServer, tempDir } from '../helpers/spawn';

let folio: string;
beforeAll(() => {
  const out = tempDir('folio-build-');
  const build = Bun.spawnSync(buildCommand(join(out, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed (exit ${build.exitCode}):\n${build.stdout}\n${build.stderr}`);
  folio = join(tempDir('folio-bin-work-'), 'folio');
  copyFileSync(join(out, 'folio'), folio);
}, 120_000);

const created: string[] = [];
afterEach(async () => {
  await killSpawned();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, created.splice(0));
});
afterAll(() => removeTempDirs());

/** The project's own node_modules package and TypeScript files, beside blog-js's code. */
const EXTRA = {
  'node_modules/shout/package.json': '{ "name": "shout", "version": "1.0.0", "main": "index.js" }\n',
  'node_modules/shout/index.js': "module.exports = (s) => String(s).toUpperCase() + '!';\n",
  'src/utils/twice.ts': 'export const twice = (s: string): string => `${s} ${s}`;\n',
  'src/api/shout/routes/shout.js': "module.exports = { routes: [{ method: 'GET', path: '/shout/:word', handler: 'shout.shout', config: { auth: false } }] };\n",
  'src/api/shout/controllers/shout.ts': [
    "import shout from 'shout';",
    "import { twice } from '../../../utils/twice';",
    '',
    'export default {',
    '  async shout(ctx: { params: { word: string }; body: unknown }) {',
    '    ctx.body = { shouted: twice(shout(ctx.params.word)) };',
    '  },',
    '};',
    '',
  ].join('\n'),
};

test('dist/folio serves a project with its own node_modules and TypeScript, and reloads it in develop', async () => {
  const root = copyProject('blog-js', EXTRA);
  const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
  if (database) created.push(database);
  const flags = { exe: folio, contentTypes: null, data: tempDir(), ...(database ? { database } : {}) };
  const grant = runCli(['permissions', 'grant', 'public', 'api::article.article.create', 'api::article.article.findBySlug', '--project', root], flags);
  expect(grant.stderr).toBe('');
  expect(grant.code).toBe(0);
  const server = await spawnServer(cliCommand(['develop', '--port', '0', '--project', root], flags), {
    ...cliSpawnOptions(flags),
    listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    what: 'dist/folio develop',
  });
  expect((await server.call('GET', '/api/shout/hey')).body).toEqual({ shouted: 'HEY! HEY!' });
  const article = await server.call('POST', '/api/articles', { body: { data: { title: 'From The Binary' } } });
  expect(article.status).toBe(201);
  expect(article.body.data.slug).toBe('from-the-binary');
  expect((await server.call('GET', '/api/articles/slug/from-the-binary')).body.data.title).toBe('From The Binary');
  writeFileSync(join(root, 'src/utils/twice.ts'), 'export const twice = (s: string): string => `${s} ${s} ${s}`;\n');
  const started = performance.now();
  for (;;) {
    if ((await server.call('GET', '/api/shout/hey')).body.shouted === 'HEY! HEY! HEY!') break;
    if (performance.now() - started > 5_000) throw new Error(`not reloaded:\n${server.stdout()}\n${server.stderr()}`);
    await Bun.sleep(25);
  }
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(await server.stop()).toBe(0);
}, 90_000);

test("dist/folio runs a project's document middleware under GraphQL's root queries and its policy in resolversConfig", async () => {
  const root = copyProject('graphql-reads-js');
  const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
  if (database) created.push(database);
  const flags = { exe: folio, contentTypes: null, data: tempDir(), ...(database ? { database } : {}) };
  const grant = runCli(
    ['permissions', 'grant', 'public', 'api::article.article.find', 'api::article.article.create', 'api::tag.tag.find', '--project', root],
    flags,
  );
  expect(grant.code).toBe(0);
  const server = await spawnServer(cliCommand(['serve', '--port', '0', '--project', root], flags), {
    ...cliSpawnOptions(flags),
    listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    what: 'dist/folio serve',
  });
  for (const slug of ['shown', 'hidden']) expect((await server.call('POST', '/api/articles', { body: { data: { title: slug, slug } } })).status).toBe(201);
  const list = await server.call('POST', '/graphql', { body: { query: '{ articles { title } }' } });
  expect(list.body).toEqual({ data: { articles: [{ title: 'shown (listed)' }] } });
  const guarded = await server.call('POST', '/graphql', { body: { query: '{ tags { name } }' } });
  expect(guarded.body.errors[0].extensions.error.name).toBe('PolicyError');
  expect(await server.stop()).toBe(0);
}, 90_000);

test('dist/folio serves a users-permissions extension: a wrapped register, a replaced me, an added route granted with folio permissions grant', async () => {
  const root = copyProject('up-extension-js');
  const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
  if (database) created.push(database);
  const flags = { exe: folio, contentTypes: null, data: tempDir(), ...(database ? { database } : {}) };
  const grant = runCli(['permissions', 'grant', 'authenticated', 'plugin::users-permissions.user.updateMe', '--project', root], flags);
  expect(grant.stderr).toBe('');
  expect(grant.code).toBe(0);
  const server = await spawnServer(cliCommand(['serve', '--port', '0', '--project', root], flags), {
    ...cliSpawnOptions(flags),
    listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    what: 'dist/folio serve',
  });
  const refused = await server.call('POST', '/api/auth/local/register', { body: { username: 'admin2', email: 'a2@example.com', password: 'Secret123' } });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toBe('This username is reserved');
  const registered = await server.call('POST', '/api/auth/local/register', { body: { username: 'dora', email: 'dora@example.com', password: 'Secret123' } });
  expect(registered.status).toBe(200);
  const headers = { authorization: `Bearer ${registered.body.jwt}` };
  expect((await server.call('GET', '/api/users/me', { headers })).body.role).toMatchObject({ name: 'Authenticated', type: 'authenticated' });
  const updated = await server.call('PUT', '/api/user/me', { headers, body: { username: 'dora2' } });
  expect(updated.status).toBe(200);
  expect(updated.body.username).toBe('dora2');
  expect(await server.stop()).toBe(0);
}, 90_000);

test("dist/folio runs an npm plugin of the project's node_modules and a local plugin, each with content types of its own", async () => {
  const root = copyProject('plugin-types-js');
  const database = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_test') : undefined;
  if (database) created.push(database);
  const flags = { exe: folio, contentTypes: null, data: tempDir(), ...(database ? { database } : {}) };
  const server = await spawnServer(cliCommand(['serve', '--port', '0', '--project', root], flags), {
    ...cliSpawnOptions(flags),
    listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    what: 'dist/folio serve',
  });
  expect(server.stderr()).toContain('plugin theme (folio-fixture-theme) has no server code');
  const item = await server.call('POST', '/api/menus/items', { body: { title: 'Home Page', order: 1 } });
  expect(item.body).toMatchObject({ title: 'Home Page', path: '/home-page' });
  expect((await server.call('GET', '/api/menus/tree')).body).toMatchObject({ maxDepth: 3, bootstrapped: true, items: [{ title: 'Home Page' }] });
  const bookmark = await server.call('POST', '/api/bookmarks/items', { body: { title: 'From the binary', seo: { metaTitle: 'Bin' } } });
  expect(bookmark.body).toMatchObject({ label: 'FROM THE BINARY', seo: { metaTitle: 'Bin' } });
  expect(await server.stop()).toBe(0);
}, 90_000);
