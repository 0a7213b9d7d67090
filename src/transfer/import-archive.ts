/**
 * Imports a portable archive (kind `export`) into SQLite or PostgreSQL: the target's tables
 * are created from its content types, then every row goes in, ids and documentIds as they
 * were, in one transaction; counts are checked table by table, PostgreSQL's identity
 * sequences continue after the imported ids, and the secrets come along. A failure leaves
 * the target as it was: SQLite, the new file replaces the old only once it has been checked,
 * closed into one file, checked afresh and again in place (target.ts SqliteRebuild); PostgreSQL, the rows
 * roll back with the transaction and what the migrations and the schema sync created before
 * it is dropped again (db/copy.ts schemaObjects / dropCreatedSince, as `import strapi` does).
 * Every webhook arrives disabled, in the same transaction: a copy (a staging installation made
 * from production's export) never calls the source's receivers until `folio webhook enable NAME`.
 */
import { existsSync, rmSync } from 'node:fs';
import type { Secrets } from '../auth/secrets';
import {
  advanceIdentity,
  carriedTables,
  clearTables,
  countRows,
  dropCreatedSince,
  insertRows,
  installationTables,
  schemaObjects,
  tablesInCreationOrder,
  targetIsEmpty,
  type SchemaObjects,
} from '../db/copy';
import type { Database, Queryable, SqlValue } from '../db/database';
import { SYSTEM } from '../db/layout';
import { migrateSystem } from '../db/migrate';
import { PostgresDatabase } from '../db/postgres';
import { applySchemaSync, planSchemaSync } from '../db/schema-sync';
import { SqliteDatabase } from '../db/sqlite';
import { writeSecret } from '../db/store/secrets';
import { disableAllWebhooks } from '../db/store/webhooks';
import { sqlitePath } from '../instance';
import { ArchiveError, ENTRY_LIMITS, entryLines, entryText, type ArchiveEntry } from './archive';
import type { TransferReport } from './export';
import { decodeValue, parseSecrets, tableEntryName, type Manifest, type TableEntry } from './format';
import { undoOnInterrupt } from './interrupt';
import { isPostgres, NOT_EMPTY, SqliteRebuild, sqliteTargetIsEmpty, StagedUploads, uploadsBucket, type Target } from './target';

/** A problem the database reported for a batch, named by table and line: never retried as a conflict. */
class ImportError extends Error {}

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const batchSize = (columns: number) => Math.max(1, Math.min(500, Math.floor(20_000 / Math.max(columns, 1))));

function parseRow(table: TableEntry, line: string, number: number): Record<string, SqlValue> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ArchiveError(`${tableEntryName(table.name)} line ${number} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ArchiveError(`${tableEntryName(table.name)} line ${number} is not a JSON object`);
  const row: Record<string, SqlValue> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!table.columns.includes(key))
      throw new ArchiveError(`${tableEntryName(table.name)} line ${number} has column "${key}", which the manifest does not list`);
    try {
      row[key] = decodeValue(raw);
    } catch (error) {
      throw new ArchiveError(`${tableEntryName(table.name)} line ${number}: ${(error as Error).message}`);
    }
  }
  return row;
}

async function importTable(tx: Queryable, table: TableEntry, entry: ArchiveEntry): Promise<void> {
  const size = batchSize(table.columns.length);
  let batch: Record<string, SqlValue>[] = [];
  let line = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await insertRows(tx, table.name, table.columns, batch);
    } catch (error) {
      throw new ImportError(`${table.name}, rows ${line - batch.length + 1}-${line}: ${(error as Error).message}`);
    }
    batch = [];
  };
  for await (const text of entryLines(entry)) {
    batch.push(parseRow(table, text, ++line));
    if (batch.length >= size) await flush();
  }
  await flush();
  const counted = await countRows(tx, table.name);
  if (line !== table.rows || counted !== table.rows) {
    throw new ArchiveError(`Count check failed for ${table.name}: the manifest says ${table.rows} rows, the archive held ${line}, the target has ${counted}`);
  }
  if (table.columns.includes('id')) await advanceIdentity(tx, table.name);
}

/** Every archive table must exist in the target with every column (the same content types). */
async function checkTables(db: Database, target: Target, manifest: Manifest): Promise<string[]> {
  const carried = carriedTables(installationTables(db, target.registry), await tablesInCreationOrder(db));
  const allowed = new Set(carried);
  const schema = await db.schema();
  for (const table of manifest.tables) {
    if (!allowed.has(table.name)) {
      throw new Error(`The archive holds table "${table.name}", which this installation does not have (are --content-types the source's?)`);
    }
    const columns = schema.columns.get(table.name.toLowerCase())!;
    const missing = table.columns.find((c) => !columns.has(c));
    if (missing)
      throw new Error(`The archive's table "${table.name}" has a column "${missing}" this installation does not have (are --content-types the source's?)`);
  }
  return carried;
}

