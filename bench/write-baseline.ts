/**
 * The bare-metal write baseline: Bun.serve + prepared bun:sqlite statements, no framework.
 * POST /api/articles writes what Folio writes for the bench's create with relations (a draft
 * and a published row, and for each of them one link row per category, author and tag, with
 * the same positions and inverse positions), in one IMMEDIATE transaction with Folio's
 * pragmas, then answers 201 with the published row as `{ data, meta }`. Folio's write figures
 * are read as a ratio to it. It is a floor, not a rival: it trusts its input (no validation
 * beyond the targets existing, no permissions, no read-back, no events).
 *
 *   bun bench/write-baseline.ts DB_FILE [PORT] [LOCALE]   prints "write baseline listening on http://127.0.0.1:PORT"
 *
 * Run it on a copy of Folio's file: it adds articles.
 */
import { Database, type Statement } from 'bun:sqlite';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

const [file, portArg = '0', locale = 'en'] = process.argv.slice(2);
if (!file) {
  console.error('usage: bun bench/write-baseline.ts DB_FILE [PORT] [LOCALE]');
  process.exit(2);
}

const db = new Database(file, { strict: true });
for (const pragma of ['busy_timeout = 10000', 'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'temp_store = MEMORY', 'cache_size = -2000']) {
  db.run(`PRAGMA ${pragma}`);
}
// The `_q` index triggers on content tables call Folio's folio_lower (src/db/sqlite.ts): the same function here.
db.function('folio_lower', { deterministic: true }, (value: string | number | null) => (value === null ? null : String(value).toLowerCase()));

/** The article's relations in the example schema: body key → target table and link table. */
const RELATIONS = { category: 'categories', author: 'authors', tags: 'tags' } as const;
type RelationKey = keyof typeof RELATIONS;
const COLUMNS = new Set((db.query('PRAGMA table_info(articles)').all() as { name: string }[]).map((c) => c.name));
const ROW_COLUMNS = [...COLUMNS];

/** Per relation: the targets that exist, with the last inverse position on their side (one statement per relation). */
const targets = new Map<string, Statement>();
function targetsOf(key: RelationKey, count: number): Statement {
  const id = `${key}:${count}`;
  let statement = targets.get(id);
  if (!statement) {
    const link = `articles_${key}_lnk`;
    statement = db.prepare(
      `SELECT DISTINCT t.documentId, t.locale,
         (SELECT MAX(l.inversePosition) FROM ${link} l WHERE l.targetDocumentId = t.documentId AND l.targetLocale = t.locale) AS last
       FROM ${RELATIONS[key]} t WHERE t.documentId IN (${Array(count).fill('?').join(', ')})`,
    );
    targets.set(id, statement);
  }
  return statement;
}
const linkInsert = Object.fromEntries(
  Object.keys(RELATIONS).map((key) => [
    key,
    db.prepare(
      `INSERT INTO articles_${key}_lnk (sourceId, targetDocumentId, targetLocale, targetStatus, position, inversePosition) VALUES (?, ?, ?, '', ?, ?)`,
    ),
  ]),
) as Record<RelationKey, Statement>;
const inserts = new Map<string, Statement>();
function articleInsert(columns: string[]): Statement {
  const id = columns.join(',');
  let statement = inserts.get(id);
  if (!statement) {
    statement = db.prepare(`INSERT INTO articles (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    inserts.set(id, statement);
  }
  return statement;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A documentId of Folio's shape (src/documents/document-id.ts): a letter, the time, random characters. */
function documentId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = ALPHABET[bytes[0]! % 26]! + (Date.now() % 36 ** 8).toString(36).padStart(8, '0');
  for (let i = 1; i < 16; i++) id += ALPHABET[bytes[i]! % 36];
  return id;
}

class BadRequest extends Error {}

type Scalar = string | number | boolean | null;

const create = db.transaction((data: Record<string, unknown>) => {
  const now = new Date().toISOString();
  const docId = documentId();
  const scalars: Record<string, Scalar> = { documentId: docId, locale, createdAt: now, updatedAt: now, featured: false };
  for (const [key, value] of Object.entries(data)) {
    if (key in RELATIONS) continue;
    if (!COLUMNS.has(key) || ['id', 'documentId', 'locale', 'createdAt', 'updatedAt', 'publishedAt'].includes(key)) throw new BadRequest(`Invalid key ${key}`);
    scalars[key] = value !== null && typeof value === 'object' ? JSON.stringify(value) : (value as Scalar);
  }
  const links: { key: RelationKey; ids: string[]; found: { documentId: string; locale: string; last: string | null }[] }[] = [];
  for (const key of Object.keys(RELATIONS) as RelationKey[]) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    const ids = (Array.isArray(value) ? value : [value]) as string[];
    const found = targetsOf(key, ids.length).all(...ids) as { documentId: string; locale: string; last: string | null }[];
    if (found.length !== new Set(ids).size) throw new BadRequest(`${key}: some targets do not exist`);
    links.push({ key, ids, found });
  }
  const columns = Object.keys(scalars);
  const values = (publishedAt: string | null) => [...columns.map((c) => scalars[c]!), publishedAt].map((v) => (typeof v === 'boolean' ? Number(v) : v));
  const insert = articleInsert([...columns, 'publishedAt']);
  const rows = [insert.run(...values(null)).lastInsertRowid, insert.run(...values(now)).lastInsertRowid].map(Number);
  for (const { key, ids, found } of links) {
    const positions = generateNKeysBetween(null, null, ids.length);
    const byId = new Map(found.map((t) => [t.documentId, t]));
    const inverse = ids.map((id) => generateKeyBetween(byId.get(id)!.last, null));
    // Both versions link to the same targets at the same positions, as Folio's published copy does.
    for (const row of rows) ids.forEach((id, i) => linkInsert[key].run(row, id, byId.get(id)!.locale, positions[i]!, inverse[i]!));
  }
  const published: Record<string, unknown> = { id: rows[1] };
  for (const column of ROW_COLUMNS) if (column !== 'id') published[column] = column === 'publishedAt' ? now : (scalars[column] ?? null);
  return published;
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(portArg),
  async fetch(request) {
    const url = request.url;
    const path = url.slice(url.indexOf('/', 8), url.includes('?') ? url.indexOf('?') : undefined);
    if (path === '/_health') return new Response(null, { status: 204 });
    if (path !== '/api/articles' || request.method !== 'POST') return new Response('not found', { status: 404 });
    try {
      const body = (await request.json()) as { data?: Record<string, unknown> };
      if (!body?.data || typeof body.data !== 'object') throw new BadRequest('Missing "data" payload in the request body');
      return json(201, { data: create.immediate(body.data), meta: {} });
    } catch (error) {
      const bad = error instanceof BadRequest || error instanceof SyntaxError;
      return json(bad ? 400 : 500, {
        data: null,
        error: { status: bad ? 400 : 500, name: bad ? 'ValidationError' : 'InternalServerError', message: (error as Error).message, details: {} },
      });
    }
  },
});

console.log(`write baseline listening on http://127.0.0.1:${server.port}`);
const stop = () => {
  server.stop(true);
  db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
