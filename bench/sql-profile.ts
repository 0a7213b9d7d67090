/**
 * Where a request's time goes, in-process (no HTTP server, no load generator): runs one
 * route N times through the Elysia app over an existing data dir and prints the time per
 * request, the part spent in SQL calls, and the statements by cost.
 *
 *   bun bench/sql-profile.ts DATA_DIR '/api/articles?populate=*' [N]
 *
 * A data dir to try it on: `bun bench/run.ts --short --keep` leaves one (after its writes).
 */
import { resolve } from 'node:path';
import { resolveConfig } from '../src/config';
import { createApp } from '../src/app';
import { openInstance } from '../src/instance';

const [dataDir, path, n = '300'] = process.argv.slice(2);
if (!dataDir || !path?.startsWith('/')) {
  console.error("usage: bun bench/sql-profile.ts DATA_DIR '/api/articles?…' [N]");
  process.exit(2);
}
const N = Number(n);
const instance = await openInstance({
  ...resolveConfig({ data: dataDir, contentTypes: resolve(import.meta.dir, '../content-types') }),
  databaseUrl: undefined,
});
await instance.roles.grant(
  'public',
  ['article', 'category', 'author', 'tag'].flatMap((t) => [`api::${t}.${t}.find`, `api::${t}.${t}.findOne`]),
);
const app = createApp(instance);

const stats = new Map<string, { calls: number; ms: number; rows: number }>();
// Statements arrive as built Sql objects (their text is `.text`) or as plain strings.
const textOf = (statement: unknown) => (typeof statement === 'string' ? statement : String((statement as { text?: string }).text ?? statement));
const db = instance.db as unknown as Record<'all' | 'get', (sql: unknown, params?: unknown[]) => Promise<unknown>>;
for (const method of ['all', 'get'] as const) {
  const original = db[method].bind(db);
  db[method] = async (sql, params) => {
    const t = performance.now();
    const result = await original(sql, params);
    const text = textOf(sql);
    const s = stats.get(text) ?? { calls: 0, ms: 0, rows: 0 };
    s.calls++;
    s.ms += performance.now() - t;
    s.rows += Array.isArray(result) ? result.length : result ? 1 : 0;
    stats.set(text, s);
    return result;
  };
}

const once = async () => {
  const response = await app.handle(new Request(`http://localhost${path}`));
  if (response.status !== 200) throw new Error(`${path} -> ${response.status}: ${await response.text()}`);
  await response.text();
};
for (let i = 0; i < 50; i++) await once();
stats.clear();
const t = performance.now();
for (let i = 0; i < N; i++) await once();
const perRequest = ((performance.now() - t) / N) * 1000;
const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms);
const sql = (rows.reduce((sum, [, s]) => sum + s.ms, 0) / N) * 1000;
console.log(`${path}: ${perRequest.toFixed(0)} µs per request, ${sql.toFixed(0)} µs of it in ${rows.reduce((sum, [, s]) => sum + s.calls, 0) / N} SQL calls`);
for (const [text, s] of rows) {
  console.log(
    `${((s.ms / N) * 1000).toFixed(1).padStart(7)} µs  ${String(s.calls / N).padStart(3)}×  ${(s.rows / s.calls).toFixed(0).padStart(4)} rows  ${text.replace(/\s+/g, ' ').slice(0, 160)}`,
  );
}
instance.close();
