/**
 * folio-cms's Node entry (node/index.cjs, node/index.mjs) driven from real Node processes:
 * require() as Jest loads it, import as Vitest and Playwright's runner do, each starting Folio
 * in a child process — Bun from the package's own dependency, or the compiled binary — and
 * stopping it (also when the Node process ends without stop()). The shared front-end test
 * (test/library/from-node.test.ts) passes under vitest too. With FOLIO_TEST_DATABASE_URL the
 * child's Folio runs on a fresh PostgreSQL database.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCommand, cleanEnv, ROOT } from '../helpers/spawn';
import { dropAll, FIXTURE_CONTENT_TYPES, freshDatabase } from './fixtures/databases';

const SLOW = 120_000;
const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  await dropAll();
}, 60_000);

/** Runs `script` with Node in the repository (so `folio-cms` resolves to this package), TMPDIR its own; the last stdout line as JSON. */
async function node(
  script: string,
  ext: 'cjs' | 'mjs',
  tmp = temp('folio-node-tmp-'),
): Promise<{ code: number; result: any; stdout: string; stderr: string; tmp: string }> {
  const file = join(ROOT, 'test', 'library', `.node-entry-${process.pid}-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(file, script);
  try {
    const proc = Bun.spawn(['node', file], { cwd: ROOT, env: cleanEnv({ TMPDIR: tmp }), stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const last = stdout.trim().split('\n').at(-1) ?? '';
    let result: unknown;
    try {
      result = JSON.parse(last);
    } catch {
      result = undefined;
    }
    return { code, result, stdout, stderr, tmp };
  } finally {
    rmSync(file, { force: true });
  }
}

/** A front end's use of the Node entry: seed, read with a token, write through documents, stop, then the port is closed. */
const scenario = (load: string, options: string) => `${load}
const folio = await startFolio({ contentTypes: ${JSON.stringify(FIXTURE_CONTENT_TYPES)}, tokens: ['full-access', 'read-only'],
  seed: { authors: [{ $key: 'ada', name: 'Ada' }], posts: [{ title: 'Seeded', author: '$ada' }] }, ${options} });
const read = await (await fetch(folio.url + '/api/posts?populate=author', { headers: { Authorization: 'Bearer ' + folio.token('read-only') } })).json();
const posts = folio.contentType('posts');
const created = await folio.documents.create(posts, { title: 'From Node', author: folio.seeded.ada });
const again = await folio.documents.findOne(posts, created.documentId, await folio.readQuery('posts', { populate: ['author'] }));
const url = folio.url;
await folio.stop();
let closed = false;
try { await fetch(url + '/_health'); } catch { closed = true; }
console.log(JSON.stringify({ read: read.data.map((p) => [p.title, p.author.name]), created: created.status, again: [again.title, again.author.name], closed, tokens: [typeof folio.token('full-access')] }));
`;

describe('the Node entry', () => {
  test(
    'require("folio-cms") (as Jest loads it) starts Folio with Bun from the package, seeds, reads, writes over HTTP and stops',
    async () => {
      const database = await freshDatabase();
      const run = await node(
        `(async () => {\n${scenario("const { startFolio } = require('folio-cms');", `binary: false, ${database ? `database: ${JSON.stringify(database)}` : ''}`)}\n})();`,
        'cjs',
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.result).toEqual({ read: [['Seeded', 'Ada']], created: 'published', again: ['From Node', 'Ada'], closed: true, tokens: ['string'] });
      // The child removed its temporary folders when it stopped.
      expect(readdirSync(run.tmp)).toEqual([]);
    },
    SLOW,
  );

  test(
    'import { startFolio } from "folio-cms" (Vitest, Playwright) runs the compiled binary when given one',
    async () => {
      const buildDir = temp('folio-node-build-');
      const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
      expect(build.exitCode).toBe(0);
      const binary = join(temp('folio-node-bin-'), 'folio');
      copyFileSync(join(buildDir, 'folio'), binary);
      const run = await node(scenario("import { startFolio } from 'folio-cms';", `binary: ${JSON.stringify(binary)}`), 'mjs');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.result).toMatchObject({ read: [['Seeded', 'Ada']], again: ['From Node', 'Ada'], closed: true });
    },
    SLOW,
  );

  test(
    'Folio stops when the Node process ends without stop(), and a start that fails rejects with its reason',
    async () => {
      const run = await node(
        `import { startFolio } from 'folio-cms';
const folio = await startFolio({ contentTypes: ${JSON.stringify(FIXTURE_CONTENT_TYPES)}, binary: false });
let refused;
try { await startFolio({ contentTypes: ${JSON.stringify(FIXTURE_CONTENT_TYPES)}, binary: false, tokens: { x: 'root' } }); } catch (error) { refused = error.message; }
let missing;
try { await startFolio({ contentTypes: '/nowhere/at/all', binary: false }); } catch (error) { missing = error.message; }
console.log(JSON.stringify({ url: folio.url, refused, missing }));
process.exit(0);
`,
        'mjs',
      );
      expect(run.code).toBe(0);
      expect(run.result.refused).toContain('Unknown token type "root"');
      expect(run.result.missing).toContain('the content type folder does not exist');
      const deadline = Date.now() + 20_000;
      let answering = true;
      while (answering && Date.now() < deadline) {
        answering = await fetch(`${run.result.url}/_health`).then(
          () => true,
          () => false,
        );
        if (answering) await Bun.sleep(100);
      }
      expect(answering).toBe(false);
      for (let i = 0; i < 100 && readdirSync(run.tmp).length; i++) await Bun.sleep(100);
      expect(readdirSync(run.tmp)).toEqual([]);
    },
    SLOW,
  );

  test(
    'the shared front-end test passes under vitest (Node), as it does under bun test',
    async () => {
      const vitest = join(ROOT, 'node_modules', '.bin', 'vitest');
      expect(existsSync(vitest)).toBe(true);
      const proc = Bun.spawn([vitest, 'run', '--reporter=verbose'], { cwd: ROOT, env: cleanEnv({ CI: '1', NO_COLOR: '1' }), stdout: 'pipe', stderr: 'pipe' });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ code, stderr: stderr.trim() }).toEqual({ code: 0, stderr: '' });
      for (const name of ['serves the seed over REST', 'documents creates, updates, publishes', 'a tokens option that is neither'])
        expect(stdout).toMatch(new RegExp(`✓ .*folio-cms under node > ${name}`));
      expect(stdout).toMatch(/Tests +3 passed \(3\)/);
    },
    SLOW,
  );
});

describe('the package', () => {
  test('ships the Node entry and resolves it for Node, the TypeScript entry for Bun', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('node');
    expect(pkg.exports['.']).toEqual({
      bun: './src/index.ts',
      types: './node/index.d.ts',
      import: './node/index.mjs',
      require: './node/index.cjs',
      default: './node/index.mjs',
    });
    expect(pkg.dependencies.bun).toBeDefined();
    expect(pkg.devDependencies.vitest).toMatch(/^\^3\./);
    expect(Bun.resolveSync('folio-cms', ROOT)).toBe(join(ROOT, 'src', 'index.ts'));
  });
});
