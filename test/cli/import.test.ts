/**
 * `folio import FILE --type …` run from source as a user runs it: JSON Lines in, documents
 * created in batches (one transaction each), progress and a summary out; a bad line stops
 * the import with exit 1 naming the line and keeps only the batches before it.
 */
import { Database } from 'bun:sqlite';
import { afterAll, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import { createApp } from '../../src/app';
import { openInstance } from '../../src/instance';
import { CONTENT_TYPES, removeTempDirs, runCli, tempDir, type CliRun } from '../helpers/spawn';

const SLOW = 60_000;

afterAll(removeTempDirs);

/** `bun src/cli.ts import ARGS --data DIR --content-types …`. */
const folioImport = (dataDir: string, args: string[], stdin?: string): CliRun => runCli(['import', ...args], { data: dataDir, stdin });

function jsonl(dir: string, name: string, lines: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

function query<T>(dataDir: string, sql: string): T[] {
  const db = new Database(join(dataDir, 'folio.db'), { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
}
const count = (dataDir: string, sql: string) => query<{ n: number }>(dataDir, sql)[0]!.n;

const article = (i: number, category?: string) => ({
  title: `Imported article ${i}`,
  views: i,
  ...(category ? { category } : {}),
  seo: { metaTitle: `Seo ${i}` },
  blocks: [{ __component: 'shared.quote', title: 'Quote', body: `Body ${i}` }],
});

describe('folio import', () => {
  it(
    'imports 2,500 articles referencing an imported category, in batches, with progress and a summary',
    async () => {
      const dir = tempDir();
      const data = join(dir, 'data');
      const categories = folioImport(data, [jsonl(dir, 'categories.jsonl', [{ name: 'News', slug: 'news' }]), '--type', 'categories']);
      expect(categories.stderr).toBe('');
      expect(categories.code).toBe(0);
      expect(categories.stdout).toMatch(/^done: imported 1 categories in [\d.]+ s \([\d,]+\/s\)$/m);
      const [{ documentId: category }] = query<{ documentId: string }>(data, 'SELECT documentId FROM categories');

      const file = jsonl(
        dir,
        'articles.jsonl',
        Array.from({ length: 2500 }, (_, i) => article(i, category)),
      );
      // The singular API id works too.
      const run = folioImport(data, [file, '--type', 'article', '--batch', '1000']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^done: imported 2,500 articles in [\d.]+ s \([\d,]+\/s\)$/);
      for (const line of run.stdout.trim().split('\n').slice(0, -1)) expect(line).toMatch(/^imported [\d,]+ articles \([\d,]+\/s\)$/);

      // Draft & publish: a draft and a published version each, as POST creates them.
      expect(count(data, 'SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NOT NULL')).toBe(2500);
      expect(count(data, 'SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NULL')).toBe(2500);
      expect(count(data, 'SELECT COUNT(DISTINCT documentId) AS n FROM articles')).toBe(2500);
      expect(count(data, 'SELECT COUNT(*) AS n FROM articles_category_lnk')).toBe(5000);
      expect(count(data, "SELECT COUNT(*) AS n FROM components_shared_seos WHERE __ownerField = 'seo'")).toBe(5000);

      // The API reads them back with their relation and components.
      const instance = await openInstance({ ...resolveConfig({ data, contentTypes: CONTENT_TYPES }), databaseUrl: undefined });
      try {
        await instance.roles.grant('public', ['api::article.article.find', 'api::category.category.find', 'api::category.category.findOne']);
        const app = createApp(instance);
        const get = async (path: string) => (await app.handle(new Request(`http://localhost${path}`))).json() as Promise<any>;
        const byCategory = await get(`/api/articles?filters[category][documentId][$eq]=${category}&pagination[pageSize]=1`);
        expect(byCategory.meta.pagination.total).toBe(2500);
        const page = await get('/api/articles?sort=views:desc&populate[category]=true&populate[seo]=true&populate[blocks]=true&pagination[pageSize]=2');
        expect(page.data[0]).toMatchObject({
          title: 'Imported article 2499',
          views: 2499,
          category: { documentId: category, name: 'News' },
          seo: { metaTitle: 'Seo 2499' },
          blocks: [{ __component: 'shared.quote', title: 'Quote', body: 'Body 2499' }],
        });
      } finally {
        instance.close();
      }
    },
    SLOW,
  );

  it('imports drafts only with --status draft, and reads stdin with -', () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const file = jsonl(dir, 'drafts.jsonl', [article(1), '', article(2), article(3)]);
    const run = folioImport(data, [file, '--type', 'articles', '--status', 'draft']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done: imported 3 articles');
    expect(count(data, 'SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NULL')).toBe(3);
    expect(count(data, 'SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NOT NULL')).toBe(0);

    const stdin = folioImport(data, ['-', '--type', 'tags'], '{"name":"a"}\r\n{"name":"b"}');
    expect(stdin.code).toBe(0);
    expect(stdin.stdout).toContain('done: imported 2 tags');
  });

  it(
    'stops at a line that is not JSON with exit 1, naming it, and keeps the batches before its batch',
    () => {
      const dir = tempDir();
      const data = join(dir, 'data');
      const lines: unknown[] = Array.from({ length: 2500 }, (_, i) => article(i));
      lines[1699] = '{"title": "broken", ';
      const run = folioImport(data, [jsonl(dir, 'bad.jsonl', lines), '--type', 'articles', '--batch', '1000']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^Error: line 1700: invalid JSON/m);
      expect(run.stderr).toContain('1,000 document(s) imported before the failing batch were kept');
      // Lines 1-1000 committed; 1001-1699 (the failing batch) did not.
      expect(count(data, 'SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NOT NULL')).toBe(1000);
    },
    SLOW,
  );

  it(
    'stops at a line longer than 64 MiB with exit 1, naming it, without reading it whole',
    () => {
      const dir = tempDir();
      const data = join(dir, 'data');
      const file = join(dir, 'long.jsonl');
      // Valid JSON, a tag whose name is 72 MiB: refused for its length, not parsed.
      writeFileSync(file, `{"name":"short"}\n{"name":"${'n'.repeat(72 * 1024 * 1024)}"}\n{"name":"after"}\n`);
      const run = folioImport(data, [file, '--type', 'tags']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'Error: line 2: longer than the 64 MiB allowed for one line\n0 document(s) imported before the failing batch were kept; none of that batch was.\n',
      );
      expect(count(data, 'SELECT COUNT(*) AS n FROM tags')).toBe(0);
    },
    SLOW,
  );

  it('names the line whose data is invalid or whose relation target does not exist', () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const invalid = folioImport(data, [
      jsonl(dir, 'invalid.jsonl', [article(1), article(2), article(3), { views: 4 }, article(5)]),
      '--type',
      'articles',
      '--batch',
      '2',
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^Error: line 4: .*title/m);
    expect(count(data, 'SELECT COUNT(DISTINCT documentId) AS n FROM articles')).toBe(2);

    const unknownKey = folioImport(data, [jsonl(dir, 'unknown.jsonl', [article(1), { ...article(2), nope: 1 }]), '--type', 'articles']);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/^Error: line 2: .*nope/m);

    const missing = folioImport(data, [jsonl(dir, 'missing.jsonl', [article(1), article(2, 'no-such-category'), article(3)]), '--type', 'articles']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: line 2: .*no-such-category/m);
    expect(count(data, 'SELECT COUNT(DISTINCT documentId) AS n FROM articles')).toBe(2);

    const array = folioImport(data, [jsonl(dir, 'array.jsonl', ['[1, 2]']), '--type', 'articles']);
    expect(array.code).toBe(1);
    expect(array.stderr).toMatch(/^Error: line 1: expected a JSON object/m);
  });

  it('prints its usage for --help (exit 0) and for usage errors (exit 2)', { timeout: SLOW }, () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const file = jsonl(dir, 'one.jsonl', [article(1)]);

    const help = folioImport(data, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: folio import FILE --type TYPE');
    expect(help.stdout).toContain('plural API id (articles), singular API id or uid (api::article.article)');
    expect(help.stdout).toContain('the batches before it are kept');

    for (const [args, message] of [
      [[file], 'Missing --type'],
      [[], 'Missing FILE'],
      [[file, '--type', 'nothings'], 'Unknown content type "nothings"'],
      [[file, '--type', 'homepage'], 'single type'],
      [[file, '--type', 'articles', '--batch', '0'], '--batch must be a positive integer'],
      [[file, '--type', 'articles', '--status', 'live'], '--status must be draft or published'],
    ] as [string[], string][]) {
      const run = folioImport(data, args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('Usage: folio import');
    }
    // A wrong flag is one line naming it, and where to read more.
    const bogus = folioImport(data, [file, '--type', 'articles', '--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe('Unknown flag --bogus; see: folio import --help\n');

    const noFile = folioImport(data, [join(dir, 'nope.jsonl'), '--type', 'articles']);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('nope.jsonl');

    const noLocale = folioImport(data, [file, '--type', 'articles', '--locale', 'xx']);
    expect(noLocale.code).toBe(1);
    expect(noLocale.stderr).toContain('Locale "xx" does not exist');
  });
});
