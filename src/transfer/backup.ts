/**
 * `folio backup FILE`, safe while a server is serving. SQLite: `VACUUM INTO` makes a
 * consistent copy of the file from one read snapshot (under WAL writers go on meanwhile),
 * and the archive carries that copy, the secrets and the uploads. PostgreSQL: the portable
 * archive of `folio export` (its secrets live in the database and travel in secrets.json).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sqliteOnlineCopy, withSqliteSnapshot } from '../db/copy';
import { writeArchive } from './archive';
import { addUploads, appliedMigrations, describeTables, exportInstallation, manifestFor, uploadedFiles, type Source, type TransferReport } from './export';

export async function backupInstallation(source: Source, file: string, progress: (line: string) => void = () => {}): Promise<TransferReport> {
  if (!source.sqliteFile) return exportInstallation(source, file, progress);
  const sqliteFile = source.sqliteFile;
  return writeArchive(file, async (writer, scratch) => {
    const copy = join(scratch, 'folio.db');
    sqliteOnlineCopy(sqliteFile, copy);
    progress('copied the database');
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
