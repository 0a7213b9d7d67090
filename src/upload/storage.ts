/**
 * Where uploaded bytes live. Two providers implement one interface, so the upload service
 * never asks which one it has:
 *  - LocalStorage: flat files in the uploads dir (default `<dataDir>/uploads/`);
 *  - S3Storage (storage-s3.ts): objects under `s3://bucket/prefix/`, so instances share files
 *    without a shared disk.
 * Names are generated (`<hash><ext>`, `<format>_<hash><ext>`). A replacement keeps them, as
 * Strapi does (service.ts), so a write may replace a stored file: the folder writes a hidden
 * temporary file and renames it over the name (a reader sees the old bytes or the new ones, never
 * part of them); a bucket's PUT replaces an object whole.
 */
import type { Logger } from '../log';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';

/** A stored file as the `/uploads/<name>` route serves it. */
export interface StoredObject {
  size: number;
  /** Modification time in ms (the ETag and Last-Modified come from it). */
  modifiedMs: number;
  /** The bytes, read only when the response needs a body. */
  body(): Blob | ReadableStream<Uint8Array>;
}

export interface Storage {
  /** What each file row's `provider` column records (Strapi's provider names). */
  readonly provider: 'local' | 'aws-s3';
  /** Where the files are, for messages (`/srv/data/uploads`, `s3://bucket/prefix`). */
  readonly location: string;
  /** Stores bytes under a name, replacing what it held; `type` is the MIME type the name's extension gives. */
  write(name: string, bytes: Uint8Array, type: string): Promise<void>;
  /**
   * Removes files that may or may not exist. Never throws: it runs after a commit (or while
   * undoing a failed request), when a leftover file is a leak to report, not a failure.
   */
  remove(names: Iterable<string>): Promise<void>;
  /** A stored file, or undefined when there is none under that name (or the name is not one Folio makes). */
  open(name: string): Promise<StoredObject | undefined>;
  /** Every stored name, sorted (backup and export carry them). */
  list(): Promise<string[]>;
}

/**
 * Whether a name can be a stored file's: one plain segment (no separators, `..`, NUL or
 * leading dot), so a request cannot reach outside the folder or the bucket's prefix.
 */
export function isStorableName(name: string): boolean {
  return !!name && name === basename(name) && !name.startsWith('.') && !/[\\/\0]/.test(name);
}

/** The MIME type a stored name's extension gives (what serving and the object's metadata use). */
export const typeOfName = (name: string): string => Bun.file(name).type;

export class LocalStorage implements Storage {
  readonly provider = 'local' as const;
  readonly dir: string;

  constructor(
    uploadsDir: string,
    private log?: Pick<Logger, 'warn'>,
  ) {
    this.dir = resolve(uploadsDir);
    mkdirSync(this.dir, { recursive: true });
  }

  get location(): string {
    return this.dir;
  }

  /** The path of a stored file, or undefined for anything that is not a plain name inside the folder. */
  pathOf(name: string): string | undefined {
    if (!isStorableName(name)) return undefined;
    const path = join(this.dir, name);
    return path.startsWith(this.dir + sep) ? path : undefined;
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(name);
    if (!path) throw new Error(`Refusing to store a file named ${JSON.stringify(name)}`);
    // A dot name is never served nor listed (isStorableName).
    const temporary = join(this.dir, `.${name}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
  }

  async remove(names: Iterable<string>): Promise<void> {
    for (const name of names) {
      const path = this.pathOf(name);
      if (path && existsSync(path)) await rm(path, { force: true }).catch((error) => this.log?.warn(`could not remove upload ${name}: ${error}`));
    }
  }

  async open(name: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(name);
    if (!path) return undefined;
    try {
      const stat = statSync(path);
      if (!stat.isFile()) return undefined;
      return { size: stat.size, modifiedMs: stat.mtimeMs, body: () => Bun.file(path) };
    } catch {
      return undefined;
    }
  }

  async list(): Promise<string[]> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && isStorableName(e.name))
      .map((e) => e.name)
      .sort();
  }
}
