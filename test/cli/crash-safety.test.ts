/**
 * Crash safety (the hardening issue): `folio serve` SIGKILLed in the middle of concurrent
 * writes loses no write it acknowledged, and comes back consistent. Real processes from
 * source (test/helpers/spawn.ts); SQLite in a temp data dir, or, with
 * FOLIO_TEST_DATABASE_URL set, two instances on one fresh PostgreSQL database.
 *
 * Each trial: grant the public role through the CLI, start the server(s), seed tags and
 * categories, run concurrent writers (creates with relations, then updates that set or
 * connect them) recording every write answered 2xx, SIGKILL at a seeded moment, restart on
 * the same data and check every acknowledged write — and the database as a whole.
 *
 *   FOLIO_CRASH_TRIALS=N   trials (default 3)
 *   FOLIO_CRASH_SEED=N     seed of the first trial (trial i uses seed + i)
 */
import { Database } from 'bun:sqlite';
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { loadRegistry } from '../../src/registry/load';
import { mulberry32, Gen } from '../helpers/fuzz-query';
import { createDatabase, dropDatabases, queryOnce } from '../helpers/postgres';
import { CONTENT_TYPES, killSpawned, removeTempDirs, runCli, serve, tempDir, type SpawnedServer } from '../helpers/spawn';

const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const ENGINE = ADMIN_URL ? 'postgres' : 'sqlite';
const TRIALS = Number(process.env.FOLIO_CRASH_TRIALS ?? 3);
const SEED = Number(process.env.FOLIO_CRASH_SEED ?? 7331);
const WRITERS = 4;
const GRANTS = [
  'api::article.article.find',
  'api::article.article.findOne',
  'api::article.article.create',
  'api::article.article.update',
  'api::tag.tag.find',
  'api::tag.tag.create',
  'api::category.category.find',
  'api::category.category.create',
];

const databases: string[] = [];
afterEach(killSpawned);
afterAll(async () => {
  await killSpawned();
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
  removeTempDirs();
});

/** What an article should hold: the fields every write sets in full. */
interface Values {
  title: string;
  views: number;
  category: string | null;
  tags: string[];
}

interface Tracked {
  documentId: string;
  /** The last write answered 2xx. */
  acked: Values;
  /** A write sent and never answered (the server died): it may or may not have landed. */
  inFlight?: Values;
}

interface Installation {
  flags: { data: string; database?: string };
  /** Where a second instance keeps its own data dir (PostgreSQL only). */
  secondData?: string;
}

async function install(): Promise<Installation> {
  const data = tempDir('folio-crash-');
  let database: string | undefined;
  if (ADMIN_URL) databases.push((database = await createDatabase(ADMIN_URL, 'folio_crash')));
  const flags = { data, ...(database ? { database } : {}) };
  const granted = runCli(['permissions', 'grant', 'public', ...GRANTS], flags);
  expect(granted.stderr).toBe('');
  expect(granted.code).toBe(0);
  return { flags, ...(database ? { secondData: tempDir('folio-crash-b-') } : {}) };
}

const startAll = (inst: Installation) => Promise.all([serve(inst.flags), ...(inst.secondData ? [serve({ ...inst.flags, data: inst.secondData })] : [])]);

async function post(server: SpawnedServer, path: string, data: Record<string, unknown>): Promise<string> {
  const r = await server.call('POST', path, { body: { data } });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.documentId;
}

interface Run {
  tracked: Tracked[];
  /** Names of tags and categories by documentId, as reads show them. */
  names: Map<string, string>;
  acks: number;
  /** Answers a healthy server should never give while the writers run. */
  unexpected: string[];
}

