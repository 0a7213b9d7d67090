/**
 * Image dimensions read from the file header, without decoding pixels. They let us
 * refuse to decode a small file that declares a huge canvas (a decompression bomb) and
 * give WebP and AVIF their size before their (WASM) decoder is loaded.
 */

export interface Size {
  width: number;
  height: number;
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

/** Width and height from the header of a PNG, JPEG, GIF, BMP, TIFF, WebP or AVIF; undefined if unreadable. */
export function headerSize(b: Uint8Array, mime: string): Size | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const ok = (s: Size | undefined) => (s && s.width > 0 && s.height > 0 ? s : undefined);
  try {
    switch (mime) {
      case 'image/png':
        if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return undefined;
        return ok({ width: view.getUint32(16), height: view.getUint32(20) });
      case 'image/gif':
        if (b.length < 10 || ascii(b, 0, 3) !== 'GIF') return undefined;
        return ok({ width: view.getUint16(6, true), height: view.getUint16(8, true) });
      case 'image/bmp':
        if (b.length < 26 || ascii(b, 0, 2) !== 'BM') return undefined;
        return ok({ width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) });
      case 'image/jpeg':
        return ok(jpegSize(b, view));
      case 'image/tiff':
        return ok(tiffSize(b, view));
      case 'image/webp':
        return ok(webpSize(b));
      case 'image/avif':
        return ok(avifSize(b, view));
    }
  } catch {
    // A truncated header reads past the end: not a readable image.
  }
  return undefined;
}

/** The first start-of-frame marker (SOF0…SOF15 except DHT, JPG and DAC) holds the size. */
function jpegSize(b: Uint8Array, view: DataView): Size | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** Tags 256 (ImageWidth) and 257 (ImageLength) of the first IFD, SHORT or LONG. */
function tiffSize(b: Uint8Array, view: DataView): Size | undefined {
  const order = ascii(b, 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const le = order === 'II';
  const ifd = view.getUint32(4, le);
  const count = view.getUint16(ifd, le);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    const tag = view.getUint16(entry, le);
    const type = view.getUint16(entry + 2, le);
    const value = type === 3 ? view.getUint16(entry + 8, le) : view.getUint32(entry + 8, le);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return { width, height };
}

/** Lossy VP8, lossless VP8L and extended VP8X headers. */
function webpSize(b: Uint8Array): Size | undefined {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return undefined;
  const chunk = ascii(b, 12, 4);
  const u16 = (at: number) => b[at]! | (b[at + 1]! << 8);
  const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: u16(26) & 0x3fff, height: u16(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: u24(24) + 1, height: u24(27) + 1 };
  return undefined;
}

/** Containers an `ispe` box sits in: meta (a full box: 4 bytes of version and flags first), iprp, ipco. */
const AVIF_CONTAINERS: Record<string, number> = { meta: 4, iprp: 0, ipco: 0 };

/**
 * AVIF (ISO BMFF, HEIF): an `ftyp` box with an AVIF brand, then the image spatial extents
 * (`ispe`: width, height) among the item properties. A grid image has one per tile too:
 * the largest is the canvas, and the largest is what the decoding bound must see.
 */
function avifSize(b: Uint8Array, view: DataView): Size | undefined {
  if (b.length < 16 || ascii(b, 4, 4) !== 'ftyp') return undefined;
  const ftypEnd = view.getUint32(0);
  const brands = ascii(b, 8, 4) + ascii(b, 16, Math.max(0, Math.min(ftypEnd, b.length) - 16));
  if (!/avi[fs]/.test(brands)) return undefined;
  let best: Size | undefined;
  const walk = (start: number, end: number, depth: number) => {
    let at = start;
    while (at + 8 <= end && depth < 8) {
      let size = view.getUint32(at);
      const type = ascii(b, at + 4, 4);
      let header = 8;
      if (size === 1) {
        if (at + 16 > end) return;
        size = Number(view.getBigUint64(at + 8));
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) return;
      if (type === 'ispe' && size >= header + 12) {
        const found = { width: view.getUint32(at + header + 4), height: view.getUint32(at + header + 8) };
        if (!best || found.width * found.height > best.width * best.height) best = found;
      } else if (type in AVIF_CONTAINERS) walk(at + header + AVIF_CONTAINERS[type]!, at + size, depth + 1);
      at += size;
    }
  };
  walk(0, b.length, 0);
  return best;
}
