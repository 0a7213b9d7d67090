/**
 * `folio import strapi ARCHIVE` against the real thing: the Strapi peer (a private copy) is
 * seeded through its REST API, its answers recorded, then `strapi export --no-encrypt` writes
 * a `.tar.gz` and a `.tar` (`--no-compress`); Folio imports them and must answer the same
 * documents (ids, documentIds, values, relation order, components, files) and let the user
 * log in. An export holds no API tokens, so Folio's own token reads. Skips when the peer is
 * not installed (shared/peers/strapi/setup.sh installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { importStrapi } from '../../src/transfer/strapi/import';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { startServer, tempDir, TEST_DATABASE_URL } from '../helpers/server';
import { runCli } from '../helpers/spawn';
import { answers, makeProject, peerMissing, QUERIES, seed, USER, type StrapiProject } from './strapi-peer';

const missing = peerMissing();
if (missing) console.warn(`skipping test/transfer/strapi-archive.test.ts: ${missing}`);

const databases: string[] = [];
const dirs: string[] = [];

async function installation() {
  const base = tempDir('folio-strapi-archive-');
  dirs.push(base);
  const databaseUrl = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_archive') : undefined;
  if (databaseUrl) databases.push(databaseUrl);
  const dataDir = join(base, 'data');
  const contentTypes = join(base, 'content-types');
  const flags = { data: dataDir, contentTypes, ...(databaseUrl ? { database: databaseUrl } : {}) };
  return { config: resolveConfig(flags), flags, dataDir, contentTypes, databaseUrl };
}

describe.skipIf(!!missing)('folio import strapi ARCHIVE', () => {
  let project: StrapiProject;
  let strapi: Record<string, unknown>;
  let gz: string;
  let plain: string;

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
    const out = tempDir('folio-strapi-export-');
    dirs.push(out);
    gz = project.exportArchive(join(out, 'export'));
    plain = project.exportArchive(join(out, 'plain'), false);
  }, 300_000);

  afterAll(async () => {
    await project?.stop();
    if (TEST_DATABASE_URL) await dropDatabases(TEST_DATABASE_URL, databases);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('a strapi export .tar.gz imports with every document answering as Strapi did and its user logging in with the same password', async () => {
    const target = await installation();
    const report = await importStrapi({ source: gz, config: target.config, out: { write: () => {} } });
    expect(report.notes.join('\n')).toContain('holds no API tokens');
    // The schemas came out of the archive into Folio's layout.
    expect(readdirSync(target.contentTypes).sort()).toEqual([
      'article.json',
      'author.json',
      'category.json',
      'components',
      'global.json',
      'homepage.json',
      'tag.json',
    ]);
    const server = await startServer({
      dataDir: target.dataDir,
      contentTypes: target.contentTypes,
      publicAccess: false,
      config: { databaseUrl: target.config.databaseUrl },
    });
    try {
      const folio = await answers(server.url, server.tokens.fullAccess);
      for (const path of QUERIES) expect({ path, ...(folio[path] as object) }).toEqual({ path, ...(strapi[path] as object) });
      const cover = (strapi[QUERIES[0]!] as any).body.data.find((a: any) => a.cover).cover;
      for (const url of [cover.url, cover.formats.thumbnail.url]) {
        const file = await fetch(`${server.url}${url}`);
        expect(file.status).toBe(200);
        expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(readFileSync(join(project.dir, 'public', url))));
      }
      const login = await server.call('POST', '/api/auth/local', { body: { identifier: USER.email, password: USER.password } });
      expect(login.status).toBe(200);
      expect(login.body.user.username).toBe(USER.username);
      const wrong = await server.call('POST', '/api/auth/local', { body: { identifier: USER.email, password: 'not-it' } });
      expect(wrong.status).toBe(400);
      // The Public role's grants came along: an anonymous read answers as Strapi's did.
      const anonymous = await fetch(`${server.url}/api/tags`);
      expect(anonymous.status).toBe(200);
    } finally {
      await server.stop({ keepData: true });
    }
  }, 120_000);

  test('a --no-compress .tar imports through the CLI with the same counts as the project directory, and says what an export leaves out', async () => {
    const dry = (source: string) => {
      const base = tempDir('folio-strapi-archive-dry-');
      dirs.push(base);
      const run = runCli(['import', 'strapi', source, '--dry-run'], { data: join(base, 'data'), contentTypes: join(base, 'ct') });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      return run.stdout.split('\n').filter((l) => l.startsWith('would import') && !l.includes('API token'));
    };
    expect(dry(plain)).toEqual(dry(project.dir));
    const run = runCli(['import', 'strapi', plain], (await installation()).flags);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('imported api::article.article: 4 document(s), 9 version row(s)');
    expect(run.stdout).toContain('imported 4 uploaded file(s)');
    expect(run.stdout).toContain('note: a "strapi export" archive holds no API tokens and no admin users');
    expect(run.stdout).toContain("note: it holds none of the project's secrets (API_TOKEN_SALT, JWT_SECRET)");
    expect(run.stdout).toContain('counts checked');
  }, 60_000);

  test('a truncated archive, an encrypted one and a file that is no archive stop the import with a message, and nothing is written', async () => {
    const base = tempDir('folio-strapi-archive-bad-');
    dirs.push(base);
    const truncated = join(base, 'truncated.tar.gz');
    copyFileSync(gz, truncated);
    truncateSync(truncated, Math.floor(readFileSync(gz).length / 2));
    const encrypted = join(base, 'export.tar.gz.enc');
    copyFileSync(gz, encrypted);
    const text = join(base, 'notes.txt');
    writeFileSync(text, 'hello\n');
    const expectations: [string, string][] = [
      [truncated, 'is not a complete "strapi export" archive'],
      [encrypted, 'strapi export --no-encrypt'],
      [text, 'not a directory nor a "strapi export" archive'],
    ];
    for (const [file, message] of expectations) {
      const target = await installation();
      const run = runCli(['import', 'strapi', file], target.flags);
      expect({ file, code: run.code }).toEqual({ file, code: 1 });
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('Nothing was imported.');
      expect(existsSync(target.contentTypes)).toBe(false);
      expect(existsSync(target.dataDir)).toBe(false);
    }
  }, 60_000);
});
