/**
 * `folio export` / `folio import ARCHIVE`: a whole installation moves between engines in the
 * portable archive, ids and documentIds kept (SQLite → PostgreSQL → SQLite, answers equal;
 * skipped without FOLIO_TEST_DATABASE_URL); an import refuses a target holding data unless
 * --force; a corrupt or truncated archive is a clear error that leaves the target empty.
 * The engine under test (SQLite, or PostgreSQL with FOLIO_TEST_DATABASE_URL) is the target of
 * the last two.
 */
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryOnce } from '../helpers/postgres';
import { cliOutput, lines, serve, spawnCli, tempDir, type CliOptions, type SpawnedServer } from '../helpers/spawn';
import { ADMIN_URL, scratchInstallations } from '../helpers/installations';
import { makeImage, upload } from '../upload/helpers';

const SLOW = 180_000;
const { sqlite: sqliteInstallation, postgres: postgresInstallation, installation } = scratchInstallations({ name: 'folio_export' });
const cli = cliOutput;

async function ok(server: SpawnedServer, method: string, path: string, body: unknown, key: string) {
  const res = await server.call(method, path, { body, headers: { authorization: `Bearer ${key}` } });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An installation with a bit of everything: locales, drafts, links, components, media, a user, a token. */
async function seeded(at: CliOptions): Promise<string> {
  cli(['locales', 'add', 'fr'], at);
  const key = lines(cli(['token', 'create', '--name', 'mover', '--type', 'full-access'], at)).at(-1)!;
  cli(['user', 'create', '--email', 'ada@example.com', '--username', 'ada', '--password', 'Correct-Horse-9'], at);
  const server = await serve(at);
  const file = await upload(server.url, {
    files: [{ bytes: await makeImage(6, 4), filename: 'pic.png', type: 'image/png' }],
    headers: { authorization: `Bearer ${key}` },
  });
  expect(file.status).toBe(201);
  const tag = (await ok(server, 'POST', '/api/tags', { data: { name: 'moved' } }, key)).data.documentId;
  const article = (
    await ok(
      server,
      'POST',
      '/api/articles',
      { data: { title: 'Hello', tags: [tag], cover: file.body[0].id, seo: { metaTitle: 'S' }, links: [{ label: 'a', url: 'https://a.example' }] } },
      key,
    )
  ).data;
  await ok(server, 'PUT', `/api/articles/${article.documentId}?locale=fr`, { data: { title: 'Bonjour', seo: { metaTitle: 'S fr' } } }, key);
  await ok(server, 'POST', '/api/articles?status=draft', { data: { title: 'Only a draft', related: [article.documentId] } }, key);
  await ok(server, 'PUT', '/api/global', { data: { siteName: 'Moved site' } }, key);
  await server.stop();
  return key;
}

/** What a client reads, for comparing installations. */
async function answers(at: CliOptions, key: string): Promise<Record<string, unknown>> {
  const server = await serve(at);
  const out: Record<string, unknown> = {};
  for (const path of ['articles', 'tags']) {
    for (const status of ['draft', 'published']) {
      for (const locale of ['en', 'fr'])
        out[`${path} ${status} ${locale}`] = await ok(server, 'GET', `/api/${path}?populate=*&status=${status}&locale=${locale}&sort=id:asc`, undefined, key);
    }
  }
  out.global = (await server.call('GET', '/api/global', { headers: { authorization: `Bearer ${key}` } })).body;
  out.users = await ok(server, 'GET', '/api/users', undefined, key);
  out.files = await ok(server, 'GET', '/api/upload/files?sort=id:asc', undefined, key);
  out.locales = await ok(server, 'GET', '/api/i18n/locales', undefined, key);
  await server.stop();
  return out;
}

const archiveIn = () => join(tempDir('folio-archive-'), 'export.tar.gz');

describe('export and import', () => {
  it.skipIf(!ADMIN_URL)(
    'an export from SQLite imports into PostgreSQL and back with every answer, id and documentId the same',
    async () => {
      const sqlite = sqliteInstallation();
      const key = await seeded(sqlite);
      const expected = await answers(sqlite, key);

      const first = archiveIn();
      expect(lines(cli(['export', first], sqlite)).at(-1)).toMatch(/^done: exported to .* rows in \d+ tables, 1 files$/);
      const postgres = await postgresInstallation();
      expect(cli(['import', first], postgres)).toMatch(/counts checked/);
      expect(await answers(postgres, key)).toEqual(expected);
      // Sequences continue after the imported ids.
      const [max] = await queryOnce<{ n: number }>(postgres.database!, 'SELECT MAX(id)::int AS n FROM articles');
      const server = await serve(postgres);
      expect((await ok(server, 'POST', '/api/articles', { data: { title: 'New' } }, key)).data.id).toBeGreaterThan(max!.n);
      await server.stop();

      // And back: PostgreSQL → SQLite, the new article included.
      const withNew = await answers(postgres, key);
      const second = archiveIn();
      cli(['export', second], postgres);
      const back = sqliteInstallation();
      cli(['import', second], back);
      expect(await answers(back, key)).toEqual(withNew);
    },
    SLOW,
  );

  it(
    'an import refuses a target that holds data unless --force, which replaces its content',
    async () => {
      const source = sqliteInstallation();
      const key = await seeded(source);
      const archive = archiveIn();
      cli(['export', archive], source);

      const target = await installation();
      cli(['token', 'create', '--name', 'already-here', '--type', 'read-only'], target);
      const refused = await spawnCli(['import', archive], target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe('Error: The target installation is not empty; use --force to replace its content\n');
      expect(cli(['token', 'list'], target)).toMatch(/already-here/);

      const forced = await spawnCli(['import', archive, '--force'], target);
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      const tokens = cli(['token', 'list'], target);
      expect(tokens).not.toMatch(/already-here/);
      expect(tokens).toMatch(/mover/);
      expect(await answers(target, key)).toEqual(await answers(source, key));
    },
    SLOW,
  );

  it(
    'a corrupt or truncated archive is a clear error and leaves the target empty',
    async () => {
      const source = sqliteInstallation();
      await seeded(source);
      const archive = archiveIn();
      cli(['export', archive], source);
      const bytes = new Uint8Array(await Bun.file(archive).arrayBuffer());
      const truncated = archive.replace('export', 'truncated');
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
      const corrupt = archive.replace('export', 'corrupt');
      const flipped = bytes.slice();
      for (let i = 200; i < flipped.length - 20; i += 97) flipped[i]! ^= 0x5a;
      writeFileSync(corrupt, flipped);

      for (const file of [truncated, corrupt]) {
        const target = await installation();
        const run = await spawnCli(['import', file], target);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/^Error: .*(not a complete Folio archive|manifest)/);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(existsSync(target.data!) ? readdirSync(target.data!) : []).toEqual([]);
        if (target.database) {
          const counts = await queryOnce<{ n: number }>(
            target.database,
            "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'folio_api_tokens'",
          );
          if (counts[0]!.n)
            expect(
              (
                await queryOnce<{ n: number }>(target.database, 'SELECT ((SELECT COUNT(*) FROM folio_api_tokens) + (SELECT COUNT(*) FROM articles))::int AS n')
              )[0]!.n,
            ).toBe(0);
        }
      }
    },
    SLOW,
  );
});
