/**
 * The archive every transfer command writes and reads: a gzip-compressed tar, streamed both
 * ways (tar-stream + node:zlib), so neither the uploads folder nor a large table is ever held
 * in memory. Entries are written to a temp file beside the target and renamed into place at
 * the end, so a failed backup never leaves a half-written archive under the name asked for.
 */
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { undoOnInterrupt } from './interrupt';
import { LINE_LIMIT, sizeName, splitLines } from './lines';

/** The archive cannot be read: not one of Folio's, truncated or corrupt. */
export class ArchiveError extends Error {}

export class ArchiveWriter {
  private pack = tar.pack();
  private done: Promise<void>;
  private temp: string;
  /** Every entry added, in order, with its size: what the archive must read back as. */
  private written: { name: string; size: number }[] = [];

  constructor(readonly file: string) {
    this.temp = join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
    this.done = pipeline(this.pack, createGzip({ level: 6 }), createWriteStream(this.temp, { mode: 0o600 }));
    // Surfaced by close(); without a handler a write error would be unhandled until then.
    this.done.catch(() => {});
  }

  /** A small entry from memory (the manifest, secrets). */
  async addText(name: string, text: string): Promise<void> {
    const body = Buffer.from(text, 'utf8');
    await new Promise<void>((resolve, reject) => this.pack.entry({ name, size: body.length, mode: 0o600 }, body, (e) => (e ? reject(e) : resolve())));
    this.written.push({ name, size: body.length });
  }

  /** A file from disk, streamed; its size is read first (a tar header carries it). */
  async addFile(name: string, path: string): Promise<void> {
    const { size } = await stat(path);
    if (size === 0) return this.addText(name, '');
    const entry = this.pack.entry({ name, size, mode: 0o600 });
    await pipeline(createReadStream(path, { start: 0, end: size - 1 }), entry);
    this.written.push({ name, size });
  }

  /** An entry streamed from elsewhere (an object in the uploads bucket) whose size is known. */
  async addStream(name: string, size: number, body: Blob | ReadableStream<Uint8Array>): Promise<void> {
    if (size === 0) return this.addText(name, '');
    const entry = this.pack.entry({ name, size, mode: 0o600 });
    await pipeline(Readable.fromWeb((body instanceof Blob ? body.stream() : body) as NodeReadableStream<Uint8Array>), entry);
    this.written.push({ name, size });
  }

  /**
   * Ends the archive and moves it to its name, once it is on disk and reads back whole: every
   * entry in order with its size, through gzip's own check of the bytes (CRC-32 and length).
   * An archive that would not read back is an error, and never gets the name.
   */
  async close(): Promise<void> {
    this.pack.finalize();
    await this.done;
    await syncPath(this.temp);
    await readsBackAs(this.temp, this.written);
    await rename(this.temp, this.file);
    await syncPath(dirname(this.file));
  }

  /** The partial file goes, synchronously (a signal's handler). */
  removePartial(): void {
    rmSync(this.temp, { force: true });
  }

  /** Drops the partial file (after a failure). */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.done.catch(() => {});
    await rm(this.temp, { force: true });
  }
}

/** Makes a file's bytes, or a folder's entries, durable. */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads the archive at `path` to its end and compares its entries with `expected`. */
async function readsBackAs(path: string, expected: { name: string; size: number }[]): Promise<void> {
  let at = 0;
  const fail = (detail: string) => new ArchiveError(`The archive did not read back as it was written (${detail}); it was not kept`);
  for await (const entry of readArchive(path)) {
    const want = expected[at++];
    if (!want || want.name !== entry.name || want.size !== entry.size)
      throw fail(`entry ${at}: ${entry.name} (${entry.size} bytes) instead of ${want ? `${want.name} (${want.size} bytes)` : 'the end'}`);
    let size = 0;
    for await (const chunk of entry.body) size += chunk.length;
    if (size !== want.size) throw fail(`${entry.name} holds ${size} bytes, its header says ${want.size}`);
  }
  if (at !== expected.length) throw fail(`it ends after ${at} of ${expected.length} entries`);
}

/**
 * Writes the archive `file` through `fill`, which gets the writer and a scratch folder beside
 * the file (for tables and database copies on their way in): the archive is closed and moved
 * to its name when `fill` succeeds, its partial file dropped when anything fails, and the
 * scratch folder removed either way.
 */
