/**
 * `folio export FILE` (and `folio backup` on PostgreSQL): the whole installation as a
 * portable archive (format.ts). Every table is read from one snapshot (a SQLite read
 * transaction, a PostgreSQL repeatable-read one), so the archive is consistent while the
 * server goes on serving; each table is streamed through a temp file, never held in memory.
 */
import { createWriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { once } from 'node:events';
import type { Secrets } from '../auth/secrets';
import { VERSION } from '../version';
import { carriedTables, installationTables, withPostgresSnapshot, withSqliteSnapshot, type TableSnapshot } from '../db/copy';
import type { Database } from '../db/database';
import { SYSTEM } from '../db/layout';
import type { Registry } from '../registry/types';
import type { Storage } from '../upload/storage';
import { writeArchive, type ArchiveWriter } from './archive';
import { encodeRow, FORMAT, FORMAT_VERSION, tableEntryName, type Manifest, type TableEntry } from './format';

const PAGE = 1000;

export interface Source {
  db: Database;
  registry: Registry;
  secrets: Secrets;
  uploadsDir: string;
  /** With FOLIO_UPLOADS=s3://…: the bucket the files are streamed from instead of uploadsDir. */
  bucket?: Storage;
  /** The SQLite file (SQLite installations only). */
  sqliteFile?: string;
}

export interface TransferReport {
  tables: TableEntry[];
  files: number;
}

/** Files under the uploads folder, relative and with `/` separators (a transfer's own staging folders left out), or the bucket's. */
export async function uploadedFiles(uploadsDir: string, bucket?: Storage): Promise<string[]> {
  if (bucket) return bucket.list();
  const entries = await readdir(uploadsDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(uploadsDir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((name) => !name.startsWith('.folio-'))
    .sort();
}

/** The system migrations the snapshot's database has applied. */
export async function appliedMigrations(snapshot: TableSnapshot): Promise<string[]> {
  const rows = await snapshot.page(SYSTEM.migrations, ['name'], 0, 100_000);
  return rows.map((r) => String(r.name));
}

/** What the snapshot holds, per carried table: columns and row count (written into the manifest first). */
export async function describeTables(snapshot: TableSnapshot, db: Database, registry: Registry): Promise<TableEntry[]> {
  const entries: TableEntry[] = [];
  for (const name of carriedTables(installationTables(db, registry), snapshot.tables)) {
    entries.push({ name, columns: await snapshot.columns(name), rows: await snapshot.count(name) });
  }
  return entries;
}

export function manifestFor(kind: Manifest['kind'], engine: Manifest['engine'], migrations: string[], tables: TableEntry[], files: number): Manifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, kind, folioVersion: VERSION, engine, createdAt: new Date().toISOString(), migrations, tables, files };
}

/** Adds the uploads folder's (or bucket's) files, streamed, skipping any deleted since they were listed. */
export async function addUploads(writer: ArchiveWriter, uploadsDir: string, files: string[], bucket?: Storage): Promise<number> {
  let added = 0;
  for (const name of files) {
    if (bucket) {
      // As below: an object deleted while the backup ran is skipped.
      const object = await bucket.open(name);
      if (!object) continue;
      await writer.addStream(`uploads/${name}`, object.size, object.body());
      added++;
      continue;
    }
    try {
      await writer.addFile(`uploads/${name}`, join(uploadsDir, ...name.split('/')));
      added++;
    } catch (error) {
      // A file deleted while the backup ran belongs to no row of the snapshot any more.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return added;
}

async function writeTable(snapshot: TableSnapshot, table: TableEntry, path: string): Promise<number> {
  const out = createWriteStream(path, { mode: 0o600 });
  let written = 0;
  try {
    for (let offset = 0; ; offset += PAGE) {
      const rows = await snapshot.page(table.name, table.columns, offset, PAGE);
      if (rows.length === 0) break;
      const text = rows.map((row) => encodeRow(row)).join('\n') + '\n';
      if (!out.write(text)) await once(out, 'drain');
      written += rows.length;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return written;
}

/** Writes the portable archive of an installation to `file`. */
export async function exportInstallation(source: Source, file: string, progress: (line: string) => void = () => {}): Promise<TransferReport> {
  return writeArchive(file, async (writer, scratch) => {
    const run = async (snapshot: TableSnapshot) => {
      const tables = await describeTables(snapshot, source.db, source.registry);
      const files = await uploadedFiles(source.uploadsDir, source.bucket);
      await writer.addText(
        'manifest.json',
        JSON.stringify(manifestFor('export', snapshot.engine, await appliedMigrations(snapshot), tables, files.length), null, 2),
      );
      await writer.addText('secrets.json', JSON.stringify(source.secrets));
      for (const table of tables) {
        const path = join(scratch, 'table.jsonl');
        const written = await writeTable(snapshot, table, path);
        // The snapshot cannot change under us; a difference is a bug, not a race.
        if (written !== table.rows) throw new Error(`Count check failed for ${table.name}: counted ${table.rows}, wrote ${written}`);
        await writer.addFile(tableEntryName(table.name), path);
        await rm(path);
        progress(`exported ${table.name}: ${table.rows} rows`);
      }
      return { tables, files };
    };
    const { tables, files } = source.sqliteFile ? await withSqliteSnapshot(source.sqliteFile, run) : await withPostgresSnapshot(source.db, run);
    const added = await addUploads(writer, source.uploadsDir, files, source.bucket);
    return { tables, files: added };
  });
}
