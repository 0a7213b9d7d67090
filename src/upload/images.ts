/**
 * Image dimensions and Strapi's responsive formats (`services/image-manipulation.ts`):
 * a thumbnail fitted inside 245×156 and breakpoints large 1000 / medium 750 / small 500
 * fitted inside N×N, each only when the original is bigger.
 *
 * Decoding and resizing use jimp, which is plain JavaScript: it bundles into the
 * `bun build --compile` executable, where sharp's native addon cannot load
 * (design/stack-notes.md §4).
 */
import type { Jimp } from 'jimp';
import { FolioError } from '../errors';
import { headerSize } from './image-size';

export const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 } as const;
/** Strapi's default `breakpoints`, in the order it writes them into `formats`. */
export const BREAKPOINTS = [
  { key: 'large', size: 1000 },
  { key: 'medium', size: 750 },
  { key: 'small', size: 500 },
] as const;

/**
 * Types whose formats we generate (Strapi also resizes WebP, which jimp cannot decode,
 * and GIF, whose pure-JS encoder takes seconds per frame: both keep formats null).
 */
const RESIZABLE = new Set(['image/png', 'image/jpeg', 'image/tiff']);
/** Decoded to prove the bytes are an image (Strapi's "faulty image" check). */
const DECODABLE = new Set([...RESIZABLE, 'image/gif', 'image/bmp']);
/** Larger canvases are not decoded (4 bytes a pixel in memory): width and height only. */
export const MAX_DECODED_PIXELS = 50_000_000;

// Loaded with the first image: importing jimp up front cost every process (the server's
// cold start, each CLI command) ~70 ms and ~23 MiB of RSS from source, ~4 MiB in dist/folio.
let jimp: Promise<typeof import('jimp')> | undefined;

export interface ResizedImage {
  key: string;
  width: number;
  height: number;
  bytes: Uint8Array;
}

export interface ImageResult {
  width: number;
  height: number;
  /** In Strapi's order (thumbnail, large, medium, small); empty when none applies. */
  formats: ResizedImage[];
}

export const invalidImage = () => new FolioError(400, 'ApplicationError', 'File is not a valid image');

/** sharp's `fit: 'inside'`: the largest size within the box keeping the ratio, rounded. */
export function fitInside(width: number, height: number, maxWidth: number, maxHeight: number) {
  if (maxWidth / width <= maxHeight / height) return { width: maxWidth, height: Math.max(1, Math.round((height * maxWidth) / width)) };
  return { width: Math.max(1, Math.round((width * maxHeight) / height)), height: maxHeight };
}

/** The formats an image of this size gets, with their target sizes, in Strapi's order. */
export function plannedFormats(width: number, height: number): { key: string; width: number; height: number }[] {
  const plan: { key: string; width: number; height: number }[] = [];
  if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
    plan.push({ key: THUMBNAIL.key, ...fitInside(width, height, THUMBNAIL.width, THUMBNAIL.height) });
  }
  for (const { key, size } of BREAKPOINTS) {
    if (width > size || height > size) plan.push({ key, ...fitInside(width, height, size, size) });
  }
  return plan;
}

/**
 * Width, height and formats of an upload, or null when the MIME type is not an image we
 * can read. Bytes that claim to be such an image but do not decode are a 400, as with
 * Strapi's "faulty image" check.
 */
export async function processImage(bytes: Uint8Array, mime: string): Promise<ImageResult | null> {
  if (mime !== 'image/webp' && !DECODABLE.has(mime)) return null;
  const header = headerSize(bytes, mime);
  if (!header) throw invalidImage();
  if (!DECODABLE.has(mime) || header.width * header.height > MAX_DECODED_PIXELS) return { ...header, formats: [] };
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await (await (jimp ??= import('jimp'))).Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw invalidImage();
  }
  // jimp applies the EXIF orientation, so a portrait photo reports portrait dimensions.
  const { width, height } = image;
  if (!width || !height) throw invalidImage();
  if (!RESIZABLE.has(mime)) return { width, height, formats: [] };
  const plan = plannedFormats(width, height);
  // Largest first, each resized in place from the previous one: no copy of the full
  // bitmap, and every step is a moderate downscale. JPEG at quality 80, sharp's default.
  const bySize = [...plan].sort((a, b) => b.width * b.height - a.width * a.height);
  const made = new Map<string, ResizedImage>();
  for (const target of bySize) {
    image.resize({ w: target.width, h: target.height });
    const out = await image.getBuffer(mime as 'image/png', mime === 'image/jpeg' ? ({ quality: 80 } as object) : undefined);
    made.set(target.key, { key: target.key, width: image.width, height: image.height, bytes: new Uint8Array(out) });
  }
  return { width, height, formats: plan.map((p) => made.get(p.key)!) };
}