/** Runs the writers against `servers` until each one's server dies; `onAck` sees the running count. */
async function write(g: Gen, servers: SpawnedServer[], run: Run, tags: string[], categories: string[], onAck: () => void) {
  const values = (previous?: Values): { values: Values; data: Record<string, unknown> } => {
    const title = `t${g.int(1e6)} ${g.pick(['été', 'plain', '日本', 'x'])}`;
    const views = g.int(10_000);
    const category = g.chance(0.2) ? null : g.pick(categories);
    // Updates connect new tags at the end half the time; otherwise the whole list is set.
    if (previous && g.chance(0.5)) {
      const extra = tags.filter((t) => !previous.tags.includes(t)).slice(0, g.range(0, 2));
      return { values: { title, views, category, tags: [...previous.tags, ...extra] }, data: { title, views, category, tags: { connect: extra } } };
    }
    const chosen = tags.filter(() => g.chance(0.5));
    return { values: { title, views, category, tags: chosen }, data: { title, views, category, tags: chosen } };
  };
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      const server = servers[w % servers.length]!;
      const mine: Tracked[] = [];
      for (;;) {
        const doc = mine.length && g.chance(0.6) ? g.pick(mine) : undefined;
        const next = values(doc?.acked);
        if (doc) doc.inFlight = next.values;
        let status: number;
        let body: any;
        try {
          ({ status, body } = await server.call(doc ? 'PUT' : 'POST', doc ? `/api/articles/${doc.documentId}` : '/api/articles', {
            body: { data: next.data },
          }));
        } catch {
          return; // the server is gone: an update stays in flight, a create is simply unknown
        }
        if (status === 200 || status === 201) {
          if (doc) {
            doc.acked = next.values;
            delete doc.inFlight;
          } else {
            const fresh = { documentId: body.data.documentId as string, acked: next.values };
            mine.push(fresh);
            run.tracked.push(fresh);
          }
          run.acks++;
          onAck();
        } else if (status === 503) {
          // Rolled back and safe to retry (contention on PostgreSQL): nothing landed.
          if (doc) delete doc.inFlight;
        } else {
          run.unexpected.push(`${doc ? 'PUT' : 'POST'} → ${status} ${JSON.stringify(body).slice(0, 300)}`);
          return;
        }
      }
    }),
  );
}

const same = (a: Values, b: Values) => JSON.stringify(a) === JSON.stringify(b);

interface Row {
  documentId: string;
  title: string;
  views: number;
  category: { name: string } | null;
  tags: { name: string }[];
}

/** Every article of a status, page by page; checks the total against the rows read. */
async function readAll(server: SpawnedServer, status: 'published' | 'draft'): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  let total = -1;
  for (let page = 1; page < 1000; page++) {
    const r = await server.call(
      'GET',
      `/api/articles?status=${status}&sort=id:asc&pagination[page]=${page}&pagination[pageSize]=100&fields[0]=title&fields[1]=views&populate[category][fields][0]=name&populate[tags][fields][0]=name`,
    );
    expect(r.status).toBe(200);
    total = r.body.meta.pagination.total;
    for (const row of r.body.data as Row[]) {
      expect(rows.has(row.documentId)).toBe(false);
      rows.set(row.documentId, row);
    }
    if (page >= r.body.meta.pagination.pageCount) break;
  }
  expect(rows.size).toBe(total);
  return rows;
}

/** Link rows whose source row or target document does not exist, per link table; and SQLite's own checks. */
async function danglingLinks(inst: Installation): Promise<string[]> {
  const registry = loadRegistry(CONTENT_TYPES);
  const checks: string[] = [];
  for (const ct of registry.contentTypes) {
    for (const a of Object.values(ct.attributes)) {
      if (a.kind !== 'relation' || !a.owner) continue;
      const target = registry.contentType(a.target)!;
      checks.push(
        `SELECT '${a.linkTable}' AS link, COUNT(*) AS n FROM "${a.linkTable}" l WHERE NOT EXISTS (SELECT 1 FROM "${ct.tableName}" s WHERE s."id" = l."sourceId") OR NOT EXISTS (SELECT 1 FROM "${target.tableName}" t WHERE t."documentId" = l."targetDocumentId")`,
      );
    }
  }
  const found: string[] = [];
  if (inst.flags.database) {
    for (const sql of checks)
      for (const r of await queryOnce<{ link: string; n: number | string }>(inst.flags.database, sql)) if (Number(r.n)) found.push(`${r.link}: ${r.n}`);
    return found;
  }
  const db = new Database(join(inst.flags.data, 'folio.db'), { readonly: true });
  try {
    for (const sql of checks) for (const r of db.query<{ link: string; n: number }, []>(sql).all()) if (r.n) found.push(`${r.link}: ${r.n}`);
    const integrity = db.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all();
    if (integrity[0]?.integrity_check !== 'ok') found.push(`integrity_check: ${JSON.stringify(integrity)}`);
    const foreign = db.query('PRAGMA foreign_key_check').all();
    if (foreign.length) found.push(`foreign_key_check: ${JSON.stringify(foreign).slice(0, 300)}`);
  } finally {
    db.close();
  }
  return found;
}

