/**
 * `folio copy --to postgres://…` (issue 10): a seeded SQLite installation moves into an
 * empty PostgreSQL database with every id, link, component, user, role, token and secret
 * intact, reads back the same through a server on PostgreSQL, and keeps working (new ids
 * continue after the copied ones). Skipped unless FOLIO_TEST_DATABASE_URL is set (it is the
 * admin URL used to create and drop the target databases).
 */
import { cleanEnv } from '../helpers/spawn';
import { Database as SqliteFile } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALL_TYPES_CONTENT_TYPES, EXAMPLE_CONTENT_TYPES, startServer, tempDir, type TestServer } from '../helpers/server';
import { makeImage, upload } from '../upload/helpers';
import { PASSWORD, PNG_SIZE, readEverything, SCALARS, seedAllTypes, seedExample, type ExampleSeed } from './copy-seeds';

import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';
import { SEARCH } from '../../src/db/layout';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const ROOT = resolve(import.meta.dir, '../..');
const CLI = join(ROOT, 'src/cli.ts');
const BUN = process.execPath;
const SLOW = 120_000;

const temps: string[] = [];
const databases: string[] = [];
const servers: TestServer[] = [];

function dir(prefix = 'folio-pg-copy-'): string {
  const d = tempDir(prefix);
  temps.push(d);
  return d;
}

/**
 * A data dir for an in-process server. Under FOLIO_TEST_DATABASE_URL the helper would make
 * a PostgreSQL database for every new data dir; the marker it looks for points it at
 * `databaseUrl` instead (or, for a SQLite server, keeps it from making one at all).
 */
function serverDir(databaseUrl?: string): string {
  const d = dir();
  writeFileSync(join(d, 'test-database-url'), databaseUrl ?? 'sqlite:unused');
  return d;
}

/** A new, empty database (dropped after the file); returns its URL. */
async function freshDatabase(): Promise<string> {
  const url = await createDatabase(ADMIN_URL!, 'folio_copy');
  databases.push(url);
  return url;
}

const query = queryOnce;

