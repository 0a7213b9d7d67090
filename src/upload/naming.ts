/**
 * Names, hashes, sizes and MIME types of uploaded files, computed as Strapi's upload
 * plugin does (`services/upload.ts` formatFileInfo / generateFileName).
 */
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { FolioError } from '../errors';

/** Strapi reports sizes in kilobytes (1000 bytes) with two decimals. */
export const bytesToKb = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;

// Letters @sindresorhus/slugify (which Strapi uses) transliterates to more than their base letter.
const SPECIAL: Record<string, string> = {
  ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE',
  đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', '&': ' and ',
};

/**
 * `nameToSlug(name, { separator: '_', lowercase: false })`: transliterated, camelCase split,
 * every run of other characters one `_`. Close to @sindresorhus/slugify for Latin text;
 * scripts it would transliterate (Cyrillic, Greek…) are dropped here instead.
 */
export function slugForHash(name: string): string {
  const latin = name
    .replace(/[äöüÄÖÜßæÆøØœŒđĐłŁþÞ&]/g, (c) => SPECIAL[c]!)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  return latin
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z\d]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** `<slug>_<10 hex chars>`: unique on disk, still readable. */
export const generateHash = (basename: string) => `${slugForHash(basename)}_${randomBytes(5).toString('hex')}`;

/** Strapi refuses names that could not be a file name on common systems. */
export function checkFilename(name: string): void {
  // eslint-disable-next-line no-control-regex
  if (name.trim() === '' || /[\\/:*?"<>|\x00-\x1f\x7f]/.test(name)) {
    throw new FolioError(400, 'ApplicationError', 'File name contains invalid characters');
  }
}

/** Extension as given (`.PNG` stays `.PNG`), or one for the MIME type when the name has none. */
export function extensionOf(filename: string, mime: string, sniffedExt?: string): string {
  const ext = extname(filename);
  if (ext) return ext;
  if (sniffedExt) return `.${sniffedExt}`;
  const fallback: Record<string, string> = { 'text/plain': '.txt', 'application/json': '.json', 'image/svg+xml': '.svg', 'text/csv': '.csv' };
  return fallback[mime] ?? '';
}

const bare = (type: string) => type.split(';')[0]!.trim().toLowerCase();

/** The MIME type its extension names (Bun's table), or undefined when it names none. */
function mimeOfExtension(filename: string): string | undefined {
  if (!extname(filename)) return undefined;
  const type = bare(Bun.file(`/${filename}`).type);
  return type === 'application/octet-stream' ? undefined : type;
}

export interface DetectedType {
  mime: string;
  /** Extension file-type found for the bytes, without the dot. */
  sniffedExt?: string;
}

/**
 * The file's own bytes decide (file-type reads magic numbers), so a renamed file cannot
 * pose as another type; text formats have no magic number, so then the extension, then
 * what the client declared, then octet-stream.
 */
export async function detectType(bytes: Uint8Array, filename: string, declared: string): Promise<DetectedType> {
  const sniffed = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const byName = mimeOfExtension(filename);
  // XML is only a container: an .svg file is image/svg+xml, not application/xml.
  if (sniffed && !(sniffed.mime === 'application/xml' && byName)) return { mime: sniffed.mime, sniffedExt: sniffed.ext };
  const claimed = declared ? bare(declared) : '';
  return { mime: byName ?? (claimed && claimed !== 'application/octet-stream' ? claimed : 'application/octet-stream') };
}
