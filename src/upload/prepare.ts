/**
 * An upload before it is stored: its metadata checked (`fileInfo`), its type read from
 * its bytes, its name and hash chosen, and its image formats made in memory. Nothing
 * here touches the disk or the database, so a refused upload leaves no trace.
 */
import { basename } from 'node:path';
import { PayloadTooLargeError, ValidationError } from '../errors';
import type { FileFormat } from './file-row';
import { processImage, type ResizedImage } from './images';
import { bytesToKb, checkFilename, detectType, extensionOf, generateHash } from './naming';

export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
}

export interface PreparedFile {
  name: string;
  alternativeText: string | null | undefined;
  caption: string | null | undefined;
  hash: string;
  ext: string;
  mime: string;
  /** Kilobytes, two decimals. */
  size: number;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
  formats: ResizedImage[];
}

const INFO_KEYS = ['name', 'alternativeText', 'caption'] as const;

function invalidInfo(message: string, path: (string | number)[], value: unknown) {
  return new ValidationError(message, { errors: [{ path, message, name: 'ValidationError', value }] });
}

function checkInfo(value: unknown, path: (string | number)[]): FileInfo {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidInfo('fileInfo must be an object', path, value);
  const info: FileInfo = {};
  for (const key of INFO_KEYS) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') throw invalidInfo(`${key} must be a string`, [...path, key], v);
    info[key] = v;
  }
  // Strapi also takes `folder`; folders are not supported, so it and unknown keys are ignored.
  return info;
}

/**
 * `fileInfo` as multipart sends it: one JSON string (an object, or an array with one
 * object per file) or one JSON string per file. Objects (a JSON body) are taken as they are.
 */
export function parseFileInfo(values: unknown[]): FileInfo[] {
  const parsed = values.map((v, i) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw invalidInfo('fileInfo must be valid JSON', values.length > 1 ? ['fileInfo', i] : ['fileInfo'], v);
    }
  });
  if (parsed.length === 1 && Array.isArray(parsed[0])) return parsed[0].map((v, i) => checkInfo(v, ['fileInfo', i]));
  return parsed.map((v, i) => checkInfo(v, parsed.length > 1 ? ['fileInfo', i] : ['fileInfo']));
}

export const tooBig = () => new PayloadTooLargeError('FileTooBig');

/** Reads, types and names one uploaded file; images get dimensions and formats. */
export async function prepareFile(file: File, info: FileInfo, sizeLimit: number): Promise<PreparedFile> {
  if (file.size > sizeLimit) throw tooBig();
  const filename = file.name || 'unnamed';
  checkFilename(filename);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { mime, sniffedExt } = await detectType(bytes, filename, file.type);
  const ext = extensionOf(filename, mime, sniffedExt);
  const name = (info.name || filename).normalize();
  const image = await processImage(bytes, mime);
  return {
    name,
    alternativeText: info.alternativeText,
    caption: info.caption,
    hash: generateHash(basename(name, ext)),
    ext,
    mime,
    size: bytesToKb(bytes.byteLength),
    bytes,
    width: image?.width ?? null,
    height: image?.height ?? null,
    formats: image?.formats ?? [],
  };
}

/** Name on disk of the original (`hash` + `ext`) and of each format (`<key>_<hash><ext>`). */
export const storedName = (hash: string, ext: string, key?: string) => `${key ? `${key}_` : ''}${hash}${ext}`;

/** The `formats` object Strapi stores: one entry per generated size, or null. */
export function formatsOf(file: Pick<PreparedFile, 'name' | 'mime' | 'formats'>, hash: string, ext: string): Record<string, FileFormat> | null {
  if (file.formats.length === 0) return null;
  const formats: Record<string, FileFormat> = {};
  for (const f of file.formats) {
    formats[f.key] = {
      name: `${f.key}_${file.name}`,
      hash: `${f.key}_${hash}`,
      ext,
      mime: file.mime,
      path: null,
      width: f.width,
      height: f.height,
      size: bytesToKb(f.bytes.byteLength),
      sizeInBytes: f.bytes.byteLength,
      url: `/uploads/${storedName(hash, ext, f.key)}`,
    };
  }
  return formats;
}
