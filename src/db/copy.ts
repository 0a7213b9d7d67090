/**
 * Copies a SQLite installation into an empty PostgreSQL database, table by table, ids
 * kept, so tokens, links and media references stay valid. Used by `folio copy`.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import type { Registry } from '../registry/types';
import type { Database, Queryable, SqlValue } from './database';
import { FILES_TABLE, MEDIA_LINKS, SEARCH, SYSTEM, SYSTEM_TABLE_PREFIX } from './layout';
import { migrateSystem } from './migrate';
import type { PostgresDatabase } from './postgres';
import { applySchemaSync, desiredTables, planSchemaSync } from './schema-sync';
import { sql, type Sql } from './sql';
import { writeSecret } from './store/secrets';
import { disableAllWebhooks } from './store/webhooks';

/** The tables (and, on PostgreSQL, the schema's own functions) a database holds at one moment. */
export interface SchemaObjects {
  tables: Set<string>;
  functions: Set<string>;
}

// Functions an extension installed (pg_trgm's) belong to it, not to what an import made.
const functionsOf = async (db: Queryable) =>
  new Set(
    (
      await db.all<{ name: string }>(sql`SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`)
    ).map((r) => r.name),
  );

/** What `db` holds now, for `dropCreatedSince` to keep after a failed import. */
export async function schemaObjects(db: Database): Promise<SchemaObjects> {
  const tables = new Set((await db.schema()).tables);
  return { tables, functions: db.dialect.name === 'postgres' ? await functionsOf(db) : new Set() };
}

/**
 * Drops the tables and functions made since `before` (what a failed import's schema sync
 * created before its transaction). SQLite's own tables (sqlite_sequence appears with the first
 * AUTOINCREMENT row) are not Folio's to drop.
 */
export async function dropCreatedSince(db: Database, before: SchemaObjects): Promise<void> {
  const created = (await db.schema()).tables.filter((t) => !before.tables.has(t) && !t.startsWith('sqlite_'));
  if (db.dialect.name === 'postgres') {
    if (created.length) await db.run(sql`DROP TABLE IF EXISTS ${sql.join(created.map((t) => sql.id(t)))} CASCADE`);
    for (const name of await functionsOf(db)) if (!before.functions.has(name)) await db.run(sql`DROP FUNCTION IF EXISTS ${sql.id(name)} CASCADE`);
  } else {
    for (const table of created) await db.run(sql`DROP TABLE IF EXISTS ${sql.id(table)}`);
  }
}

/** System tables in an order that satisfies their foreign keys. */
const SYSTEM_TABLES = [
  SYSTEM.locales,
  SYSTEM.roles,
  SYSTEM.permissions,
  SYSTEM.apiTokens,
  SYSTEM.apiTokenPermissions,
  SYSTEM.users,
  FILES_TABLE,
  MEDIA_LINKS.table,
  // Webhooks with their outbox and delivery log: pending deliveries go on from the copy.
  SYSTEM.webhooks,
  SYSTEM.outbox,
  SYSTEM.webhookDeliveries,
  SYSTEM.webhookAttempts,
  // What editors did and will do: content history, the audit log, releases (with their entries after them).
  SYSTEM.history,
  SYSTEM.audit,
  SYSTEM.releases,
  SYSTEM.releaseEntries,
  // Folio Admin's view configuration per content type (labels, list columns, edit layout).
  SYSTEM.adminViews,
];

const BATCH = 500;

export interface CopyReport {
  table: string;
  rows: number;
}

/** Tables no copy, export or import carries: each installation keeps its own. */
const NOT_CARRIED = new Set<string>([
  SYSTEM.migrations, // the target runs its own migrations (an archive's manifest lists the source's)
  SYSTEM.store, // secrets: carried as such (writeSecret), not as rows
  SYSTEM.rateLimits, // transient counters
  SYSTEM.settingsVersion, // kept by triggers
  SYSTEM.counts, // kept by triggers on the content tables as their rows arrive (db/counts.ts)
  SYSTEM.realtimeLease, // a copied lease would make the target record events for subscribers it does not have
  SYSTEM.cronTicks, // which instance ran which cron tick: the target's ticks are its own
  'folio_admin_sessions', // logins belong to one installation: a cookie of the source must not open the copy
  SYSTEM.userSessions, // the same for end users' refresh tokens
  'folio_admin_password_resets', // and for the admin's mailed reset links
  SYSTEM.providerSessions, // and for provider sign-ins in progress
]);

