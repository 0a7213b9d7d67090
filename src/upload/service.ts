/**
 * The upload plugin's work: store new files (and attach them to an entry), update their
 * metadata, replace their content, list, read and delete them. Bytes go to the storage
 * (a folder or a bucket: storage.ts) before the database commits and are removed again if
 * it does not, so a failed request leaves neither a row nor a stray file. A replacement keeps
 * the file's names, so its URL, as Strapi keeps it; `/uploads/*` is served for revalidation
 * (serve-headers.ts), so a replaced file reaches browsers and CDNs. Each change records its media event (media.create, .update, .delete) in its
 * own transaction, opened by the write pipeline (documents/write/context.ts), with the
 * actor who asked.
 */
import { createDocumentId } from '../documents/document-id';
import type { Database, Queryable } from '../db/database';
import { deleteFile, findFileRow, insertFile, updateFile, type FileValues } from '../db/store/files';
import type { Locales } from '../documents/locales';
import { NotFoundError, ValidationError } from '../errors';
import type { Actor, WritePipeline } from '../documents/write/context';
import { createLogger, type LogFormat, type Logger, type LogLevel } from '../log';
import type { QueryLimits } from '../query/parse';
import type { Registry } from '../registry/types';
import { attachFiles, attachTarget, checkAllowedTypes, targetRows, type AttachRequest } from './attach';
import { toFileObject, type FileFormat, type FileObject } from './file-row';
import { listFiles } from './list';
import { defaultImageWorkers, ImagePool } from './image-pool';
import type { SkippedFormats } from './images';
import { typePolicy, type TypePolicy } from './policy';
import { formatsOf, inspectFile, prepareFile, storedName, tooBig, type FileInfo, type InspectedFile, type PreparedFile } from './prepare';
import { LocalStorage, typeOfName, type Storage } from './storage';
import { S3Storage } from './storage-s3';
import type { S3Location } from './storage-s3-location';

export interface UploadDeps {
  db: Database;
  registry: Registry;
  locales: Locales;
  pipeline: WritePipeline;
  config: {
    uploadsDir: string;
    uploadsS3?: S3Location;
    uploadsPublicUrl?: string;
    uploadLimit: number;
    defaultLimit: number;
    maxLimit: number;
    uploadAllowedTypes?: string[];
    uploadDeniedTypes?: string[];
    imageOptimize?: boolean;
    imageWorkers?: number;
    imageQueueLimit?: number;
    imageTimeoutMs?: number;
    imageMemoryBytes?: number;
    logLevel?: LogLevel;
    logFormat?: LogFormat;
  };
  /** Where a skipped image's warning and storage failures (with their cause) go; default: a logger as the config says. */
  log?: Logger;
}

/** Every name a stored file occupies in the storage: the original and its formats. */
function storedNames(file: { hash: string; ext: string; formats: Record<string, FileFormat> | null }): string[] {
  const names = [storedName(file.hash, file.ext)];
  for (const f of Object.values(file.formats ?? {})) names.push(storedName(f.hash, f.ext));
  return names;
}

/** The bytes of an upload under their final names. */
function filesToWrite(file: PreparedFile, hash: string, ext: string): [string, Uint8Array][] {
  return [[storedName(hash, ext), file.bytes], ...file.formats.map((f): [string, Uint8Array] => [storedName(hash, ext, f.key), f.bytes])];
}

export class UploadService {
  readonly storage: Storage;
  readonly policy: TypePolicy;
  /** Decoding, resizing and encoding happen here, off the event loop. */
  readonly images: ImagePool;
  private log: Logger;
  /** The files of an answer stored without the formats they would have had, and why (formatsSkipped). */
  private skipped = new WeakMap<FileObject, SkippedFormats>();

  constructor(private deps: UploadDeps) {
    // The one place that knows which provider there is.
    this.log = deps.log ?? createLogger({ level: deps.config.logLevel, format: deps.config.logFormat });
    this.storage = deps.config.uploadsS3 ? new S3Storage(deps.config.uploadsS3, this.log) : new LocalStorage(deps.config.uploadsDir, this.log);
    this.policy = typePolicy(deps.config);
    const { imageWorkers, imageQueueLimit, imageTimeoutMs, imageMemoryBytes } = deps.config;
    this.images = new ImagePool({
      size: imageWorkers ?? defaultImageWorkers(),
      queueLimit: imageQueueLimit ?? 32,
      timeoutMs: imageTimeoutMs ?? 60_000,
      memoryBytes: imageMemoryBytes,
    });
  }

  /**
   * Why a file of an upload's or a replacement's answer has no formats though it is an
   * image that would have had them (too many pixels, or more memory than FOLIO_IMAGE_MEMORY_MB);
   * undefined for any other file. The answer's route says so in a header.
   */
  formatsSkipped(file: FileObject): SkippedFormats | undefined {
    return this.skipped.get(file);
  }

