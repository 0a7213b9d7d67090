/**
 * The project's uploaded files, put where the target keeps its uploads: the uploads folder,
 * or the S3 bucket when FOLIO_UPLOADS=s3://… (through the Storage interface the upload service
 * writes with), and the file rows made to match: a file the bytes of which now sit in the
 * bucket names Folio's S3 provider (so replacing or deleting it removes the objects), and with
 * FOLIO_UPLOADS_PUBLIC_URL its URLs (and its formats') point there as Folio's own uploads do.
 * Files copied before the import's transaction are removed again if it fails.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import type { SqlValue } from '../../db/database';
import { typeOfName, type Storage } from '../../upload/storage';
import { uploadsBucket } from '../target';
import type { StrapiSource } from './source';

/** Strapi's local provider serves every file (and format) under this path. */
const LOCAL_PREFIX = '/uploads/';

/** Files of the project's uploads folder (names only: Strapi's local provider keeps them flat). */
export function uploadFiles(source: StrapiSource): string[] {
  const dir = source.uploadsDir;
  if (!dir) return [];
  return readdirSync(dir).filter((f) => !f.startsWith('.') && statSync(join(dir, f)).isFile());
}

export class PlacedUploads {
  private readonly bucket: Storage | undefined;
  /** Paths (folder) or names (bucket) this import wrote, for undo(). */
  private readonly written: string[] = [];

  constructor(private readonly config: Config) {
    this.bucket = uploadsBucket(config);
  }

  /** Copies the named files of `dir` into the target's storage; one already there is kept, not overwritten. */
  async place(dir: string | undefined, names: string[]): Promise<void> {
    if (!dir || names.length === 0) return;
    if (this.bucket) {
      for (const name of names) {
        if (await this.bucket.open(name)) continue;
        await this.bucket.write(name, await Bun.file(join(dir, name)).bytes(), typeOfName(name));
        this.written.push(name);
      }
      return;
    }
    mkdirSync(this.config.uploadsDir, { recursive: true });
    for (const name of names) {
      const to = join(this.config.uploadsDir, name);
      if (existsSync(to)) continue;
      copyFileSync(join(dir, name), to);
      this.written.push(to);
    }
  }

  /** Removes what place() wrote (after a failed import). */
  async undo(): Promise<void> {
    if (this.bucket) await this.bucket.remove(this.written);
    else for (const path of this.written) rmSync(path, { force: true });
    this.written.length = 0;
  }

  /** undo() from a signal's handler: synchronous, so a bucket's objects stay (the next import keeps them, not overwritten). */
  undoNow(): void {
    if (!this.bucket) for (const path of this.written) rmSync(path, { force: true });
    this.written.length = 0;
  }
}

/** A local-provider URL (`/uploads/<name>`) as the target serves it: under the public base when one is set. */
function retarget(url: unknown, base: string | undefined): unknown {
  if (!base || typeof url !== 'string' || !url.startsWith(LOCAL_PREFIX)) return url;
  return `${base}/${encodeURIComponent(url.slice(LOCAL_PREFIX.length))}`;
}

/**
 * File rows of Strapi's local provider as the target holds them: in a bucket they are the S3
 * provider's; with a public base their URLs (and their formats') point under it. Rows of any
 * other provider (Strapi's own S3, Cloudinary…) keep their absolute URLs and are left as they are.
 */
export function placeFileRows(rows: Record<string, SqlValue>[], config: Config): void {
  const bucket = !!config.uploadsS3;
  const base = config.uploadsPublicUrl;
  if (!bucket && !base) return;
  for (const row of rows) {
    if ((row.provider ?? 'local') !== 'local') continue;
    if (bucket) row.provider = 'aws-s3';
    row.url = retarget(row.url, base) as SqlValue;
    if (base && typeof row.formats === 'string') {
      const formats = JSON.parse(row.formats) as Record<string, { url?: unknown }> | null;
      for (const format of Object.values(formats ?? {})) format.url = retarget(format.url, base);
      row.formats = JSON.stringify(formats);
    }
  }
}
