/**
 * `folio export` / `import` and `folio backup` / `restore` carry content history, the audit
 * log and releases (with their entries): what `folio history list`, `folio audit` and
 * `folio release show` print is the same on the copy. The engine under test (SQLite, or
 * PostgreSQL with FOLIO_TEST_DATABASE_URL) on both sides.
 */
import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { cliOutput, lines, serve, tempDir, type CliOptions } from '../helpers/spawn';
import { scratchInstallations } from '../helpers/installations';

const SLOW = 180_000;
const { installation } = scratchInstallations({ name: 'folio_editorial' });
const cli = cliOutput;

/** An installation whose history, audit log and releases hold something. */
async function seeded(at: CliOptions): Promise<string> {
  cli(['permissions', 'grant', 'public', 'api::article.article.*'], at);
  const key = lines(cli(['token', 'create', '--name', 'editor', '--type', 'full-access'], at)).at(-1)!;
  const server = await serve(at);
  const post = async (path: string, data: unknown) =>
    (await server.call('POST', path, { body: { data }, headers: { authorization: `Bearer ${key}` } })).body.data;
  const article = await post('/api/articles?status=draft', { title: 'Kept history', summary: 'first' });
  await server.call('PUT', `/api/articles/${article.documentId}?status=draft`, { body: { data: { summary: 'second' } } });
  await server.stop();
  cli(['release', 'create', 'later', '--at', '2999-01-01T00:00:00Z'], at);
  cli(['release', 'add', 'later', '--type', 'articles', '--document', article.documentId, '--action', 'publish'], at);
  return article.documentId;
}

/** What the commands print of history, the audit log and releases. */
function editorial(at: CliOptions, documentId: string) {
  return {
    history: JSON.parse(cli(['history', 'list', 'articles', documentId, '--json'], at)),
    audit: JSON.parse(cli(['audit', '--json'], at)),
    release: JSON.parse(cli(['release', 'show', 'later', '--json'], at)),
  };
}

describe('history, the audit log and releases move with the installation', () => {
  it(
    'export then import, and backup then restore, keep every version, audit row and release',
    async () => {
      const source = await installation();
      const documentId = await seeded(source);
      const expected = editorial(source, documentId);
      expect(expected.history).toHaveLength(2);
      expect(expected.history[0]).toMatchObject({ changed: ['summary'], actor: { kind: 'public' } });
      expect(expected.audit.map((r: { action: string }) => r.action)).toEqual(
        expect.arrayContaining(['api-token.create', 'entry.create', 'entry.update', 'release.create', 'release.entry.add']),
      );
      expect(expected.release.entries).toEqual([{ type: 'api::article.article', documentId, locale: 'en', action: 'publish' }]);

      const archive = join(tempDir('folio-editorial-'), 'export.tar.gz');
      cli(['export', archive], source);
      const imported = await installation();
      cli(['import', archive], imported);
      expect(editorial(imported, documentId)).toEqual(expected);

      const backup = join(tempDir('folio-editorial-'), 'backup.db');
      cli(['backup', backup], source);
      const restored = await installation();
      cli(['restore', backup], restored);
      expect(editorial(restored, documentId)).toEqual(expected);
    },
    SLOW,
  );
});
