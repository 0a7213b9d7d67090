/**
 * Where a restore or an import writes, and how it stays all-or-nothing: a SQLite database is
 * built in a work file beside the real one, checked, swapped in with secrets.json and checked
 * again where it lands, the old installation kept aside until then (SqliteRebuild, on
 * db/sqlite-replace.ts); uploaded files are staged in a hidden folder inside the uploads folder
 * and moved up (or written to the S3 bucket) once everything else has succeeded. A restored
 * backup's webhooks are disabled before it is moved into place (quietBackupFile); on any failure,
 * and on a signal (interrupt.ts undoOnInterrupt), the work files and the staging folder are removed and the
 * old installation is put back.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Secrets } from '../auth/secrets';
import type { Config } from '../config';
import { targetIsEmpty } from '../db/copy';
import { migrateSystem } from '../db/migrate';
import { SqliteDatabase } from '../db/sqlite';
import { disableAllWebhooks } from '../db/store/webhooks';
import { processAlive, removeDatabaseFiles, Replacement, type WorkKind } from '../db/sqlite-replace';
import { recoverSqliteFiles, sqlitePath } from '../instance';
import type { Registry } from '../registry/types';
import { S3Storage } from '../upload/storage-s3';
import { typeOfName, type Storage } from '../upload/storage';
import { uploadPath, type ArchiveEntry } from './archive';
import type { Manifest } from './format';
import { verifyDatabaseFile } from './verify';

export interface Target {
  config: Config;
  registry: Registry;
  /** Replace a target that holds data (otherwise that is an error). */
  force: boolean;
  progress: (line: string) => void;
}

/** The bucket a restore or import writes uploaded files to, when the target keeps them in S3. */
export const uploadsBucket = (config: Config): Storage | undefined => (config.uploadsS3 ? new S3Storage(config.uploadsS3) : undefined);

export const isPostgres = (config: Config) => !!config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl);

export const NOT_EMPTY = 'The target installation is not empty; use --force to replace its content';

/** Whether the SQLite file (if any) holds rows. */
export async function sqliteTargetIsEmpty(path: string, registry: Registry): Promise<boolean> {
  if (!existsSync(path)) return true;
  const db = new SqliteDatabase(path);
  try {
    return await targetIsEmpty(db, registry);
  } finally {
    db.close();
  }
}

/** The secrets file of a SQLite installation (auth/secrets.ts reads it). */
const secretsFile = (config: Config) => join(config.dataDir, 'secrets.json');

/**
 * A SQLite installation rebuilt by a restore or an import. `path` is the work file the new
 * database is built in; `finish` checks it (verify.ts), swaps it and the secrets in
 * (db/sqlite-replace.ts), checks it again where it landed, moves the staged uploads in, and
 * only then lets the old installation go. `abandon` (a failure, a signal) leaves the target as
 * it was, the data dir too when the rebuild made it.
 */
export class SqliteRebuild {
  private replacement: Replacement;
  private madeDirs: string[];

  constructor(
    private config: Config,
    kind: WorkKind,
  ) {
    // What an interrupted restore or import left (instance.ts, as every opening of the installation does).
    recoverSqliteFiles(config);
    const database = sqlitePath(config);
    this.replacement = new Replacement(database, kind, [secretsFile(config)]);
    // The data dir (and the folder of a sqlite:PATH file) made here go again with a failure.
    this.madeDirs = [...new Set([config.dataDir, dirname(database)])].filter((dir) => !existsSync(dir));
    mkdirSync(dirname(database), { recursive: true });
    mkdirSync(config.dataDir, { recursive: true });
    // A work file of an earlier run under this same pid is not this run's.
    removeDatabaseFiles(this.replacement.next);
  }

  /** The work file the new database is built in. */
  get path(): string {
    return this.replacement.next;
  }

