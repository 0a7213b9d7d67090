/**
 * What the mapping (content.ts, system.ts) reads: Strapi's tables, whatever holds them. Two
 * sources implement it: a project directory with its SQLite database (SqliteSource, here) and
 * a `strapi export` archive (archive-source.ts), which presents its entities and links as the
 * tables a Strapi 5 database would hold, so one mapper serves both.
 *
 * A Strapi project directory as a reader of tables: its `.env` (the API token salt, the JWT
 * secret, which database), its SQLite database opened read-only, its schemas (`src/`) and
 * its uploaded files (`public/uploads`). Strapi names columns in snake_case and shortens long
 * identifiers; `column()` finds a column by the attribute's name whatever the spelling.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { columnName } from './identifiers';

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

/** The column of an attribute among a table's columns: by loose spelling, or as Strapi shortens a long name. */
export function findColumn(columns: string[], name: string): string | undefined {
  const want = loose(name);
  const found = columns.find((c) => loose(c) === want);
  if (found) return found;
  const short = columnName(name);
  return columns.includes(short) ? short : undefined;
}

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

export interface StrapiSource {
  readonly tables: Set<string>;
  /** The project's environment (API_TOKEN_SALT, JWT_SECRET), empty when the source has none. */
  readonly env: Record<string, string>;
  /** The folder holding the schemas in Strapi's layout (`api/`, `components/`, `extensions/`). */
  readonly schemaRoot: string;
  /** The folder of uploaded files, flat, named as the rows' URLs name them (if any). */
  readonly uploadsDir: string | undefined;
  /** What this kind of source cannot carry, for the summary. */
  readonly omissions: string[];
  has(table: string): boolean;
  columns(table: string): string[];
  /** The column of an attribute (`publishDate` → `publish_date`), or undefined. */
  column(table: string, name: string): string | undefined;
  /** Every row of a table in id order. */
  rows(table: string): Row[];
  close(): void;
}

/**
 * A project directory's `.env` (only the file: Folio's own environment names its target, e.g.
 * DATABASE_URL, so the process environment cannot stand for the project's) and which database
 * client it names (`DATABASE_CLIENT`, `sqlite` by default, as Strapi's generated config).
 */
export function projectEnv(dir: string): { env: Record<string, string>; client: 'sqlite' | 'postgres' } {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new StrapiImportError(`${dir}: not a directory (expected a Strapi project)`);
  if (!existsSync(join(dir, 'src', 'api'))) {
    throw new StrapiImportError(`${dir}: not a Strapi project (no src/api folder with content types)`);
  }
  const env = readEnv(join(dir, '.env'));
  const client = env.DATABASE_CLIENT ?? 'sqlite';
  if (client === 'sqlite' || client === 'better-sqlite3') return { env, client: 'sqlite' };
  if (client === 'postgres' || client === 'pg' || client === 'postgresql') return { env, client: 'postgres' };
  throw new StrapiImportError(`${dir}: the project's database is ${client} (DATABASE_CLIENT); SQLite and PostgreSQL projects can be imported`);
}

/** A project directory's schemas (its src folder: the root holds package.json and other JSON files that are not schemas). */
export const projectSchemaRoot = (dir: string) => join(dir, 'src');

/** A project directory's uploaded files (local provider), if there are any. */
export function projectUploads(dir: string): string | undefined {
  const uploads = join(dir, 'public', 'uploads');
  return existsSync(uploads) ? uploads : undefined;
}

export class SqliteSource implements StrapiSource {
  readonly omissions: string[] = [];
  private db: BunDatabase;
  private columnCache = new Map<string, string[]>();
  readonly tables: Set<string>;

  constructor(
    readonly dir: string,
    readonly env: Record<string, string>,
  ) {
    const filename = this.env.DATABASE_FILENAME ?? join('.tmp', 'data.db');
    const file = isAbsolute(filename) ? filename : resolve(dir, filename);
    if (!existsSync(file)) throw new StrapiImportError(`${dir}: no database at ${file} (DATABASE_FILENAME)`);
    this.db = new BunDatabase(file, { readonly: true });
    // Strapi may be running: wait for its writes instead of failing on a lock.
    this.db.run('PRAGMA busy_timeout = 10000');
    this.tables = new Set(
      this.db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((t) => t.name),
    );
  }

  get schemaRoot(): string {
    return projectSchemaRoot(this.dir);
  }

  get uploadsDir(): string | undefined {
    return projectUploads(this.dir);
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  columns(table: string): string[] {
    let list = this.columnCache.get(table);
    if (!list) {
      list = this.db
        .query<{ name: string }, []>(`PRAGMA table_info("${table.replace(/"/g, '""')}")`)
        .all()
        .map((c) => c.name);
      this.columnCache.set(table, list);
    }
    return list;
  }

  column(table: string, name: string): string | undefined {
    return findColumn(this.columns(table), name);
  }

  /** Every row of a table in id order (or rowid when it has no id). */
  rows(table: string): Row[] {
    if (!this.has(table)) throw new StrapiImportError(`The Strapi database has no table "${table}"`);
    const order = this.columns(table).includes('id') ? '"id"' : 'rowid';
    return this.db.query<Row, []>(`SELECT * FROM "${table.replace(/"/g, '""')}" ORDER BY ${order}`).all();
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
