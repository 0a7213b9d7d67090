/**
 * Where a restore or an import writes, and how it stays all-or-nothing: a SQLite database is
 * built in a temp file beside the real one and renamed over it at the end; uploaded files
 * are staged in a hidden folder inside the uploads folder and moved up (or written to the
 * S3 bucket) once everything else has succeeded; on any failure the temp file and the staging folder are removed.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { Secrets } from '../auth/secrets';
import type { Config } from '../config';
import { targetIsEmpty } from '../db/copy';
import { SqliteDatabase } from '../db/sqlite';
import type { Registry } from '../registry/types';
import { S3Storage } from '../upload/storage-s3';
import { typeOfName, type Storage } from '../upload/storage';
import { uploadPath, type ArchiveEntry } from './archive';

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

/** A temp path beside the SQLite file, and its removal with WAL companions. */
export const tempBeside = (path: string, what: string) => `${path}.${what}-${process.pid}`;
export async function removeSqliteFile(path: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(path + suffix, { force: true });
}

/** Moves a finished SQLite file over the target's (whose WAL companions would not match it). */
export async function replaceSqliteFile(temp: string, path: string): Promise<void> {
  for (const suffix of ['-wal', '-shm', '-journal']) await rm(path + suffix, { force: true });
  await rename(temp, path);
}

/** Writes secrets.json as the installation reads it (owner-only). */
export async function writeSecretsFile(dataDir: string, secrets: Partial<Secrets>): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  await writeFile(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
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
    await rm(this.dir, { recursive: true, force: true });
    if (!this.existed) await rm(this.uploadsDir, { recursive: true, force: true });
  }
}