  /**
   * Checks the finished work file against the manifest (SQLite's full integrity check, its
   * migrations, every table's count), swaps it in with `secrets`, checks it again in place,
   * commits the staged uploads, and only then removes the old installation. Any failure
   * (a progress line that throws included) puts the old installation back.
   */
  async finish(manifest: Manifest, secrets: Partial<Secrets>, staged: StagedUploads, progress: (line: string) => void, backup: boolean): Promise<void> {
    verifyDatabaseFile(this.path, manifest, { full: true, backup });
    progress(`checked the new database: integrity, migrations, and ${manifest.tables.length} tables' row counts as in the manifest`);
    // A backup is the source's own file: brought up to this Folio's migrations, its webhooks
    // disabled before it is moved into place (an export's import disabled them in its transaction).
    if (backup) await quietBackupFile(this.path);
    const secretsNext = this.replacement.nextOf(secretsFile(this.config));
    writeFileSync(secretsNext, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
    // The migrations were checked against the manifest above; quietBackupFile may have added this Folio's.
    this.replacement.swap((path) => verifyDatabaseFile(path, manifest, { full: false, backup: false }));
    progress('moved the new database into place and checked it there');
    await staged.commit();
    this.replacement.commit();
  }

  /** Puts the old installation back (if it was moved) and removes every work file; synchronous. */
  abandon(): void {
    this.replacement.abandon();
    for (const dir of this.madeDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Disables every webhook of a restored SQLite backup, in the work file: the file is migrated
 * first (an older Folio's backup may lack the column, which would arrive enabled), then closed
 * back into one file.
 */
async function quietBackupFile(path: string): Promise<void> {
  const db = new SqliteDatabase(path);
  try {
    await migrateSystem(db);
    await disableAllWebhooks(db);
  } catch (error) {
    db.close();
    throw error;
  }
  db.closeToOneFile();
}

/** Uploaded files held back until the rest of a restore has succeeded. */
export class StagedUploads {
  readonly dir: string;
  count = 0;
  /** A folder made only for this restore goes again with a failure. */
  private existed: boolean;

  /** With a bucket (FOLIO_UPLOADS=s3://…), commit writes the staged files to it instead of moving them. */
  constructor(
    private uploadsDir: string,
    private bucket?: Storage,
  ) {
    this.dir = join(uploadsDir, `.folio-staging-${process.pid}`);
    this.existed = existsSync(uploadsDir);
    StagedUploads.removeStale(uploadsDir);
  }

  async add(entry: ArchiveEntry): Promise<void> {
    const path = uploadPath(this.dir, entry.name);
    await mkdir(dirname(path), { recursive: true });
    await pipeline(Readable.from(entry.body), createWriteStream(path, { mode: 0o644 }));
    this.count++;
  }

  /** Moves every staged file into the uploads folder (same file system: renames). */
  async commit(): Promise<void> {
    if (!existsSync(this.dir)) return;
    const entries = await readdir(this.dir, { recursive: true, withFileTypes: true });
    for (const e of entries.filter((x) => x.isFile())) {
      const from = join(e.parentPath, e.name);
      if (this.bucket) {
        // Folio keeps uploads flat; a nested name cannot be an object under the prefix (write refuses it).
        await this.bucket.write(relative(this.dir, from), await Bun.file(from).bytes(), typeOfName(e.name));
        continue;
      }
      const to = join(this.uploadsDir, relative(this.dir, from));
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    }
    await rm(this.dir, { recursive: true, force: true });
    // The staging folder was the only reason to make the local folder.
    if (this.bucket && !this.existed) await rm(this.uploadsDir, { recursive: true, force: true });
  }

  async discard(): Promise<void> {
    this.discardNow();
  }

  /** discard(), synchronously (a signal's handler runs it). */
  discardNow(): void {
    rmSync(this.dir, { recursive: true, force: true });
    if (!this.existed) rmSync(this.uploadsDir, { recursive: true, force: true });
  }

  /** Removes the staging folders of processes that are gone (an interrupted restore's): each new staging does. */
  static removeStale(uploadsDir: string): void {
    let names: string[];
    try {
      names = readdirSync(uploadsDir);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = /^\.folio-staging-(\d+)$/.exec(name)?.[1];
      if (pid && Number(pid) !== process.pid && !processAlive(Number(pid))) rmSync(join(uploadsDir, name), { recursive: true, force: true });
    }
  }
}
