/**
 * A newcomer's first minutes with the compiled binary alone (issue #44), built once exactly as
 * package.json's "build" script and driven from empty folders: a copy made from an export
 * keeps its webhooks quiet until enabled; an empty folder points at `./folio init`, a dry run
 * writes nothing, types are named any way, help is per sub-command and a wrong flag is one line;
 * `./folio init && ./folio serve` starts with example content, `/` and `/favicon.ico` answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startReceiver, type Receiver } from '../events/receiver';
import { buildCommand, cleanEnv, killSpawned, lines, removeTempDirs, ROOT, runCli, serve, tempDir, type CliOptions } from '../helpers/spawn';

const SLOW = 60_000;

let folio: string;
const receivers: Receiver[] = [];

beforeAll(() => {
  const buildDir = tempDir('folio-build-');
  const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed (exit ${build.exitCode}):\n${build.stdout}\n${build.stderr}`);
  folio = join(tempDir('folio-bin-'), 'folio');
  copyFileSync(join(buildDir, 'folio'), folio);
}, 180_000);

afterEach(async () => {
  await killSpawned();
  for (const r of receivers.splice(0)) await r.stop();
});
afterAll(removeTempDirs);

/** The binary run in `cwd` with no flags: its defaults (./data, ./content-types) decide. */
const at = (cwd: string): CliOptions => ({ exe: folio, cwd, data: null, contentTypes: null });
function ok(args: string[], where: CliOptions): string {
  const run = runCli(args, where);
  if (run.code !== 0) throw new Error(`folio ${args.join(' ')} → ${run.code}\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

describe('the binary, first minutes', () => {
  it(
    'an installation imported from an export has its webhooks disabled: listed so, named on the start-up screen, nothing sent until enabled',
    async () => {
      const hook = startReceiver();
      receivers.push(hook);
      const production = tempDir('folio-bin-production-');
      ok(['init', './content-types'], at(production));
      ok(['webhook', 'create', '--name', 'deploy', '--url', hook.url, '--events', 'entry.create'], at(production));
      ok(['export', 'production.tar.gz'], at(production));

      const staging = tempDir('folio-bin-staging-');
      ok(['init', './content-types'], at(staging));
      expect(ok(['import', join(production, 'production.tar.gz')], at(staging))).toContain('webhooks: 1, all disabled');
      expect(lines(ok(['webhook', 'list'], at(staging)))).toEqual([`deploy\t${hook.url}\tentry.create\tunsigned\tdisabled`]);
      ok(['permissions', 'grant', 'public', 'api::tag.tag.create'], at(staging));
      const server = await serve(at(staging));
      try {
        expect(server.stdout()).toContain('1 webhook(s) disabled, sent nothing until enabled (a restored or imported copy starts so): deploy');
        expect(server.stdout()).toContain(`Enable one:  ${folio} webhook enable deploy`);
        expect((await server.call('POST', '/api/tags', { body: { data: { name: 'staging only' } } })).status).toBe(201);
        await Bun.sleep(2500);
        expect(hook.received).toHaveLength(0);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      expect(ok(['webhook', 'enable', 'deploy'], at(staging))).toContain('enabled webhook "deploy"');
      expect(lines(ok(['webhook', 'list'], at(staging)))[0]).toEndWith('\tenabled');
    },
    SLOW,
  );

  it('in an empty folder points at ./folio init, writes nothing on a dry run, and speaks one line for a wrong flag', () => {
    const empty = tempDir('folio-bin-empty-');
    const here = at(empty);
    const alone = runCli([], here);
    expect(alone.stdout).toContain(`Start here:  ${folio} init   (writes the example content types`);
    const serveHere = runCli(['serve'], here);
    expect(serveHere.code).toBe(1);
    expect(serveHere.stderr).toContain(`Error: no content types at ./content-types (the folder does not exist).\nStart here:  ${folio} init`);
    expect(readdirSync(empty)).toEqual([]);

    ok(['init'], here);
    expect(ok(['migrate', '--dry-run'], here)).toContain('nothing applied (dry run)');
    expect(existsSync(join(empty, 'data'))).toBe(false);
    expect(runCli(['migrate', '--bogus'], here).stderr).toBe('Unknown flag --bogus; see: folio migrate --help\n');
    expect(ok(['import', 'strapi', '--help'], here)).toStartWith('Usage: folio import strapi SOURCE');
    expect(ok(['permissions', 'grant', 'public', 'articles.find', 'category.findOne'], here)).toBe(
      'granted public api::article.article.find\ngranted public api::category.category.findOne\n',
    );
  });

  it(
    './folio init then ./folio serve starts with example content the public may read, covers included; / is a page, /favicon.ico an icon',
    async () => {
      const dir = tempDir('folio-bin-first-');
      ok(['init'], at(dir));
      const server = await serve(at(dir));
      try {
        expect(server.stdout()).toContain('wrote example content (2 authors, 2 categories, 3 tags, 4 articles, global, homepage; English and French)');
        expect(server.stdout()).toContain(`Take the public grants back:  ${folio} permissions revoke public articles.find`);
        const list = await server.call('GET', '/api/articles?populate=cover&sort=title');
        expect(list.body.data.map((a: { title: string }) => a.title)).toEqual(['Moving a Strapi project in', 'Welcome to Folio', 'Write your first article']);
        for (const article of list.body.data) {
          expect(article.cover.formats.thumbnail.url).toStartWith('/uploads/');
          expect((await fetch(`${server.url}${article.cover.formats.thumbnail.url}`)).status).toBe(200);
        }
        expect((await server.call('GET', '/api/articles?locale=fr')).body.data).toHaveLength(2);
        const page = await fetch(`${server.url}/`);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await page.text()).toContain('href="/admin"');
        expect((await fetch(`${server.url}/favicon.ico`)).headers.get('content-type')).toBe('image/x-icon');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );
});
