/**
 * Several Folio instances on one PostgreSQL database behave as one server (issue 10):
 * real `folio serve` processes spawned from source, each with its own data dir, all
 * pointed at the same fresh database. Skipped unless FOLIO_TEST_DATABASE_URL is set (it is
 * the admin URL used to create and drop the databases these tests run on).
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const ROOT = resolve(import.meta.dir, '../..');
const CLI = join(ROOT, 'src/cli.ts');
const BUN = process.execPath;
const CONTENT_TYPES = join(ROOT, 'content-types');
const SLOW = 120_000;

// ---------------------------------------------------------------------------------------
// databases, temp dirs, processes: everything this file creates, and only that, is removed

const temps: string[] = [];
const databases: string[] = [];
const running = new Set<ReturnType<typeof Bun.spawn>>();

function tempDir(prefix = 'folio-pg-multi-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A new, empty database (dropped after the file); returns its URL. */
async function freshDatabase(): Promise<string> {
  const url = await createDatabase(ADMIN_URL!, 'folio_multi');
  databases.push(url);
  return url;
}

const query = queryOnce;

afterEach(async () => {
  // Only the servers this file started, each by its own handle.
  for (const proc of running) if (proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
  await Promise.all([...running].map((p) => p.exited));
  running.clear();
});

afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The environment without anything that would steer Folio, plus `extra`. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('FOLIO_') || k === 'PORT' || k === 'HOST' || k === 'DATABASE_URL') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `bun src/cli.ts ARGS --database URL --data DIR --content-types CT`, synchronously. */
function cli(args: string[], database: string, env: Record<string, string> = {}): Run {
  const result = Bun.spawnSync([BUN, CLI, ...args, '--database', database, '--data', tempDir(), '--content-types', CONTENT_TYPES], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: result.exitCode ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

function timeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

interface Served {
  url: string;
  stdout(): string;
  stderr(): string;
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  stop(): Promise<number>;
}

/** Starts `folio serve --port 0 --database URL` with its own data dir; resolves once it listens. */
async function serve(database: string, env: Record<string, string> = {}): Promise<Served> {
  const proc = Bun.spawn([BUN, CLI, 'serve', '--port', '0', '--database', database, '--data', tempDir(), '--content-types', CONTENT_TYPES], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  running.add(proc);
  let out = '';
  let err = '';
  const decoder = new TextDecoder();
  const errDecoder = new TextDecoder();
  const outReader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    for (let i = 0; i < 100_000; i++) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      err += errDecoder.decode(chunk.value, { stream: true });
    }
  })();
  const listening = /^Folio listening on (http:\/\/127\.0\.0\.1:\d+)$/m;
  let match: RegExpMatchArray | null = null;
  await timeout(
    (async () => {
      for (let i = 0; i < 10_000 && !(match = out.match(listening)); i++) {
        const chunk = await outReader.read();
        if (chunk.done) throw new Error(`serve ended before listening (exit ${await proc.exited})\nstdout: ${out}\nstderr: ${err}`);
        out += decoder.decode(chunk.value, { stream: true });
      }
      if (!match) throw new Error(`serve never said it listens\nstdout: ${out}\nstderr: ${err}`);
    })(),
    30_000,
    'waiting for "Folio listening on"',
  );
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    for (let i = 0; i < 100_000; i++) {
      const chunk = await outReader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) break;
      out += decoder.decode(chunk.value, { stream: true });
    }
  })();
  const url = (match as unknown as RegExpMatchArray)[1]!;
  return {
    url,
    stdout: () => out,
    stderr: () => err,
    async call(method, path, { body, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const response = await fetch(url + path, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed };
    },
    async stop() {
      proc.kill('SIGTERM');
      const code = await timeout(proc.exited, 15_000, 'serve to exit after SIGTERM');
      running.delete(proc);
      return code;
    },
  };
}

/** A fresh database with the public role allowed to do everything on articles and tags (granted through the CLI). */
async function preparedDatabase(): Promise<string> {
  const database = await freshDatabase();
  const granted = cli(['permissions', 'grant', 'public', 'api::article.article.*', 'api::tag.tag.*'], database);
  expect(granted.stderr).toBe('');
  expect(granted.code).toBe(0);
  return database;
}

