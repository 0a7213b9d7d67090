/**
 * Shared by the upload tests: real image bytes made with jimp, and a multipart POST to
 * /api/upload built exactly as a browser's FormData sends it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { Jimp } from 'jimp';

export const UPLOAD_ACTIONS = ['upload', 'find', 'findOne', 'destroy'].map((a) => `plugin::upload.content-api.${a}`);

/** A width×height image with a gradient (so resizing has something to average), encoded as PNG or JPEG. */
export async function makeImage(width: number, height: number, mime: 'image/png' | 'image/jpeg' = 'image/png'): Promise<Uint8Array<ArrayBuffer>> {
  const image = new Jimp({ width, height, color: 0xffffffff });
  const data = image.bitmap.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = x % 256;
      data[i + 1] = y % 256;
      data[i + 2] = (x + y) % 256;
      data[i + 3] = 255;
    }
  }
  return new Uint8Array(await image.getBuffer(mime));
}

/**
 * A decompression bomb: a width×height RGBA PNG whose pixels are all zero, so its one IDAT
 * chunk deflates ~1000:1 (7000×7000: 186 KiB of file, 196 MB of pixels). Written by hand:
 * jimp would hold the whole bitmap to encode it.
 */
export function zeroPng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  // Each row: filter byte 0, then width × 4 zero bytes.
  const idat = deflateSync(new Uint8Array((width * 4 + 1) * height), { level: 9 });
  const parts = [Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Decodes served bytes to check a stored image's real size. */
export async function sizeOf(bytes: ArrayBuffer | Uint8Array): Promise<{ width: number; height: number }> {
  const image = await Jimp.read(Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)));
  return { width: image.width, height: image.height };
}

export interface Part {
  bytes: Uint8Array | string;
  filename: string;
  type?: string;
}

export interface UploadRequest {
  files?: Part[];
  /** Each value is appended as its own `fileInfo` field. */
  fileInfo?: string[];
  fields?: Record<string, string>;
  query?: string;
  headers?: Record<string, string>;
}

export async function upload(baseUrl: string, request: UploadRequest = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const form = new FormData();
  for (const part of request.files ?? []) form.append('files', new Blob([part.bytes], { type: part.type ?? '' }), part.filename);
  for (const info of request.fileInfo ?? []) form.append('fileInfo', info);
  for (const [key, value] of Object.entries(request.fields ?? {})) form.append(key, value);
  const response = await fetch(`${baseUrl}/api/upload${request.query ?? ''}`, { method: 'POST', body: form, headers: request.headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Names in the uploads folder, sorted. */
export const storedFiles = (dataDir: string) => readdirSync(join(dataDir, 'uploads')).sort();

/** The keys of a file object, in order, as the Strapi sample shows them. */
export const FILE_KEYS = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'isUrlSigned',
];
