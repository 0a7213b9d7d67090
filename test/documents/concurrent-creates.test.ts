/**
 * 64 creates at once from two instances on one database (issue #21, PostgreSQL): every new
 * article links to the same category, author and tags, so every create appends to the same
 * inverse lists and passes the same unique checks. Each answer is 201, nothing is lost,
 * every inverse list holds 64 distinct keys, each version is stored once, totals are exact
 * on both instances, and on PostgreSQL no transaction had to be retried (writers wait on
 * locks instead of conflicting). Runs on SQLite by default (two instances on one file) and
 * on PostgreSQL with FOLIO_TEST_DATABASE_URL (two pools on one database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Database } from '../../src/db/database';
import { PostgresDatabase } from '../../src/db/postgres';
import type { RelationAttribute } from '../../src/registry/types';
import { startServer, type TestServer } from '../helpers/server';

const CREATES = 64;
const SLOW = 60_000;

/** Retried transactions so far, by SQLSTATE (PostgreSQL only; SQLite never retries). */
const retries = (db: Database) => (db instanceof PostgresDatabase ? Object.fromEntries(db.retries) : {});

describe('64 concurrent creates from two instances on one database', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer();
    // The second instance opens the same data dir: the same SQLite file, or the same PostgreSQL database.
    b = await startServer({ dataDir: a.dataDir });
  }, SLOW);
  afterAll(async () => {
    await b?.stop({ keepData: true });
    await a?.stop();
  });

  const created = (answer: { status: number; body: any }) => {
    if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data.documentId as string;
  };

  it(
    'answers every create 201 without a retry, and leaves every article once with distinct inverse keys and exact totals on both instances',
    async () => {
      const category = created(await a.call('POST', '/api/categories', { body: { data: { name: 'Shared' } } }));
      const author = created(await a.call('POST', '/api/authors', { body: { data: { name: 'Shared', email: 'shared@example.com' } } }));
      const tags: string[] = [];
      for (let i = 0; i < 3; i++) tags.push(created(await a.call('POST', '/api/tags', { body: { data: { name: `shared-${i}` } } })));
      const before = [retries(a.instance.db), retries(b.instance.db)];

      // Every request starts before any answers; they alternate between the instances.
      const answers = await Promise.all(
        Array.from({ length: CREATES }, (_, i) =>
          (i % 2 ? b : a).call('POST', '/api/articles', {
            body: { data: { title: `Concurrent ${i}`, slug: `concurrent-${i}`, category, author, tags } },
          }),
        ),
      );
      const failures = answers.filter((x) => x.status !== 201).map((x) => `${x.status} ${JSON.stringify(x.body)}`);
      expect(failures).toEqual([]);
      const ids = answers.map(created);
      expect(new Set(ids).size).toBe(CREATES);
      // Nothing retried: the counters did not move (a conflict would have aborted and re-run a transaction).
      expect([retries(a.instance.db), retries(b.instance.db)]).toEqual(before);

      const db = a.instance.db;
      // Each document once per status: the (documentId, locale, status) key held.
      const versions = await db.all<{ documentId: string; n: number }>(
        'SELECT "documentId", COUNT(*) AS n FROM articles GROUP BY "documentId", "locale", ("publishedAt" IS NULL)',
      );
      expect(versions.filter((v) => ids.includes(v.documentId)).length).toBe(CREATES * 2);
      expect(versions.every((v) => Number(v.n) === 1)).toBe(true);

      // Every target's inverse list: a link from each version (draft and published, which share
      // their document's key), and 64 keys, one per document: no two writers took the same key.
      const article = a.instance.registry.contentType('api::article.article')!;
      for (const [name, targets] of [
        ['category', [category]],
        ['author', [author]],
        ['tags', tags],
      ] as const) {
        const table = (article.attributes[name] as RelationAttribute).linkTable;
        for (const target of targets) {
          const links = await db.all<{ k: string; d: string }>(
            `SELECT l."inversePosition" AS k, v."documentId" AS d FROM "${table}" l JOIN articles v ON v.id = l."sourceId" WHERE l."targetDocumentId" = ?`,
            [target],
          );
          expect(links.length).toBe(CREATES * 2);
          const owners = new Map<string, Set<string>>();
          for (const { k, d } of links) owners.set(k, (owners.get(k) ?? new Set()).add(d));
          expect(owners.size).toBe(CREATES);
          expect([...owners.values()].every((o) => o.size === 1)).toBe(true);
        }
      }

      // Both instances count and list exactly the 64, in the same order, with every link.
      for (const server of [a, b]) {
        const list = await server.call('GET', '/api/articles?pagination[pageSize]=1');
        expect(list.body.meta.pagination.total).toBe(CREATES);
        const drafts = await server.call('GET', '/api/articles?status=draft&pagination[pageSize]=1');
        expect(drafts.body.meta.pagination.total).toBe(CREATES);
        const tag = await server.call('GET', `/api/tags/${tags[0]}?populate[articles][count]=true`);
        expect(tag.body.data.articles.count).toBe(CREATES);
        const inverse = await server.call('GET', `/api/categories/${category}?populate[articles][fields][0]=title`);
        expect(new Set(inverse.body.data.articles.map((x: { documentId: string }) => x.documentId))).toEqual(new Set(ids));
      }
      const [first, second] = await Promise.all(
        [a, b].map(async (s) =>
          (await s.call('GET', `/api/tags/${tags[1]}?populate[articles][fields][0]=title`)).body.data.articles.map((x: { documentId: string }) => x.documentId),
        ),
      );
      expect(second).toEqual(first);
    },
    SLOW,
  );
});