const statuses = (results: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
};

/** The tag names of an article, in link order, as one instance reads them. */
async function tagOrder(server: Served, documentId: string): Promise<string[]> {
  const found = await server.call('GET', `/api/articles/${documentId}?populate[tags][fields][0]=name`);
  expect(found.status).toBe(200);
  return (found.body.data.tags as { name: string }[]).map((t) => t.name);
}

// ---------------------------------------------------------------------------------------

describe.skipIf(!ADMIN_URL)('two folio serve processes on one PostgreSQL database', () => {
  it(
    'shows a write made through one instance on the next read through the other, for create, update and delete',
    async () => {
      const database = await preparedDatabase();
      const [a, b] = await Promise.all([serve(database), serve(database)]);

      const created = await a.call('POST', '/api/articles', { body: { data: { title: 'Written on A', views: 1 } } });
      expect(created.status).toBe(201);
      const id = created.body.data.documentId as string;

      const readOnB = await b.call('GET', `/api/articles/${id}`);
      expect(readOnB.status).toBe(200);
      expect(readOnB.body.data).toMatchObject({ documentId: id, title: 'Written on A', views: 1 });

      const updated = await b.call('PUT', `/api/articles/${id}`, { body: { data: { title: 'Changed on B', views: 2 } } });
      expect(updated.status).toBe(200);
      expect((await a.call('GET', `/api/articles/${id}`)).body.data).toMatchObject({ title: 'Changed on B', views: 2 });

      expect((await a.call('DELETE', `/api/articles/${id}`)).status).toBe(204);
      expect((await b.call('GET', `/api/articles/${id}`)).status).toBe(404);
      expect((await b.call('GET', '/api/articles')).body.meta.pagination.total).toBe(0);
    },
    SLOW,
  );

  it(
    'answers 201 to 2×50 concurrent creates split across both instances, with no 500, distinct documentIds and a total of exactly 100',
    async () => {
      const database = await preparedDatabase();
      const [a, b] = await Promise.all([serve(database), serve(database)]);
      const results = await timeout(
        Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            (i % 2 === 0 ? a : b).call('POST', '/api/articles', { body: { data: { title: `burst ${i}`, views: i } } }),
          ),
        ),
        90_000,
        '100 concurrent POSTs',
      );
      expect(statuses(results)).toEqual({ 201: 100 });
      const ids = results.map((r) => r.body.data.documentId as string);
      expect(new Set(ids).size).toBe(100);
      for (const server of [a, b]) {
        const list = await server.call('GET', '/api/articles?pagination[pageSize]=100&fields[0]=title&sort=views:asc');
        expect(list.status).toBe(200);
        expect(list.body.meta.pagination.total).toBe(100);
        expect(list.body.data.map((d: { title: string }) => d.title)).toEqual(Array.from({ length: 100 }, (_, i) => `burst ${i}`));
        expect(new Set(list.body.data.map((d: { documentId: string }) => d.documentId))).toEqual(new Set(ids));
      }
      // The drafts too: one draft per document, none lost, none doubled.
      const drafts = await a.call('GET', '/api/articles?status=draft&pagination[pageSize]=1');
      expect(drafts.body.meta.pagination.total).toBe(100);
    },
    SLOW,
  );

  it(
    'lets both instances connect different tags after the same tag at the same moment, round after round: every answer 200 and one consistent order on both',
    async () => {
      const database = await preparedDatabase();
      const [a, b] = await Promise.all([serve(database), serve(database)]);
      const ROUNDS = 12;
      const tag = async (name: string) => {
        const created = await a.call('POST', '/api/tags', { body: { data: { name } } });
        expect(created.status).toBe(201);
        return created.body.data.documentId as string;
      };
      const anchor = await tag('anchor');
      const tail = await tag('tail');
      const article = await a.call('POST', '/api/articles', { body: { data: { title: 'Contended list', tags: [anchor, tail] } } });
      expect(article.status).toBe(201);
      const id = article.body.data.documentId as string;

      const deadline = Date.now() + 90_000;
      const rounds: [string, string][] = [];
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS && Date.now() < deadline; round++) {
        const [fromA, fromB] = [`a${round}`, `b${round}`];
        const [idA, idB] = await Promise.all([tag(fromA), tag(fromB)]);
        const answers = await Promise.all([
          a.call('PUT', `/api/articles/${id}`, { body: { data: { tags: { connect: [{ documentId: idA, position: { after: anchor } }] } } } }),
          b.call('PUT', `/api/articles/${id}`, { body: { data: { tags: { connect: [{ documentId: idB, position: { after: anchor } }] } } } }),
        ]);
        for (const [i, answer] of answers.entries()) {
          if (answer.status !== 200) failures.push(`round ${round} ${i ? 'B' : 'A'}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
        rounds.push([fromA, fromB]);
      }
      expect(failures).toEqual([]);
      expect(rounds.length).toBe(ROUNDS);

      const onA = await tagOrder(a, id);
      const onB = await tagOrder(b, id);
      expect(onB).toEqual(onA);
      const all = ['anchor', 'tail', ...rounds.flat()];
      expect([...onA].sort()).toEqual([...all].sort());
      expect(new Set(onA).size).toBe(onA.length);
      // Each connect went right after the anchor: the anchor first, the latest round next (in
      // either order within the round), down to the first round, then the original tail.
      expect(onA[0]).toBe('anchor');
      expect(onA.at(-1)).toBe('tail');
      const middle = onA.slice(1, -1);
      const expectedPairs = [...rounds].reverse().map((pair) => [...pair].sort());
      const actualPairs = Array.from({ length: rounds.length }, (_, i) => middle.slice(2 * i, 2 * i + 2).sort());
      expect(actualPairs).toEqual(expectedPairs);
      // The draft (written by the PUTs) has the same order as the published version.
      const draft = await b.call('GET', `/api/articles/${id}?status=draft&populate[tags][fields][0]=name`);
      expect(draft.body.data.tags.map((t: { name: string }) => t.name)).toEqual(onA);
    },
    SLOW,
  );

  it(
    'brings up two fresh instances started at the same moment on an empty database, the schema created once and no error in either log',
    async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const database = await freshDatabase();
        const [a, b] = await Promise.all([serve(database), serve(database)]);
        expect((await a.call('GET', '/_health')).status).toBe(204);
        expect((await b.call('GET', '/_health')).status).toBe(204);
        // Private by default on both: the roles were created (once) and answer the same way.
        expect((await a.call('GET', '/api/articles')).status).toBe(403);
        expect((await b.call('GET', '/api/articles')).status).toBe(403);

        for (const server of [a, b]) {
          expect(server.stderr()).toBe('');
          expect(server.stdout()).not.toMatch(/error|exception|already exists|deadlock/i);
        }
        // Exactly one of them synced the content tables; the other found them in place.
        const synced = [a, b].filter((s) => /synced content tables/.test(s.stdout()));
        expect(synced.length).toBe(1);

        const migrations = await query<{ name: string; n: number }>(database, 'SELECT "name", CAST(COUNT(*) AS INTEGER) AS n FROM folio_migrations GROUP BY "name" ORDER BY "name"');
        expect(migrations.length).toBeGreaterThan(0);
        for (const m of migrations) expect(m.n).toBe(1);
        const roles = await query<{ type: string; n: number }>(database, 'SELECT "type", CAST(COUNT(*) AS INTEGER) AS n FROM folio_roles GROUP BY "type" ORDER BY "type"');
        expect(roles).toEqual([
          { type: 'authenticated', n: 1 },
          { type: 'public', n: 1 },
        ]);
        const locales = await query<{ code: string }>(database, 'SELECT "code" FROM folio_locales');
        expect(locales.map((l) => l.code)).toEqual(['en']);
        const secrets = await query<{ key: string }>(database, 'SELECT "key" FROM folio_store ORDER BY "key"');
        expect(secrets.map((s) => s.key)).toEqual(['apiTokenSalt', 'jwtSecret']);

        expect(await a.stop()).toBe(0);
        expect(await b.stop()).toBe(0);
      }
    },
    SLOW,
  );

  it(
    'counts login attempts across both instances: with FOLIO_AUTH_RATE_LIMIT=3 the 4th attempt gets 429 whichever instance it reaches',
    async () => {
      const database = await freshDatabase();
      const env = { FOLIO_AUTH_RATE_LIMIT: '3' };
      const [a, b] = await Promise.all([serve(database, env), serve(database, env)]);
      const attempt = (server: Served) => server.call('POST', '/api/auth/local', { body: { identifier: 'nobody@example.com', password: 'wrong-password' } });
      const answers = [];
      for (const server of [a, b, a, b, a]) answers.push(await attempt(server));
      expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 429, 429]);
      expect(answers[3]!.body.error.name).toBe('RateLimitError');
    },
    SLOW,
  );

  it(
    'accepts on one instance a JWT issued by the other (registration on one, login on the other)',
    async () => {
      const database = await preparedDatabase();
      const [a, b] = await Promise.all([serve(database), serve(database)]);

      const registered = await a.call('POST', '/api/auth/local/register', {
        body: { username: 'shared', email: 'shared@example.com', password: 'Secret-pass-1' },
      });
      expect(registered.status).toBe(200);
      const jwt = registered.body.jwt as string;
      for (const server of [a, b]) {
        const me = await server.call('GET', '/api/users/me', { headers: { authorization: `Bearer ${jwt}` } });
        expect(me.status).toBe(200);
        expect(me.body.email).toBe('shared@example.com');
      }
      // A login on B gives a JWT that A accepts; a tampered one is refused by both.
      const login = await b.call('POST', '/api/auth/local', { body: { identifier: 'shared@example.com', password: 'Secret-pass-1' } });
      expect(login.status).toBe(200);
      expect((await a.call('GET', '/api/users/me', { headers: { authorization: `Bearer ${login.body.jwt}` } })).status).toBe(200);
      const [header, payload, signature] = jwt.split('.') as [string, string, string];
      const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
      for (const server of [a, b]) {
        expect((await server.call('GET', '/api/users/me', { headers: { authorization: `Bearer ${tampered}` } })).status).toBe(401);
      }
    },
    SLOW,
  );

  it(
    'accepts on both instances an API token created with folio token create --database, and refuses it on both once revoked',
    async () => {
      const database = await preparedDatabase();
      const [a, b] = await Promise.all([serve(database), serve(database)]);

      const created = cli(['token', 'create', '--name', 'shared-ci', '--type', 'full-access'], database);
      expect(created.code).toBe(0);
      const key = created.stdout.trim().split('\n').at(-1)!;
      expect(key.length).toBeGreaterThan(20);
      // Authors are not granted to the public role: only the token opens them.
      for (const server of [a, b]) {
        expect((await server.call('GET', '/api/authors')).status).toBe(403);
        const listed = await server.call('GET', '/api/authors', { headers: { authorization: `Bearer ${key}` } });
        expect(listed.status).toBe(200);
        expect(listed.body.data).toEqual([]);
        expect((await server.call('GET', '/api/authors', { headers: { authorization: `Bearer ${key}x` } })).status).toBe(401);
      }
      // A write with the token on A is readable with the token on B.
      const author = await a.call('POST', '/api/authors', { body: { data: { name: 'Token Author' } }, headers: { authorization: `Bearer ${key}` } });
      expect(author.status).toBe(201);
      const onB = await b.call('GET', `/api/authors/${author.body.data.documentId}`, { headers: { authorization: `Bearer ${key}` } });
      expect(onB.status).toBe(200);
      expect(onB.body.data.name).toBe('Token Author');
      // Revoked through the CLI: refused at once by both.
      expect(cli(['token', 'revoke', 'shared-ci'], database).code).toBe(0);
      for (const server of [a, b]) expect((await server.call('GET', '/api/authors', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    },
    SLOW,
  );
});
