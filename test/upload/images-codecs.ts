/**
 * WebP and AVIF bytes for the image tests, made with the same WASM codecs Folio uses
 * (src/upload/codecs.ts), from a gradient so resizing has something to average.
 */
import { avif, webp, type Codec } from '../../src/upload/codecs';

export type WasmMime = 'image/webp' | 'image/avif';
export const CODEC: Record<WasmMime, Codec> = { 'image/webp': webp, 'image/avif': avif };
export const EXT: Record<WasmMime, string> = { 'image/webp': '.webp', 'image/avif': '.avif' };

export async function makeEncoded(width: number, height: number, mime: WasmMime, quality = 80): Promise<Uint8Array<ArrayBuffer>> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = x % 256;
      data[i + 1] = y % 256;
      data[i + 2] = (x * 7 + y * 3) % 256;
      data[i + 3] = 255;
    }
  }
  const encode = await CODEC[mime].encoder();
  return new Uint8Array(await encode({ data, width, height }, quality));
}

/** Decodes served bytes to check a stored image's real size. */
export async function decodedSize(bytes: ArrayBuffer | Uint8Array, mime: WasmMime) {
  const { width, height } = await CODEC[mime].decode(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  return { width, height };
}

/** A copy of an AVIF whose `ispe` boxes all claim width×height (the pixels stay as they were). */
export function withClaimedAvifSize(bytes: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  let found = 0;
  for (let at = 4; at + 16 <= copy.length; at++) {
    if (copy[at] === 0x69 && copy[at + 1] === 0x73 && copy[at + 2] === 0x70 && copy[at + 3] === 0x65) {
      // size(4) 'ispe'(4) version+flags(4) width(4) height(4): `at` points at 'ispe'.
      view.setUint32(at + 8, width);
      view.setUint32(at + 12, height);
      found++;
    }
  }
  if (!found) throw new Error('no ispe box in this AVIF');
  return copy;
}