/** Tables of an installation in an order that satisfies their foreign keys. */
export function installationTables(db: Pick<Database, 'dialect'>, registry: Registry): string[] {
  // The users table is a system table that schema sync only extends: it is carried with the system tables.
  return [
    ...SYSTEM_TABLES,
    ...desiredTables(db, registry)
      .filter((t) => !t.extended)
      .map((t) => t.name),
  ];
}

/**
 * The tables to carry out of a database: the known ones first (foreign keys in order), then any
 * other system table a newer migration made, in the order the engine created them (a table
 * is created after the ones it references). Derived and per-installation tables are left out.
 */
export function carriedTables(known: string[], existingInCreationOrder: string[]): string[] {
  const exists = new Set(existingInCreationOrder);
  const knownSet = new Set(known);
  const extra = existingInCreationOrder.filter(
    (t) => t.startsWith(SYSTEM_TABLE_PREFIX) && !knownSet.has(t) && !NOT_CARRIED.has(t) && !t.startsWith(SEARCH.prefix),
  );
  const systemCount = SYSTEM_TABLES.length;
  const ordered = [...known.slice(0, systemCount), ...extra, ...known.slice(systemCount)];
  return ordered.filter((t) => exists.has(t));
}

/** Table names as the engine created them, oldest first. */
export async function tablesInCreationOrder(db: Queryable): Promise<string[]> {
  const rows =
    db.dialect.name === 'sqlite'
      ? await db.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
      : await db.all<{ name: string }>(
          sql`SELECT relname AS name FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace = current_schema()::regnamespace ORDER BY oid`,
        );
  return rows.map((r) => r.name);
}

