/**
 * The single compiled executable: built once exactly as package.json's "build" script
 * (only --outfile differs), copied alone into an empty folder, and driven from there.
 * Passing proves the system migrations and the example content travel inside it:
 * there are no SQL files, no node_modules and no source beside it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLClient } from 'graphql-request';
import { findChromium, launchBrowser } from '../helpers/browser';
import { CONTENT_TYPES, buildCommand, cleanEnv, killSpawned, removeTempDirs, ROOT, runCli, serve, tempDir, type CliRun } from '../helpers/spawn';
import { createDatabase, dropDatabases } from '../helpers/postgres';

const SLOW = 30_000;

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
    for (const file of [
      'article.json',
      'author.json',
      'category.json',
      'global.json',
      'homepage.json',
      'tag.json',
      'components/shared/seo.json',
      'components/shared/link.json',
    ]) {
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

  it(
    'serves the API on port 0 from the folder: empty article list, the OpenAPI document, then stops on SIGTERM',
    async () => {
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
    },
    SLOW,
  );

  it(
    'serves GraphQL from the binary (graphql-request as a front end) and prints its SDL with ./folio graphql-schema',
    async () => {
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
    },
    SLOW,
  );

  it('keeps content history and the audit log, and its servers publish a scheduled release once (two on one database: PostgreSQL with FOLIO_TEST_DATABASE_URL, else one SQLite file)', async () => {
    const dir = tempDir('folio-bin-editorial-');
    const database = process.env.FOLIO_TEST_DATABASE_URL ? await createDatabase(process.env.FOLIO_TEST_DATABASE_URL, 'folio_bin') : undefined;
    const at = { exe: folio, cwd: dir, data: null, contentTypes: null, ...(database ? { database } : {}) } as const;
    try {
      expect(runCli(['init', './content-types'], at).code).toBe(0);
      expect(runCli(['permissions', 'grant', 'public', 'api::article.article.*'], at).code).toBe(0);
      const servers = [await serve(at), await serve(at)];
      try {
        const created = await servers[0]!.call('POST', '/api/articles?status=draft', { body: { data: { title: 'Scheduled from the binary' } } });
        expect(created.status).toBe(201);
        const id = created.body.data.documentId;
        await servers[1]!.call('PUT', `/api/articles/${id}?status=draft`, { body: { data: { summary: 'edited' } } });
        expect(runCli(['release', 'create', 'bin', '--at', new Date(Date.now() + 2500).toISOString()], at).code).toBe(0);
        expect(runCli(['release', 'add', 'bin', '--type', 'articles', '--document', id, '--action', 'publish'], at).code).toBe(0);
        const deadline = Date.now() + 15_000;
        while ((await servers[1]!.call('GET', `/api/articles/${id}`)).status !== 200) {
          if (Date.now() > deadline) throw new Error('the scheduled release was not published');
          await Bun.sleep(100);
        }
        expect(JSON.parse(runCli(['release', 'show', 'bin', '--json'], at).stdout)).toMatchObject({ name: 'bin', status: 'done' });
        const history = JSON.parse(runCli(['history', 'list', 'articles', id, '--json'], at).stdout);
        expect(history.map((v: { status: string; actor: { kind: string } }) => [v.status, v.actor.kind])).toEqual([
          ['published', 'system'],
          ['draft', 'public'],
          ['draft', 'public'],
        ]);
        const audit = JSON.parse(runCli(['audit', '--json'], at).stdout) as { action: string }[];
        expect(audit.filter((r) => r.action === 'releases.publish')).toHaveLength(1);
        expect(audit.filter((r) => r.action === 'entry.publish')).toHaveLength(1);
      } finally {
        for (const server of servers) expect(await server.stop()).toBe(0);
      }
    } finally {
      if (database) await dropDatabases(process.env.FOLIO_TEST_DATABASE_URL!, [database]);
    }
  }, 60_000);
  it(
    "serves Strapi projects Strapi starts: a dangling mappedBy in the user extension, a local plugin's custom fields",
    async () => {
      const dir = tempDir('folio-bin-projects-');
      for (const project of ['food-guide', 'example-app'])
        cpSync(join(ROOT, 'test/fixtures/public-projects', project), join(dir, project), { recursive: true });
      const flags = (project: string) => ({ exe: folio, cwd: dir, contentTypes: join(dir, project), data: join(dir, `${project}-data`) });
      const grant = (project: string, actions: string[]) => expect(runCli(['permissions', 'grant', 'public', ...actions], flags(project)).code).toBe(0);

      grant('food-guide', ['api::category.category.find', 'api::category.category.create', 'api::article.article.find']);
      const food = await serve(flags('food-guide'));
      try {
        expect(food.stderr()).toContain('(attribute "articles"): mappedBy "author": api::article.article');
        const created = await food.call('POST', '/api/categories', { body: { data: { name: 'French', restaurants: [] } } });
        expect(created.status).toBe(201);
        const read = await food.call('GET', '/api/categories?populate=*');
        expect(read.status).toBe(200);
        expect(read.body.data[0]).toMatchObject({ name: 'French', articles: [] });
        expect('restaurants' in read.body.data[0]).toBe(false);
      } finally {
        expect(await food.stop()).toBe(0);
      }

      grant('example-app', ['api::address.address.find', 'api::address.address.create']);
      const example = await serve(flags('example-app'));
      try {
        expect(example.stderr()).toContain('custom field "plugin::mycustomfields.color" is registered by a plugin Folio does not know');
        const created = await example.call('POST', '/api/addresses', { body: { data: { city: 'Paris', color: '#4945ff', map: { lat: 48.85 } } } });
        expect(created.status).toBe(201);
        expect(created.body.data).toMatchObject({ color: '#4945ff', map: { lat: 48.85 } });
      } finally {
        expect(await example.stop()).toBe(0);
      }
    },
    2 * SLOW,
  );
  it(
    'runs a GraphQL mutation with a token and answers each error transport as Strapi does, from the binary',
    async () => {
      const created = run(['token', 'create', '--name', 'gql-writer', '--type', 'custom', '--actions', 'api::tag.tag.create,api::tag.tag.find']);
      expect(created.code).toBe(0);
      const key = created.stdout.trim().split('\n').at(-1)!;
      const server = await serve({ exe: folio, cwd: work, data: null, contentTypes: null });
      try {
        const endpoint = `${server.url}/graphql`;
        const writer = new GraphQLClient(endpoint, { headers: { authorization: `Bearer ${key}` } });
        const made = await writer.request<{ createTag: { name: string; publishedAt: string | null } }>(
          'mutation($data: TagInput!) { createTag(data: $data) { name publishedAt } }',
          { data: { name: 'from-graphql', color: '#00ff00' } },
        );
        expect(made.createTag.name).toBe('from-graphql');
        expect(made.createTag.publishedAt).toEqual(expect.any(String));
        expect((await writer.request<{ tags: { name: string }[] }>('{ tags { name } }')).tags).toEqual([{ name: 'from-graphql' }]);
        // A resolver's error: HTTP 200, the field null, extensions.code and extensions.error.
        const lenient = new GraphQLClient(endpoint, { errorPolicy: 'all', headers: { authorization: `Bearer ${key}` } });
        const invalid = await lenient.rawRequest<{ createTag: null }>('mutation { createTag(data: { name: "bad", color: "red" }) { name } }');
        expect(invalid.data).toEqual({ createTag: null });
        expect(invalid.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } });
        const forbidden = await new GraphQLClient(endpoint, { errorPolicy: 'all' }).rawRequest('mutation { createTag(data: { name: "public" }) { name } }');
        expect(forbidden.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
        // A validation error: HTTP 400 without data.
        const refused = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ tags { nope } }' }),
        });
        expect(refused.status).toBe(400);
        const refusedBody = (await refused.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
        expect(refusedBody.data).toBeUndefined();
        expect(refusedBody.errors[0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
        // A bad token and malformed JSON: the REST envelope; a GET mutation: 405.
        const badToken = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer nope' },
          body: '{"query":"{ tags { name } }"}',
        });
        expect(badToken.status).toBe(401);
        expect(((await badToken.json()) as { error: { name: string } }).error.name).toBe('UnauthorizedError');
        const malformed = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
        expect(malformed.status).toBe(400);
        expect((await malformed.json()) as { data: null; error: { name: string } }).toMatchObject({ data: null, error: { name: 'SyntaxError' } });
        const getMutation = await fetch(`${endpoint}?query=${encodeURIComponent('mutation { deleteTag(documentId: "x") { documentId } }')}`, {
          headers: { 'apollo-require-preflight': 'true' },
        });
        expect(getMutation.status).toBe(405);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );
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
      expect(((await listed.json()) as { data: { body: unknown }[] }).data[0]!.body).toEqual([
        { type: 'paragraph', children: [{ type: 'text', text: 'Bold words', bold: true }] },
      ]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it(
    "answers round three's REST causes as Strapi does: populate fragments given as true, conditional fields, a relation to users the caller may not find",
    async () => {
      const dir = tempDir('folio-bin-causes-');
      for (const project of ['course-site', 'starter', 'store'])
        cpSync(join(ROOT, 'test/fixtures/public-projects', project), join(dir, project), { recursive: true });
      const flags = (project: string) => ({ exe: folio, cwd: dir, contentTypes: join(dir, project), data: join(dir, `${project}-data`) });
      const grant = (project: string, role: string, actions: string[]) =>
        expect(runCli(['permissions', 'grant', role, ...actions], flags(project)).code).toBe(0);

      grant('course-site', 'public', ['api::page.page.find', 'api::page.page.create']);
      const course = await serve(flags('course-site'));
      try {
        const blocks = [
          { __component: 'blocks.heading', heading: 'Our story', linkId: 'story' },
          { __component: 'blocks.subscribe', headline: 'News', placeholder: 'you@example.com', buttonText: 'Join' },
        ];
        expect((await course.call('POST', '/api/pages', { body: { data: { title: 'About', blocks } } })).status).toBe(201);
        const read = await course.call('GET', '/api/pages?fields[0]=title&populate[blocks][on][blocks.heading]=true');
        expect(read.status).toBe(200);
        expect(read.body.data[0].blocks.map((b: { __component: string }) => b.__component)).toEqual(['blocks.heading']);
      } finally {
        expect(await course.stop()).toBe(0);
      }

      grant('starter', 'public', ['api::page.page.create']);
      const starter = await serve(flags('starter'));
      try {
        const page = (links: unknown[]) => starter.call('POST', '/api/pages?populate=links', { body: { data: { title: 'p', links } } });
        const hidden = await page([{ label: 'Docs', note: 'n', type: 'page', slug: 'home' }]);
        expect(hidden.status).toBe(201);
        expect(hidden.body.data.links[0]).toMatchObject({ type: 'page', slug: 'home', url: null });
        const shown = await page([{ label: 'Docs', note: 'n', type: 'url' }]);
        expect(shown.status).toBe(400);
      } finally {
        expect(await starter.stop()).toBe(0);
      }

      grant('store', 'authenticated', ['api::cart.cart.create', 'api::cart.cart.find']);
      const store = await serve(flags('store'));
      try {
        const registered = await store.call('POST', '/api/auth/local/register', {
          body: { username: 'shopper', email: 'shopper@example.com', password: 'secret123' },
        });
        expect(registered.status).toBe(200);
        const refused = await store.call('POST', '/api/carts', {
          body: { data: { total: 10, user: registered.body.user.id } },
          headers: { authorization: `Bearer ${registered.body.jwt}` },
        });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toEqual({
          status: 400,
          name: 'ValidationError',
          message: 'Invalid key user',
          details: { key: 'user', path: 'user', source: 'body' },
        });
      } finally {
        expect(await store.stop()).toBe(0);
      }
    },
    2 * SLOW,
  );

  it(
    "answers round three's remaining REST differences as Strapi does: a deep json value, a private attribute in populate, v4 counts, a replaced file's URL, a 414 envelope",
    async () => {
      const created = run(['token', 'create', '--name', 'rest-round-three', '--type', 'full-access']);
      expect(created.code).toBe(0);
      const auth = { authorization: `Bearer ${created.stdout.trim().split('\n').at(-1)!}` };
      const server = await serve({ exe: folio, cwd: work, data: null, contentTypes: null });
      try {
        // A json value 200 levels deep is stored and read back whole.
        let meta: unknown = 'bottom';
        for (let i = 0; i < 200; i++) meta = { down: meta };
        const author = await server.call('POST', '/api/authors', { body: { data: { name: 'Deep Ada', internalNotes: 'secret' } }, headers: auth });
        expect(author.status).toBe(201);
        const article = await server.call('POST', '/api/articles', {
          body: { data: { title: 'Deep', meta, author: author.body.data.documentId } },
          headers: auth,
        });
        expect(article.status).toBe(201);
        const id = article.body.data.documentId;
        expect((await server.call('GET', `/api/articles/${id}?fields[0]=meta`, { headers: auth })).body.data.meta).toEqual(meta);
        // A private attribute inside populate is Strapi's 400.
        const hidden = await server.call('GET', `/api/articles/${id}?populate[author][fields][0]=internalNotes`, { headers: auth });
        expect(hidden.status).toBe(400);
        expect(hidden.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key internalNotes', details: { param: 'populate' } });
        // A populated count in the v4 format is an entry of its own.
        const v4 = await server.call('GET', `/api/articles/${id}?fields[0]=title&populate[author][count]=true`, {
          headers: { ...auth, 'Strapi-Response-Format': 'v4' },
        });
        expect(v4.body.data.attributes.author).toEqual({ data: { attributes: { count: 1 } } });
        // A replaced file keeps its URL, which serves the new bytes.
        const form = (text: string) => {
          const body = new FormData();
          body.append('files', new File([text], 'note.txt', { type: 'text/plain' }));
          return body;
        };
        const first = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form('first bytes'), headers: auth });
        const [file] = (await first.json()) as { id: number; url: string }[];
        const replaced = await fetch(`${server.url}/api/upload?id=${file!.id}`, { method: 'POST', body: form('second bytes'), headers: auth });
        expect(((await replaced.json()) as { url: string }).url).toBe(file!.url);
        expect(await (await fetch(server.url + file!.url)).text()).toBe('second bytes');
        // A URL over Folio's limit gets the 414 envelope, never Bun's bare 431.
        const long = await fetch(`${server.url}/api/articles?filters[title][$eq]=${'x'.repeat(20_000)}`, { headers: auth });
        expect(long.status).toBe(414);
        expect(((await long.json()) as { error: { name: string } }).error.name).toBe('URITooLongError');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );

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
