/**
 * A Strapi project directory as a reader of tables: its `.env` (the API token salt, the JWT
 * secret, which database), its SQLite database opened read-only, its schemas (`src/`) and
 * its uploaded files (`public/uploads`). Strapi names columns in snake_case and shortens long
 * identifiers; `column()` finds a column by the attribute's name whatever the spelling.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** Something in the source the import cannot read or map; the message names the table and row. */
export class StrapiImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrapiImportError';
  }
}

export type Row = Record<string, unknown>;

/** Column names compared without case or separators: `publishDate` finds `publish_date`. */
export const loose = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Reads `KEY=value` lines (quotes stripped, comments skipped), as Strapi's dotenv does. */
export function readEnv(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (!existsSync(file)) return env;
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const match = line.match(/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/);
    if (!match) continue;
    let value = match[2]!.trim();
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    env[match[1]!] = value;
  }
  return env;
}

export class StrapiSource {
  readonly env: Record<string, string>;
  private db: BunDatabase;
  private columnCache = new Map<string, string[]>();
  readonly tables: Set<string>;

  constructor(readonly dir: string) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new StrapiImportError(`${dir}: not a directory (expected a Strapi project)`);
    if (!existsSync(join(dir, 'src', 'api'))) {
      throw new StrapiImportError(`${dir}: not a Strapi project (no src/api folder with content types)`);
    }
    // Variables set in the environment win over .env, as when Strapi runs.
    this.env = { ...readEnv(join(dir, '.env')) };
    const client = this.env.DATABASE_CLIENT ?? 'sqlite';
    if (client !== 'sqlite' && client !== 'better-sqlite3') {
      throw new StrapiImportError(`${dir}: the project's database is ${client} (DATABASE_CLIENT); only SQLite projects can be imported for now`);
    }
    const filename = this.env.DATABASE_FILENAME ?? join('.tmp', 'data.db');
    const file = isAbsolute(filename) ? filename : resolve(dir, filename);
    if (!existsSync(file)) throw new StrapiImportError(`${dir}: no database at ${file} (DATABASE_FILENAME)`);
    this.db = new BunDatabase(file, { readonly: true });
    // Strapi may be running: wait for its writes instead of failing on a lock.
    this.db.run('PRAGMA busy_timeout = 10000');
    this.tables = new Set(this.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name));
  }

  /** The folder of uploaded files (local provider), if there is one. */
  get uploadsDir(): string | undefined {
    const dir = join(this.dir, 'public', 'uploads');
    return existsSync(dir) ? dir : undefined;
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  columns(table: string): string[] {
    let list = this.columnCache.get(table);
    if (!list) {
      list = this.db.query<{ name: string }, []>(`PRAGMA table_info("${table.replace(/"/g, '""')}")`).all().map((c) => c.name);
      this.columnCache.set(table, list);
    }
    return list;
  }

  /** The column of an attribute (`publishDate` → `publish_date`), or undefined. */
  column(table: string, name: string): string | undefined {
    const want = loose(name);
    return this.columns(table).find((c) => loose(c) === want);
  }

  /** Every row of a table in id order (or rowid when it has no id). */
  rows(table: string): Row[] {
    if (!this.has(table)) throw new StrapiImportError(`The Strapi database has no table "${table}"`);
    const order = this.columns(table).includes('id') ? '"id"' : 'rowid';
    return this.db.query<Row, []>(`SELECT * FROM "${table.replace(/"/g, '""')}" ORDER BY ${order}`).all();
  }

  count(table: string): number {
    if (!this.has(table)) return 0;
    return this.db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM "${table.replace(/"/g, '""')}"`).get()!.n;
  }

  close(): void {
    this.db.close();
  }
}

/** Strapi stores times as epoch milliseconds (SQLite) or ISO text; Folio keeps ISO text. */
export function isoTime(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value)).toISOString();
  const text = String(value);
  if (/^\d+$/.test(text)) return new Date(Number(text)).toISOString();
  const parsed = Date.parse(text.includes('T') || !text.includes(' ') ? text : text.replace(' ', 'T') + 'Z');
  return Number.isNaN(parsed) ? text : new Date(parsed).toISOString();
}
