/**
 * Copies a SQLite installation into an empty PostgreSQL database, table by table, ids
 * kept, so tokens, links and media references stay valid. Used by `folio copy`.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import type { Registry } from '../registry/types';
import type { Queryable, SqlValue } from './database';
import { FILES_TABLE, MEDIA_LINKS, SYSTEM } from './layout';
import { migrateSystem } from './migrate';
import type { PostgresDatabase } from './postgres';
import { applySchemaSync, desiredTables, planSchemaSync } from './schema-sync';
import { sql, type Sql } from './sql';
import { writeSecret } from './store/secrets';

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
];

const BATCH = 500;

export interface CopyReport {
  table: string;
  rows: number;
}

/** Tables to copy, parents before children (content, components, then link tables). */
function tablesInOrder(target: PostgresDatabase, registry: Registry): string[] {
  // The users table is a system table that schema sync only extends: it is copied with the system tables.
  return [...SYSTEM_TABLES, ...desiredTables(target, registry).filter((t) => !t.extended).map((t) => t.name)];
}

async function countRows(db: Queryable, table: string): Promise<number | undefined> {
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${sql.id(table)}`))?.n;
}

/** Rows of a builder statement from the source file (bun:sqlite directly, for exact big integers). */
function sourceRows(source: BunDatabase, statement: Sql): Record<string, SqlValue>[] {
  const { text, params } = statement.compile('question');
  const query = source.query(text);
  query.safeIntegers(true);
  return query.all(...(params as (string | number | bigint | null)[])) as Record<string, SqlValue>[];
}

export async function targetIsEmpty(target: PostgresDatabase): Promise<boolean> {
  const existing = await target.schema();
  for (const table of existing.tables) {
    if (table === SYSTEM.migrations || table === SYSTEM.store) continue;
    const n = await countRows(target, table);
    if (n !== undefined && n > 0) return false;
  }
  return true;
}

export async function copyToPostgres(
  sourcePath: string,
  target: PostgresDatabase,
  registry: Registry,
  secrets: Record<string, string>,
  options: { force?: boolean; progress?: (line: string) => void } = {},
): Promise<CopyReport[]> {
  const progress = options.progress ?? (() => {});
  await migrateSystem(target);
  await applySchemaSync(target, await planSchemaSync(target, registry));
  if (!(await targetIsEmpty(target))) {
    if (!options.force) throw new Error('The target database is not empty; use --force to replace its content');
    const names = (await target.schema()).tables.filter((t) => t !== SYSTEM.migrations);
    await target.run(sql`TRUNCATE ${sql.join(names.map((n) => sql.id(n)))} RESTART IDENTITY CASCADE`);
  }
  // Read integers exactly: big integers must not round through JS numbers.
  const source = new BunDatabase(sourcePath, { readonly: true });
  source.run('PRAGMA busy_timeout = 10000');
  const targetSchema = await target.schema();
  const report: CopyReport[] = [];
  try {
    for (const table of tablesInOrder(target, registry)) {
      const exists = sourceRows(source, sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${table}`).length > 0;
      if (!exists) continue;
      const sourceColumns = sourceRows(source, sql`PRAGMA table_info(${sql.id(table)})`).map((c) => c.name as string);
      const wanted = targetSchema.columns.get(table.toLowerCase());
      const columns = sourceColumns.filter((c) => !wanted || wanted.has(c));
      const columnList = sql.join(columns.map((c) => sql.id(c)));
      let copied = 0;
      await target.transaction(async (tx) => {
        for (let offset = 0; ; offset += BATCH) {
          const rows = sourceRows(source, sql`SELECT ${columnList} FROM ${sql.id(table)} ORDER BY rowid LIMIT ${BATCH} OFFSET ${offset}`);
          if (rows.length === 0) break;
          const tuples = rows.map((row) => sql`(${sql.list(columns.map((c) => row[c] ?? null))})`);
          await tx.run(sql`INSERT INTO ${sql.id(table)} (${columnList}) VALUES ${sql.join(tuples)}`);
          copied += rows.length;
          progress(`copying ${table}: ${copied} rows`);
        }
        if (columns.includes('id')) {
          // Identity columns continue after the copied ids (pg_get_serial_sequence takes the quoted name as text).
          const id = sql.id('id');
          await tx.run(sql`SELECT setval(pg_get_serial_sequence(${sql.id(table).toString()}, 'id'), COALESCE((SELECT MAX(${id}) FROM ${sql.id(table)}), 0) + 1, false)`);
        }
      });
      const counted = await countRows(target, table);
      if (counted !== copied) throw new Error(`Count check failed for ${table}: copied ${copied}, target has ${counted}`);
      report.push({ table, rows: copied });
    }
    for (const [key, value] of Object.entries(secrets)) await writeSecret(target, key, value);
  } finally {
    source.close();
  }
  return report;
}