export async function countRows(db: Queryable, table: string): Promise<number | undefined> {
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${sql.id(table)}`))?.n;
}

/** Rows of a builder statement from the source file (bun:sqlite directly, for exact big integers). */
export function sourceRows(source: BunDatabase, statement: Sql): Record<string, SqlValue>[] {
  const { text, params } = statement.compile('question');
  const query = source.query(text);
  query.safeIntegers(true);
  return query.all(...(params as (string | number | bigint | null)[])) as Record<string, SqlValue>[];
}

/**
 * Whether a database holds no rows in the tables of an installation (system tables and the
 * registry's): bookkeeping rows that migrations write themselves do not count.
 */
export async function targetIsEmpty(target: Database, registry: Registry): Promise<boolean> {
  const existing = new Set((await target.schema()).tables);
  for (const table of installationTables(target, registry)) {
    if (!existing.has(table)) continue;
    const n = await countRows(target, table);
    if (n !== undefined && n > 0) return false;
  }
  return true;
}

/** Empties every table but the migrations' record (PostgreSQL: ids restart). */
export async function clearTables(tx: Queryable, tables: string[]): Promise<void> {
  const names = tables.filter((t) => t !== SYSTEM.migrations);
  if (names.length === 0) return;
  if (tx.dialect.name === 'postgres') {
    await tx.run(sql`TRUNCATE ${sql.join(names.map((n) => sql.id(n)))} RESTART IDENTITY CASCADE`);
    return;
  }
  for (const name of [...names].reverse()) await tx.run(sql`DELETE FROM ${sql.id(name)}`);
}

/** Inserts rows (objects keyed by the given columns) into a table, ids as they are. */
export async function insertRows(tx: Queryable, table: string, columns: string[], rows: Record<string, SqlValue>[]): Promise<void> {
  if (rows.length === 0) return;
  const columnList = sql.join(columns.map((c) => sql.id(c)));
  const tuples = rows.map((row) => sql`(${sql.list(columns.map((c) => row[c] ?? null))})`);
  await tx.run(sql`INSERT INTO ${sql.id(table)} (${columnList}) VALUES ${sql.join(tuples)}`);
}

/** PostgreSQL: identity columns continue after the ids written (SQLite's AUTOINCREMENT follows by itself). */
export async function advanceIdentity(tx: Queryable, table: string): Promise<void> {
  if (tx.dialect.name !== 'postgres') return;
  // pg_get_serial_sequence takes the quoted name as text.
  const id = sql.id('id');
  await tx.run(
    sql`SELECT setval(pg_get_serial_sequence(${sql.id(table).toString()}, 'id'), COALESCE((SELECT MAX(${id}) FROM ${sql.id(table)}), 0) + 1, false)`,
  );
}

/** Rows of a table, a page at a time in a stable order (row id, or every column). */
export async function readPage(db: Queryable, table: string, columns: string[], offset: number, limit: number): Promise<Record<string, SqlValue>[]> {
  const columnList = sql.join(columns.map((c) => sql.id(c)));
  const order = columns.includes('id') ? sql.id('id') : columnList;
  return db.all<Record<string, SqlValue>>(sql`SELECT ${columnList} FROM ${sql.id(table)} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`);
}

export async function copyToPostgres(
  sourcePath: string,
  target: PostgresDatabase,
  registry: Registry,
  secrets: Record<string, string>,
  options: { force?: boolean; progress?: (line: string) => void; disableWebhooks?: boolean } = {},
): Promise<CopyReport[]> {
  const progress = options.progress ?? (() => {});
  await migrateSystem(target);
  await applySchemaSync(target, await planSchemaSync(target, registry));
  if (!(await targetIsEmpty(target, registry))) {
    if (!options.force) throw new Error('The target database is not empty; use --force to replace its content');
    await clearTables(target, (await target.schema()).tables);
  }
  // Read integers exactly: big integers must not round through JS numbers.
  const source = new BunDatabase(sourcePath, { readonly: true });
  source.run('PRAGMA busy_timeout = 10000');
  const targetSchema = await target.schema();
  const report: CopyReport[] = [];
  try {
    // One read transaction: every table is copied, and counted, as of the same commit.
    source.run('BEGIN');
    const sourceTables = sourceRows(source, sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid`).map((r) => r.name as string);
    // Parents before children: system tables, content, components, then link tables.
    const known = new Set(installationTables(target, registry));
    for (const table of carriedTables([...known], sourceTables)) {
      const sourceColumns = sourceRows(source, sql`PRAGMA table_info(${sql.id(table)})`).map((c) => c.name as string);
      const wanted = targetSchema.columns.get(table.toLowerCase());
      const columns = sourceColumns.filter((c) => !wanted || wanted.has(c));
      const columnList = sql.join(columns.map((c) => sql.id(c)));
      let copied = 0;
      await target.transaction(async (tx) => {
        // A newer migration's own table may hold bookkeeping rows its migration wrote: the source's replace them.
        if (!known.has(table)) await tx.run(sql`DELETE FROM ${sql.id(table)}`);
        for (let offset = 0; ; offset += BATCH) {
          const rows = sourceRows(source, sql`SELECT ${columnList} FROM ${sql.id(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`);
          if (rows.length === 0) break;
          await insertRows(tx, table, columns, rows);
          copied += rows.length;
          progress(`copying ${table}: ${copied} rows`);
        }
        if (columns.includes('id')) await advanceIdentity(tx, table);
        // A restore's copy stays quiet: its webhooks arrive disabled, in the transaction that writes them.
        if (options.disableWebhooks && table === SYSTEM.webhooks) await disableAllWebhooks(tx);
      });
      const counted = await countRows(target, table);
      const inSource = Number(sourceRows(source, sql`SELECT COUNT(*) AS n FROM ${sql.id(table)}`)[0]!.n);
      if (counted !== copied || copied !== inSource)
        throw new Error(`Count check failed for ${table}: the source holds ${inSource}, copied ${copied}, the target has ${counted}`);
      report.push({ table, rows: copied });
    }
    for (const [key, value] of Object.entries(secrets)) await writeSecret(target, key, value);
  } finally {
    source.close();
  }
  return report;
}

/** A consistent, read-only view of an installation's tables (export and backup read through it). */
export interface TableSnapshot {
  engine: 'sqlite' | 'postgres';
  /** Every table, oldest first. */
  tables: string[];
  columns(table: string): Promise<string[]>;
  count(table: string): Promise<number>;
  /** Rows in a stable order (row id, else every column), big integers exact. */
  page(table: string, columns: string[], offset: number, limit: number): Promise<Record<string, SqlValue>[]>;
}

