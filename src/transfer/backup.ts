/**
 * `folio backup FILE`, safe while a server is serving. SQLite: `VACUUM INTO` makes a
 * consistent copy of the file from one read snapshot (under WAL writers go on meanwhile),
 * checked whole (integrity_check), and the archive carries that copy, the secrets and the
 * uploads; the archive gets its name only once it reads back whole (archive.ts close). PostgreSQL: the portable
 * archive of `folio export` (its secrets live in the database and travel in secrets.json).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inspectSqliteFile, sqliteOnlineCopy, withSqliteSnapshot } from '../db/copy';
import { writeArchive } from './archive';
import { addUploads, appliedMigrations, describeTables, exportInstallation, manifestFor, uploadedFiles, type Source, type TransferReport } from './export';

export async function backupInstallation(source: Source, file: string, progress: (line: string) => void = () => {}): Promise<TransferReport> {
  if (!source.sqliteFile) return exportInstallation(source, file, progress);
  const sqliteFile = source.sqliteFile;
  return writeArchive(file, async (writer, scratch) => {
    const copy = join(scratch, 'folio.db');
    sqliteOnlineCopy(sqliteFile, copy);
    const { check } = inspectSqliteFile(copy, { full: true, count: [] });
    if (check !== 'ok') throw new Error(`The copy of the database is damaged (${check}); no backup was written`);
    progress('copied the database and checked the copy');
    const { tables, migrations } = await withSqliteSnapshot(copy, async (snapshot) => ({
      tables: await describeTables(snapshot, source.db, source.registry),
      migrations: await appliedMigrations(snapshot),
    }));
    const files = await uploadedFiles(source.uploadsDir, source.bucket);
    await writer.addText('manifest.json', JSON.stringify(manifestFor('sqlite-backup', 'sqlite', migrations, tables, files.length), null, 2));
    await writer.addText('secrets.json', JSON.stringify(source.secrets));
    await writer.addFile('folio.db', copy);
    await rm(copy);
    const added = await addUploads(writer, source.uploadsDir, files, source.bucket);
    return { tables, files: added };
  });
}
