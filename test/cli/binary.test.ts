/**
 * The single compiled executable: built once exactly as package.json's "build" script
 * (only --outfile differs), copied alone into an empty folder, and driven from there.
 * Passing proves the system migrations and the example content travel inside it:
 * there are no SQL files, no node_modules and no source beside it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLClient } from 'graphql-request';
import { findChromium, launchBrowser } from '../helpers/browser';
import { CONTENT_TYPES, cleanEnv, killSpawned, removeTempDirs, ROOT, runCli, serve, tempDir, type CliRun } from '../helpers/spawn';

const SLOW = 30_000;

/** package.json's build command, with bun at process.execPath and --outfile replaced. */
function buildCommand(outfile: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build;
  const words = script.trim().split(/\s+/);
  expect(words.slice(0, 3)).toEqual(['bun', 'build', '--compile']);
  const out = words.indexOf('--outfile');
  expect(out).toBeGreaterThan(0);
  words[out + 1] = outfile;
  words[0] = process.execPath;
  return words;
}

let buildDir: string;
/** The empty folder that receives the binary and nothing else. */
let work: string;
let folio: string;
let buildLog = '';

beforeAll(() => {
  buildDir = tempDir('folio-build-');
  const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv({}, { binary: true }), stdout: 'pipe', stderr: 'pipe' });
  buildLog = `${build.stdout.toString()}\n${build.stderr.toString()}`;
  if (build.exitCode !== 0) throw new Error(`build failed (exit ${build.exitCode}):\n${buildLog}`);
  work = tempDir('folio-bin-work-');
  folio = join(work, 'folio');
  copyFileSync(join(buildDir, 'folio'), folio);
}, 120_000);

// Only the processes and temp dirs this file made, each by its own handle.
afterEach(killSpawned);
afterAll(removeTempDirs);

/** `./folio ARGS` with cwd = the binary's folder (or another folder), no flags: the defaults decide. */
const run = (args: string[], cwd = work): CliRun => runCli(args, { exe: folio, cwd, data: null, contentTypes: null });

