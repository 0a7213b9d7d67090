/**
 * `folio backup` while a server takes writes, then `folio restore` into a new installation:
 * the restored server answers the same documents (each with its links and components), the
 * API token and the user session made before still work, the user logs in, the uploaded
 * file is served. SQLite by default; with FOLIO_TEST_DATABASE_URL the source and the restored
 * installation are PostgreSQL databases (the backup is then the portable archive).
 */
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryOnce } from '../helpers/postgres';
import { cliOutput, lines, serve, spawnCli, tempDir, type SpawnedServer } from '../helpers/spawn';
import { scratchInstallations } from '../helpers/installations';
import { makeImage, upload } from '../upload/helpers';

const SLOW = 180_000;
/** A new installation's flags: a temp data dir, and on PostgreSQL a database of its own. */
const { installation } = scratchInstallations({ name: 'folio_transfer' });
const cli = cliOutput;

async function ok(server: SpawnedServer, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const res = await server.call(method, path, { body, headers });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every article with populate=*, page by page (pages hold at most 100). */
async function allArticles(server: SpawnedServer): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const body = await ok(server, 'GET', `/api/articles?populate=*&sort=id:asc&pagination[pageSize]=100&pagination[page]=${page}`);
    out.push(...body.data);
    if (page >= body.meta.pagination.pageCount) return out;
  }
}
const PASSWORD = 'Correct-Horse-9';

describe('backup and restore', () => {
  it(
    'a backup taken during a stream of writes restores into a server answering the same documents, with working tokens, sessions and logins',
    async () => {
      const source = await installation();
      cli(
        ['permissions', 'grant', 'public', 'api::article.article.*', 'api::tag.tag.*', 'plugin::upload.content-api.upload', 'plugin::upload.content-api.find'],
        source,
      );
      const key = lines(cli(['token', 'create', '--name', 'before-backup', '--type', 'read-only'], source)).at(-1)!;
      cli(['user', 'create', '--email', 'ada@example.com', '--username', 'ada', '--password', PASSWORD], source);

      const server = await serve(source);
      const image = await makeImage(8, 6);
      const uploaded = await upload(server.url, { files: [{ bytes: image, filename: 'cover.png', type: 'image/png' }] });
      expect(uploaded.status).toBe(201);
      const fileUrl: string = uploaded.body[0].url;
      const session = (await ok(server, 'POST', '/api/auth/local', { identifier: 'ada', password: PASSWORD })).jwt as string;
      const tag = (await ok(server, 'POST', '/api/tags', { data: { name: 'kept' } })).data.documentId as string;

      // Every article links the tag and holds a component: a backup missing either for an
      // article it holds would be torn.
      let n = 0;
      const write = () =>
        ok(server, 'POST', '/api/articles', {
          data: {
            title: `Article ${++n}`,
            tags: [tag],
            cover: uploaded.body[0].id,
            seo: { metaTitle: `Seo ${n}` },
            links: [{ label: `l${n}`, url: `https://example.com/${n}` }],
          },
        });
      for (let i = 0; i < 5; i++) await write();
      const before = n;
      const file = join(tempDir('folio-archive-'), 'backup.tar.gz');
      let backupDone = false;
      const backup = spawnCli(['backup', file], source).finally(() => (backupDone = true));
      // Writes go on for as long as the backup runs (and a few more).
      while (!backupDone || n < before + 5) await write();
      const backupRun = await backup;
      expect(backupRun.stderr).toBe('');
      expect(backupRun.code).toBe(0);

      const sourceList = await allArticles(server);
      expect(sourceList.length).toBe(n);
      await server.stop();

      const target = await installation();
      const restore = await spawnCli(['restore', file], target);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toMatch(/counts checked/);

      const restored = await serve(target);
      const list = await allArticles(restored);
      // Everything written before the backup began is there; later writes may or may not be.
      expect(list.length).toBeGreaterThanOrEqual(before);
      const sourceById = new Map(sourceList.map((a: any) => [a.documentId, a]));
      for (const article of list) {
        expect(article).toEqual(sourceById.get(article.documentId));
        expect(article.tags.map((t: any) => t.documentId)).toEqual([tag]);
        expect(article.seo.metaTitle).toBe(article.title.replace('Article', 'Seo'));
        expect(article.links).toHaveLength(1);
        expect(article.cover.url).toBe(fileUrl);
        expect((await ok(restored, 'GET', `/api/articles/${article.documentId}?populate=*`)).data).toEqual(article);
      }

      // The token and the session from before the backup still work (a wrong key does not).
      expect((await restored.call('GET', '/api/articles', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      expect((await restored.call('GET', '/api/articles', { headers: { authorization: `Bearer ${key.slice(0, -1)}x` } })).status).toBe(401);
      expect((await ok(restored, 'GET', '/api/users/me', undefined, { authorization: `Bearer ${session}` })).username).toBe('ada');
      expect((await ok(restored, 'POST', '/api/auth/local', { identifier: 'ada@example.com', password: PASSWORD })).user.username).toBe('ada');
      const served = await fetch(restored.url + fileUrl);
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(image);

      // New writes continue after the restored ids.
      const created = await ok(restored, 'POST', '/api/articles', { data: { title: 'After restore' } });
      expect(created.data.id).toBeGreaterThan(Math.max(...list.map((a: any) => a.id)));
      await restored.stop();
    },
    SLOW,
  );

  it(
    'restore refuses a target that holds data unless --force, and a truncated backup leaves the target untouched',
    async () => {
      const source = await installation();
      cli(['token', 'create', '--name', 'one', '--type', 'read-only'], source);
      const dir = tempDir('folio-archive-');
      const file = join(dir, 'backup.tar.gz');
      cli(['backup', file], source);

      // The source itself holds data: no --force, no restore.
      const refused = await spawnCli(['restore', file], source);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/not empty; use --force/);
      expect(cli(['token', 'list'], source)).toMatch(/one/);
      const forced = await spawnCli(['restore', file, '--force'], source);
      expect(forced.code).toBe(0);
      expect(cli(['token', 'list'], source)).toMatch(/one/);

      const bytes = await Bun.file(file).arrayBuffer();
      const truncated = join(dir, 'truncated.tar.gz');
      writeFileSync(truncated, new Uint8Array(bytes).subarray(0, Math.floor(bytes.byteLength * 0.6)));
      const target = await installation();
      const broken = await spawnCli(['restore', truncated], target);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/is not a complete Folio archive/);
      expect(broken.stderr).not.toMatch(/\n\s+at /);
      // Nothing left behind: no data dir (SQLite), no rows (PostgreSQL).
      expect(existsSync(target.data!) ? readdirSync(target.data!).filter((f) => f !== 'test-database-url') : []).toEqual([]);
      if (target.database) {
        const tables = await queryOnce<{ n: number }>(
          target.database,
          "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('folio_api_tokens', 'articles')",
        );
        if (tables[0]!.n > 0) expect((await queryOnce<{ n: number }>(target.database, 'SELECT COUNT(*)::int AS n FROM folio_api_tokens'))[0]!.n).toBe(0);
      }
    },
    SLOW,
  );
});