  /** Remembers, for the answer, which stored files were left without formats, and logs each. */
  private noteSkipped(file: FileObject, prepared: PreparedFile) {
    const skipped = prepared.formatsSkipped;
    if (!skipped) return;
    this.skipped.set(file, skipped);
    this.log.warn(`Image formats skipped for ${prepared.name}: ${skipped.message}; stored without formats`, { id: file.id, reason: skipped.reason });
  }

  /** Ends the image workers (instance.close()). */
  close() {
    this.images.close();
  }

  /** A stored name's URL in API answers: the public base when one is configured (absolute), else Folio's own route. */
  urlOf(name: string): string {
    const base = this.deps.config.uploadsPublicUrl;
    return base ? `${base}/${encodeURIComponent(name)}` : `/uploads/${name}`;
  }

  /** The `formats` object of a prepared file, its URLs pointing where urlOf says. */
  private formatsWithUrls(file: PreparedFile): Record<string, FileFormat> | null {
    const formats = formatsOf(file, file.hash, file.ext);
    for (const f of Object.values(formats ?? {})) f.url = this.urlOf(f.hash + f.ext);
    return formats;
  }

  /** Writes every name of a prepared file, recording each in `written` first so a failure can undo them. */
  private async writeAll(file: PreparedFile, written: string[]): Promise<void> {
    for (const [name, bytes] of filesToWrite(file, file.hash, file.ext)) {
      written.push(name);
      await this.storage.write(name, bytes, typeOfName(name));
    }
  }

  private get db() {
    return this.deps.db;
  }

  async findOne(id: string | number, tx: Queryable = this.db): Promise<FileObject | undefined> {
    if (!/^\d+$/.test(String(id))) return undefined;
    const row = await findFileRow(tx, Number(id));
    return row ? toFileObject(row) : undefined;
  }

  findMany(raw: Record<string, unknown>): Promise<FileObject[]> {
    const limits: QueryLimits = { defaultLimit: this.deps.config.defaultLimit, maxLimit: this.deps.config.maxLimit };
    return listFiles(this.db, this.deps.registry, raw, limits);
  }

  /** Stores new files; with `attach`, also puts them into an entry's media attribute. */
  async upload(files: File[], infos: FileInfo[], attach: AttachRequest = {}, actor?: Actor): Promise<FileObject[]> {
    if (files.length === 0) throw new ValidationError('Files are empty');
    const target = attachTarget(this.deps.registry, attach, files.length);
    const defaultLocale = await this.deps.locales.defaultCode();
    // Refuse a wrong refId before any image work (no lock outside a transaction); checked
    // again, under the document's lock, inside the transaction.
    if (target) await targetRows(this.db, target, defaultLocale, false);
    // Sizes first, as the multipart parser would (413 before any 400); then every file
    // passes the cheap checks (name, type, the field's allowed types) before any is
    // decoded: one refused file refuses the request, and nothing has been written yet.
    if (files.some((f) => f.size > this.deps.config.uploadLimit)) throw tooBig();
    const inspected: InspectedFile[] = [];
    for (let i = 0; i < files.length; i++) inspected.push(await inspectFile(files[i]!, infos[i] ?? {}, this.deps.config.uploadLimit, this.policy));
    if (target)
      checkAllowedTypes(
        target,
        inspected.map((f) => f.mime),
      );
    const prepared: PreparedFile[] = [];
    for (const file of inspected) prepared.push(await prepareFile(file, this.images, { optimize: this.deps.config.imageOptimize }));

    const written: string[] = [];
    let stored: FileObject[];
    try {
      for (const file of prepared) await this.writeAll(file, written);
      stored = await this.deps.pipeline.run({ actor }, async (ctx) => {
        const { tx } = ctx;
        const ids: number[] = [];
        for (const file of prepared) ids.push(await this.insert(tx, file));
        if (target) await attachFiles(tx, target, await targetRows(tx, target, defaultLocale), ids);
        const out: FileObject[] = [];
        for (const id of ids) out.push((await this.findOne(id, tx))!);
        for (const file of out) await ctx.media('media.create', file);
        return out;
      });
    } catch (error) {
      await this.storage.remove(written);
      throw error;
    }
    stored.forEach((file, i) => this.noteSkipped(file, prepared[i]!));
    return stored;
  }

  private async insert(tx: Queryable, file: PreparedFile): Promise<number> {
    const now = new Date().toISOString();
    return insertFile(tx, {
      documentId: createDocumentId(),
      name: file.name,
      alternativeText: file.alternativeText ?? null,
      caption: file.caption ?? null,
      width: file.width,
      height: file.height,
      formats: JSON.stringify(this.formatsWithUrls(file)),
      hash: file.hash,
      ext: file.ext,
      mime: file.mime,
      size: file.size,
      url: this.urlOf(storedName(file.hash, file.ext)),
      provider: this.storage.provider,
      createdAt: now,
      updatedAt: now,
      publishedAt: now,
    });
  }

