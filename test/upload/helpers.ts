/**
 * Shared by the upload tests: real image bytes made with jimp, and a multipart POST to
 * /api/upload built exactly as a browser's FormData sends it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
  'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
];
