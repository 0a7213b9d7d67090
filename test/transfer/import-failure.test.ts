/**
 * `folio import ARCHIVE` that fails part-way (a bad row in the middle of a table, found by the
 * database after other tables went in) leaves the target as it was, on the engine under test
 * (SQLite, or PostgreSQL with FOLIO_TEST_DATABASE_URL): into an empty target nothing it created
 * remains (no data dir, no tables, no functions); into an installation holding data, the data
 * and the schema are what they were. The exit code is 1 and the message names the table.
 */
import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveWriter, entryText, readArchive } from '../../src/transfer/archive';
import { queryOnce } from '../helpers/postgres';
import { cliOutput, lines, serve, spawnCli, tempDir, type CliOptions } from '../helpers/spawn';
import { scratchInstallations } from '../helpers/installations';

const SLOW = 180_000;
/** A new installation on the engine under test (nothing created yet: no data dir, an empty database). */
const { installation } = scratchInstallations({ name: 'folio_import_failure', absentDataDir: true });
const cli = cliOutput;

async function addArticles(at: CliOptions, key: string, titles: string[]): Promise<void> {
  const server = await serve(at);
  try {
    for (const title of titles) {
      const res = await server.call('POST', '/api/articles', { body: { data: { title } }, headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 201) throw new Error(`POST /api/articles → ${res.status} ${JSON.stringify(res.body)}`);
    }
  } finally {
    await server.stop();
  }
}

/**
 * An export whose articles table has, in its middle, a copy of its first row: valid JSON with
 * the manifest's columns and count, which only the database refuses (a duplicate key), after
 * the tables before it were written.
 */
async function archiveWithBadRow(): Promise<string> {
  const source: CliOptions = { data: tempDir('folio-import-failure-src-') };
  const key = lines(cli(['token', 'create', '--name', 'source', '--type', 'full-access'], source)).at(-1)!;
  await addArticles(source, key, ['one', 'two', 'three']);
  const good = join(tempDir('folio-import-failure-archive-'), 'good.tar.gz');
  cli(['export', good], source);
  const bad = good.replace('good', 'bad');
  const writer = new ArchiveWriter(bad);
  let replaced = false;
  for await (const entry of readArchive(good)) {
    let text = await entryText(entry, 1 << 30);
    if (entry.name === 'tables/articles.jsonl') {
      const rows = text.trimEnd().split('\n');
      expect(rows.length).toBeGreaterThanOrEqual(3);
      rows[Math.floor(rows.length / 2)] = rows[0]!;
      text = rows.join('\n') + '\n';
      replaced = true;
    }
    await writer.addText(entry.name, text);
  }
  await writer.close();
  expect(replaced).toBe(true);
  return bad;
}

/** PostgreSQL: the schema's tables and own functions (pg_trgm's, an extension's, are not the import's). */
async function pgObjects(url: string): Promise<{ tables: string[]; functions: string[] }> {
  const tables = await queryOnce<{ name: string }>(url, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
  const functions = await queryOnce<{ name: string }>(
    url,
    `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') ORDER BY 1`,
  );
  return { tables: tables.map((t) => t.name), functions: functions.map((f) => f.name) };
}

function expectClearFailure(run: { code: number; stderr: string }) {
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^Error: articles, rows \d+-\d+: .+\n$/);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('folio import ARCHIVE that fails in the middle', () => {
  it(
    'into an empty target leaves nothing behind: no data dir, and on PostgreSQL no table or function',
    async () => {
      const archive = await archiveWithBadRow();
      const target = await installation();
      expectClearFailure(await spawnCli(['import', archive], target));
      expect(existsSync(target.data!) ? readdirSync(target.data!) : []).toEqual([]);
      if (target.database) expect(await pgObjects(target.database)).toEqual({ tables: [], functions: [] });
    },
    SLOW,
  );

  it(
    'into an installation holding data (even with --force) keeps its data and its schema as they were',
    async () => {
      const archive = await archiveWithBadRow();
      const target = await installation();
      const key = lines(cli(['token', 'create', '--name', 'already-here', '--type', 'full-access'], target)).at(-1)!;
      await addArticles(target, key, ['kept']);
      const schemaBefore = target.database ? await pgObjects(target.database) : undefined;
      const filesBefore = readdirSync(target.data!).sort();

      for (const args of [
        ['import', archive],
        ['import', archive, '--force'],
      ]) {
        const run = await spawnCli(args, target);
        if (args.length === 2) {
          expect(run.code).toBe(1);
          expect(run.stderr).toBe('Error: The target installation is not empty; use --force to replace its content\n');
        } else expectClearFailure(run);
      }

      expect(readdirSync(target.data!).sort()).toEqual(filesBefore);
      if (target.database) expect(await pgObjects(target.database)).toEqual(schemaBefore!);
      expect(cli(['token', 'list'], target)).toMatch(/already-here/);
      const server = await serve(target);
      try {
        const res = await server.call('GET', '/api/articles', { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        expect((res.body as any).data.map((a: any) => a.title)).toEqual(['kept']);
      } finally {
        await server.stop();
      }
    },
    SLOW,
  );
});
