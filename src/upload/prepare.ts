/**
 * An upload before it is stored: its metadata checked (`fileInfo`), its type read from
 * its bytes, its name and hash chosen, and its image formats made in memory. Nothing
 * here touches the disk or the database, so a refused upload leaves no trace.
 */
import { basename } from 'node:path';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { unstorableText } from '../text';
import type { FileFormat } from './file-row';
import type { ImagePool } from './image-pool';
import type { ResizedImage, SkippedFormats } from './images';
import { bytesToKb, checkFilename, checkNameLength, extensionOf, generateHash, MAX_NAME_LENGTH } from './naming';
import { checkFileType, type TypePolicy } from './policy';
import { storedType, witnesses } from './sniff';

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
  /** An image left undecoded (too many pixels, or more memory than FOLIO_IMAGE_MEMORY_MB): stored without formats. */
  formatsSkipped?: SkippedFormats;
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
    // The length first: nothing else may look at a 40,000-character name.
    if (key === 'name' && v !== null && v.length > MAX_NAME_LENGTH) {
      throw invalidInfo(`name must be at most ${MAX_NAME_LENGTH} characters`, [...path, key], `${v.slice(0, 32)}…`);
    }
    const unstorable = v === null ? undefined : unstorableText(v);
    if (unstorable) throw invalidInfo(`${key} ${unstorable}`, [...path, key], v);
    info[key] = v;
  }
  // Strapi also takes `folder`; folders are not supported, so it and unknown keys are ignored.
  return info;
}

/**
 * `fileInfo` as multipart sends it: one JSON string (an object, or an array with one
 * object per file) or one JSON string per file. Objects (a JSON body) are taken as they are.
 * With several files, a single object is a 400, as Strapi's `fileInfo must be a array`:
 * it cannot say which file it describes.
 */
export function parseFileInfo(values: unknown[], fileCount = 1): FileInfo[] {
  const parsed = values.map((v, i) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw invalidInfo('fileInfo must be valid JSON', values.length > 1 ? ['fileInfo', i] : ['fileInfo'], v);
    }
  });
  if (parsed.length === 1 && Array.isArray(parsed[0])) return parsed[0].map((v, i) => checkInfo(v, ['fileInfo', i]));
  if (fileCount > 1 && parsed.length === 1 && typeof parsed[0] === 'object' && parsed[0] !== null) {
    throw invalidInfo('fileInfo must be an array with one object per file when several files are uploaded', ['fileInfo'], parsed[0]);
  }
  return parsed.map((v, i) => checkInfo(v, parsed.length > 1 ? ['fileInfo', i] : ['fileInfo']));
}

export const tooBig = () => new PayloadTooLargeError('FileTooBig');

/** An upload whose size, name and type passed; its bytes read, nothing decoded yet. */
export interface InspectedFile {
  filename: string;
  info: FileInfo;
  bytes: Uint8Array;
  mime: string;
  sniffedExt?: string;
}

/**
 * The cheap checks, run on every file of a request before any image is decoded or any
 * byte written: size, file name (length first), then the type policy on every witness
 * of the file's type, so one refused file stops the whole request.
 */
export async function inspectFile(file: File, info: FileInfo, sizeLimit: number, policy: TypePolicy): Promise<InspectedFile> {
  if (file.size > sizeLimit) throw tooBig();
  const filename = file.name || 'unnamed';
  checkFilename(filename);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const w = await witnesses(bytes, filename, file.type);
  checkFileType(filename, w, policy);
  return { filename, info, bytes, mime: storedType(w), sniffedExt: w.sniffedExt };
}

/** Names an inspected file; images get dimensions and formats, made by the pool's workers. */
export async function prepareFile(
  { filename, info, bytes, mime, sniffedExt }: InspectedFile,
  images: ImagePool,
  options: { optimize?: boolean } = {},
): Promise<PreparedFile> {
  const ext = extensionOf(filename, mime, sniffedExt);
  // NFC may lengthen a name a little; the stored name stays within the limit too.
  const name = (info.name || filename).normalize();
  checkNameLength(name, 'File name');
  const image = await images.process(bytes, mime, options);
  // FOLIO_IMAGE_OPTIMIZE: the re-encoded original, when it came out smaller, is what is stored.
  const stored = image?.optimized ?? bytes;
  return {
    name,
    alternativeText: info.alternativeText,
    caption: info.caption,
    hash: generateHash(basename(name, ext)),
    ext,
    mime,
    size: bytesToKb(stored.byteLength),
    bytes: stored,
    width: image?.width ?? null,
    height: image?.height ?? null,
    formats: image?.formats ?? [],
    ...(image?.skipped ? { formatsSkipped: image.skipped } : {}),
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
