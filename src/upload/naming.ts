/**
 * Names, hashes, sizes and MIME types of uploaded files, computed as Strapi's upload
 * plugin does (`services/upload.ts` formatFileInfo / generateFileName).
 */
import { randomBytes } from 'node:crypto';
import { FolioError, ValidationError } from '../errors';
import { extensionOfName, MAX_EXT_BYTES, storedType, witnesses } from './sniff';

/** Strapi reports sizes in kilobytes (1000 bytes) with two decimals. */
export const bytesToKb = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;

// Letters @sindresorhus/slugify (which Strapi uses) transliterates to more than their base letter.
const SPECIAL: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  '&': ' and ',
};

/**
 * `nameToSlug(name, { separator: '_', lowercase: false })`: transliterated, camelCase split,
 * every run of other characters one `_`. Close to @sindresorhus/slugify for Latin text;
 * scripts it would transliterate (Cyrillic, Greek…) are dropped here instead. Every
 * pattern is linear (fixed-width look-arounds, no nested or adjacent open-ended runs), so
 * even an uncapped name cannot hold the event loop.
 */
export function slugForHash(name: string): string {
  const latin = name
    .replace(/[äöüÄÖÜßæÆøØœŒđĐłŁþÞ&]/g, (c) => SPECIAL[c]!)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  const slug = latin
    .replace(/(?<=[A-Z]{2})(?=\d)/g, ' ')
    .replace(/(?<=[a-z\d])(?=[A-Z]{2})/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z\d]+/g, '_');
  let start = 0;
  let end = slug.length;
  while (start < end && slug[start] === '_') start++;
  while (end > start && slug[end - 1] === '_') end--;
  return slug.slice(start, end);
}

/** Longest name Folio keeps (`name`, and a file name as sent): every name a file system holds (255 bytes) fits. */
export const MAX_NAME_LENGTH = 255;

/**
 * Longest slug in a hash, so that the longest stored name, a format's
 * `thumbnail_<slug>_<10 hex><ext>`, stays within the 255 bytes file systems allow, with room
 * to spare for the `~<12 hex>_` prefix replacements were once staged under (kept so hashes
 * stay as they were). Slugs are ASCII, so characters are bytes.
 */
export const MAX_SLUG_LENGTH = 255 - '~123456789012_'.length - 'thumbnail_'.length - '_0123456789'.length - MAX_EXT_BYTES;

/** `<slug>_<10 hex chars>`: unique on disk, still readable; a long slug is shortened. */
export function generateHash(basename: string): string {
  const slug = slugForHash(basename.slice(0, MAX_NAME_LENGTH)).slice(0, MAX_SLUG_LENGTH).replace(/_$/, '');
  return `${slug}_${randomBytes(5).toString('hex')}`;
}

/** A name longer than MAX_NAME_LENGTH is refused before any pattern looks at it. */
export function checkNameLength(name: string, what: string): void {
  if (name.length > MAX_NAME_LENGTH) {
    throw new ValidationError(`${what} is too long (at most ${MAX_NAME_LENGTH} characters)`, { maxLength: MAX_NAME_LENGTH, length: name.length });
  }
}

/** Strapi refuses names that could not be a file name on common systems. */
export function checkFilename(name: string): void {
  checkNameLength(name, 'File name');
  // eslint-disable-next-line no-control-regex
  if (name.trim() === '' || /[\\/:*?"<>|\x00-\x1f\x7f]/.test(name)) {
    throw new FolioError(400, 'ApplicationError', 'File name contains invalid characters');
  }
}

/** Extension as given (`.PNG` stays `.PNG`), or one for the MIME type when the name has none. */
export function extensionOf(filename: string, mime: string, sniffedExt?: string): string {
  const ext = extensionOfName(filename);
  if (ext) return ext;
  if (sniffedExt) return `.${sniffedExt}`;
  const fallback: Record<string, string> = { 'text/plain': '.txt', 'application/json': '.json', 'image/svg+xml': '.svg', 'text/csv': '.csv' };
  return fallback[mime] ?? '';
}

export interface DetectedType {
  mime: string;
  /** Extension file-type found for the bytes, without the dot. */
  sniffedExt?: string;
}

/**
 * The type a file is stored with (sniff.ts `storedType`): its own bytes decide, so a
 * renamed file cannot pose as another type; text formats have no magic number, so then
 * the extension, then what the client declared, then a look at the text itself.
 */
export async function detectType(bytes: Uint8Array, filename: string, declared: string): Promise<DetectedType> {
  const w = await witnesses(bytes, filename, declared);
  return { mime: storedType(w), sniffedExt: w.sniffedExt };
}
