/**
 * Starts a real Folio server on 127.0.0.1 (random port) over a fresh SQLite file in a
 * temp data dir, with the example content types unless told otherwise.
 */
import { callJson } from './call';
import { createDatabase, dropDatabases } from './postgres';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveConfig, type Config } from '../../src/config';
import { createApp } from '../../src/app';
import { openInstance, type Instance } from '../../src/instance';
import { readProject } from '../../src/project/config';

export const EXAMPLE_CONTENT_TYPES = resolve(import.meta.dir, '../../content-types');
export const ALL_TYPES_CONTENT_TYPES = resolve(import.meta.dir, '../fixtures/all-types');

export interface TestServer {
  url: string;
  instance: Instance;
  dataDir: string;
  /** Access keys of a full-access and a read-only token. */
  tokens: { fullAccess: string; readOnly: string };
  /** fetch relative to the server, JSON in and out. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string>; raw?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** Stops the server and closes the database; `keepData` leaves the data dir for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  contentTypes?: string;
  dataDir?: string;
  /** Grant the public role every content action (default true), as the Strapi peer does. */
  publicAccess?: boolean;
  bodyLimit?: number;
  /** Any other configuration to override (rate limits, CORS origins, registration…). */
  config?: Partial<Config>;
  /**
   * No background work (webhook deliveries, pruning, retention, the release scheduler): for tests
   * that count the statements a request runs, which a poll in between would add to.
   */
  quiet?: boolean;
}

export const tempDir = (prefix = 'folio-test-') => mkdtempSync(join(tmpdir(), prefix));

/**
 * With FOLIO_TEST_DATABASE_URL=postgres://… the same tests run on PostgreSQL: every server
 * gets a database of its own, remembered in its data dir so a restart finds it again.
 */
export const TEST_DATABASE_URL = process.env.FOLIO_TEST_DATABASE_URL;
export const onPostgres = !!TEST_DATABASE_URL;

async function testDatabase(dataDir: string): Promise<string | undefined> {
  if (!TEST_DATABASE_URL) return undefined;
  const marker = join(dataDir, 'test-database-url');
  if (existsSync(marker)) return readFileSync(marker, 'utf8');
  const url = await createDatabase(TEST_DATABASE_URL, 'folio_test');
  writeFileSync(marker, url);
  return url;
}

async function dropTestDatabase(url: string | undefined) {
  if (url && TEST_DATABASE_URL && !url.startsWith('sqlite:')) await dropDatabases(TEST_DATABASE_URL, [url]);
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const config: Config = {
    ...resolveConfig({ data: dataDir, contentTypes: options.contentTypes ?? EXAMPLE_CONTENT_TYPES }, { readProject }),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    // A test that names its own database (or none: SQLite) gets no database of its own.
    ...(TEST_DATABASE_URL && !(options.config && 'databaseUrl' in options.config) ? { databaseUrl: await testDatabase(dataDir) } : {}),
    ...options.config,
  };
  const instance = await openInstance(config);
  if (options.publicAccess !== false) {
    const actions = instance.registry.contentTypes.flatMap((ct) =>
      (ct.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete']).map((a) => `${ct.uid}.${a}`),
    );
    await instance.roles.grant('public', [...actions, 'plugin::i18n.locales.listLocales']);
  }
  if (!(await instance.locales.exists('fr'))) await instance.locales.add('fr', 'French (fr)');
  const existing = await instance.tokens.list();
  const fullAccess = existing.length ? '' : (await instance.tokens.create('test-full', 'full-access')).accessKey;
  const readOnly = existing.length ? '' : (await instance.tokens.create('test-read', 'read-only')).accessKey;
  await instance.project?.start();
  const app = createApp(instance).listen({ port: 0, hostname: '127.0.0.1' });
  if (options.quiet) instance.pause();
  const url = `http://127.0.0.1:${app.server!.port}`;

  return {
    url,
    instance,
    dataDir,
    tokens: { fullAccess, readOnly },
    call: (method, path, options) => callJson(url, method, path, options),
    async stop({ keepData = false } = {}) {
      await app.stop(true);
      await instance.project?.stop();
      instance.close();
      if (!keepData) {
        await dropTestDatabase(config.databaseUrl);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Seeds one entry through the content API: its `data`, or a thrown error naming the path when the answer is not a 201. */
export async function seedCreate(server: TestServer, path: string, data: object, query = '') {
  const response = await server.call('POST', path + query, { body: { data } });
  if (response.status !== 201) throw new Error(`seed ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Names of the tables in a server's database, on either engine. */
export async function tableNames(server: TestServer): Promise<string[]> {
  const db = server.instance.db;
  const rows =
    db.dialect.name === 'sqlite'
      ? await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      : await db.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name');
  return rows.map((r) => r.name);
}