export async function writeArchive<T>(file: string, fill: (writer: ArchiveWriter, scratch: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(dirname(file), '.folio-archive-'));
  const writer = new ArchiveWriter(file);
  // An interrupted backup or export leaves neither its scratch folder nor a partial archive.
  const release = undoOnInterrupt(() => {
    rmSync(scratch, { recursive: true, force: true });
    writer.removePartial();
  });
  try {
    const result = await fill(writer, scratch);
    await writer.close();
    return result;
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    release();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether a file starts like an archive (gzip magic, or a tar header's `ustar`), read from its first bytes. */
export async function looksLikeArchive(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(265);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return true;
    return bytesRead >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar';
  } finally {
    await handle.close();
  }
}

export interface ArchiveEntry {
  name: string;
  size: number;
  /** The entry's bytes; must be read (or drained) before the next entry comes. */
  body: AsyncIterable<Buffer>;
}

/**
 * Reads the entries of an archive (gzip-compressed or plain tar) in order. A truncated or
 * corrupt file ends in an ArchiveError naming the file, whatever stage noticed it.
 */
export async function* readArchive(file: string): AsyncGenerator<ArchiveEntry> {
  const gzip = await isGzip(file);
  const extract = tar.extract();
  const source = createReadStream(file);
  const feeding = gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract);
  let failure: unknown;
  feeding.catch((error) => {
    failure = error;
    extract.destroy(error);
  });
  const damaged = (error: unknown) => {
    const cause = failure ?? error;
    return cause instanceof ArchiveError ? cause : new ArchiveError(`"${file}" is not a complete Folio archive (${(cause as Error).message})`);
  };
  // An entry's bytes fail the same way when the file ends early or the data is corrupt.
  async function* guarded(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of body) yield chunk;
    } catch (error) {
      throw damaged(error);
    }
  }
  try {
    for await (const entry of extract) {
      if (entry.header.type !== 'file') {
        entry.resume();
        continue;
      }
      yield { name: entry.header.name, size: entry.header.size ?? 0, body: guarded(entry as AsyncIterable<Buffer>) };
      // Whatever the reader left unread is skipped.
      entry.resume();
    }
    await feeding;
  } catch (error) {
    throw damaged(error);
  } finally {
    source.destroy();
  }
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * What is read whole into memory from an archive, at most, per kind of entry: a few MiB, far
 * above what Folio or Strapi writes there, so that a small archive cannot expand into
 * gigabytes in memory (gzip shrinks repeated bytes a thousandfold). Everything else (tables,
 * files) is streamed; a line of a table is bounded by lines.ts LINE_LIMIT.
 */
export const ENTRY_LIMITS = {
  /** Folio's manifest.json: every table with its columns and row count. */
  manifest: 4 * 1024 * 1024,
  /** Folio's secrets.json: two keys. */
  secrets: 64 * 1024,
  /** The metadata.json of a `strapi export`: its creation date and Strapi's version. */
  strapiMetadata: 1024 * 1024,
} as const;

/** Reads a whole (small) entry as text, refusing one over `limit` bytes before it is read. */
export async function entryText(entry: ArchiveEntry, limit: number): Promise<string> {
  const tooLarge = () => new ArchiveError(`The archive's ${entry.name} is larger than the ${sizeName(limit)} allowed for it`);
  if (entry.size > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry.body) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Yields the lines of an entry (JSON Lines), streamed; blank lines are skipped; a line over `limit` bytes is an ArchiveError naming it. */
export async function* entryLines(entry: ArchiveEntry, limit = LINE_LIMIT): AsyncGenerator<string> {
  const tooLong = (number: number) => new ArchiveError(`The archive's ${entry.name} line ${number} is longer than the ${sizeName(limit)} allowed for one line`);
  for await (const lines of splitLines(entry.body, tooLong, limit)) for (const line of lines) yield line.text;
}

/**
 * The path an entry under `uploads/` is written to, or an ArchiveError for a name that would
 * leave the folder (`..`, absolute paths): an archive is input, and input may be hostile.
 */
export function uploadPath(uploadsDir: string, entryName: string): string {
  const relative = entryName.slice('uploads/'.length);
  const parts = relative.split('/');
  if (!relative || relative.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw new ArchiveError(`The archive holds an unsafe file name "${entryName}"`);
  }
  return join(uploadsDir, ...parts);
}
