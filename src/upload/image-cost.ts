/**
 * What making an image's formats costs in memory, estimated from its header before any
 * pixel is decoded: the bytes a worker holds at its peak while it decodes, resizes and
 * encodes the image (image-budget.ts counts them against FOLIO_IMAGE_MEMORY_MB).
 *
 * The decoders are not frugal: the decoded bitmap is width × height × 4 bytes, but the
 * pure-JS ones (jimp's pngjs, jpeg-js, utif) hold several copies of it while they work
 * (pngjs the inflated rows, the unfiltered rows and the bitmap; jpeg-js one 256-byte typed
 * array per 8×8 block and component), and the WASM codecs add their encoder's own working
 * memory. So each type's estimate is a multiple of the bitmap plus a constant, measured
 * (peak RSS growth of a process making one image's formats, 2–92 MiB bitmaps, Bun 1.4.5)
 * and rounded up:
 *
 *   PNG   3.2–4.0 × bitmap + 12–30 MiB   (16-bit PNGs inflate twice as many bytes: counted twice)
 *   JPEG  6.7–7.0 × bitmap               (a 12-megapixel photo: ~310 MiB)
 *   TIFF  4.2 × bitmap + the file
 *   WebP  2.5 × bitmap + ~85 MiB; re-encoding the original (FOLIO_IMAGE_OPTIMIZE) ~2.5 × more
 *   AVIF  6.3 × bitmap + ~60 MiB (aom's encoder); re-encoding the original ~4 × more
 *   BMP, GIF  decoded only (to prove they are images): ~1–1.7 × bitmap
 *
 * An estimate errs high: the budget is a bound, and an image it overstates only waits longer.
 */
import { MAX_AVIF_OPTIMIZE_PIXELS, plannedFormats, type ResizedImage } from './images';
import type { Size } from './image-size';

const MiB = 1024 * 1024;

interface CostModel {
  /** Bytes per bitmap byte (width × height × 4) at the peak. */
  bitmap: number;
  /** The same with FOLIO_IMAGE_OPTIMIZE (the original re-encoded whole), when it differs. */
  optimized?: number;
  /** Fixed working memory: tables, the codec's instance. */
  fixed: number;
  /** Bytes per byte of the uploaded file (the worker's copy, and pngjs's joined IDAT data). */
  file: number;
}

const MODELS: Record<string, CostModel> = {
  'image/png': { bitmap: 3.5, fixed: 32 * MiB, file: 2 },
  'image/jpeg': { bitmap: 7, fixed: 8 * MiB, file: 1 },
  'image/tiff': { bitmap: 4.5, fixed: 16 * MiB, file: 1 },
  'image/webp': { bitmap: 3, optimized: 6, fixed: 96 * MiB, file: 1 },
  'image/avif': { bitmap: 7, optimized: 11, fixed: 80 * MiB, file: 1 },
  'image/bmp': { bitmap: 1.25, fixed: 8 * MiB, file: 1 },
  'image/gif': { bitmap: 2, fixed: 8 * MiB, file: 1 },
};

/** A 16-bit PNG (IHDR bit depth 16): its inflated rows are twice the 8-bit ones. */
const isDeepPng = (bytes: Uint8Array, mime: string) => mime === 'image/png' && bytes[24] === 16;

/**
 * Estimated peak bytes of one image's work in a worker: its decoded bitmap times its
 * decoder's factor, the decoder's fixed memory, the file itself, plus the formats made
 * from it (each width × height × 4). `optimize`: FOLIO_IMAGE_OPTIMIZE (large AVIFs are not re-encoded).
 */
export function imageCost(bytes: Uint8Array, mime: string, size: Size, optimize = false): number {
  const model = MODELS[mime];
  if (!model) return bytes.byteLength;
  const bitmap = size.width * size.height * 4;
  const reencode = optimize && (mime !== 'image/avif' || size.width * size.height <= MAX_AVIF_OPTIMIZE_PIXELS);
  const factor = (reencode && model.optimized) || model.bitmap;
  const outputs = formatsBytes(plannedFormats(size.width, size.height));
  return Math.ceil(bitmap * factor * (isDeepPng(bytes, mime) ? 2 : 1) + model.fixed + bytes.byteLength * model.file + outputs);
}

const formatsBytes = (formats: Pick<ResizedImage, 'width' | 'height'>[]) => formats.reduce((sum, f) => sum + f.width * f.height * 4, 0);
