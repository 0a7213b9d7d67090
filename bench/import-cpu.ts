/**
 * CPU of `folio import` of the bench's articles (./data.ts: a category, an author, 3 tags, a
 * seo component and a two-item dynamic zone each), on SQLite: the targets are imported once
 * into a template data dir and N articles written once as JSON Lines (kept in the cache dir,
 * so alternated runs import the same bytes against the same targets); each run copies the
 * template into a fresh data dir and imports the file, from source (`bun src/cli.ts`) or from
 * dist/folio. Prints one JSON line per run: wall seconds, articles/s and the import process's
 * CPU seconds (user + sys). On a machine shared with other work wall-clock is noise; compare
 * trees by CPU seconds in alternated runs (several pairs, medians).
 *
 *   bun bench/import-cpu.ts [--count 200000] [--tree DIR ...] [--binary] [--runs 1] [--cache DIR]
 *
 * `--tree` (repeatable): the Folio checkouts to alternate (default: this one); `--binary`: run
 * each tree's dist/folio (build it first) instead of its source.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readRefs, writeArticles, writeTargets } from './data';
import { ROOT } from './options';

const { values: flags } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    tree: { type: 'string', multiple: true },
    binary: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    cache: { type: 'string', default: join(tmpdir(), 'folio-import-cpu') },
  },
});
const count = Number(flags.count);
const trees = (flags.tree ?? [ROOT]).map((t) => resolve(t));
const cache = resolve(flags.cache!);
mkdirSync(cache, { recursive: true });

/** The command running `tree`'s Folio with `args` on `dataDir`, with the example content types. */
function command(tree: string, args: string[], dataDir: string): string[] {
  const cli = flags.binary ? [join(tree, 'dist/folio')] : [process.execPath, join(tree, 'src/cli.ts')];
  return [...cli, ...args, '--data', dataDir, '--content-types', join(tree, 'content-types')];
}

const env = () => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FOLIO_') && !k.startsWith('BUN_')) out[k] = v;
  return out;
};

// The template: the targets imported once (by the first tree), then the articles file written against them.
const template = join(cache, 'template');
if (!existsSync(join(template, 'folio.db'))) {
  // Articles written against an earlier template name targets this one does not have.
  for (const name of readdirSync(cache)) if (/^articles-\d+\.jsonl$/.test(name)) rmSync(join(cache, name));
  rmSync(template, { recursive: true, force: true });
  mkdirSync(template, { recursive: true });
  const files = await writeTargets(cache);
  for (const [type, file] of Object.entries(files)) {
    const run = Bun.spawnSync(command(trees[0]!, ['import', file, '--type', type], template), { cwd: trees[0]!, env: env() });
    if (run.exitCode !== 0) throw new Error(`import ${type}: ${run.stderr.toString()}`);
  }
  // One file, checkpointed: a copy of folio.db alone is the whole database.
  const { Database } = await import('bun:sqlite');
  const db = new Database(join(template, 'folio.db'));
  db.run('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}
const file = join(cache, `articles-${count}.jsonl`);
if (!existsSync(file)) await writeArticles(file, count, readRefs(join(template, 'folio.db')));

for (let r = 0; r < Number(flags.runs); r++) {
  for (const tree of trees) {
    const dataDir = mkdtempSync(join(tmpdir(), 'folio-import-cpu-data-'));
    try {
      copyFileSync(join(template, 'folio.db'), join(dataDir, 'folio.db'));
      const started = performance.now();
      const proc = Bun.spawn(command(tree, ['import', file, '--type', 'articles'], dataDir), { cwd: tree, env: env(), stdout: 'pipe', stderr: 'pipe' });
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      const seconds = (performance.now() - started) / 1000;
      if (proc.exitCode !== 0) throw new Error(`import exited ${proc.exitCode}:\n${out.slice(-2000)}\n${err}`);
      const usage = proc.resourceUsage()!;
      const cpu = (Number(usage.cpuTime.user) + Number(usage.cpuTime.system)) / 1e6;
      console.log(
        JSON.stringify({
          tree,
          from: flags.binary ? 'dist/folio' : 'source',
          articles: count,
          seconds: Number(seconds.toFixed(2)),
          perSecond: Math.round(count / seconds),
          cpuSeconds: Number(cpu.toFixed(2)),
          userSeconds: Number((Number(usage.cpuTime.user) / 1e6).toFixed(2)),
          sysSeconds: Number((Number(usage.cpuTime.system) / 1e6).toFixed(2)),
          cpuPerArticleUs: Number(((cpu * 1e6) / count).toFixed(1)),
          maxRssMiB: Math.round(usage.maxRSS / 1024 / 1024),
        }),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
