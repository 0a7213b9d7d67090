/**
 * `folio import strapi` against the real thing: a Strapi 5 project (the shared peer, in a
 * private copy) is seeded through its REST API with every attribute kind of the blog
 * fixture, its answers recorded, then it is stopped and imported; Folio must answer the
 * same documents (ids, documentIds, values, relation order, components, files), the user
 * logs in with the same password and Strapi's API token works. Skips when the peer is not
 * installed (shared/peers/strapi/setup.sh installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database as BunDatabase } from 'bun:sqlite';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL, type TestServer } from '../helpers/server';
import { runCli } from '../helpers/spawn';
import { answers, makeProject, peerMissing, QUERIES, seed, USER, type StrapiProject } from './strapi-peer';

const missing = peerMissing();
if (missing) console.warn(`skipping test/transfer/import-strapi.test.ts: ${missing}`);

const databases: string[] = [];
const dirs: string[] = [];

/** A new installation: its data dir, schemas dir and (on PostgreSQL) a scratch database. */
async function installation() {
  const data = tempDir('folio-import-strapi-');
  dirs.push(data);
  const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_import') : undefined;
  if (databaseUrl) databases.push(databaseUrl);
  const contentTypes = join(data, 'content-types');
  const config = { ...resolveConfig({ data: join(data, 'data'), contentTypes, ...(databaseUrl ? { database: databaseUrl } : {}) }) };
  const flags = { data: join(data, 'data'), contentTypes, ...(databaseUrl ? { database: databaseUrl } : {}) };
  return { config, flags, contentTypes, dataDir: join(data, 'data') };
}

async function serveImported(target: Awaited<ReturnType<typeof installation>>): Promise<TestServer> {
  return startServer({
    dataDir: target.dataDir,
    contentTypes: target.contentTypes,
    publicAccess: false,
    config: { databaseUrl: target.config.databaseUrl },
  });
}