async function trial(seed: number) {
  const g = new Gen(mulberry32(seed));
  const inst = await install();
  const servers = await startAll(inst);
  const run: Run = { tracked: [], names: new Map(), acks: 0, unexpected: [] };
  const tags: string[] = [];
  for (const name of ['red', 'green', 'blue', 'été', 'black']) {
    const id = await post(servers[0]!, '/api/tags', { name });
    tags.push(id);
    run.names.set(id, name);
  }
  const categories: string[] = [];
  for (const name of ['News', 'Guides']) {
    const id = await post(servers[0]!, '/api/categories', { name });
    categories.push(id);
    run.names.set(id, name);
  }

  // Each server dies once the writers have had a seeded number of acknowledgements, plus a
  // seeded few milliseconds, so the kill lands at a different point of a write each trial.
  // Its own PRNG: the writers draw from theirs in whatever order their answers arrive.
  const when = new Gen(mulberry32(~seed));
  const killAt = servers.map((_, i) => (i + 1) * when.range(10, 60));
  const kills: Promise<void>[] = [];
  const onAck = () => {
    servers.forEach((server, i) => {
      if (run.acks === killAt[i]) kills.push(Bun.sleep(when.int(25)).then(() => server.kill()));
    });
  };
  const writing = write(g, servers, run, tags, categories, onAck);
  // Should the writers stall before the last kill, stop the servers anyway (and fail below).
  const stalled = setTimeout(() => servers.forEach((s) => void s.kill()), 20_000);
  await writing;
  clearTimeout(stalled);
  await Promise.all(kills);
  expect(run.unexpected).toEqual([]);
  expect(run.acks).toBeGreaterThanOrEqual(Math.max(...killAt));

  // Back up on the same data (on PostgreSQL: the same database).
  const [restarted] = await startAll({ flags: inst.flags });
  const server = restarted!;
  expect((await server.call('GET', '/_health')).status).toBe(204);
  const published = await readAll(server, 'published');
  const drafts = await readAll(server, 'draft');
  // A create is one transaction: every document has both versions or neither.
  expect([...drafts.keys()].sort()).toEqual([...published.keys()].sort());

  const lost: string[] = [];
  for (const doc of run.tracked) {
    for (const [status, rows] of [
      ['published', published],
      ['draft', drafts],
    ] as const) {
      const row = rows.get(doc.documentId);
      if (!row) {
        lost.push(`${doc.documentId} (${status}): missing, acknowledged ${JSON.stringify(doc.acked)}`);
        continue;
      }
      const stored: Values = {
        title: row.title,
        views: row.views,
        category: row.category ? [...run.names].find(([, n]) => n === row.category!.name)![0] : null,
        tags: row.tags.map((t) => [...run.names].find(([, n]) => n === t.name)![0]),
      };
      if (!same(stored, doc.acked) && !(doc.inFlight && same(stored, doc.inFlight))) {
        lost.push(
          `${doc.documentId} (${status}): stored ${JSON.stringify(stored)}, acknowledged ${JSON.stringify(doc.acked)}${doc.inFlight ? `, in flight ${JSON.stringify(doc.inFlight)}` : ''}`,
        );
      }
    }
  }
  expect(lost).toEqual([]);
  // Still writable after the crash (no stale lock, no half-applied schema).
  await post(server, '/api/articles', { title: 'after the crash', tags: tags.slice(0, 2) });
  expect(await server.stop()).toBe(0);
  expect(await danglingLinks(inst)).toEqual([]);
  return { acks: run.acks, tracked: run.tracked.length, rows: published.size };
}

describe(`folio serve killed with SIGKILL during concurrent writes (${ENGINE}${ADMIN_URL ? ', two instances on one database' : ''})`, () => {
  it(
    `keeps every acknowledged write with its acknowledged values and comes back consistent, over ${TRIALS} seeded trial(s)`,
    async () => {
      for (let t = 0; t < TRIALS; t++) {
        const result = await trial(SEED + t);
        console.log(
          `crash trial ${t} (seed ${SEED + t}, ${ENGINE}): ${result.acks} acknowledged writes, ${result.tracked} documents tracked, ${result.rows} articles after restart`,
        );
        await killSpawned();
      }
    },
    60_000 + TRIALS * 30_000,
  );
});
