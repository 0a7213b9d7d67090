/**
 * A newcomer's first minutes with the CLI (issue #44), run from source as a user runs it:
 * one way to name a type in every command (plural API id, singular API id or uid), help per
 * sub-command, one line for a wrong flag, `folio init` suggested where there are no content
 * types, and a dry run that writes nothing. Real processes, real SQLite files (or, with
 * FOLIO_TEST_DATABASE_URL, a PostgreSQL database per installation).
 */
import { describe, expect, it } from 'bun:test';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchInstallations } from '../helpers/installations';
import { copyContentTypes, lines, runCli, tempDir, type CliOptions } from '../helpers/spawn';

const SLOW = 60_000;
const { installation } = scratchInstallations({ name: 'folio_first' });

function ok(args: string[], where: CliOptions & { stdin?: string }): string {
  const run = runCli(args, where);
  if (run.code !== 0) throw new Error(`folio ${args.join(' ')} → ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}
const contentGrants = (where: CliOptions) => lines(ok(['permissions', 'list', 'public'], where)).filter((l) => l.includes('api::'));

describe('one way to name a type', () => {
  it(
    'permissions take TYPE.ACTION with TYPE as plural API id, singular API id or uid, and say which actions a type has',
    async () => {
      const where = await installation();
      ok(['permissions', 'grant', 'public', 'articles.find', 'article.findOne', 'api::tag.tag.find', 'categories.*'], where);
      expect(contentGrants(where)).toEqual(
        [
          'public\tapi::article.article.find',
          'public\tapi::article.article.findOne',
          'public\tapi::category.category.create',
          'public\tapi::category.category.delete',
          'public\tapi::category.category.find',
          'public\tapi::category.category.findOne',
          'public\tapi::category.category.update',
          'public\tapi::tag.tag.find',
        ].sort(),
      );
      ok(['permissions', 'revoke', 'public', 'category.*', 'tags.find'], where);
      expect(contentGrants(where)).toEqual(['public\tapi::article.article.find', 'public\tapi::article.article.findOne']);

      const typo = runCli(['permissions', 'grant', 'public', 'articles.fnd'], where);
      expect(typo.code).toBe(1);
      expect(typo.stderr).toBe(
        'Error: Unknown action "articles.fnd" (articles has: find, findOne, create, update, delete, publish, unpublish, discardDraft)\n',
      );
      const bare = runCli(['permissions', 'grant', 'public', 'articles'], where);
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain('"articles" is a content type, not an action: name one as articles.find, articles.findOne… or articles.*');
      const unknown = runCli(['permissions', 'grant', 'public', 'posts.find'], where);
      expect(unknown.stderr).toContain('name one as TYPE.ACTION (TYPE one of: articles, authors, categories, globals, homepages, tags;');
      expect(contentGrants(where)).toHaveLength(2);

      ok(['token', 'create', '--name', 'reader', '--type', 'custom', '--actions', 'articles.find,tag.findOne'], where);
      expect(lines(ok(['token', 'list'], where)).find((l) => l.startsWith('reader\t'))).toEndWith('\tapi::article.article.find,api::tag.tag.findOne');
    },
    SLOW,
  );

  it(
    'import --type, and migrate --rename MODEL, take the uid, the plural or the singular API id',
    async () => {
      const where = await installation();
      const dir = tempDir('folio-first-lines-');
      for (const [i, type] of ['api::category.category', 'categories', 'category'].entries()) {
        const file = join(dir, `${i}.jsonl`);
        writeFileSync(file, `${JSON.stringify({ name: `Category ${i}`, slug: `category-${i}` })}\n`);
        expect(ok(['import', file, '--type', type], where)).toContain('done: imported 1 categories');
      }
      const types = copyContentTypes();
      const article = JSON.parse(readFileSync(join(types, 'article.json'), 'utf8'));
      article.attributes.excerpt = article.attributes.summary;
      delete article.attributes.summary;
      writeFileSync(join(types, 'article.json'), JSON.stringify(article, null, 2));
      const renamed = ok(['migrate', '--rename', 'articles.summary=excerpt'], { ...where, contentTypes: types });
      expect(renamed).toMatch(/^rename column articles\.summary to excerpt$/m);
    },
    SLOW,
  );
});

describe('help and wrong flags', () => {
  it('folio import strapi --help is its own help; folio import --help points to it', () => {
    const strapi = runCli(['import', 'strapi', '--help']);
    expect(strapi.code).toBe(0);
    expect(strapi.stdout).toStartWith('Usage: folio import strapi SOURCE');
    expect(strapi.stdout).not.toContain('JSON Lines');
    const lines = runCli(['import', '--help']);
    expect(lines.stdout).toStartWith('Usage: folio import FILE --type TYPE');
    expect(lines.stdout).toContain('folio import strapi SOURCE');
    expect(lines.stdout).toContain('see folio import strapi --help');
  });

  it('a wrong flag is one line naming it and the help to read, exit 2, for commands and sub-commands alike', () => {
    for (const [args, line] of [
      [['migrate', '--bogus'], 'Unknown flag --bogus; see: folio migrate --help'],
      [['import', 'strapi', 'x', '--bogus'], 'Unknown flag --bogus; see: folio import strapi --help'],
      [['import', 'x.jsonl', '--dry-run'], 'Unknown flag --dry-run; see: folio import --help'],
      [['import', 'x.jsonl', '--type'], 'Flag --type needs a value; see: folio import --help'],
      [['import', 'x.jsonl', '--type', '--batch', '5'], 'Flag --type needs a value; see: folio import --help'],
      [['serve', '-x'], 'Unknown flag -x; see: folio serve --help'],
      [['migrate', '--dry-run=yes'], 'Flag --dry-run takes no value; see: folio migrate --help'],
    ] as [string[], string][]) {
      const run = runCli(args);
      expect({ args, code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ args, code: 2, stderr: `${line}\n`, stdout: '' });
    }
  });
});

describe('a folder without content types', () => {
  it('suggests folio init, for folio alone and for any command, and creates nothing', () => {
    const empty = tempDir('folio-first-empty-');
    const here = { cwd: empty, data: null, contentTypes: null };
    const alone = runCli([], here);
    expect(alone.code).toBe(2);
    expect(alone.stdout).toContain('No content types in ./content-types yet.');
    expect(alone.stdout).toMatch(/^Start here: {2}npx bun \S+src\/cli\.ts init {3}\(writes the example content types/m);
    expect(alone.stdout).toMatch(/^Then: {8}npx bun \S+src\/cli\.ts serve$/m);

    for (const args of [['serve'], ['permissions', 'list'], ['migrate', '--dry-run']]) {
      const run = runCli(args, here);
      expect(run.code).toBe(1);
      expect(run.stderr).toStartWith('Error: no content types at ./content-types (the folder does not exist).\nStart here:  npx bun ');
      expect(run.stderr).toContain('src/cli.ts init');
    }
    const elsewhere = runCli(['serve', '--content-types', './schemas'], here);
    expect(elsewhere.stderr).toMatch(/Start here: {2}npx bun \S+ init \.\/schemas/);
    expect(elsewhere.stderr).toMatch(/Then: {8}npx bun \S+ serve --content-types \.\/schemas/);
    expect(readdirSync(empty)).toEqual([]);

    // Once there are content types, folio alone says nothing of the sort.
    cpSync(copyContentTypes(), join(empty, 'content-types'), { recursive: true });
    expect(runCli([], here).stdout).not.toContain('Start here');
  });

  it('migrate --dry-run in a folder with content types but no installation writes no data folder', () => {
    const dir = tempDir('folio-first-dry-');
    cpSync(copyContentTypes(), join(dir, 'content-types'), { recursive: true });
    const run = runCli(['migrate', '--dry-run'], { cwd: dir, data: null, contentTypes: null });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^would create table articles$/m);
    expect(existsSync(join(dir, 'data'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['content-types']);
  });
});
