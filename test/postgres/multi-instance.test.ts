/**
 * Several Folio instances on one PostgreSQL database behave as one server (issue 10):
 * real `folio serve` processes spawned from source, each with its own data dir, all
 * pointed at the same fresh database. Skipped unless FOLIO_TEST_DATABASE_URL is set (it is
 * the admin URL used to create and drop the databases these tests run on).
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';

import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';
import { killSpawned, removeTempDirs, runCli, serve, timeout, type SpawnedServer as Served } from '../helpers/spawn';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const SLOW = 120_000;

// ---------------------------------------------------------------------------------------
// databases, temp dirs, processes: everything this file creates, and only that, is removed

const databases: string[] = [];

/** A new, empty database (dropped after the file); returns its URL. */
async function freshDatabase(): Promise<string> {
  const url = await createDatabase(ADMIN_URL!, 'folio_multi');
  databases.push(url);
  return url;
}

const query = queryOnce;

afterEach(killSpawned);

afterAll(async () => {
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  removeTempDirs();
});

/** `bun src/cli.ts ARGS --database URL` with a data dir of its own, synchronously. */
const cli = (args: string[], database: string) => runCli(args, { database });

/** Two `folio serve --port 0 --database URL` started at once, each with its own data dir; resolves once both listen. */
const twoInstances = (database: string, env: Record<string, string> = {}) => Promise.all([serve({ database, env }), serve({ database, env })]);

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
      const [a, b] = await twoInstances(database);

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
      const [a, b] = await twoInstances(database);
      const results = await timeout(
        Promise.all(
          Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).call('POST', '/api/articles', { body: { data: { title: `burst ${i}`, views: i } } })),
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
      const [a, b] = await twoInstances(database);
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
        const [a, b] = await twoInstances(database);
        expect((await a.call('GET', '/_health')).status).toBe(204);
        expect((await b.call('GET', '/_health')).status).toBe(204);
        // The example content (a new database of the example types) was written once, by the
        // instance that created the database, and both answer it the same way.
        const titles = async (s: Served) => (await s.call('GET', '/api/articles?sort=title')).body.data.map((x: { title: string }) => x.title);
        expect(await titles(a)).toEqual(['Moving a Strapi project in', 'Welcome to Folio', 'Write your first article']);
        expect(await titles(b)).toEqual(await titles(a));
        expect([a, b].filter((s) => /wrote example content/.test(s.stdout()))).toHaveLength(1);

        for (const server of [a, b]) {
          expect(server.stderr()).toBe('');
          expect(server.stdout()).not.toMatch(/error|exception|already exists|deadlock/i);
        }
        // Exactly one of them synced the content tables; the other found them in place.
        const synced = [a, b].filter((s) => /synced content tables/.test(s.stdout()));
        expect(synced.length).toBe(1);

        const migrations = await query<{ name: string; n: number }>(
          database,
          'SELECT "name", CAST(COUNT(*) AS INTEGER) AS n FROM folio_migrations GROUP BY "name" ORDER BY "name"',
        );
        expect(migrations.length).toBeGreaterThan(0);
        for (const m of migrations) expect(m.n).toBe(1);
        const roles = await query<{ type: string; n: number }>(
          database,
          'SELECT "type", CAST(COUNT(*) AS INTEGER) AS n FROM folio_roles GROUP BY "type" ORDER BY "type"',
        );
        expect(roles).toEqual([
          { type: 'authenticated', n: 1 },
          { type: 'public', n: 1 },
        ]);
        const locales = await query<{ code: string }>(database, 'SELECT "code" FROM folio_locales');
        expect(locales.map((l) => l.code).sort()).toEqual(['en', 'fr']);
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
      const [a, b] = await twoInstances(database, env);
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
      const [a, b] = await twoInstances(database);

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
      const [a, b] = await twoInstances(database);

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
