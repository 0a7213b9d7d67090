/**
 * Writes under ordinary contention never fail (hardening issue): 8 writers spread over two
 * `folio serve` processes on one PostgreSQL database reorder the same relation lists (the
 * owning side and the inverse side) while documents are created, updated and published,
 * and every answer is 200/201, never a 5xx; the lists end in one consistent order with
 * no two items sharing an order key. Concurrent writes of one unique value let exactly one
 * win; concurrent first writes of a single type, or of a new locale, create it once.
 * test/postgres/write-locks.test.ts shows the locks behind this deterministically. Skipped unless FOLIO_TEST_DATABASE_URL is set (the admin URL used to create and
 * drop the scratch databases).
 */
import { cleanEnv } from '../helpers/spawn';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
if (!ADMIN_URL) console.warn('test/postgres/contention.test.ts skipped: set FOLIO_TEST_DATABASE_URL to a PostgreSQL admin URL to run it');
const ROOT = resolve(import.meta.dir, '../..');
const CLI = join(ROOT, 'src/cli.ts');
const BUN = process.execPath;
const CONTENT_TYPES = join(ROOT, 'content-types');
const SLOW = 120_000;

const temps: string[] = [];
const databases: string[] = [];
const running: ReturnType<typeof Bun.spawn>[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pg-contention-'));
  temps.push(dir);
  return dir;
}

