/**
 * WebP and AVIF uploads: dimensions, Strapi's responsive formats in the original's type
 * (as sharp writes them), a 400 for bytes that claim the type but do not decode, and the
 * AVIF canvas read from its header when it is too large to decode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { headerSize } from '../../src/upload/image-size';
import { MAX_DECODED_PIXELS } from '../../src/upload/images';
import { startServer, type TestServer } from '../helpers/server';
import { UPLOAD_ACTIONS, upload } from './helpers';
import { decodedSize, EXT, makeEncoded, withClaimedAvifSize, type WasmMime } from './images-codecs';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
});
afterAll(() => server.stop());

const SIZES = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };
const count = async () => ((await server.call('GET', '/api/upload/files')).body as unknown[]).length;

describe('WebP and AVIF uploads', () => {
  for (const mime of ['image/webp', 'image/avif'] as const) {
    const ext = EXT[mime];

    it(`makes thumbnail, large, medium and small ${mime} formats of a 1200×800 ${mime}`, async () => {
      const res = await upload(server.url, { files: [{ bytes: await makeEncoded(1200, 800, mime), filename: `photo${ext}`, type: mime }] });
      expect(res.status).toBe(201);
      const file = res.body[0];
      expect(file).toMatchObject({ width: 1200, height: 800, mime, ext });
      expect(Object.keys(file.formats)).toEqual(Object.keys(SIZES));
      for (const [key, [width, height]] of Object.entries(SIZES)) {
        expect(file.formats[key]).toMatchObject({ width, height, mime, ext, name: `${key}_photo${ext}` });
        const got = await fetch(server.url + file.formats[key].url);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe(mime);
        const bytes = new Uint8Array(await got.arrayBuffer());
        expect(bytes.byteLength).toBe(file.formats[key].sizeInBytes);
        expect(await decodedSize(bytes, mime as WasmMime)).toEqual({ width, height });
      }
    }, 30_000);

    it(`answers width and height and null formats for a ${mime} no larger than a thumbnail`, async () => {
      const res = await upload(server.url, { files: [{ bytes: await makeEncoded(120, 90, mime), filename: `icon${ext}`, type: mime }] });
      expect(res.status).toBe(201);
      expect(res.body[0]).toMatchObject({ width: 120, height: 90, formats: null, mime });
    });

    it(`refuses a truncated ${mime} with 400 "File is not a valid image" and stores nothing`, async () => {
      const before = await count();
      const whole = await makeEncoded(300, 200, mime);
      for (const bytes of [whole.slice(0, Math.floor(whole.length / 2)), new TextEncoder().encode('not an image at all')]) {
        const res = await upload(server.url, { files: [{ bytes, filename: `broken${ext}`, type: mime }] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ApplicationError', message: 'File is not a valid image', details: {} } });
      }
      expect(await count()).toBe(before);
    });
  }

  it('reads an AVIF canvas from its ispe box, and leaves one too large to decode undecoded', async () => {
    const small = await makeEncoded(64, 48, 'image/avif');
    expect(headerSize(small, 'image/avif')).toEqual({ width: 64, height: 48 });
    const huge = withClaimedAvifSize(small, 10_000, 8_000);
    expect(10_000 * 8_000).toBeGreaterThan(MAX_DECODED_PIXELS);
    const res = await upload(server.url, { files: [{ bytes: huge, filename: 'huge.avif', type: 'image/avif' }] });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ width: 10_000, height: 8_000, formats: null, mime: 'image/avif' });
  });

  it('finds no AVIF size in a file without an AVIF brand or without an ispe box', () => {
    expect(headerSize(new TextEncoder().encode('\0\0\0\x18ftypmif1\0\0\0\0mif1heic'), 'image/avif')).toBeUndefined();
    expect(headerSize(new TextEncoder().encode('\0\0\0\x18ftypavif\0\0\0\0avifmif1'), 'image/avif')).toBeUndefined();
  });
});
