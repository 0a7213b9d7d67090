/**
 * Image dimensions and Strapi's responsive formats (`services/image-manipulation.ts`):
 * a thumbnail fitted inside 245×156 and breakpoints large 1000 / medium 750 / small 500
 * fitted inside N×N, each only when the original is bigger.
 *
 * Decoding and resizing use jimp, which is plain JavaScript: it bundles into the
 * `bun build --compile` executable, where sharp's native addon cannot load
 * (design/stack-notes.md §4). WebP and AVIF are decoded and encoded by WASM codecs
 * (codecs.ts) and resized by jimp. The server runs all of it in a worker (image-pool.ts),
 * never on its event loop.
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
 * Types whose formats we generate with jimp (GIF keeps formats null: its pure-JS encoder
 * takes seconds per frame). WebP and AVIF go through their WASM codecs (codecs.ts).
 */
const RESIZABLE = new Set(['image/png', 'image/jpeg', 'image/tiff']);
/** Decoded to prove the bytes are an image (Strapi's "faulty image" check). */
const DECODABLE = new Set([...RESIZABLE, 'image/gif', 'image/bmp']);
/** Decoded and resized by a WASM codec, their formats in the same type, as Strapi's sharp does. */
const WASM_TYPES = new Set(['image/webp', 'image/avif']);
/** Larger canvases are not decoded (4 bytes a pixel in memory): width and height only. */
export const MAX_DECODED_PIXELS = 50_000_000;
/**
 * AVIF originals above this are not re-encoded by FOLIO_IMAGE_OPTIMIZE: aom in WASM takes
 * ~0.15 s a megapixel even at its fastest speed (in a worker now, but still a core's time).
 */
export const MAX_AVIF_OPTIMIZE_PIXELS = 4_000_000;
/**
 * A large image: decoding it leaves hundreds of MB of garbage (image-cost.ts), collected
 * before its formats are made (a full collection costs a few ms); its worker is ended after
 * it (image-pool.ts) so what the worker grew goes back to the system.
 */
export const LARGE_IMAGE_PIXELS = 4_000_000;
/** The quality Strapi's sizeOptimization re-encodes with (sharp's `quality: 80`); also the formats' quality. */
const QUALITY = 80;

// Loaded with the first image: importing jimp up front cost every process (the server's
// cold start, each CLI command) ~70 ms and ~23 MiB of RSS from source, ~4 MiB in dist/folio.
let jimp: Promise<typeof import('jimp')> | undefined;
const loadJimp = async () => (await (jimp ??= import('jimp'))).Jimp;
// The WASM codecs likewise: their module (and 5.5 MB of WASM) only with the first WebP or AVIF.
let codecs: Promise<typeof import('./codecs')> | undefined;

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
  /** With `optimize`: the original re-encoded, only when smaller than the upload (Strapi's sizeOptimization). */
  optimized?: Uint8Array;
  /** Set when the image was not decoded (its formats left out): why, in a sentence for the log (image-pool.ts). */
  skipped?: SkippedFormats;
}

export interface SkippedFormats {
  /** `pixels`: above MAX_DECODED_PIXELS; `memory`: its work alone needs more than FOLIO_IMAGE_MEMORY_MB. */
  reason: 'pixels' | 'memory';
  message: string;
}

/** Whether processImage does anything with this type (the rest need no worker). */
export const isProcessable = (mime: string) => WASM_TYPES.has(mime) || DECODABLE.has(mime);

/** Whether an image of this type and size gets formats when it is decoded (GIF and BMP never do). */
export const getsFormats = (mime: string, width: number, height: number) =>
  (WASM_TYPES.has(mime) || RESIZABLE.has(mime)) && plannedFormats(width, height).length > 0;

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

type JimpImage = Awaited<ReturnType<typeof Jimp.read>>;

/**
 * Resizes `image` in place to each planned size, largest first (no copy of the full bitmap,
 * each step a moderate downscale), and encodes each; answers them in the plan's order.
 */
