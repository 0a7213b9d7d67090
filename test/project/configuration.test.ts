/**
 * A Strapi project's root starts Folio: its schemas are read from src/, its config/ files run
 * as functions of ({ env }) with its .env, config/env/<NODE_ENV>/ overrides them, and Folio's
 * settings take flags > environment > project config > defaults, the banner naming what came
 * from the project.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { readProject } from '../../src/project/config';
import { copyProject } from '../helpers/project';
import { cliCommand, cliSpawnOptions, killSpawned, removeTempDirs, serve, spawnServer, tempDir } from '../helpers/spawn';
import { TEST_DATABASE_URL } from '../helpers/server';
import { createDatabase, dropDatabases } from '../helpers/postgres';

const created: string[] = [];
afterEach(async () => {
  await killSpawned();
  removeTempDirs();
  if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, created.splice(0));
});

async function database(): Promise<{ database?: string }> {
  if (!TEST_DATABASE_URL) return {};
  const url = await createDatabase(TEST_DATABASE_URL, 'folio_test');
  created.push(url);
  return { database: url };
}

describe('a Strapi project root', () => {
  test('folio serve --content-types <project root> starts, serves its types and lists what came from the project', async () => {
    const root = copyProject('blog-js');
    const server = await serve({ contentTypes: root, ...(await database()), env: { NODE_ENV: 'production' } });
    const articles = await server.call('GET', '/api/articles');
    // No grant yet: the route exists (403, not 404).
    expect(articles.status).toBe(403);
    expect(server.stdout()).toContain(`Project ${root} (NODE_ENV=production, .env: 3 variable(s))`);
    expect(server.stdout()).toContain('maxLimit (api.rest.maxLimit)');
    expect(server.stdout()).toMatch(/from its config: .*defaultLimit \(api\.rest\.defaultLimit\).*maxLimit \(api\.rest\.maxLimit\)/);
    expect(server.stdout()).toContain('bodyLimit (middlewares strapi::body jsonLimit)');
    expect(server.stdout()).toContain('jwtExpiresIn (plugins.users-permissions.config.jwt.expiresIn)');
    // --port was given on the command line: the flag wins over server.port.
    expect(server.stdout()).not.toContain('port (server.port)');
    await server.stop();
  }, 30_000);

  test('--project DIR and the project src/ folder are the same project', async () => {
    const root = copyProject('blog-js');
    const db = await database();
    const byFlag = await spawnServer(cliCommand(['serve', '--port', '0', '--project', root], { contentTypes: null, ...db }), {
      ...cliSpawnOptions(),
      listening: /^Folio listening on (http:\/\/\S+:\d+)$/m,
    });
    expect((await byFlag.call('GET', '/api/tags')).status).toBe(403);
    expect(byFlag.stdout()).toContain(`Project ${root}`);
    await byFlag.stop();
    const bySrc = await serve({ contentTypes: join(root, 'src'), ...(await database()) });
    expect((await bySrc.call('GET', '/api/tags')).status).toBe(403);
    expect(bySrc.stdout()).toContain(`Project ${root}`);
    await bySrc.stop();
  }, 30_000); // two servers spawned one after the other: more than the default 5 s on a loaded machine
});

describe('configuration as Strapi loads it', () => {
  test('config files are functions of ({ env }) with the project .env, custom files included', () => {
    const root = copyProject('blog-js');
    const project = readProject(root, {})!;
    expect(project.root).toBe(root);
    expect(project.values.blog).toEqual({
      title: "Folio's blog",
      features: ['comments', 'search'],
      launched: new Date('2024-01-01T00:00:00Z'),
      settings: { theme: 'light' },
    });
    expect((project.values.api as any).rest).toEqual({ prefix: '/api', defaultLimit: 7, maxLimit: 50, withCount: true });
    expect((project.values.server as any).cron).toEqual({ enabled: false });
  });

  test('the environment wins over .env, and config/env/<NODE_ENV>/ is merged over config/', () => {
    const root = copyProject('blog-js');
    const project = readProject(root, { BLOG_LIMIT: '3', BLOG_SETTINGS: '{"theme":"dark"}', CRON_ENABLED: 'true', NODE_ENV: 'production' })!;
    expect((project.values.api as any).rest.defaultLimit).toBe(3);
    expect((project.values.api as any).rest.maxLimit).toBe(20);
    expect((project.values.blog as any).settings).toEqual({ theme: 'dark' });
    expect((project.values.server as any).cron.enabled).toBe(true);
  });

  test('Folio settings: flags > environment > project config > defaults', () => {
    const root = copyProject('blog-js');
    const saved = { ...process.env };
    try {
      delete process.env.FOLIO_DEFAULT_LIMIT;
      delete process.env.PORT;
      delete process.env.FOLIO_CORS_ORIGINS;
      delete process.env.FOLIO_JWT_EXPIRES_IN;
      delete process.env.FOLIO_BODY_LIMIT;
      let config = resolveConfig({ contentTypes: root, data: tempDir() }, { readProject });
      expect(config.defaultLimit).toBe(7);
      expect(config.maxLimit).toBe(50);
      expect(config.port).toBe(1337);
      expect(config.corsOrigins).toEqual(['https://blog.example.com']);
      expect(config.bodyLimit).toBe(256 * 1024);
      expect(config.jwtExpiresIn).toBe('7d');
      process.env.FOLIO_DEFAULT_LIMIT = '9';
      process.env.PORT = '4000';
      config = resolveConfig({ contentTypes: root, data: tempDir(), port: 5000 }, { readProject });
      expect(config.defaultLimit).toBe(9);
      expect(config.port).toBe(5000);
      expect(config.project!.used).not.toContain('defaultLimit (api.rest.defaultLimit)');
      // A plain schema folder is no project.
      expect(resolveConfig({ contentTypes: join(import.meta.dir, '../../content-types') }, { readProject }).project).toBeUndefined();
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  test("config/plugins users-permissions config sets Folio's users-permissions settings: refresh sessions, the rate limit, register's allowed fields; keys Folio has no setting for are left alone", async () => {
    const root = copyProject('blog-js', {
      'config/plugins.js': `module.exports = ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET', 'not-used-by-folio'),
      jwtManagement: 'refresh',
      sessions: { accessTokenLifespan: 900, httpOnly: false },
      ratelimit: { interval: 60000, max: 3, delayAfter: 1 },
      register: { allowedFields: ['provider'] },
      layout: { user: { actions: { create: 'contentManagerUser.create' } } },
    },
  },
});
`,
    });
    const saved = { ...process.env };
    try {
      for (const key of ['FOLIO_JWT_EXPIRES_IN', 'FOLIO_AUTH_RATE_LIMIT', 'FOLIO_AUTH_RATE_WINDOW', 'FOLIO_USERS_PERMISSIONS_CONFIG']) delete process.env[key];
      const config = resolveConfig({ contentTypes: root, data: tempDir() }, { readProject });
      expect(config.usersPermissions).toEqual({
        jwtManagement: 'refresh',
        sessions: { accessTokenLifespan: 900, httpOnly: false },
        ratelimit: { interval: 60000, max: 3 },
        register: { allowedFields: ['provider'] },
      });
      expect(config.project!.used).toContain('usersPermissions (plugins.users-permissions.config (jwtManagement, sessions, ratelimit, register))');
      // The single variables win over the project's values of theirs.
      process.env.FOLIO_AUTH_RATE_LIMIT = '50';
      expect(resolveConfig({ contentTypes: root, data: tempDir() }, { readProject }).usersPermissions!.ratelimit).toEqual({ interval: 60000 });
      // FOLIO_USERS_PERMISSIONS_CONFIG wins over the whole project config.
      process.env.FOLIO_USERS_PERMISSIONS_CONFIG = '{"jwtManagement":"legacy-support"}';
      expect(resolveConfig({ contentTypes: root, data: tempDir() }, { readProject }).usersPermissions).toEqual({ jwtManagement: 'legacy-support' });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    // Served: login answers a refresh token and a 900 s access token; the fourth attempt within the window is a 429.
    const server = await serve({ contentTypes: root, ...(await database()) });
    const register = await server.call('POST', '/api/auth/local/register', { body: { username: 'ann', email: 'ann@example.com', password: 'Passw0rd!' } });
    expect(register.status).toBe(200);
    expect(typeof register.body.refreshToken).toBe('string');
    const [, payload] = String(register.body.jwt).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(900);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.call('POST', '/api/auth/local', { body: { identifier: 'ann', password: 'wrong-one' } })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    await server.stop();
  }, 30_000);

  test('a config file that fails to load stops start-up with the file and line', () => {
    const root = copyProject('blog-js', { 'config/broken.js': 'module.exports = ({ env }) => ({\n  a: 1,\n  b: ;\n});\n' });
    expect(() => readProject(root, {})).toThrow(/config\/broken\.js:3:\d+\): Unexpected ;/);
  });
});
