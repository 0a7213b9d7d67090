/**
 * `folio import strapi DIR` for a project on PostgreSQL: the peer (a private copy) is seeded
 * through its REST API, its SQLite database copied table by table into a PostgreSQL schema
 * with Strapi's PostgreSQL column types (test/helpers/strapi-postgres.ts), and the project's
 * `.env` pointed there as Strapi's generated config reads it (DATABASE_CLIENT=postgres,
 * DATABASE_HOST/PORT/NAME/USERNAME/PASSWORD/SCHEMA). Folio must answer as Strapi did, into
 * SQLite and into PostgreSQL. Needs the peer and a PostgreSQL server (FOLIO_TEST_DATABASE_URL):
 * skips with a message without either.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';
import { runCli } from '../helpers/spawn';
import { copyStrapiToPostgres } from '../helpers/strapi-postgres';
import { answers, makeProject, peerMissing, QUERIES, seed, USER, type StrapiProject } from './strapi-peer';

const missing = peerMissing() ?? (TEST_DATABASE_URL ? undefined : 'it needs a PostgreSQL server for the Strapi database (FOLIO_TEST_DATABASE_URL)');
if (missing) console.warn(`skipping test/transfer/strapi-postgres.test.ts: ${missing}`);

const databases: string[] = [];
const dirs: string[] = [];

/** The .env lines Strapi's generated config/database reads for PostgreSQL. */
function envFor(url: string, schema: string, port?: string): string {
  const u = new URL(url);
  return [
    '',
    'DATABASE_CLIENT=postgres',
    `DATABASE_HOST=${u.hostname}`,
    `DATABASE_PORT=${port ?? (u.port || '5432')}`,
    `DATABASE_NAME=${u.pathname.slice(1)}`,
    `DATABASE_USERNAME=${decodeURIComponent(u.username)}`,
    `DATABASE_PASSWORD=${decodeURIComponent(u.password)}`,
    `DATABASE_SCHEMA=${schema}`,
    '',
  ].join('\n');
}

describe.skipIf(!!missing)('folio import strapi from a PostgreSQL project', () => {
  let project: StrapiProject;
  let strapi: Record<string, unknown>;
  let source: string;

  beforeAll(async () => {
    project = makeProject();
    dirs.push(project.dir);
    await project.start();
    try {
      await seed(project);
      strapi = await answers(project.url, project.tokens.fullAccess);
    } finally {
      await project.stop();
    }
    source = await createDatabase(TEST_DATABASE_URL!, 'strapi_source');
    databases.push(source);
    await copyStrapiToPostgres(join(project.dir, '.tmp', 'data.db'), source, 'strapi');
    // The SQLite file goes: only PostgreSQL can answer now.
    rmSync(join(project.dir, '.tmp', 'data.db'));
    appendFileSync(join(project.dir, '.env'), envFor(source, 'strapi'));
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  for (const engine of ['SQLite', 'PostgreSQL'] as const) {
    test(`a project on PostgreSQL imports into ${engine} with every document answering as Strapi did, its user and API token working`, async () => {
      const base = tempDir('folio-strapi-pg-');
      dirs.push(base);
      const databaseUrl = engine === 'PostgreSQL' ? await createDatabase(TEST_DATABASE_URL!, 'folio_from_pg') : undefined;
      if (databaseUrl) databases.push(databaseUrl);
      const flags = { data: join(base, 'data'), contentTypes: join(base, 'content-types'), ...(databaseUrl ? { database: databaseUrl } : {}) };
      await importStrapi({ source: project.dir, config: resolveConfig(flags), out: { write: () => {} } });
      const server = await startServer({ dataDir: flags.data, contentTypes: flags.contentTypes, publicAccess: false, config: { databaseUrl } });
      try {
        const folio = await answers(server.url, project.tokens.fullAccess);
        for (const path of QUERIES) expect({ path, ...(folio[path] as object) }).toEqual({ path, ...(strapi[path] as object) });
        const login = await server.call('POST', '/api/auth/local', { body: { identifier: USER.email, password: USER.password } });
        expect(login.status).toBe(200);
      } finally {
        await server.stop({ keepData: true });
      }
    }, 120_000);
  }

  test('an unreachable PostgreSQL source stops the import naming host, port and schema but not the password, and writes nothing', () => {
    const broken = tempDir('folio-strapi-pg-broken-');
    dirs.push(broken);
    const copy = makeProjectCopy(project.dir, broken);
    appendFileSync(join(copy, '.env'), envFor(source, 'strapi', '1'));
    const target = tempDir('folio-strapi-pg-target-');
    dirs.push(target);
    const run = runCli(['import', 'strapi', copy], { data: join(target, 'data'), contentTypes: join(target, 'ct') });
    expect(run.code).toBe(1);
    const host = new URL(source).hostname;
    expect(run.stderr).toContain(`cannot read the project's PostgreSQL database ${host}:1/`);
    expect(run.stderr).toContain('(schema strapi)');
    expect(run.stderr).not.toContain(decodeURIComponent(new URL(source).password));
    expect(run.stderr).toContain('Nothing was imported.');
    expect(existsSync(join(target, 'data'))).toBe(false);
    expect(existsSync(join(target, 'ct'))).toBe(false);
  }, 60_000);
});

/** The project's src and .env (no database: the .env names PostgreSQL) in another folder. */
function makeProjectCopy(from: string, to: string): string {
  for (const part of ['src', '.env']) cpSync(join(from, part), join(to, part), { recursive: true });
  return to;
}