/** A read transaction on a SQLite file: under WAL it sees one commit and never holds writers up. */
export async function withSqliteSnapshot<T>(path: string, fn: (snapshot: TableSnapshot) => Promise<T>): Promise<T> {
  const source = new BunDatabase(path, { readonly: true });
  try {
    source.run('PRAGMA busy_timeout = 10000');
    source.run('BEGIN');
    const rows = (statement: Sql) => sourceRows(source, statement);
    // The first read fixes the snapshot every later read sees.
    const tables = rows(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`).map((r) => r.name as string);
    return await fn({
      engine: 'sqlite',
      tables,
      columns: async (table) => rows(sql`PRAGMA table_info(${sql.id(table)})`).map((c) => c.name as string),
      count: async (table) => Number(rows(sql`SELECT COUNT(*) AS n FROM ${sql.id(table)}`)[0]!.n),
      page: async (table, columns, offset, limit) => {
        const columnList = sql.join(columns.map((c) => sql.id(c)));
        return rows(sql`SELECT ${columnList} FROM ${sql.id(table)} ORDER BY rowid LIMIT ${limit} OFFSET ${offset}`);
      },
    });
  } finally {
    source.close();
  }
}

/** A repeatable-read, read-only transaction on PostgreSQL: one snapshot, no locks held against writers. */
export async function withPostgresSnapshot<T>(db: Database, fn: (snapshot: TableSnapshot) => Promise<T>): Promise<T> {
  // Read committed never retries on conflicts (a retry would run `fn` twice); the first
  // statement raises the level before any read, as PostgreSQL allows.
  return db.transaction(
    async (tx) => {
      await tx.run(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
      const tables = await tablesInCreationOrder(tx);
      return fn({
        engine: 'postgres',
        tables,
        columns: async (table) =>
          (
            await tx.all<{ name: string }>(
              sql`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`,
            )
          ).map((r) => r.name),
        count: async (table) => (await countRows(tx, table)) ?? 0,
        page: (table, columns, offset, limit) => readPage(tx, table, columns, offset, limit),
      });
    },
    { isolation: 'read committed' },
  );
}

/** An online copy of a SQLite file (VACUUM INTO): a consistent snapshot, writers go on meanwhile. */
export function sqliteOnlineCopy(path: string, destination: string): void {
  const source = new BunDatabase(path, { readonly: true });
  try {
    source.run('PRAGMA busy_timeout = 10000');
    source.query('VACUUM INTO ?').run(destination);
  } finally {
    source.close();
  }
}

/** What a SQLite file holds, read on its own (inspectSqliteFile). */
export interface SqliteFileReport {
  /** SQLite's check of the file's structure: 'ok', or what is wrong. */
  check: string;
  /** Every table, oldest first. */
  tables: string[];
  /** Rows of each table asked for that exists. */
  counts: Map<string, number>;
  /** The system migrations the file records, or undefined without a migrations table. */
  migrations: string[] | undefined;
}

/**
 * Opens a SQLite file afresh, read-only, and reports what it holds: SQLite's integrity_check
 * (`full`; otherwise the quicker quick_check, which skips comparing indexes with their tables),
 * the tables, the rows of `count`'s tables, the migrations recorded. A file that is not a
 * database at all reads as a failed check.
 */
export function inspectSqliteFile(path: string, options: { full: boolean; count: string[] }): SqliteFileReport {
  let file: BunDatabase | undefined;
  try {
    file = new BunDatabase(path, { readonly: true });
    const rows = (statement: Sql) => sourceRows(file!, statement);
    const check = rows(options.full ? sql`PRAGMA integrity_check` : sql`PRAGMA quick_check`)
      .map((r) => String(Object.values(r)[0]))
      .join('; ');
    if (check !== 'ok') return { check, tables: [], counts: new Map(), migrations: undefined };
    const tables = rows(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`).map((r) => r.name as string);
    const counts = new Map<string, number>();
    for (const table of options.count) if (tables.includes(table)) counts.set(table, Number(rows(sql`SELECT COUNT(*) AS n FROM ${sql.id(table)}`)[0]!.n));
    const migrations = tables.includes(SYSTEM.migrations)
      ? rows(sql`SELECT "name" FROM ${sql.id(SYSTEM.migrations)} ORDER BY "name"`).map((r) => String(r.name))
      : undefined;
    return { check, tables, counts, migrations };
  } catch (error) {
    return { check: (error as Error).message, tables: [], counts: new Map(), migrations: undefined };
  } finally {
    file?.close();
  }
}
