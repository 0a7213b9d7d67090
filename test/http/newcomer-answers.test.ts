/**
 * Answers that cost a newcomer time (issue #44, the smaller points): JSON sent by `curl -d`
 * without its Content-Type is told which header to add; a relation to a documentId that is not
 * there names the relation, its target type and the documentId; the request log counts the
 * bytes of the admin's pages and files, `/` and the favicon; every curl example with brackets
 * in the docs passes -g. Real servers (in-process, and `folio serve` spawned for its log),
 * real curl. SQLite, or PostgreSQL with FOLIO_TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_SEED } from '../../src/cli/example-seed';
import { killSpawned, ROOT, serve } from '../helpers/spawn';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 30_000);
afterAll(async () => {
  await server.stop();
  await killSpawned();
}, 30_000);

/** curl as a user runs it (spawned without blocking: the server answering it runs in this process). */
async function curl(args: string[]): Promise<{ status: number; body: any }> {
  const proc = Bun.spawn(['curl', '-s', '-w', '\n%{http_code}', ...args], { stdout: 'pipe', stderr: 'pipe' });
  const [out] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const end = out.lastIndexOf('\n');
  return { status: Number(out.slice(end + 1)), body: JSON.parse(out.slice(0, end)) };
}

describe('a JSON body sent without its Content-Type', () => {
  it('curl -d of JSON answers Missing "data" payload with the header to add; a form body keeps Strapi\'s words', async () => {
    const json = await curl(['-d', '{"data":{"title":"From curl"}}', `${server.url}/api/articles`]);
    expect(json.status).toBe(400);
    expect(json.body.error.message).toBe(
      `Missing "data" payload in the request body (the body looks like JSON but was sent as application/x-www-form-urlencoded: add the header Content-Type: application/json, e.g. curl -H 'Content-Type: application/json' -d '{"data":{…}}')`,
    );
    const form = await curl(['-d', 'title=From curl', `${server.url}/api/articles`]);
    expect(form.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} });
    const right = await curl(['-H', 'Content-Type: application/json', '-d', '{"data":{"title":"From curl"}}', `${server.url}/api/articles`]);
    expect(right.status).toBe(201);
  });
});

describe('a relation to a documentId that is not there', () => {
  it('names the relation, the type it points at and the documentId, its locale only for a type with locales', async () => {
    const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
      [
        '/api/articles',
        { title: 'x', author: 'noauthor00000000000000000' },
        'Document with id "noauthor00000000000000000" not found: the relation author points at api::author.author, which has no such document',
        { path: ['author'], type: 'api::author.author', documentId: 'noauthor00000000000000000', locale: null },
      ],
      [
        '/api/articles',
        { title: 'x', category: 'nocategory000000000000000' },
        'Document with id "nocategory000000000000000" not found in locale "en": the relation category points at api::category.category, which has no such document in that locale',
        { path: ['category'], locale: 'en' },
      ],
      [
        '/api/articles',
        { title: 'x', tags: { connect: ['notag0000000000000000000'] } },
        'Document with id "notag0000000000000000000" not found: the relation tags points at api::tag.tag',
        { path: ['tags'] },
      ],
      // The inverse side (author.articles is mapped by article.author).
      [
        '/api/authors',
        { name: 'x', articles: ['noarticle0000000000000000'] },
        'Document with id "noarticle0000000000000000" not found in locale "en": the relation articles points at api::article.article',
        { path: ['articles'] },
      ],
    ];
    for (const [path, data, message, details] of cases) {
      const response = await server.call('POST', path, { body: { data } });
      expect({ data, status: response.status, name: response.body.error.name }).toEqual({ data, status: 400, name: 'ValidationError' });
      expect(response.body.error.message).toStartWith(message);
      expect(response.body.error.details).toMatchObject(details);
    }
  });
});

describe('the request log', () => {
  it('counts the bytes of the admin page, its script, / and the favicon (no "-B")', async () => {
    const folio = await serve({ env: { FOLIO_EXAMPLE_CONTENT: 'false' } });
    try {
      const script = /src="(\/admin\/assets\/app-[\w.-]+\.js)"/.exec(await (await fetch(`${folio.url}/admin`)).text())?.[1];
      expect(script).toBeString();
      for (const path of ['/admin', script!, '/', '/favicon.ico', '/graphql']) {
        const response = await fetch(`${folio.url}${path}`, { headers: { accept: 'text/html' } });
        const body = await response.arrayBuffer();
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
        const sent = response.headers.get('content-encoding') ? Number(response.headers.get('content-length')) : body.byteLength;
        const line = new RegExp(`^GET ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} 200 [\\d.]+ms (\\d+)B$`, 'm');
        for (let i = 0; i < 100 && !line.test(folio.stdout()); i++) await Bun.sleep(20);
        expect({ path, bytes: Number(line.exec(folio.stdout())?.[1]) }).toEqual({ path, bytes: sent });
      }
      expect(folio.stdout()).not.toMatch(/ -B$/m);
    } finally {
      await folio.stop();
    }
  }, 60_000);
});

describe('curl examples', () => {
  it('every curl command with [ or ] in its URL passes -g (curl would read them as a range), in the docs and in the example content', () => {
    const texts = [
      readFileSync(join(ROOT, 'README.md'), 'utf8'),
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => readFileSync(join(ROOT, 'docs', f), 'utf8')),
      JSON.stringify(EXAMPLE_SEED).replace(/\\"/g, '"'),
    ];
    const commands = texts.flatMap((text) => text.match(/\bcurl\b[^\n`]*/g) ?? []);
    expect(commands.length).toBeGreaterThan(0);
    const unquoted = commands.filter((c) => /https?:\/\/\S*[[\]]/.test(c) && !/\s(-g|--globoff)\b/.test(c));
    expect(unquoted).toEqual([]);
  });
});
