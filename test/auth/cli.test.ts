/**
 * The access commands of the CLI run from source (users, roles, grants, custom tokens,
 * token regeneration), and what they write seen by a real server on the same data dir.
 */
import { afterAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer, tempDir } from '../helpers/server';

setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, '../..');
const CONTENT_TYPES = resolve(ROOT, 'content-types');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = tempDir('folio-auth-cli-');
  temps.push(dir);
  return dir;
}

/** The environment without anything that would steer Folio, so the flags decide. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FOLIO_') && k !== 'DATABASE_URL') env[k] = v;
  return env;
}

function cli(data: string, ...args: string[]) {
  const result = Bun.spawnSync([process.execPath, 'src/cli.ts', ...args, '--data', data, '--content-types', CONTENT_TYPES], {
    cwd: ROOT,
    env: cleanEnv(),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const stdout = result.stdout.toString();
  return { code: result.exitCode, stdout, stderr: result.stderr.toString(), lastLine: stdout.trim().split('\n').at(-1) ?? '' };
}

describe('folio user', () => {
  it('creates a user that user list then shows', () => {
    const data = dataDir();
    const created = cli(data, 'user', 'create', '--email', 'a@b.co', '--password', 'Passw0rd!');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('a@b.co');
    const list = cli(data, 'user', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter((l) => l.includes('a@b.co'))).toHaveLength(1);
    expect(list.stdout).not.toContain('Passw0rd!');
    expect(list.stdout).not.toContain('$argon2');
  });

  it('exits with 1 on a duplicate user and with 2 when --password is missing', () => {
    const data = dataDir();
    expect(cli(data, 'user', 'create', '--email', 'a@b.co', '--password', 'Passw0rd!').code).toBe(0);
    const duplicate = cli(data, 'user', 'create', '--email', 'A@B.CO', '--password', 'Other-pw1');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('Email or Username are already taken');
    const missing = cli(data, 'user', 'create', '--email', 'c@d.co');
    expect(missing.code).toBe(2);
    expect(missing.stderr + missing.stdout).toContain('--password');
    const list = cli(data, 'user', 'list');
    expect(list.stdout).not.toContain('c@d.co');
    expect(list.stdout.split('\n').filter((l) => /a@b\.co/i.test(l))).toHaveLength(1);
  });
});

describe('folio role and permissions', () => {
  it('creates "Content Editors" as content-editors and grants it an action', () => {
    const data = dataDir();
    const created = cli(data, 'role', 'create', 'Content Editors');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('content-editors');
    expect(cli(data, 'role', 'list').stdout).toMatch(/^content-editors\tContent Editors$/m);
    const granted = cli(data, 'permissions', 'grant', 'content-editors', 'api::article.article.find');
    expect(granted.code).toBe(0);
    const list = cli(data, 'permissions', 'list', 'content-editors');
    expect(list.stdout).toMatch(/^content-editors\tapi::article\.article\.find$/m);
    expect(list.stdout).not.toContain('api::article.article.create');
  });
});

describe('folio token', () => {
  it('creates a custom token, prints its key and lists its expanded actions', () => {
    const data = dataDir();
    const created = cli(data, 'token', 'create', '--name', 'c', '--type', 'custom', '--actions', 'api::article.article.find,api::tag.tag.*');
    expect(created.code).toBe(0);
    expect(created.lastLine).toMatch(/^[0-9a-f]{256}$/);
    const list = cli(data, 'token', 'list');
    expect(list.code).toBe(0);
    const line = list.stdout.split('\n').find((l) => l.startsWith('c\t'))!;
    expect(line).toContain('custom');
    const actions = line.split('\t').at(-1)!.split(',').sort();
    expect(actions).toEqual(
      [
        'api::article.article.find',
        ...['create', 'delete', 'discardDraft', 'find', 'findOne', 'publish', 'unpublish', 'update'].map((a) => `api::tag.tag.${a}`),
      ].sort(),
    );
    expect(list.stdout).not.toContain(created.lastLine);
  });

  it('exits with 2 for --type custom without --actions and creates nothing', () => {
    const data = dataDir();
    const result = cli(data, 'token', 'create', '--name', 'c', '--type', 'custom');
    expect(result.code).toBe(2);
    expect(cli(data, 'token', 'list').stdout).not.toMatch(/^c\t/m);
  });

  it('regenerates a key: the server refuses the old key with 401 and lets the new one do the token’s actions', async () => {
    const data = dataDir();
    const oldKey = cli(data, 'token', 'create', '--name', 'c', '--type', 'custom', '--actions', 'api::article.article.find,api::tag.tag.*').lastLine;
    expect(oldKey).toMatch(/^[0-9a-f]{256}$/);
    const regenerated = cli(data, 'token', 'regenerate', 'c');
    expect(regenerated.code).toBe(0);
    const newKey = regenerated.lastLine;
    expect(newKey).toMatch(/^[0-9a-f]{256}$/);
    expect(newKey).not.toBe(oldKey);
    expect(cli(data, 'token', 'regenerate', 'nope').code).toBe(1);

    // The CLI wrote into the data dir's SQLite file; the server must read that one on every test engine.
    const server = await startServer({ dataDir: data, publicAccess: false, config: { databaseUrl: undefined } });
    try {
      const call = (key: string, method = 'GET', path = '/api/articles', body?: unknown) =>
        server.call(method, path, { headers: { authorization: `Bearer ${key}` }, body });
      const old = await call(oldKey);
      expect(old.status).toBe(401);
      expect(old.body.error.name).toBe('UnauthorizedError');
      expect((await call(newKey)).status).toBe(200);
      expect((await call(newKey, 'POST', '/api/tags', { data: { name: 'from-cli-token' } })).status).toBe(201);
      expect((await call(newKey, 'POST', '/api/articles', { data: { title: 'not allowed' } })).status).toBe(403);
      expect((await call(newKey, 'GET', '/api/authors')).status).toBe(403);
    } finally {
      await server.stop({ keepData: true });
    }
  });

  it('gives a CLI-created user of a CLI-created role exactly that role’s grants on the server', async () => {
    const data = dataDir();
    expect(cli(data, 'role', 'create', 'Content Editors').code).toBe(0);
    expect(cli(data, 'permissions', 'grant', 'content-editors', 'api::article.article.find').code).toBe(0);
    expect(cli(data, 'user', 'create', '--email', 'ed@b.co', '--password', 'Passw0rd!', '--username', 'eddie', '--role', 'content-editors').code).toBe(0);
    // The CLI wrote into the data dir's SQLite file; the server must read that one on every test engine.
    const server = await startServer({ dataDir: data, publicAccess: false, config: { databaseUrl: undefined } });
    try {
      const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'eddie', password: 'Passw0rd!' } });
      expect(login.status).toBe(200);
      const headers = { authorization: `Bearer ${login.body.jwt}` };
      expect((await server.call('GET', '/api/articles', { headers })).status).toBe(200);
      expect((await server.call('GET', '/api/tags', { headers })).status).toBe(403);
      expect((await server.call('POST', '/api/articles', { headers, body: { data: { title: 'no' } } })).status).toBe(403);
      const full = { authorization: `Bearer ${server.tokens.fullAccess}` };
      expect((await server.call('GET', `/api/users/${login.body.user.id}?populate=role`, { headers: full })).body.role.type).toBe('content-editors');
    } finally {
      await server.stop({ keepData: true });
    }
  });
});