function cli(args: string[], database: string): void {
  const result = Bun.spawnSync([BUN, CLI, ...args, '--database', database, '--data', tempDir(), '--content-types', CONTENT_TYPES], {
    cwd: ROOT,
    env: cleanEnv(),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (result.exitCode !== 0) throw new Error(`folio ${args.join(' ')} failed: ${result.stderr.toString()}`);
}

interface Answer {
  status: number;
  body: any;
}

interface Served {
  call(method: string, path: string, body?: unknown): Promise<Answer>;
}

/** Starts `folio serve --port 0` on the database; resolves once it says where it listens (bounded). */
async function serve(database: string): Promise<Served> {
  const proc = Bun.spawn([BUN, CLI, 'serve', '--port', '0', '--database', database, '--data', tempDir(), '--content-types', CONTENT_TYPES], {
    cwd: ROOT,
    env: cleanEnv(),
    stdout: 'pipe',
    stderr: 'inherit',
  });
  running.push(proc);
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  let match: RegExpMatchArray | null = null;
  const deadline = Date.now() + 30_000;
  while (!(match = out.match(/Folio listening on (http:\/\/127\.0\.0\.1:\d+)/)) && Date.now() < deadline) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve ended before listening: ${out}`);
    out += decoder.decode(chunk.value, { stream: true });
  }
  if (!match) throw new Error(`serve never said it listens: ${out}`);
  // Keep draining stdout so the server never blocks on a full pipe.
  void (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }))) {}
  })();
  const url = match[1]!;
  return {
    async call(method, path, body) {
      const init: RequestInit = { method };
      if (body !== undefined) init.body = JSON.stringify({ data: body });
      if (body !== undefined) init.headers = { 'content-type': 'application/json' };
      const response = await fetch(url + path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
  };
}

afterAll(async () => {
  for (const proc of running) if (proc.exitCode === null) proc.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A small deterministic PRNG (mulberry32): the same run every time. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WRITERS = 8;
const ROUNDS = 20;

describe.skipIf(!ADMIN_URL)('8 writers on two instances sharing one PostgreSQL database', () => {
  let database: string;
  let servers: Served[];
  const ok = (answer: Answer, status = 200) => {
    if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };

  beforeAll(async () => {
    database = await createDatabase(ADMIN_URL!, 'folio_contention');
    databases.push(database);
    cli(['permissions', 'grant', 'public', 'api::article.article.*', 'api::tag.tag.*', 'api::homepage.homepage.*'], database);
    cli(['locales', 'add', 'fr', '--name', 'French (fr)'], database);
    servers = await Promise.all([serve(database), serve(database)]);
  }, SLOW);

  it(
    'answers every positioned connect, create, update and publish with 200/201 and leaves one order, equal on both instances, with no shared order key',
    async () => {
      const [a] = servers as [Served, Served];
      const tags: string[] = [];
      for (let i = 0; i < 8; i++) tags.push(ok(await a.call('POST', '/api/tags', { name: `hot-${i}` }), 201).documentId);
      const hotTag = tags[0]!;
      const hot = ok(await a.call('POST', '/api/articles', { title: 'Hot list', tags }), 201).documentId as string;
      const articles: string[] = [];
      for (let i = 0; i < 8; i++) articles.push(ok(await a.call('POST', '/api/articles', { title: `linked ${i}`, tags: [hotTag] }), 201).documentId);
      const created: string[] = [];

      // Anchors among the first few items only: writers often aim at the same gap.
      const place = (rand: () => number, anchors: string[], self: string) => {
        const others = anchors.slice(0, 4).filter((x) => x !== self);
        const anchor = others[Math.floor(rand() * others.length)]!;
        return [{ before: anchor }, { after: anchor }, { start: true }, { end: true }][Math.floor(rand() * 4)];
      };
      const pick = (rand: () => number, list: string[]) => list[Math.floor(rand() * list.length)]!;
      const failures: string[] = [];
      let answered = 0;

      const rands = Array.from({ length: WRITERS }, (_, w) => random(w + 1));
      // Half the moves write the draft only: no publish (whose unique published version
      // would make concurrent writers of one document collide and retry) hides a race there.
      const status = (rand: () => number) => (rand() < 0.5 ? '?status=draft' : '');
      // Each round starts all writers together, two of each kind, one on each instance, so
      // that transactions computing keys of the same list overlap as much as they can.
      const write = async (w: number, round: number) => {
        const server = servers[w % 2]!;
        const rand = rands[w]!;
        const op = [0, 1, 1, 0, 2, 3, 3, 2][(w + 2 * round) % WRITERS]!;
        let answer: Answer;
        let expected = 200;
        if (op === 0) {
          // Owning side: move a tag within the hot article's list.
          const tag = pick(rand, tags.slice(1));
          const connect = [{ documentId: tag, position: place(rand, tags, tag) }];
          answer = await server.call('PUT', `/api/articles/${hot}${status(rand)}`, { tags: { connect } });
        } else if (op === 1) {
          // Inverse side: move an article within the hot tag's list of articles.
          const article = pick(rand, articles);
          const connect = [{ documentId: article, position: place(rand, [hot, ...articles], article) }];
          answer = await server.call('PUT', `/api/tags/${hotTag}${status(rand)}`, { articles: { connect } });
        } else if (op === 2) {
          // A new article: appended to the hot tag's inverse list, placed first in its own.
          const tagsOfNew = { connect: [{ documentId: pick(rand, tags.slice(1)) }, { documentId: hotTag, position: { start: true } }] };
          answer = await server.call('POST', '/api/articles', { title: `new ${w}-${round}`, tags: tagsOfNew });
          expected = 201;
          if (answer.status === 201) created.push(answer.body.data.documentId);
        } else {
          // Updates of the documents whose lists are being reordered: drafts, and publishes.
          const target = rand() < 0.5 ? hot : pick(rand, articles);
          answer = await server.call('PUT', `/api/articles/${target}${status(rand)}`, { summary: `w${w} r${round}` });
        }
        answered++;
        if (answer.status !== expected) failures.push(`writer ${w} round ${round} op ${op}: ${answer.status} ${JSON.stringify(answer.body)}`);
      };
      for (let round = 0; round < ROUNDS; round++) await Promise.all(Array.from({ length: WRITERS }, (_, w) => write(w, round)));
      expect(failures).toEqual([]);
      expect(answered).toBe(WRITERS * ROUNDS);

      // Publishing every owner copies its draft links: the published lists then equal the drafts.
      for (const id of [hot, ...articles, ...created]) ok(await servers[0]!.call('PUT', `/api/articles/${id}`, { summary: 'final' }));
      const order = async (server: Served, path: string, field: string, state: string) =>
        (ok(await server.call('GET', `${path}?populate[${field}][fields][0]=createdAt&status=${state}`))[field] as { documentId: string }[]).map(
          (x) => x.documentId,
        );
      for (const [path, field, members] of [
        [`/api/articles/${hot}`, 'tags', tags],
        [`/api/tags/${hotTag}`, 'articles', [hot, ...articles, ...created]],
      ] as const) {
        const [onA, onB, draftOnB] = await Promise.all([
          order(servers[0]!, path, field, 'published'),
          order(servers[1]!, path, field, 'published'),
          order(servers[1]!, path, field, 'draft'),
        ]);
        expect(onB).toEqual(onA);
        expect(draftOnB).toEqual(onA);
        expect([...onA].sort()).toEqual([...members].sort());
      }

      // No two items of one list share an order key: every key was computed against the
      // committed list, never against a list another writer was changing.
      const sharedOwning = await queryOnce(
        database,
        `SELECT "sourceId", "position" FROM articles_tags_lnk GROUP BY "sourceId", "position" HAVING COUNT(*) > 1`,
      );
      expect(sharedOwning).toEqual([]);
      const sharedInverse = await queryOnce(
        database,
        `SELECT l."targetDocumentId", l."inversePosition" FROM articles_tags_lnk l JOIN articles o ON o.id = l."sourceId"
         GROUP BY l."targetDocumentId", l."targetLocale", l."inversePosition" HAVING COUNT(DISTINCT o."documentId") > 1`,
      );
      expect(sharedInverse).toEqual([]);
    },
    SLOW,
  );

  it(
    'lets exactly one of 8 concurrent writes of the same unique value win, round after round: the rest answer 400, none 5xx',
    async () => {
      for (let round = 0; round < 4; round++) {
        const ids: string[] = [];
        for (let i = 0; i < WRITERS; i++) ids.push(ok(await servers[0]!.call('POST', '/api/tags', { name: `u${round}-${i}` }), 201).documentId);
        const value = `contended-${round}`;
        const puts = await Promise.all(ids.map((id, i) => servers[i % 2]!.call('PUT', `/api/tags/${id}`, { name: value })));
        expect(puts.map((p) => p.status).sort()).toEqual([200, ...Array(WRITERS - 1).fill(400)]);
        for (const p of puts.filter((x) => x.status === 400)) expect(p.body.error.message).toBe('This attribute must be unique');
        const posts = await Promise.all(ids.map((_, i) => servers[i % 2]!.call('POST', '/api/tags', { name: `${value}-new` })));
        expect(posts.map((p) => p.status).sort()).toEqual([201, ...Array(WRITERS - 1).fill(400)]);
        const published = await queryOnce<{ n: number }>(
          database,
          `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM tags WHERE "name" IN ('${value}', '${value}-new') AND "publishedAt" IS NOT NULL`,
        );
        expect(published[0]!.n).toBe(2);
      }
    },
    SLOW,
  );

  it(
    'creates the single type once and a new locale once when 8 writers PUT them at the same moment',
    async () => {
      const homes = await Promise.all(Array.from({ length: WRITERS }, (_, i) => servers[i % 2]!.call('PUT', '/api/homepage', { headline: `home ${i}` })));
      expect(homes.map((h) => h.status)).toEqual(Array(WRITERS).fill(200));
      expect(new Set(homes.map((h) => h.body.data.documentId)).size).toBe(1);
      const rows = await queryOnce<{ documentId: string; n: number }>(
        database,
        'SELECT "documentId", CAST(COUNT(*) AS INTEGER) AS n FROM homepages GROUP BY "documentId"',
      );
      expect(rows).toEqual([{ documentId: homes[0]!.body.data.documentId, n: 2 }]);

      const article = ok(await servers[0]!.call('POST', '/api/articles', { title: 'English first' }), 201).documentId as string;
      const french = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) => servers[i % 2]!.call('PUT', `/api/articles/${article}?locale=fr`, { title: `Français ${i}` })),
      );
      expect(french.map((f) => f.status)).toEqual(Array(WRITERS).fill(200));
      const versions = await queryOnce<{ locale: string; n: number }>(
        database,
        `SELECT "locale", CAST(COUNT(*) AS INTEGER) AS n FROM articles WHERE "documentId" = '${article}' GROUP BY "locale" ORDER BY "locale"`,
      );
      expect(versions).toEqual([
        { locale: 'en', n: 2 },
        { locale: 'fr', n: 2 },
      ]);
    },
    SLOW,
  );
});
