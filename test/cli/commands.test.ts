/**
 * The CLI run from source (`bun src/cli.ts …`) as a user runs it: real processes, real
 * SQLite files in temp data dirs, real servers on 127.0.0.1 with port 0.
 *
 * This file: usage and its errors, migrate and schema changes, the environment, init.
 * Also test/cli/settings-commands.test.ts (locales, permissions, tokens) and
 * test/cli/serve.test.ts.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_TYPES, copyContentTypes, killSpawned, lines, removeTempDirs, runCli as cli, serve, tempDir, type CliOptions } from '../helpers/spawn';
import { columnNames, tableNames, withDb } from '../helpers/sqlite-file';

const COMMANDS = ['serve', 'migrate', 'locales', 'permissions', 'token', 'init'];
const SLOW = 30_000;

// Only the processes and temp dirs this file made, each by its own handle.
afterEach(killSpawned);
afterAll(removeTempDirs);

/** Like cli() but with no flags at all. */
const bare = (args: string[], options: Omit<CliOptions, 'data' | 'contentTypes'> = {}) => cli(args, { ...options, data: null, contentTypes: null });

// ---------------------------------------------------------------------------------------

describe('help and usage errors', () => {
  it('prints the overall usage with every command and exits 0 for --help, -h and help', () => {
    for (const word of ['--help', '-h', 'help']) {
      const run = bare([word]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: folio <command>');
      for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it.each(COMMANDS)('prints the usage of "%s --help" and exits 0 without touching the data directory', (command) => {
    const data = join(tempDir(), 'never-created');
    const run = cli([command, '--help'], { data });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`folio ${command}`);
    expect(run.stdout).toContain('Usage');
    expect(run.stdout).toContain('--data DIR');
    expect(run.stdout).toContain('--content-types DIR');
    expect(existsSync(data)).toBe(false);
  });

  it('prints the usage and exits 2 when no command is given', () => {
    const run = bare([]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('Usage: folio <command>');
  });

  it('exits 2 and names an unknown command on stderr', () => {
    const run = cli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('frobnicate');
    expect(run.stderr).toContain('Usage: folio <command>');
  });

  it('exits 2 with one line naming a flag the command does not know, and its help', () => {
    const data = tempDir();
    const run = cli(['migrate', '--bogus'], { data });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('Unknown flag --bogus; see: folio migrate --help\n');
    expect(run.stdout).toBe('');
    expect(tableNames(data)).toEqual([]);
  });

  it.each([
    ['locales add', ['locales', 'add'], 'folio locales add'],
    ['locales with no sub-command', ['locales'], 'folio locales list'],
    ['permissions grant public', ['permissions', 'grant', 'public'], 'folio permissions grant'],
    ['token create --type read-only (no --name)', ['token', 'create', '--type', 'read-only'], 'folio token create'],
    ['token create --name x --type admin', ['token', 'create', '--name', 'x', '--type', 'admin'], 'folio token create'],
    ['token create --lifespan-days 0', ['token', 'create', '--name', 'x', '--type', 'read-only', '--lifespan-days', '0'], 'folio token create'],
    ['token revoke (no name)', ['token', 'revoke'], 'folio token revoke'],
    ['migrate with a stray argument', ['migrate', 'now'], 'folio migrate'],
  ])('exits 2 with the usage on stderr for a missing or wrong argument: %s', (_label, args, usage) => {
    const run = cli(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(usage as string);
  });

  it('creates no token when token create is called with a wrong --type', () => {
    const data = tempDir();
    expect(cli(['token', 'create', '--name', 'x', '--type', 'admin'], { data }).code).toBe(2);
    const list = cli(['token', 'list'], { data });
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain('x\t');
  });
});

describe('migrate', () => {
  it('lists the tables and indexes it would create on a fresh data dir with --dry-run, and creates none of them', () => {
    const data = tempDir();
    const first = cli(['migrate', '--dry-run'], { data });
    expect(first.code).toBe(0);
    for (const table of ['articles', 'authors', 'categories', 'tags', 'globals', 'homepages']) {
      expect(first.stdout).toMatch(new RegExp(`^would create table ${table}$`, 'm'));
    }
    expect(first.stdout).toMatch(/^would create index articles_version_uq$/m);
    expect(first.stdout).toMatch(/^ {2}CREATE TABLE "articles" \(/m);
    expect(first.stdout).toMatch(/change\(s\) planned; nothing applied \(dry run\)/);
    expect(first.stdout).not.toMatch(/^create table/m);

    const tables = tableNames(data);
    expect(tables).not.toContain('articles');
    expect(tables).not.toContain('tags');

    const second = cli(['migrate', '--dry-run'], { data });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^would create table articles$/m);
    expect(second.stdout).not.toContain('content tables are up to date');
  });

  it('applies no system migration with --dry-run either, and writes nothing: no database file, no data folder', () => {
    const data = tempDir();
    const run = cli(['migrate', '--dry-run'], { data });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('nothing applied (dry run)');
    expect(lines(run.stdout).filter((l) => l.startsWith('applied'))).toEqual([]);
    expect(readdirSync(data)).toEqual([]);
    const absent = join(tempDir(), 'data');
    const again = cli(['migrate', '--dry-run', '--rename', 'articles.title=headline'], { data: absent });
    expect(again.stdout).toContain('nothing to rename');
    expect(existsSync(absent)).toBe(false);
  });

  it('applies the plan, and a second migrate reports that the content tables are up to date', () => {
    const data = tempDir();
    const first = cli(['migrate'], { data });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied system migration 0001_system$/m);
    expect(first.stdout).toMatch(/^create table articles$/m);
    expect(first.stdout).toMatch(/^\d+ change\(s\) applied$/m);
    expect(first.stdout).not.toContain('would');
    const tables = tableNames(data);
    for (const table of ['articles', 'authors', 'categories', 'tags', 'globals', 'homepages', 'folio_locales', 'folio_api_tokens']) {
      expect(tables).toContain(table);
    }
    expect(columnNames(data, 'articles')).toEqual(expect.arrayContaining(['documentId', 'locale', 'publishedAt', 'title', 'slug', 'views']));

    const second = cli(['migrate'], { data });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('content tables are up to date');
    expect(second.stdout).not.toMatch(/^(create|add|applied)/m);

    const dry = cli(['migrate', '--dry-run'], { data });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('content tables are up to date');
    expect(dry.stdout).not.toContain('would');
  });
});

describe('schema evolution', () => {
  // The tests below run in order on one data dir and one copy of the content types.
  const data = tempDir();
  const types = copyContentTypes();
  const articleFile = join(types, 'article.json');
  const original = readFileSync(articleFile, 'utf8');
  const documentId = 'evolutionaaaaaaaaaaaaaaa';

  it('adds a column for a new attribute: --dry-run shows it without applying, migrate applies it', () => {
    expect(cli(['migrate'], { data, contentTypes: types }).code).toBe(0);
    const now = new Date().toISOString();
    withDb(data, (db) =>
      db.run('INSERT INTO articles ("documentId", "locale", "createdAt", "updatedAt", "publishedAt", "title") VALUES (?, ?, ?, ?, ?, ?)', [
        documentId,
        'en',
        now,
        now,
        now,
        'Written before',
      ]),
    );

    const schema = JSON.parse(original);
    schema.attributes.subtitle = { type: 'string' };
    writeFileSync(articleFile, JSON.stringify(schema, null, 2));

    const dry = cli(['migrate', '--dry-run'], { data, contentTypes: types });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would add column articles\.subtitle$/m);
    expect(dry.stdout).toMatch(/ALTER TABLE "articles" ADD COLUMN "subtitle"/);
    expect(columnNames(data, 'articles')).not.toContain('subtitle');

    const applied = cli(['migrate'], { data, contentTypes: types });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^add column articles\.subtitle$/m);
    // A string attribute is sortable, so it gets its (locale, column) index too.
    expect(applied.stdout).toMatch(/^create index articles_subtitle_idx$/m);
    // The new text attribute is searched by `_q`: its index is rebuilt with it (db/search-index.ts).
    expect(applied.stdout).toMatch(/^fill search index folio_search_articles_fts \(.*subtitle.*\)$/m);
    expect(columnNames(data, 'articles')).toContain('subtitle');

    withDb(data, (db) => db.run('UPDATE articles SET "subtitle" = ? WHERE "documentId" = ?', ['A subtitle', documentId]));
    expect(cli(['migrate'], { data, contentTypes: types }).stdout).toContain('content tables are up to date');
  });

  it('keeps the column and its data when the attribute is removed, and migrate does not fail', () => {
    writeFileSync(articleFile, original);

    const dry = cli(['migrate', '--dry-run'], { data, contentTypes: types });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^keep column articles\.subtitle .*data kept/m);
    // Only the derived `_q` index is dropped (and refilled); never a table or column holding data.
    expect(dry.stdout.split('\n').filter((line) => /DROP/i.test(line) && !/folio_search_articles_/.test(line))).toEqual([]);

    const run = cli(['migrate'], { data, contentTypes: types });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^keep column articles\.subtitle/m);
    // Nothing but the `_q` index follows the attribute out (it no longer searches subtitle).
    expect(run.stdout).toMatch(/^fill search index folio_search_articles_fts \(title, slug, summary, kind\)$/m);
    expect(run.stdout.split('\n').filter((line) => /^(add|create|drop)/.test(line) && !/ folio_search_articles_/.test(line))).toEqual([]);
    expect(cli(['migrate'], { data, contentTypes: types }).stdout).toContain('content tables are up to date');
    expect(run.stderr).toBe('');

    expect(columnNames(data, 'articles')).toContain('subtitle');
    const row = withDb(data, (db) =>
      db.query<{ title: string; subtitle: string }, [string]>('SELECT "title", "subtitle" FROM articles WHERE "documentId" = ?').get(documentId),
    );
    expect(row).toEqual({ title: 'Written before', subtitle: 'A subtitle' });
  });

  it(
    'lets the server start and serve the old rows after the attribute was removed',
    async () => {
      const server = await serve({ data, contentTypes: types });
      try {
        expect(cli(['permissions', 'grant', 'public', 'api::article.article.find'], { data, contentTypes: types }).code).toBe(0);
        const response = await fetch(`${server.url}/api/articles`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: Record<string, unknown>[] };
        expect(body.data.map((a) => a.title)).toEqual(['Written before']);
        expect(body.data[0]).not.toHaveProperty('subtitle');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );
});

describe('environment variables', () => {
  it('uses FOLIO_DATA and FOLIO_CONTENT_TYPES when the flags are absent', () => {
    const cwd = tempDir();
    const data = join(tempDir(), 'from-env');
    const run = bare(['migrate'], { cwd, env: { FOLIO_DATA: data, FOLIO_CONTENT_TYPES: CONTENT_TYPES } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^create table articles$/m);
    expect(tableNames(data)).toContain('articles');
    expect(readdirSync(cwd)).toEqual([]);

    const locales = bare(['locales', 'list'], { cwd, env: { FOLIO_DATA: data, FOLIO_CONTENT_TYPES: CONTENT_TYPES } });
    expect(locales.code).toBe(0);
    expect(locales.stdout).toMatch(/^en\t/m);
  });

  it('fails naming the folder when neither flag nor FOLIO_CONTENT_TYPES points at content types and ./content-types is missing', () => {
    const cwd = tempDir();
    const run = bare(['migrate'], { cwd, env: { FOLIO_DATA: join(cwd, 'd') } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('content-types');
  });

  it('lets --data and --content-types win over FOLIO_DATA and FOLIO_CONTENT_TYPES', () => {
    const cwd = tempDir();
    const fromEnv = join(tempDir(), 'env-data');
    const fromFlag = join(tempDir(), 'flag-data');
    const run = cli(['migrate'], {
      cwd,
      data: fromFlag,
      contentTypes: CONTENT_TYPES,
      env: { FOLIO_DATA: fromEnv, FOLIO_CONTENT_TYPES: join(cwd, 'missing') },
    });
    expect(run.code).toBe(0);
    expect(tableNames(fromFlag)).toContain('articles');
    expect(existsSync(fromEnv)).toBe(false);
  });
});

describe('init', () => {
  it('writes the example content types, identical to the repository copies', () => {
    const dir = join(tempDir(), 'ct');
    const run = cli(['init', dir]);
    expect(run.code).toBe(0);
    for (const file of ['article.json', 'author.json', 'tag.json', 'components/shared/seo.json', 'components/shared/link.json']) {
      expect(existsSync(join(dir, file))).toBe(true);
      expect(readFileSync(join(dir, file), 'utf8')).toBe(readFileSync(join(CONTENT_TYPES, file), 'utf8'));
    }
  });

  it('writes into ./content-types of the working directory when no folder is given', () => {
    const cwd = tempDir();
    const run = bare(['init'], { cwd });
    expect(run.code).toBe(0);
    expect(existsSync(join(cwd, 'content-types/article.json'))).toBe(true);
    expect(existsSync(join(cwd, 'content-types/components/shared/seo.json'))).toBe(true);
  });

  it('refuses a non-empty folder with exit 1 and writes nothing there', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'mine.txt'), 'keep me');
    const run = cli(['init', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('not empty');
    expect(readdirSync(dir)).toEqual(['mine.txt']);
  });

  it('produces a folder that migrate accepts', () => {
    const dir = join(tempDir(), 'ct');
    expect(cli(['init', dir]).code).toBe(0);
    const data = tempDir();
    const run = cli(['migrate'], { data, contentTypes: dir });
    expect(run.code).toBe(0);
    expect(tableNames(data)).toContain('articles');
  });
});

// A data dir that a command creates from nothing (nested folders included).
it('creates a missing nested data directory on first use', () => {
  const data = join(tempDir(), 'a', 'b', 'c');
  const run = cli(['locales', 'list'], { data });
  expect(run.code).toBe(0);
  expect(existsSync(join(data, 'folio.db'))).toBe(true);
  expect(existsSync(join(data, 'secrets.json'))).toBe(true);
});