describe('the compiled binary', () => {
  it('builds as a single executable file', () => {
    expect(existsSync(join(buildDir, 'folio'))).toBe(true);
    expect(readdirSync(work)).toEqual(['folio']);
  });

  it('prints its usage for ./folio --help and exits 0', () => {
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: folio <command>');
    for (const command of ['serve', 'migrate', 'locales', 'permissions', 'token', 'init']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
    const serveHelp = run(['serve', '--help']);
    expect(serveHelp.code).toBe(0);
    expect(serveHelp.stdout).toContain('Usage: folio serve');
    expect(run(['migrate', '--bogus']).code).toBe(2);
  });

  it('writes the embedded example content types with ./folio init ./content-types', () => {
    const init = run(['init', './content-types']);
    expect(init.code).toBe(0);
    for (const file of ['article.json', 'author.json', 'category.json', 'global.json', 'homepage.json', 'tag.json', 'components/shared/seo.json', 'components/shared/link.json']) {
      expect(readFileSync(join(work, 'content-types', file), 'utf8')).toBe(readFileSync(join(CONTENT_TYPES, file), 'utf8'));
    }
  });

  it('applies the embedded system migrations and creates the content tables in ./data with ./folio migrate', () => {
    const migrate = run(['migrate']);
    expect(migrate.stderr).toBe('');
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toMatch(/^applied system migration 0001_system$/m);
    expect(migrate.stdout).toMatch(/^create table articles$/m);
    expect(existsSync(join(work, 'data', 'folio.db'))).toBe(true);
    expect(run(['migrate']).stdout).toContain('content tables are up to date');
  });

  it('grants a public permission with ./folio permissions grant', () => {
    const grant = run(['permissions', 'grant', 'public', 'api::article.article.find']);
    expect(grant.code).toBe(0);
    expect(run(['permissions', 'list', 'public']).stdout).toMatch(/^public\tapi::article\.article\.find$/m);
  });

  it('serves the API on port 0 from the folder: empty article list, the OpenAPI document, then stops on SIGTERM', async () => {
    const server = await serve({ exe: folio, cwd: work, data: null, contentTypes: null });
    const url = server.url;
    expect(server.port).toBeGreaterThan(0);
    try {
      // The process that serves is the one started, re-executed once with its collector sized
      // by FOLIO_MEMORY_HINT_MB's default (src/cli/memory-hint.ts); /proc shows its environment.
      if (existsSync(`/proc/${server.proc.pid}/environ`)) {
        expect(readFileSync(`/proc/${server.proc.pid}/environ`, 'utf8').split('\0')).toContain(`BUN_JSC_forceRAMSize=${256 * 1024 * 1024}`);
      }
      const articles = await fetch(`${url}/api/articles`);
      expect(articles.status).toBe(200);
      const body = (await articles.json()) as { data: unknown[]; meta: { pagination: { total: number } } };
      expect(body.data).toEqual([]);
      expect(body.meta.pagination.total).toBe(0);

      const openapi = await fetch(`${url}/api/openapi.json`);
      expect(openapi.status).toBe(200);
      const doc = (await openapi.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(doc.paths)).toContain('/api/articles');

      // Not granted: still private.
      expect((await fetch(`${url}/api/tags`)).status).toBe(403);

      // The empty list was kept (answer cache); another process's commit is seen by the next read.
      expect(((await (await fetch(`${url}/api/articles`)).json()) as { data: unknown[] }).data).toEqual([]);
      writeFileSync(join(work, 'one.jsonl'), `${JSON.stringify({ title: 'From the CLI' })}\n`);
      expect(run(['import', join(work, 'one.jsonl'), '--type', 'articles']).code).toBe(0);
      const after = (await (await fetch(`${url}/api/articles`)).json()) as { data: { title: string }[] };
      expect(after.data.map((a) => a.title)).toEqual(['From the CLI']);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, SLOW);

  it('serves GraphQL from the binary (graphql-request as a front end) and prints its SDL with ./folio graphql-schema', async () => {
    const sdl = run(['graphql-schema']);
    expect(sdl.code).toBe(0);
    expect(sdl.stdout).toContain('articles_connection(');
    const server = await serve({ exe: folio, cwd: work, data: null, contentTypes: null });
    try {
      const client = new GraphQLClient(`${server.url}/graphql`);
      const answer = await client.request<{ articles: { title: string }[] }>('{ articles { title } }');
      expect(answer.articles.map((a) => a.title)).toEqual(['From the CLI']);
      const ide = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(ide.status).toBe(200);
      expect(await ide.text()).toContain('Folio GraphQL');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, SLOW);

  it('serves Folio Admin from the binary: its script carries the rich-text editor, with which an editor writes Strapi blocks in a browser', async () => {
    expect(run(['admin', 'create', '--email', 'bin@example.com', '--password', 'correct horse']).code).toBe(0);
    const server = await serve({ exe: folio, cwd: work, data: null, contentTypes: null });
    try {
      const page = await (await fetch(`${server.url}/admin`)).text();
      const script = /\/admin\/assets\/app-\w+\.js/.exec(page)![0];
      const js = await fetch(`${server.url}${script}`);
      expect(js.status).toBe(200);
      // The editor is a chunk of its own, embedded too.
      const chunk = /rich-editor-\w+\.js/.exec(await js.text())![0];
      expect(await (await fetch(`${server.url}/admin/assets/${chunk}`)).text()).toContain('ProseMirror');
      const executable = findChromium();
      if (!executable) return;
      const browser = await launchBrowser(executable);
      try {
        const tab = await browser.newPage();
        await tab.goto(`${server.url}/admin`);
        await tab.getByLabel('Email').fill('bin@example.com');
        await tab.getByLabel('Password').fill('correct horse');
        await tab.getByRole('button', { name: 'Log in' }).click();
        await tab.getByRole('button', { name: 'Log out' }).waitFor();
        await tab.goto(`${server.url}/admin/content/${encodeURIComponent('api::article.article')}/new`);
        await tab.getByLabel('Title', { exact: true }).fill('Written with the binary');
        await tab.getByRole('textbox', { name: 'Body' }).click();
        await tab.keyboard.press('Control+b');
        await tab.keyboard.type('Bold words');
        await tab.getByRole('button', { name: 'Save', exact: true }).click();
        await tab.getByTestId('status').filter({ hasText: 'Draft' }).waitFor();
      } finally {
        await browser.close();
      }
      const listed = await fetch(`${server.url}/api/articles?status=draft&filters[title][$eq]=Written with the binary`);
      expect(((await listed.json()) as { data: { body: unknown }[] }).data[0]!.body).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: 'Bold words', bold: true }] }]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('needed nothing beside it: the folder holds only the binary, the content types, ./data and the imported file', () => {
    expect(readdirSync(work).sort()).toEqual(['content-types', 'data', 'folio', 'one.jsonl']);
    expect(readdirSync(join(work, 'data'))).toContain('secrets.json');
  });

  it('exits 1 naming the file when a content type is broken', () => {
    const dir = tempDir('folio-bin-broken-');
    expect(run(['init', './content-types'], dir).code).toBe(0);
    writeFileSync(join(dir, 'content-types', 'tag.json'), '{ not json');
    const serve = run(['serve', '--port', '0'], dir);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('tag.json');
    expect(serve.stdout).not.toContain('Folio listening');
  });
});
