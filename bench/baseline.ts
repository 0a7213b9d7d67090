/**
 * The bare-metal baseline: Bun.serve + one prepared bun:sqlite statement, no framework.
 * It reads Folio's own SQLite file and answers GET /api/articles with the same first page
 * Folio returns (published, default locale, by id, 25 rows, the same keys and value
 * conversions, and the total), so Folio's figures can be read as a ratio to it.
 *
 *   bun bench/baseline.ts DB_FILE [PORT]     prints "baseline listening on http://127.0.0.1:PORT"
 */
import { Database } from 'bun:sqlite';

const [file, portArg = '0', locale = 'en'] = process.argv.slice(2);
if (!file) {
  console.error('usage: bun bench/baseline.ts DB_FILE [PORT] [LOCALE]');
  process.exit(2);
}

const db = new Database(file, { readonly: true });
db.run('PRAGMA busy_timeout = 10000');
const page = db.prepare(
  `SELECT id, documentId, title, slug, summary, body, kind, views, rating, featured, publishDate, meta, createdAt, updatedAt, publishedAt, locale
   FROM articles WHERE publishedAt IS NOT NULL AND locale = ? ORDER BY id LIMIT ? OFFSET ?`,
);
const count = db.prepare('SELECT COUNT(*) AS n FROM articles WHERE publishedAt IS NOT NULL AND locale = ?');

type Row = Record<string, unknown> & { body: string | null; meta: string | null; featured: number | null };

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(portArg),
  fetch(request) {
    const url = request.url;
    const path = url.slice(url.indexOf('/', 8), url.includes('?') ? url.indexOf('?') : undefined);
    if (path === '/_health') return new Response(null, { status: 204 });
    if (path !== '/api/articles') return new Response('not found', { status: 404 });
    const rows = page.all(locale, 25, 0) as Row[];
    for (const row of rows) {
      row.body = row.body === null ? null : JSON.parse(row.body);
      row.meta = row.meta === null ? null : JSON.parse(row.meta);
      (row as Record<string, unknown>).featured = row.featured === null ? null : row.featured === 1;
    }
    const total = (count.get(locale) as { n: number }).n;
    const body = JSON.stringify({ data: rows, meta: { pagination: { page: 1, pageSize: 25, pageCount: Math.ceil(total / 25), total } } });
    return new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  },
});

console.log(`baseline listening on http://127.0.0.1:${server.port}`);
const stop = () => {
  server.stop(true);
  db.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