afterAll(async () => {
  for (const server of servers) await server.stop({ keepData: true }).catch(() => {});
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Run {
  const result = Bun.spawnSync([BUN, CLI, ...args], { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

const copy = (data: string, contentTypes: string, to: string, ...extra: string[]) =>
  cli(['copy', '--to', to, '--data', data, '--content-types', contentTypes, ...extra]);

/** Rows per table in a SQLite installation's file. */
function sqliteCounts(dataDir: string): Record<string, number> {
  const db = new SqliteFile(join(dataDir, 'folio.db'), { readonly: true });
  try {
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    const counts: Record<string, number> = {};
    // The search index's FTS5 tables are derived data, not copied: PostgreSQL keeps its own (pg_trgm).
    for (const { name } of tables.filter((t) => !t.name.startsWith(SEARCH.prefix)))
      counts[name] = db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM "${name}"`).get()!.n;
    return counts;
  } finally {
    db.close();
  }
}

async function postgresCount(url: string, table: string): Promise<number> {
  const [row] = await query<{ n: number }>(url, `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM "${table}"`);
  return Number(row!.n);
}

/** `copied TABLE: N rows` lines of a copy's output. */
function copiedLines(stdout: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of stdout.matchAll(/^copied (\S+): (\d+) rows$/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/** The key with its last character changed. */
const tamper = (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');

interface Installation {
  dataDir: string;
  contentTypes: string;
  fullAccess: string;
  readOnly: string;
  before: Record<string, unknown>;
  counts: Record<string, number>;
  target: string;
}

describe.skipIf(!ADMIN_URL)('folio copy --to postgres://… from a seeded SQLite installation', () => {
  let allTypes: Installation;
  let example: Installation & { seed: ExampleSeed };
  /** Servers on the copied PostgreSQL databases, started by the read-back tests. */
  let allTypesOnPg: TestServer | undefined;
  let exampleOnPg: TestServer | undefined;

  beforeAll(async () => {
    const install = async <T>(contentTypes: string, seed: (server: TestServer) => Promise<T>) => {
      const server = await startServer({ contentTypes, dataDir: serverDir(), config: { databaseUrl: undefined } });
      expect(server.instance.db.dialect.name).toBe('sqlite');
      let seeded: T;
      let before: Record<string, unknown>;
      try {
        seeded = await seed(server);
        before = await readEverything(server, server.tokens.fullAccess);
      } finally {
        await server.stop({ keepData: true });
      }
      temps.push(server.dataDir);
      return {
        dataDir: server.dataDir,
        contentTypes,
        fullAccess: server.tokens.fullAccess,
        readOnly: server.tokens.readOnly,
        before,
        counts: sqliteCounts(server.dataDir),
        target: await freshDatabase(),
        seed: seeded,
      };
    };
    allTypes = await install(ALL_TYPES_CONTENT_TYPES, seedAllTypes);
    example = await install(EXAMPLE_CONTENT_TYPES, seedExample);
  }, SLOW);

  it(
    'copies every table into an empty database with exit 0, a progress line and a summary whose counts match the source and the target',
    async () => {
      for (const inst of [allTypes, example]) {
        const run = copy(inst.dataDir, inst.contentTypes, inst.target);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^copying \S+: \d+ rows$/m);
        const reported = copiedLines(run.stdout);
        const total = Object.values(reported).reduce((a, b) => a + b, 0);
        expect(run.stdout).toContain(`done: ${total} rows in ${Object.keys(reported).length} tables; counts checked`);
        // Every table of the source that holds rows is reported with its exact count…
        // The settings version and the list totals are the target's own: its triggers set them as the rows arrive;
        // the realtime lease and admin sessions belong to the source installation.
        const skipped = new Set(['folio_migrations', 'folio_settings_version', 'folio_counts', 'folio_realtime_lease', 'folio_admin_sessions']);
        for (const [table, n] of Object.entries(inst.counts)) {
          if (skipped.has(table) || n === 0) continue;
          expect({ table, rows: reported[table] }).toEqual({ table, rows: n });
        }
        // …and the target really holds that many.
        for (const [table, n] of Object.entries(reported)) expect({ table, rows: await postgresCount(inst.target, table) }).toEqual({ table, rows: n });
      }
      // The seeds reached the tables that matter.
      for (const table of ['showcases', 'files', 'files_related_mph']) expect(allTypes.counts[table]).toBeGreaterThan(0);
      for (const table of ['articles', 'folio_users', 'folio_roles', 'folio_api_tokens', 'folio_api_token_permissions', 'folio_locales']) {
        expect(example.counts[table]).toBeGreaterThan(0);
      }
    },
    SLOW,
  );

  it(
    'reads back every document of every attribute kind through a server on PostgreSQL exactly as before: ids, documentIds, values, link order, component ids, media',
    async () => {
      allTypesOnPg = await startServer({
        contentTypes: ALL_TYPES_CONTENT_TYPES,
        dataDir: serverDir(allTypes.target),
        config: { databaseUrl: allTypes.target },
      });
      servers.push(allTypesOnPg);
      expect(allTypesOnPg.instance.db.dialect.name).toBe('postgres');
      const after = await readEverything(allTypesOnPg, allTypes.fullAccess);
      expect(after).toEqual(allTypes.before);
      // Spot checks, so that an empty "before" could not pass.
      const list = (allTypes.before['showcases published en'] as any).body.data;
      expect(list.length).toBe(5);
      // A timestamp is answered in unix milliseconds (Strapi's TimestampField), whatever form it was sent in.
      expect(list[0]).toMatchObject({ ...SCALARS, aTimestamp: String(Date.parse(SCALARS.aTimestamp)) });
      expect(list[0].aRepeatableComponent.map((c: any) => c.label)).toEqual(['R1', 'R2', 'R3']);
      expect(list[0].aDynamicZone.map((c: any) => c.__component)).toEqual(['parts.note', 'parts.card', 'parts.note']);
      expect(list[0].aManyToMany.map((s: any) => s.documentId)).toEqual([list[4].documentId, list[1].documentId, list[2].documentId]);
      expect(list[0].aMultipleMedia.map((f: any) => f.name)).toEqual(['two.png', 'one.png']);
      expect(list[1].aManyToMany.map((s: any) => s.documentId)).toEqual([list[0].documentId, list[2].documentId]);
      expect(typeof list[0].aComponent.id).toBe('number');
      // The biginteger beyond 2^53 is exact on PostgreSQL too.
      const [row] = await query<{ v: string }>(
        allTypes.target,
        `SELECT CAST("aBigInteger" AS TEXT) AS v FROM showcases WHERE "documentId" = '${list[0].documentId}'`,
      );
      expect(row!.v).toBe('9007199254740993');
    },
    SLOW,
  );

  it(
    'reads back the example installation the same: drafts, fr versions, relations, components, dynamic zones, single types, users with roles',
    async () => {
      exampleOnPg = await startServer({ dataDir: serverDir(example.target), config: { databaseUrl: example.target } });
      servers.push(exampleOnPg);
      const after = await readEverything(exampleOnPg, example.fullAccess);
      expect(after).toEqual(example.before);
      const fr = (example.before['articles published fr'] as any).body.data;
      expect(fr.map((a: any) => a.title)).toEqual(['Premier']);
      const en = (example.before['articles published en'] as any).body.data;
      expect(en.find((a: any) => a.title === 'First').tags.map((t: any) => t.name)).toEqual(['delta', 'gamma', 'alpha']);
      expect((example.before['articles draft en'] as any).body.data.map((a: any) => a.title)).toEqual(['Second (edited draft)', 'First', 'Draft only']);
      expect((example.before.users as any).body.map((u: any) => u.username)).toEqual(['editor1', 'reader']);
      expect(Object.entries(example.before.userRoles as any).map(([name, role]: [string, any]) => [name, role.type])).toEqual([
        ['editor1', 'editor'],
        ['reader', 'authenticated'],
      ]);
      // Locales, the custom role and its grants came along.
      expect((await exampleOnPg.instance.locales.list()).map((l) => l.code).sort()).toEqual(['en', 'fr']);
      expect(await exampleOnPg.instance.locales.defaultCode()).toBe('en');
      expect((await exampleOnPg.instance.roles.find('editor'))?.name).toBe('Editor');
      expect((await exampleOnPg.instance.roles.permissions('editor')).map((p) => p.action).sort()).toEqual(example.seed.editorActions);
    },
    SLOW,
  );

  it(
    'keeps the old API tokens and user JWTs valid after the copy, because the secrets were copied',
    async () => {
      const server = exampleOnPg!;
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      // /api/users is not granted to the public role: only a credential opens it.
      expect((await server.call('GET', '/api/users')).status).toBe(403);
      expect((await server.call('GET', '/api/users', { headers: as(example.fullAccess) })).status).toBe(200);
      expect((await server.call('GET', '/api/users', { headers: as(example.readOnly) })).status).toBe(200);
      expect((await server.call('GET', '/api/users', { headers: as(tamper(example.fullAccess)) })).status).toBe(401);
      // The custom token keeps exactly its action.
      expect((await server.call('GET', '/api/authors', { headers: as(example.seed.customTokenKey) })).status).toBe(200);
      expect((await server.call('GET', '/api/users', { headers: as(example.seed.customTokenKey) })).status).toBe(403);
      // A JWT signed by the SQLite installation before the copy.
      const me = await server.call('GET', '/api/users/me', { headers: as(example.seed.jwt) });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: example.seed.userId, email: 'reader@example.com' });
    },
    SLOW,
  );

  it(
    'lets a copied user log in with the password set before the copy',
    async () => {
      const login = await exampleOnPg!.call('POST', '/api/auth/local', { body: { identifier: 'reader@example.com', password: PASSWORD } });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ id: example.seed.userId, username: 'reader' });
      const me = await exampleOnPg!.call('GET', '/api/users/me', { headers: { authorization: `Bearer ${login.body.jwt}` } });
      expect(me.body.id).toBe(example.seed.userId);
      // The role shows to a caller that may read roles (the user's own role may not, as in Strapi).
      const withRole = await exampleOnPg!.call('GET', `/api/users/${example.seed.userId}?populate=role`, {
        headers: { authorization: `Bearer ${example.fullAccess}` },
      });
      expect(withRole.body.role.type).toBe('authenticated');
      const wrong = await exampleOnPg!.call('POST', '/api/auth/local', { body: { identifier: 'editor1@example.com', password: 'not-the-password' } });
      expect(wrong.status).toBe(400);
    },
    SLOW,
  );

  it(
    'gives new writes ids above the copied ones in every table, with no identity clash',
    async () => {
      const maxId = async (url: string, table: string) => Number((await query<{ m: number }>(url, `SELECT COALESCE(MAX("id"), 0) AS m FROM "${table}"`))[0]!.m);

      const pg = allTypesOnPg!;
      const before = {
        showcases: await maxId(allTypes.target, 'showcases'),
        cards: await maxId(allTypes.target, 'components_parts_cards'),
        files: await maxId(allTypes.target, 'files'),
      };
      const created = await pg.call('POST', '/api/showcases?populate=*', {
        body: { data: { aString: 'after the copy', aComponent: { label: 'New' }, aRepeatableComponent: [{ label: 'N1' }, { label: 'N2' }] } },
      });
      expect(created.status).toBe(201);
      expect(created.body.data.id).toBeGreaterThan(before.showcases);
      expect(created.body.data.aComponent.id).toBeGreaterThan(before.cards);
      const uploaded = await upload(pg.url, {
        files: [{ bytes: await makeImage(PNG_SIZE, PNG_SIZE), filename: 'after.png' }],
        headers: { authorization: `Bearer ${allTypes.fullAccess}` },
      });
      expect(uploaded.status).toBe(201);
      expect(uploaded.body[0].id).toBeGreaterThan(before.files);

      const ex = exampleOnPg!;
      const articles = await maxId(example.target, 'articles');
      const users = await maxId(example.target, 'folio_users');
      const tokens = await maxId(example.target, 'folio_api_tokens');
      const roles = await maxId(example.target, 'folio_roles');
      const tag = await ex.call('POST', '/api/tags', { body: { data: { name: 'after' } } });
      expect(tag.status).toBe(201);
      const article = await ex.call('POST', '/api/articles', { body: { data: { title: 'After the copy', tags: [tag.body.data.documentId] } } });
      expect(article.status).toBe(201);
      expect(article.body.data.id).toBeGreaterThan(articles);
      const user = await ex.instance.users.create({ username: 'newcomer', email: 'newcomer@example.com', password: PASSWORD });
      expect(user.id).toBeGreaterThan(users);
      const role = await ex.instance.roles.create('Reviewer');
      expect(role.id).toBeGreaterThan(roles);
      const token = await ex.instance.tokens.create('after-copy', 'read-only');
      expect(token.id).toBeGreaterThan(tokens);
      expect((await ex.call('GET', '/api/users', { headers: { authorization: `Bearer ${token.accessKey}` } })).status).toBe(200);
    },
    SLOW,
  );

  it(
    'refuses to copy into a database that now holds data, with exit 1 and a message naming --force, and changes nothing',
    async () => {
      const before = await postgresCount(example.target, 'articles');
      const run = copy(example.dataDir, example.contentTypes, example.target);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not empty/i);
      expect(run.stderr).toContain('--force');
      expect(run.stdout).not.toMatch(/^copied /m);
      expect(await postgresCount(example.target, 'articles')).toBe(before);
    },
    SLOW,
  );

  it(
    'replaces the target with --force: the copied rows again, the writes made since gone',
    async () => {
      // The servers on the target must not hold it open while it is replaced.
      if (exampleOnPg) await exampleOnPg.stop({ keepData: true });
      servers.splice(servers.indexOf(exampleOnPg!), 1);
      exampleOnPg = undefined;

      const run = copy(example.dataDir, example.contentTypes, example.target, '--force');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('counts checked');
      for (const [table, n] of Object.entries(example.counts)) {
        // Each installation keeps its own: the migrations it ran, its realtime lease and admin sessions.
        if (['folio_migrations', 'folio_realtime_lease', 'folio_admin_sessions'].includes(table)) continue;
        expect({ table, rows: await postgresCount(example.target, table) }).toEqual({ table, rows: n });
      }
      const again = await startServer({ dataDir: serverDir(example.target), config: { databaseUrl: example.target } });
      servers.push(again);
      expect(await readEverything(again, example.fullAccess)).toEqual(example.before);
      expect((await again.call('GET', '/api/articles?filters[title][$eq]=After the copy')).body.data).toEqual([]);
      // And identities still continue after the copied ids.
      const created = await again.call('POST', '/api/articles', { body: { data: { title: 'After the forced copy' } } });
      expect(created.status).toBe(201);
      const maxCopied = Math.max(...(example.before['articles draft en'] as any).body.data.map((a: any) => a.id));
      expect(created.body.data.id).toBeGreaterThan(maxCopied);
    },
    SLOW,
  );

  it(
    'exits 2 with the usage for --to sqlite:…, for a missing --to, and for a --to that is not a database URL',
    () => {
      for (const args of [
        ['copy', '--to', 'sqlite:x', '--data', example.dataDir, '--content-types', example.contentTypes],
        ['copy', '--data', example.dataDir, '--content-types', example.contentTypes],
        ['copy', '--to', 'mysql://u:p@127.0.0.1/db', '--data', example.dataDir, '--content-types', example.contentTypes],
      ]) {
        const run = cli(args);
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(run.stderr).toContain('Usage: folio copy --to postgres://');
        expect(run.stdout).not.toMatch(/^copied /m);
      }
    },
    SLOW,
  );
});
