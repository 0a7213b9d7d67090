/**
 * `folio restore FILE` and `folio import ARCHIVE`: reads the manifest, then recreates the
 * installation. A portable archive goes through import-archive.ts (either engine). A SQLite
 * backup is its database file: restored as that file (checked as verify.ts says, before it is
 * moved into place and again once there: target.ts SqliteRebuild), or, for a PostgreSQL
 * target, checked the same way and copied table by table with `folio copy`'s code. Either
 * way the new installation's webhooks are disabled (`folio webhook enable NAME`): a copy must
 * not call the source's receivers.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { copyToPostgres } from '../db/copy';
import { PostgresDatabase } from '../db/postgres';
import { sqlitePath } from '../instance';
import { ArchiveError, ENTRY_LIMITS, entryText, looksLikeArchive, readArchive, type ArchiveEntry } from './archive';
import type { TransferReport } from './export';
import { parseManifest, parseSecrets, type Manifest } from './format';
import { importPortable } from './import-archive';
import { undoOnInterrupt } from './interrupt';
import { isPostgres, NOT_EMPTY, SqliteRebuild, sqliteTargetIsEmpty, StagedUploads, uploadsBucket, type Target } from './target';
import { checkBackupTables, checkManifest, verifyDatabaseFile } from './verify';

/** Restores (or imports) the archive `file` into the target installation. */
export async function restoreArchive(file: string, target: Target): Promise<TransferReport & { manifest: Manifest }> {
  if (!(await looksLikeArchive(file))) throw new ArchiveError(`"${file}" is not a Folio archive (neither gzip nor tar)`);
  const entries = readArchive(file);
  try {
    const first = await entries.next();
    if (first.done || first.value.name !== 'manifest.json') throw new ArchiveError(`"${file}" is not a Folio archive (it does not start with manifest.json)`);
    const manifest = parseManifest(await entryText(first.value, ENTRY_LIMITS.manifest));
    checkManifest(manifest);
    const report = manifest.kind === 'export' ? await importPortable(manifest, entries, target) : await restoreSqliteBackup(manifest, entries, target);
    return { ...report, manifest };
  } finally {
    // Stops reading the file whatever happened (a generator left open keeps it open).
    await entries.return(undefined);
  }
}

async function saveEntry(entry: ArchiveEntry, path: string): Promise<void> {
  await pipeline(Readable.from(entry.body), createWriteStream(path, { mode: 0o600 }));
}

async function restoreSqliteBackup(manifest: Manifest, entries: AsyncGenerator<ArchiveEntry>, target: Target): Promise<TransferReport> {
  const { config } = target;
  const postgres = isPostgres(config);
  checkBackupTables(manifest, target.registry);
  const rebuild = postgres ? undefined : new SqliteRebuild(config, 'restoring');
  const scratch = postgres ? mkdtempSync(join(tmpdir(), 'folio-restore-')) : undefined;
  const copyPath = scratch ? join(scratch, 'folio.db') : rebuild!.path;
  const staged = new StagedUploads(config.uploadsDir, uploadsBucket(config));
  const undoFiles = () => {
    staged.discardNow();
    rebuild?.abandon();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  const release = undoOnInterrupt(undoFiles);
  try {
    if (rebuild && !target.force && !(await sqliteTargetIsEmpty(sqlitePath(config), target.registry))) throw new Error(NOT_EMPTY);
    let secrets: Record<string, string> = {};
    let database = false;
    for await (const entry of entries) {
      if (entry.name === 'secrets.json') secrets = parseSecrets(await entryText(entry, ENTRY_LIMITS.secrets));
      else if (entry.name === 'folio.db') {
        await saveEntry(entry, copyPath);
        database = true;
      } else if (entry.name.startsWith('uploads/')) await staged.add(entry);
    }
    if (!database) throw new ArchiveError('The backup holds no folio.db (truncated?)');
    if (rebuild) {
      await rebuild.finish(manifest, secrets, staged, target.progress, true);
    } else {
      verifyDatabaseFile(copyPath, manifest, { full: true, backup: true });
      target.progress(`checked the database: integrity, migrations, and ${manifest.tables.length} tables' row counts as in the manifest`);
      const db = new PostgresDatabase(config.databaseUrl!);
      try {
        await copyToPostgres(copyPath, db, target.registry, secrets, { force: target.force, disableWebhooks: true });
      } catch (error) {
        throw (error as Error).message.startsWith('The target database is not empty') ? new Error(NOT_EMPTY) : error;
      } finally {
        db.close();
      }
      await staged.commit();
    }
    return { tables: manifest.tables, files: staged.count };
  } catch (error) {
    undoFiles();
    throw error;
  } finally {
    release();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
