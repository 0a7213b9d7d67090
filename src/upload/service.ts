/**
 * The upload plugin's work: store new files (and attach them to an entry), update their
 * metadata, replace their content, list, read and delete them. Bytes go to disk before
 * the database commits and are removed again if it does not, so a failed request leaves
 * neither a row nor a stray file. Each change records its media event (media.create, .update,
 * .delete) in its own transaction (src/events/log.ts).
 */
import { randomBytes } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import type { Database, Queryable } from '../db/database';
import { deleteFile, findFileRow, insertFile, updateFile, type FileValues } from '../db/store/files';
import type { Locales } from '../documents/locales';
import { NotFoundError, ValidationError } from '../errors';
import type { Events } from '../events/log';
import type { QueryLimits } from '../query/parse';
import type { Registry } from '../registry/types';
import { attachFiles, attachTarget, checkAllowedTypes, targetRows, type AttachRequest } from './attach';
import { toFileObject, type FileFormat, type FileObject } from './file-row';
import { listFiles } from './list';
import { typePolicy, type TypePolicy } from './policy';
import { formatsOf, inspectFile, prepareFile, storedName, tooBig, type FileInfo, type InspectedFile, type PreparedFile } from './prepare';
import { LocalStorage } from './storage';

export interface UploadDeps {
  db: Database;
  registry: Registry;
  locales: Locales;
  events: Events;
  config: { uploadsDir: string; uploadLimit: number; defaultLimit: number; maxLimit: number; uploadAllowedTypes?: string[]; uploadDeniedTypes?: string[] };
}

/** Every name a stored file occupies on disk: the original and its formats. */
function namesOnDisk(file: { hash: string; ext: string; formats: Record<string, FileFormat> | null }): string[] {
  const names = [storedName(file.hash, file.ext)];
  for (const f of Object.values(file.formats ?? {})) names.push(storedName(f.hash, f.ext));
  return names;
}

/** The bytes of an upload under their final names. */
function filesToWrite(file: PreparedFile, hash: string, ext: string): [string, Uint8Array][] {
  return [[storedName(hash, ext), file.bytes], ...file.formats.map((f): [string, Uint8Array] => [storedName(hash, ext, f.key), f.bytes])];
}

export class UploadService {
  readonly storage: LocalStorage;
  readonly policy: TypePolicy;

  constructor(private deps: UploadDeps) {
    this.storage = new LocalStorage(deps.config.uploadsDir);
    this.policy = typePolicy(deps.config);
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
  async upload(files: File[], infos: FileInfo[], attach: AttachRequest = {}): Promise<FileObject[]> {
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
    if (target) checkAllowedTypes(target, inspected.map((f) => f.mime));
    const prepared: PreparedFile[] = [];
    for (const file of inspected) prepared.push(await prepareFile(file));

    const written: string[] = [];
    try {
      for (const file of prepared) {
        for (const [name, bytes] of filesToWrite(file, file.hash, file.ext)) {
          written.push(name);
          await this.storage.write(name, bytes);
        }
      }
      return await this.deps.events.transaction(async (tx, log) => {
        const ids: number[] = [];
        for (const file of prepared) ids.push(await this.insert(tx, file));
        if (target) await attachFiles(tx, target, await targetRows(tx, target, defaultLocale), ids);
        const out: FileObject[] = [];
        for (const id of ids) out.push((await this.findOne(id, tx))!);
        for (const file of out) await log.media('media.create', file);
        return out;
      });
    } catch (error) {
      this.storage.remove(written);
      throw error;
    }
  }

  private async insert(tx: Queryable, file: PreparedFile): Promise<number> {
    const now = new Date().toISOString();
    return insertFile(tx, {
      documentId: createId(),
      name: file.name,
      alternativeText: file.alternativeText ?? null,
      caption: file.caption ?? null,
      width: file.width,
      height: file.height,
      formats: JSON.stringify(formatsOf(file, file.hash, file.ext)),
      hash: file.hash,
      ext: file.ext,
      mime: file.mime,
      size: file.size,
      url: `/uploads/${storedName(file.hash, file.ext)}`,
      provider: 'local',
      createdAt: now,
      updatedAt: now,
      publishedAt: now,
    });
  }

  /** `POST /api/upload?id=N` without a file: null or absent keeps a value, as Strapi's updateFileInfo. */
  async updateInfo(id: string, info: FileInfo): Promise<FileObject> {
    const existing = await this.findOne(id);
    if (!existing) throw new NotFoundError('Entity not found');
    return this.deps.events.transaction(async (tx, log) => {
      await updateFile(tx, existing.id, {
        name: info.name ?? (existing.name as string),
        alternativeText: info.alternativeText ?? (existing.alternativeText as string | null),
        caption: info.caption ?? (existing.caption as string | null),
        updatedAt: new Date().toISOString(),
      });
      const updated = (await this.findOne(id, tx))!;
      await log.media('media.update', updated);
      return updated;
    });
  }

  /**
   * `POST /api/upload?id=N` with a file: new content under the same id, hash and
   * extension, so its URL stays valid (Strapi's replace). The new bytes are staged under
   * temporary names and moved into place once the row is updated.
   */
  async replace(id: string, file: File, info: FileInfo): Promise<FileObject> {
    const existing = await this.findOne(id);
    if (!existing) throw new NotFoundError('Entity not found');
    const prepared = await prepareFile(await inspectFile(file, info, this.deps.config.uploadLimit, this.policy));
    const { hash, ext } = existing;
    const stage = `~${randomBytes(6).toString('hex')}_`;
    const staged: [string, string][] = [];
    try {
      for (const [name, bytes] of filesToWrite(prepared, hash, ext)) {
        staged.push([stage + name, name]);
        await this.storage.write(stage + name, bytes);
      }
      const formats = formatsOf(prepared, hash, ext);
      const set: FileValues = {
        name: prepared.name,
        width: prepared.width,
        height: prepared.height,
        formats: JSON.stringify(formats),
        mime: prepared.mime,
        size: prepared.size,
        updatedAt: new Date().toISOString(),
      };
      if (prepared.alternativeText != null) set.alternativeText = prepared.alternativeText;
      if (prepared.caption != null) set.caption = prepared.caption;
      await this.deps.events.transaction(async (tx, log) => {
        await updateFile(tx, existing.id, set);
        await log.media('media.update', (await this.findOne(id, tx))!);
      });
      for (const [from, to] of staged) this.storage.rename(from, to);
      // Formats the old content had and the new one does not would otherwise linger.
      const kept = new Set(staged.map(([, to]) => to));
      this.storage.remove(namesOnDisk(existing).filter((n) => !kept.has(n)));
    } catch (error) {
      this.storage.remove(staged.map(([from]) => from));
      throw error;
    }
    return (await this.findOne(id))!;
  }

  /** Deletes the row, its links from every entry, then its files on disk; answers the file as it was. */
  async remove(id: string): Promise<FileObject | undefined> {
    const existing = await this.findOne(id);
    if (!existing) return undefined;
    await this.deps.events.transaction(async (tx, log) => {
      await log.media('media.delete', existing);
      await deleteFile(tx, existing.id);
    });
    this.storage.remove(namesOnDisk(existing));
    return existing;
  }
}
