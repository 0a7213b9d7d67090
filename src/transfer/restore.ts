/**
 * `folio restore FILE` and `folio import ARCHIVE`: reads the manifest, then recreates the
 * installation. A portable archive goes through import-archive.ts (either engine). A SQLite
 * backup is its database file: restored as that file (checked with SQLite's quick_check and
 * the manifest's counts before it is moved into place), or, for a PostgreSQL target, copied
 * table by table with `folio copy`'s code.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Secrets } from '../auth/secrets';
import { copyToPostgres, sqliteQuickCheck, withSqliteSnapshot } from '../db/copy';
import { migrations } from '../db/migrations';
import { PostgresDatabase } from '../db/postgres';
import { sqlitePath } from '../instance';
import { ArchiveError, entryText, looksLikeArchive, readArchive, type ArchiveEntry } from './archive';
import type { TransferReport } from './export';
import { parseManifest, type Manifest } from './format';
import { importPortable } from './import-archive';
import { isPostgres, NOT_EMPTY, removeSqliteFile, replaceSqliteFile, sqliteTargetIsEmpty, StagedUploads, tempBeside, uploadsBucket, writeSecretsFile, type Target } from './target';

/** Restores (or imports) the archive `file` into the target installation. */
export async function restoreArchive(file: string, target: Target): Promise<TransferReport & { manifest: Manifest }> {
  if (!(await looksLikeArchive(file))) throw new ArchiveError(`"${file}" is not a Folio archive (neither gzip nor tar)`);
  const entries = readArchive(file);
  try {
    const first = await entries.next();
    if (first.done || first.value.name !== 'manifest.json') throw new ArchiveError(`"${file}" is not a Folio archive (it does not start with manifest.json)`);
    const manifest = parseManifest(await entryText(first.value));
    const known = new Set(migrations.map((m) => m.name));
    const unknown = manifest.migrations.find((m) => !known.has(m));
    if (unknown) throw new Error(`The archive comes from a newer Folio (${manifest.folioVersion}, migration ${unknown}); restore it with that version or later`);
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

/** The manifest's tables and counts, checked against the database file restored. */
async function checkCopy(path: string, manifest: Manifest): Promise<void> {
  const check = sqliteQuickCheck(path);
  if (check !== 'ok') throw new ArchiveError(`The archive's database is damaged (${check})`);
  await withSqliteSnapshot(path, async (snapshot) => {
    for (const table of manifest.tables) {
      const n = snapshot.tables.includes(table.name) ? await snapshot.count(table.name) : undefined;
      if (n !== table.rows) throw new ArchiveError(`Count check failed for ${table.name}: the manifest says ${table.rows} rows, the database holds ${n ?? 'no such table'}`);
    }
  });
}

async function restoreSqliteBackup(manifest: Manifest, entries: AsyncGenerator<ArchiveEntry>, target: Target): Promise<TransferReport> {
  const { config } = target;
  const postgres = isPostgres(config);
  const finalPath = sqlitePath(config);
  if (!postgres && !target.force && !(await sqliteTargetIsEmpty(finalPath, target.registry))) throw new Error(NOT_EMPTY);
  const madeDir = !postgres && !existsSync(dirname(finalPath));
  const scratch = postgres ? await mkdtemp(join(tmpdir(), 'folio-restore-')) : undefined;
  const copyPath = scratch ? join(scratch, 'folio.db') : tempBeside(finalPath, 'restoring');
  const staged = new StagedUploads(config.uploadsDir, uploadsBucket(config));
  try {
    if (!postgres) await mkdir(dirname(finalPath), { recursive: true });
    let secrets: Partial<Secrets> = {};
    let database = false;
    for await (const entry of entries) {
      if (entry.name === 'secrets.json') secrets = JSON.parse(await entryText(entry));
      else if (entry.name === 'folio.db') {
        await saveEntry(entry, copyPath);
        database = true;
      } else if (entry.name.startsWith('uploads/')) await staged.add(entry);
    }
    if (!database) throw new ArchiveError('The backup holds no folio.db (truncated?)');
    await checkCopy(copyPath, manifest);
    target.progress(`checked the database: ${manifest.tables.length} tables, counts as in the manifest`);
    if (postgres) {
      const db = new PostgresDatabase(config.databaseUrl!);
      try {
        await copyToPostgres(copyPath, db, target.registry, secrets as Record<string, string>, { force: target.force });
      } catch (error) {
        throw (error as Error).message.startsWith('The target database is not empty') ? new Error(NOT_EMPTY) : error;
      } finally {
        db.close();
      }
    } else {
      await replaceSqliteFile(copyPath, finalPath);
      await writeSecretsFile(config.dataDir, secrets);
    }
    await staged.commit();
    return { tables: manifest.tables, files: staged.count };
  } catch (error) {
    await staged.discard();
    await removeSqliteFile(copyPath);
    if (madeDir) await rm(dirname(finalPath), { recursive: true, force: true });
    throw error;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