describe.skipIf(!!missing)('folio import strapi', () => {
  let project: StrapiProject;
  let strapi: Record<string, unknown>;

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
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('a project directory imports with every document answering as Strapi did, its user logging in and its API token working', async () => {
    const target = await installation();
    await importStrapi({ source: project.dir, config: target.config, out: { write: () => {} } });
    const server = await serveImported(target);
    try {
      const folio = await answers(server.url, project.tokens.fullAccess);
      for (const path of QUERIES) expect({ path, ...(folio[path] as object) }).toEqual({ path, ...(strapi[path] as object) });
      // The files themselves came along, under the URLs the rows name.
      const cover = (strapi[QUERIES[0]!] as any).body.data.find((a: any) => a.cover).cover;
      const file = await fetch(`${server.url}${cover.url}`);
      expect(file.status).toBe(200);
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect(bytes).toEqual(new Uint8Array(readFileSync(join(project.dir, 'public', cover.url))));
      const login = await server.call('POST', '/api/auth/local', { body: { identifier: USER.email, password: USER.password } });
      expect(login.status).toBe(200);
      expect(login.body.user.username).toBe(USER.username);
      const wrong = await server.call('POST', '/api/auth/local', { body: { identifier: USER.email, password: 'not-it' } });
      expect(wrong.status).toBe(400);
      const readOnly = await fetch(`${server.url}/api/articles`, { headers: { Authorization: `Bearer ${project.tokens.readOnly}` } });
      expect(readOnly.status).toBe(200);
      const denied = await fetch(`${server.url}/api/articles`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${project.tokens.readOnly}`, 'Content-Type': 'application/json' },
        body: '{"data":{"title":"x"}}',
      });
      expect(denied.status).toBe(403);
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);

  test('--dry-run prints the counts per type and writes nothing', () => {
    const data = tempDir('folio-import-strapi-dry-');
    dirs.push(data);
    const run = runCli(['import', 'strapi', project.dir, '--dry-run'], { data: join(data, 'data'), contentTypes: join(data, 'ct') });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('would import api::article.article: 4 document(s), 9 version row(s)');
    expect(run.stdout).toContain('would import users: 1 row(s)');
    expect(run.stdout).toContain('dry run: nothing written');
    expect(readdirSync(data)).toEqual([]);
  });

  test('a target holding data is refused without --force and replaced with it', async () => {
    const target = await installation();
    const first = runCli(['import', 'strapi', project.dir], target.flags);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/importing .+: \d+\/\d+ rows \([\d,]+\/s\)/);
    expect(first.stdout).toContain('counts checked');
    const again = runCli(['import', 'strapi', project.dir], target.flags);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the target installation is not empty');
    const forced = runCli(['import', 'strapi', project.dir, '--force'], target.flags);
    expect(forced.code).toBe(0);
    const server = await serveImported(target);
    try {
      const folio = await answers(server.url, project.tokens.fullAccess);
      expect(folio[QUERIES[1]!]).toEqual(strapi[QUERIES[1]!]);
      // New rows continue after the kept ids (PostgreSQL's sequences were moved past them).
      const created = await fetch(`${server.url}/api/tags`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${project.tokens.fullAccess}`, 'Content-Type': 'application/json' },
        body: '{"data":{"name":"delta"}}',
      });
      expect(created.status).toBe(201);
      const ids = (strapi[QUERIES[8]!] as any).body.data.map((t: any) => t.id);
      expect(((await created.json()) as { data: { id: number } }).data.id).toBeGreaterThan(Math.max(...ids));
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);

  test('a row Folio refuses while writing stops the import naming it, and the target keeps no table, folder or file the import made', async () => {
    // Two users whose e-mails differ only in case: Strapi keeps both, Folio's e-mails are unique lower-cased.
    const broken = tempDir('folio-import-strapi-dup-');
    dirs.push(broken);
    for (const part of ['src', '.env', '.tmp', 'public']) cpSync(join(project.dir, part), join(broken, part), { recursive: true });
    const db = new BunDatabase(join(broken, '.tmp', 'data.db'));
    db.run(`INSERT INTO up_users (document_id, username, email, provider, password, confirmed, blocked, created_at, updated_at, published_at)
      SELECT 'dupdocumentid00000000000', 'shouting', UPPER(email), provider, password, confirmed, blocked, created_at, updated_at, published_at FROM up_users LIMIT 1`);
    db.close();
    const target = await installation();
    const run = runCli(['import', 'strapi', broken], target.flags);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/users, rows 1-2 \(ids \d+…\d+\): /);
    expect(run.stderr).toContain('Nothing was imported.');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(target.contentTypes)).toBe(false);
    if (target.config.databaseUrl) {
      const left = await queryOnce<{ n: number }>(
        target.config.databaseUrl,
        `SELECT
        (SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema())
        + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')) AS n`,
      );
      expect(Number(left[0]!.n)).toBe(0);
    }
    expect(existsSync(target.dataDir)).toBe(false);
  }, 60_000);

  test('a row that cannot be mapped stops the import naming its table and row, and nothing is written', async () => {
    // A copy of the project whose database holds a JSON value that does not parse.
    const broken = tempDir('folio-import-strapi-broken-');
    dirs.push(broken);
    for (const part of ['src', '.env', '.tmp', 'public']) cpSync(join(project.dir, part), join(broken, part), { recursive: true });
    symlinkSync(join(project.dir, 'node_modules'), join(broken, 'node_modules'));
    const db = new BunDatabase(join(broken, '.tmp', 'data.db'));
    const victim = db.query<{ id: number }, []>('SELECT id FROM articles WHERE meta IS NOT NULL ORDER BY id DESC LIMIT 1').get()!.id;
    db.run("UPDATE articles SET meta = '{not json' WHERE id = ?", [victim]);
    db.close();
    const target = await installation();
    const run = runCli(['import', 'strapi', broken], target.flags);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`articles row ${victim}: column meta`);
    expect(run.stderr).toContain('Nothing was imported.');
    expect(existsSync(target.contentTypes)).toBe(false);
    expect(existsSync(join(target.dataDir, 'uploads'))).toBe(false);
  }, 60_000);
});