  /** `POST /api/upload?id=N` without a file: null or absent keeps a value, as Strapi's updateFileInfo. */
  async updateInfo(id: string, info: FileInfo, actor?: Actor): Promise<FileObject> {
    const existing = await this.findOne(id);
    if (!existing) throw new NotFoundError('Entity not found');
    return this.deps.pipeline.run({ actor }, async (ctx) => {
      const { tx } = ctx;
      await updateFile(tx, existing.id, {
        name: info.name ?? (existing.name as string),
        alternativeText: info.alternativeText ?? (existing.alternativeText as string | null),
        caption: info.caption ?? (existing.caption as string | null),
        updatedAt: new Date().toISOString(),
      });
      const updated = (await this.findOne(id, tx))!;
      await ctx.media('media.update', updated);
      return updated;
    });
  }

  /**
   * `POST /api/upload?id=N` with a file: new content under the same id, documentId and URL.
   * As Strapi 5 does ("so the file url doesn't change when the file is replaced"), the hash and
   * the extension are kept: the original and each format are written again under their names,
   * and the row takes the new file's name, type, size and dimensions. Formats the new file
   * does not have are removed after the commit. The old bytes are read first and written back
   * should anything fail before the commit, so a refused or failed replacement leaves the old
   * file served and its row as it was.
   */
  async replace(id: string, file: File, info: FileInfo, actor?: Actor): Promise<FileObject> {
    const existing = await this.findOne(id);
    if (!existing) throw new NotFoundError('Entity not found');
    const prepared = await prepareFile(await inspectFile(file, info, this.deps.config.uploadLimit, this.policy), this.images, {
      optimize: this.deps.config.imageOptimize,
    });
    const { hash, ext } = existing;
    const kept: PreparedFile = { ...prepared, hash, ext };
    const files = filesToWrite(kept, hash, ext);
    // Only the old row's own provider holds its files (a row copied from elsewhere may name another).
    const ours = existing.provider === this.storage.provider;
    const previous = ours ? await this.readAll(files.map(([name]) => name)) : new Map<string, Uint8Array>();
    const set: FileValues = {
      name: prepared.name,
      hash,
      ext,
      url: this.urlOf(storedName(hash, ext)),
      provider: this.storage.provider,
      width: prepared.width,
      height: prepared.height,
      // Strapi answers a replaced file's formats as {} when it has none.
      formats: JSON.stringify(this.formatsWithUrls(kept) ?? {}),
      mime: prepared.mime,
      size: prepared.size,
      updatedAt: new Date().toISOString(),
    };
    if (prepared.alternativeText != null) set.alternativeText = prepared.alternativeText;
    if (prepared.caption != null) set.caption = prepared.caption;
    try {
      for (const [name, bytes] of files) await this.storage.write(name, bytes, typeOfName(name));
      await this.deps.pipeline.run({ actor }, async (ctx) => {
        const { tx } = ctx;
        await updateFile(tx, existing.id, set);
        await ctx.media('media.update', (await this.findOne(id, tx))!);
      });
    } catch (error) {
      // The old bytes go back under their names; names the old file did not have go away.
      for (const [name] of files) {
        const old = previous.get(name);
        if (old) await this.storage.write(name, old, typeOfName(name)).catch((e) => this.log.error(`could not put back upload ${name}`, { error: e }));
        else await this.storage.remove([name]);
      }
      throw error;
    }
    if (ours) await this.storage.remove(storedNames(existing).filter((name) => !files.some(([written]) => written === name)));
    const replaced = (await this.findOne(id))!;
    this.noteSkipped(replaced, prepared);
    return replaced;
  }

  /** The bytes stored under these names (those that exist), to put back if a replacement fails. */
  private async readAll(names: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (const name of names) {
      const stored = await this.storage.open(name);
      if (stored) out.set(name, new Uint8Array(await new Response(stored.body()).arrayBuffer()));
    }
    return out;
  }

  /** Deletes the row, its links from every entry, then its files on disk; answers the file as it was. */
  async remove(id: string, actor?: Actor): Promise<FileObject | undefined> {
    const existing = await this.findOne(id);
    if (!existing) return undefined;
    await this.deps.pipeline.run({ actor }, async (ctx) => {
      const { tx } = ctx;
      await ctx.media('media.delete', existing);
      await deleteFile(tx, existing.id);
    });
    if (existing.provider === this.storage.provider) await this.storage.remove(storedNames(existing));
    return existing;
  }
}