/**
 * What a failed import must leave in place. A database without Folio's tables: nothing it holds
 * now counts as made by the import, so everything the migrations add goes again. An existing
 * installation: its own pending migrations are an upgrade the next start would apply anyway,
 * so the objects are taken after them (dropping a migrated table would leave its migration
 * recorded as applied); only what the schema sync adds for the archive's types is dropped.
 */
async function objectsToKeep(db: Database): Promise<SchemaObjects> {
  const now = await schemaObjects(db);
  if (!now.tables.has(SYSTEM.migrations)) return now;
  await migrateSystem(db);
  return schemaObjects(db);
}

export async function importPortable(manifest: Manifest, entries: AsyncGenerator<ArchiveEntry>, target: Target): Promise<TransferReport> {
  const { config, registry } = target;
  const postgres = isPostgres(config);
  // PostgreSQL keeps the uploads (and nothing else) in the data dir: one made here goes again on failure.
  const madeDataDir = postgres && !existsSync(config.dataDir);
  const rebuild = postgres ? undefined : new SqliteRebuild(config, 'importing');
  const staged = new StagedUploads(config.uploadsDir, uploadsBucket(config));
  // Everything on disk this import made, undone: after a failure, or from a signal's handler.
  const undoFiles = () => {
    staged.discardNow();
    rebuild?.abandon();
    if (madeDataDir) rmSync(config.dataDir, { recursive: true, force: true });
  };
  const release = undoOnInterrupt(undoFiles);
  let db: Database | undefined;
  let closed = false;
  let before: SchemaObjects | undefined;
  try {
    if (rebuild && !target.force && !(await sqliteTargetIsEmpty(sqlitePath(config), registry))) throw new Error(NOT_EMPTY);
    db = rebuild ? new SqliteDatabase(rebuild.path) : new PostgresDatabase(config.databaseUrl!);
    if (postgres) before = await objectsToKeep(db);
    await migrateSystem(db);
    await applySchemaSync(db, await planSchemaSync(db, registry));
    const empty = await targetIsEmpty(db, registry);
    if (!empty && !target.force) throw new Error(NOT_EMPTY);
    const carried = await checkTables(db, target, manifest);
    const byEntry = new Map(manifest.tables.map((t) => [tableEntryName(t.name), t]));
    const seen = new Set<string>();
    let secrets: Partial<Secrets> = {};
    // Read committed: nothing else writes to a target being restored, and a conflict retry
    // would re-run this function over an archive stream already consumed.
    await db.transaction(
      async (tx) => {
        // --force: everything goes; otherwise only rows migrations wrote themselves (bookkeeping).
        await clearTables(tx, empty ? manifest.tables.map((t) => t.name) : carried);
        for await (const entry of entries) {
          if (entry.name === 'secrets.json') secrets = parseSecrets(await entryText(entry, ENTRY_LIMITS.secrets));
          else if (entry.name.startsWith('uploads/')) await staged.add(entry);
          else if (byEntry.has(entry.name)) {
            const table = byEntry.get(entry.name)!;
            await importTable(tx, table, entry);
            seen.add(table.name);
            target.progress(`imported ${table.name}: ${table.rows} rows`);
          }
        }
        const missing = manifest.tables.find((t) => !seen.has(t.name));
        if (missing) throw new ArchiveError(`The archive ends before ${tableEntryName(missing.name)} (truncated?)`);
        if (postgres) for (const [key, value] of Object.entries(secrets)) await writeSecret(tx, key, String(value));
        // A copy stays quiet: its webhooks are the source's receivers (`folio webhook enable NAME`).
        await disableAllWebhooks(tx);
      },
      { isolation: 'read committed' },
    );
    if (rebuild) {
      // The whole database in its one file, or an error: only that file is moved into place.
      closed = true;
      (db as SqliteDatabase).closeToOneFile();
      await rebuild.finish(manifest, secrets, staged, target.progress, false);
    } else {
      closed = true;
      db.close();
      await staged.commit();
    }
    return { tables: manifest.tables, files: staged.count };
  } catch (error) {
    if (db && !closed) {
      // The rows rolled back; the tables and functions made before the transaction did not.
      if (before) await dropCreatedSince(db, before).catch(() => {});
      db.close();
    }
    undoFiles();
    throw error;
  } finally {
    release();
  }
}
