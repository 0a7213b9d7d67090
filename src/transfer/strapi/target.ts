/**
 * The writes of an import into Folio's tables: rows with their ids, in batches, inside the
 * one transaction the import runs in. Table names come from db/layout.ts and the registry,
 * the statements from db/copy.ts (shared with `folio copy` and archive imports); this file
 * chooses the tables, batches rows within the engines' parameter limits, and undoes what a
 * failed import created before its transaction (targetBefore / undoCreated, on db/copy.ts's
 * schemaObjects / dropCreatedSince).
 */
import { existsSync, rmSync } from 'node:fs';
import type { Config } from '../../config';
import {
  advanceIdentity,
  clearTables,
  countRows as countTable,
  dropCreatedSince,
  insertRows as insertBatch,
  schemaObjects,
  type SchemaObjects,
} from '../../db/copy';
import type { Database, Queryable, SqlValue } from '../../db/database';
import { FILES_TABLE, MEDIA_LINKS, SYSTEM } from '../../db/layout';
import { desiredTables } from '../../db/schema-sync';
import { openDatabase, sqlitePath } from '../../instance';
import type { Registry } from '../../registry/types';
import { isPostgres } from '../target';
import { removeDatabaseFiles } from '../../db/sqlite-replace';

/** Bound values per statement, well under both engines' limits. */
const PARAMETERS_PER_STATEMENT = 5_000;

/** System tables an import fills, children before parents (the order of deletion). */
export const IMPORTED_SYSTEM_TABLES = [
  SYSTEM.apiTokenPermissions,
  SYSTEM.apiTokens,
  SYSTEM.users,
  SYSTEM.permissions,
  SYSTEM.roles,
  SYSTEM.locales,
  MEDIA_LINKS.table,
  FILES_TABLE,
];

/** Tables holding content: children (links, components) first. */
export function contentTables(db: Database, registry: Registry): string[] {
  return desiredTables(db, registry)
    .filter((t) => !t.extended)
    .map((t) => t.name)
    .reverse();
}

const countOf = async (db: Queryable, table: string) => (await countTable(db, table)) ?? 0;

/**
 * Whether the installation holds anything a user made. A new installation has its default
 * roles and locale, which the import replaces: those do not count.
 */
export async function holdsData(db: Database, registry: Registry): Promise<string | undefined> {
  for (const table of [...contentTables(db, registry), SYSTEM.users, SYSTEM.apiTokens, FILES_TABLE, SYSTEM.webhooks]) {
    if ((await countOf(db, table)) > 0) return table;
  }
  return undefined;
}

/** Empties what the import writes (content, users, roles, tokens, locales, files), in the transaction. */
export async function clearTarget(tx: Queryable, db: Database, registry: Registry): Promise<void> {
  // clearTables takes parents first; these lists name children first.
  await clearTables(tx, [...contentTables(db, registry), ...IMPORTED_SYSTEM_TABLES].reverse());
}

/** Inserts rows (same keys in each) into a table, in batches; returns how many. */
export async function insertRows(tx: Queryable, table: string, rows: Record<string, SqlValue>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const columns = Object.keys(rows[0]!);
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columns.length));
  for (let at = 0; at < rows.length; at += perStatement) await insertBatch(tx, table, columns, rows.slice(at, at + perStatement));
  return rows.length;
}

/** PostgreSQL identity columns continue after the kept ids (SQLite's rowids do by themselves: advanceIdentity does nothing there). */
export async function advanceSequences(tx: Queryable, tables: string[]): Promise<void> {
  for (const table of tables) await advanceIdentity(tx, table);
}

/** Rows per table as the target holds them now (the import's count check). */
export async function countRows(tx: Queryable, table: string): Promise<number> {
  return countOf(tx, table);
}

/**
 * What the target held before the import opened it, so that a failed import takes back what it
 * created (the data itself rolls back with the transaction; the tables the migrations and the
 * schema sync made before it do not): SQLite, whether the file and the data dir existed;
 * PostgreSQL, the tables and functions of the schema (an extension it installed, pg_trgm, stays).
 */
export interface TargetBefore {
  postgres: boolean;
  sqliteFile: string;
  fileExisted: boolean;
  dataDirExisted: boolean;
  objects: SchemaObjects;
}

export async function targetBefore(config: Config): Promise<TargetBefore> {
  const postgres = isPostgres(config);
  const before: TargetBefore = {
    postgres,
    sqliteFile: sqlitePath(config),
    fileExisted: false,
    dataDirExisted: existsSync(config.dataDir),
    objects: { tables: new Set(), functions: new Set() },
  };
  before.fileExisted = !postgres && existsSync(before.sqliteFile);
  // A SQLite file that does not exist yet holds nothing (and opening it would make it).
  if (!postgres && !before.fileExisted) return before;
  const db = openDatabase(config);
  try {
    before.objects = await schemaObjects(db);
  } finally {
    db.close();
  }
  return before;
}

/**
 * undoCreated from a signal's handler, synchronously: a SQLite file and a data dir made for the
 * import go (the transaction in progress dies with the process; on an existing installation
 * or PostgreSQL, tables the schema sync added before it stay, empty).
 */
export function undoCreatedNow(config: Config, before: TargetBefore): void {
  if (!before.dataDirExisted) rmSync(config.dataDir, { recursive: true, force: true });
  if (!before.postgres && !before.fileExisted) removeDatabaseFiles(before.sqliteFile);
}

/** After a failed import: drops what it created (tables, functions; a new SQLite file and data dir). */
export async function undoCreated(config: Config, before: TargetBefore): Promise<void> {
  // The uploads folder (and, on SQLite, the database and secrets) live in a data dir made for the import.
  if (!before.dataDirExisted) rmSync(config.dataDir, { recursive: true, force: true });
  if (!before.postgres && !before.fileExisted) {
    removeDatabaseFiles(before.sqliteFile);
    return;
  }
  const db = openDatabase(config);
  try {
    // On an existing installation: only what the schema sync added for the imported types.
    await dropCreatedSince(db, before.objects);
  } finally {
    db.close();
  }
}