async function makeFormats(image: JimpImage, plan: ReturnType<typeof plannedFormats>, encode: (image: JimpImage) => Promise<Uint8Array>) {
  const bySize = [...plan].sort((a, b) => b.width * b.height - a.width * a.height);
  const made = new Map<string, ResizedImage>();
  for (const target of bySize) {
    image.resize({ w: target.width, h: target.height });
    made.set(target.key, { key: target.key, width: image.width, height: image.height, bytes: await encode(image) });
  }
  return plan.map((p) => made.get(p.key)!);
}

const smaller = (candidate: Uint8Array | undefined, original: Uint8Array) => (candidate && candidate.byteLength < original.byteLength ? candidate : undefined);

/** WebP and AVIF: decoded by their codec, resized with jimp, formats encoded in the same type. */
async function processWasmImage(bytes: Uint8Array, mime: string, optimize: boolean): Promise<ImageResult> {
  const codec = (await (codecs ??= import('./codecs'))).CODECS[mime]!;
  let bitmap: { data: Uint8ClampedArray; width: number; height: number };
  try {
    bitmap = await codec.decode(bytes);
  } catch {
    throw invalidImage();
  }
  const { width, height } = bitmap;
  if (!width || !height) throw invalidImage();
  const plan = plannedFormats(width, height);
  const reencode = optimize && (mime !== 'image/avif' || width * height <= MAX_AVIF_OPTIMIZE_PIXELS);
  if (!plan.length && !reencode) return { width, height, formats: [] };
  const encode = await codec.encoder();
  const optimized = reencode ? smaller(await encode(bitmap, QUALITY), bytes) : undefined;
  const Image = await loadJimp();
  const image = new Image({ width, height, data: Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength) }) as unknown as JimpImage;
  const formats = await makeFormats(image, plan, (resized) =>
    encode(
      {
        data: new Uint8ClampedArray(resized.bitmap.data.buffer, resized.bitmap.data.byteOffset, resized.bitmap.data.byteLength),
        width: resized.width,
        height: resized.height,
      },
      QUALITY,
    ),
  );
  return { width, height, formats, ...(optimized ? { optimized } : {}) };
}

/**
 * Width, height and formats of an upload, or null when the MIME type is not an image we
 * can read. Bytes that claim to be such an image but do not decode are a 400, as with
 * Strapi's "faulty image" check. With `optimize` (FOLIO_IMAGE_OPTIMIZE), JPEG, PNG, WebP and
 * AVIF originals are re-encoded at quality 80 and kept when smaller, as Strapi's sizeOptimization does.
 */
export async function processImage(bytes: Uint8Array, mime: string, { optimize = false } = {}): Promise<ImageResult | null> {
  if (!isProcessable(mime)) return null;
  const header = headerSize(bytes, mime);
  if (!header) throw invalidImage();
  if (header.width * header.height > MAX_DECODED_PIXELS) return { ...header, formats: [] };
  if (WASM_TYPES.has(mime)) return processWasmImage(bytes, mime, optimize);
  let image: JimpImage;
  try {
    image = await (await loadJimp()).read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw invalidImage();
  }
  // The decoder's working copies (several times the bitmap: image-cost.ts) are garbage now;
  // collected before resizing, they are not still held while the formats are made.
  if (image.width * image.height >= LARGE_IMAGE_PIXELS) Bun.gc(true);
  // jimp applies the EXIF orientation, so a portrait photo reports portrait dimensions.
  const { width, height } = image;
  if (!width || !height) throw invalidImage();
  if (!RESIZABLE.has(mime)) return { width, height, formats: [] };
  // JPEG at quality 80, sharp's default.
  const encode = async (img: JimpImage) =>
    new Uint8Array(await img.getBuffer(mime as 'image/png', mime === 'image/jpeg' ? ({ quality: QUALITY } as object) : undefined));
  const optimized = optimize && mime !== 'image/tiff' ? smaller(await encode(image), bytes) : undefined;
  const formats = await makeFormats(image, plannedFormats(width, height), encode);
  return { width, height, formats, ...(optimized ? { optimized } : {}) };
}
