/**
 * Copies a SQLite installation into an empty PostgreSQL database, table by table, ids
 * kept, so tokens, links and media references stay valid. Used by `folio copy`.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import type { Registry } from '../registry/types';
import type { SqlValue } from './database';
import { migrateSystem } from './migrate';
import type { PostgresDatabase } from './postgres';
import { applySchemaSync, desiredTables, planSchemaSync } from './schema-sync';

/** System tables in an order that satisfies their foreign keys. */
const SYSTEM_TABLES = [
  'folio_locales',
  'folio_roles',
  'folio_permissions',
  'folio_api_tokens',
  'folio_api_token_permissions',
  'folio_users',
  'files',
  'files_related_mph',
];

const BATCH = 500;

export interface CopyReport {
  table: string;
  rows: number;
}

/** Tables to copy, parents before children (content, components, then link tables). */
function tablesInOrder(target: PostgresDatabase, registry: Registry): string[] {
  return [...SYSTEM_TABLES, ...desiredTables(target, registry).map((t) => t.name)];
}

export async function targetIsEmpty(target: PostgresDatabase): Promise<boolean> {
  const existing = await target.schema();
  for (const table of existing.tables) {
    if (table === 'folio_migrations' || table === 'folio_store') continue;
    const row = await target.get<{ n: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${target.dialect.quote(table)}`);
    if (row && row.n > 0) return false;
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
    const names = (await target.schema()).tables.filter((t) => t !== 'folio_migrations');
    await target.exec(`TRUNCATE ${names.map(target.dialect.quote).join(', ')} RESTART IDENTITY CASCADE`);
  }
  const q = target.dialect.quote;
  // Read integers exactly: big integers must not round through JS numbers.
  const source = new BunDatabase(sourcePath, { readonly: true });
  source.run('PRAGMA busy_timeout = 10000');
  const targetSchema = await target.schema();
  const report: CopyReport[] = [];
  try {
    for (const table of tablesInOrder(target, registry)) {
      const exists = source.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
      if (!exists) continue;
      const sourceColumns = (source.query(`PRAGMA table_info(${q(table)})`).all() as { name: string }[]).map((c) => c.name);
      const wanted = targetSchema.columns.get(table.toLowerCase());
      const columns = sourceColumns.filter((c) => !wanted || wanted.has(c));
      const select = source.query(`SELECT ${columns.map(q).join(', ')} FROM ${q(table)} ORDER BY rowid LIMIT ? OFFSET ?`);
      select.safeIntegers(true);
      let copied = 0;
      await target.transaction(async (tx) => {
        for (let offset = 0; ; offset += BATCH) {
          const rows = select.all(BATCH, offset) as Record<string, SqlValue>[];
          if (rows.length === 0) break;
          const values: SqlValue[] = [];
          const tuples = rows.map((row) => {
            for (const c of columns) values.push(row[c] ?? null);
            return `(${columns.map(() => '?').join(', ')})`;
          });
          await tx.run(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, values);
          copied += rows.length;
          progress(`copying ${table}: ${copied} rows`);
        }
        if (columns.includes('id')) {
          // Identity columns continue after the copied ids.
          await tx.run(`SELECT setval(pg_get_serial_sequence(?, 'id'), COALESCE((SELECT MAX("id") FROM ${q(table)}), 0) + 1, false)`, [q(table)]);
        }
      });
      const counted = await target.get<{ n: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${q(table)}`);
      if (counted?.n !== copied) throw new Error(`Count check failed for ${table}: copied ${copied}, target has ${counted?.n}`);
      report.push({ table, rows: copied });
    }
    for (const [key, value] of Object.entries(secrets)) {
      await target.run('INSERT INTO folio_store ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"', [
        key,
        value,
      ]);
    }
  } finally {
    source.close();
  }
  return report;
}
