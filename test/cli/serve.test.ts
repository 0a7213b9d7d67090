/**
 * `folio serve` run from source (`bun src/cli.ts serve`) as a user runs it: a child process
 * on a temp data dir that the CLI prepares, a real server on 127.0.0.1 with port 0. The
 * other commands: test/cli/commands.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyContentTypes, killSpawned, lines, removeTempDirs, runCli as cli, serve, spawnCli, tempDir, timeout } from '../helpers/spawn';

const SLOW = 30_000;

// Only the processes and temp dirs this file made, each by its own handle.
afterEach(killSpawned);
afterAll(removeTempDirs);

/** A new installation of the example types starts with example content (test/cli/first-start.test.ts); these start empty. */
const EMPTY = { env: { FOLIO_EXAMPLE_CONTENT: 'false' } };

// ---------------------------------------------------------------------------------------

describe('serve', () => {
  it(
    'listens on the real port for --port 0, answers /_health with 204, keeps content private and exits on SIGTERM',
    async () => {
      const server = await serve(EMPTY);
      expect(server.port).toBeGreaterThan(0);
      const health = await fetch(`${server.url}/_health`);
      expect(health.status).toBe(204);
      const articles = await fetch(`${server.url}/api/articles`);
      expect(articles.status).toBe(403);
      const body = (await articles.json()) as { data: unknown; error: { status: number; name: string } };
      expect(body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError' } });
      expect(await server.stop()).toBe(0);
      await expect(fetch(`${server.url}/_health`)).rejects.toThrow();
    },
    SLOW,
  );

  it(
    'accepts a token created with the CLI and rejects an unknown one with 401',
    async () => {
      const data = tempDir();
      const server = await serve({ data, ...EMPTY });
      try {
        const created = cli(['token', 'create', '--name', 'reader', '--type', 'read-only'], { data });
        const key = lines(created.stdout).at(-1)!;
        const ok = await fetch(`${server.url}/api/articles`, { headers: { authorization: `Bearer ${key}` } });
        expect(ok.status).toBe(200);
        expect(((await ok.json()) as { data: unknown[] }).data).toEqual([]);
        const bad = await fetch(`${server.url}/api/articles`, { headers: { authorization: `Bearer ${'0'.repeat(256)}` } });
        expect(bad.status).toBe(401);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );

  it(
    'exits non-zero naming the file when a content type is not valid JSON',
    async () => {
      const types = copyContentTypes();
      writeFileSync(join(types, 'article.json'), '{ "kind": "collectionType", ');
      const { code, stderr, stdout } = await timeout(spawnCli(['serve', '--port', '0'], { contentTypes: types }), 15_000, 'serve to fail');
      expect(code).not.toBe(0);
      expect(stderr).toContain('article.json');
      expect(stderr).toMatch(/JSON/);
      expect(stdout).not.toContain('Folio listening');
    },
    SLOW,
  );

  it(
    'exits non-zero naming the file and the attribute when a relation targets a missing content type',
    async () => {
      const types = copyContentTypes();
      const schema = JSON.parse(readFileSync(join(types, 'article.json'), 'utf8'));
      schema.attributes.category.target = 'api::nope.nope';
      writeFileSync(join(types, 'article.json'), JSON.stringify(schema));
      const { code, stderr } = await timeout(spawnCli(['serve', '--port', '0'], { contentTypes: types }), 15_000, 'serve to fail');
      expect(code).not.toBe(0);
      expect(stderr).toContain('article.json');
      expect(stderr).toContain('category');
      expect(stderr).toContain('api::nope.nope');
      expect(stderr).not.toContain('    at ');
    },
    SLOW,
  );

  it(
    'keeps the data across a restart on the same data dir, and the restart changes no schema',
    async () => {
      const data = tempDir();
      const first = await serve({ data, ...EMPTY });
      let documentId: string;
      try {
        expect(first.stdout()).toMatch(/synced content tables: \d+ change\(s\)/);
        expect((await fetch(`${first.url}/api/articles`)).status).toBe(403);
        const grant = cli(['permissions', 'grant', 'public', 'api::article.article.create', 'api::article.article.find'], { data });
        expect(grant.code).toBe(0);
        const created = await fetch(`${first.url}/api/articles`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: { title: 'Survives a restart' } }),
        });
        expect(created.status).toBe(201);
        documentId = ((await created.json()) as { data: { documentId: string } }).data.documentId;
      } finally {
        expect(await first.stop()).toBe(0);
      }

      const second = await serve({ data });
      try {
        expect(second.stdout()).not.toContain('synced content tables');
        const list = await fetch(`${second.url}/api/articles`);
        expect(list.status).toBe(200);
        const body = (await list.json()) as { data: { documentId: string; title: string }[] };
        expect(body.data.map((a) => [a.documentId, a.title])).toEqual([[documentId, 'Survives a restart']]);
      } finally {
        expect(await second.stop()).toBe(0);
      }

      const migrate = cli(['migrate'], { data });
      expect(migrate.code).toBe(0);
      expect(migrate.stdout).toContain('content tables are up to date');
      expect(migrate.stdout).not.toMatch(/^applied system migration/m);
    },
    SLOW,
  );
});
