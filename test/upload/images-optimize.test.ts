/**
 * FOLIO_IMAGE_OPTIMIZE (Strapi's sizeOptimization): the original is re-encoded at quality
 * 80 and stored only when that is smaller; off by default, the upload is stored as sent.
 * Its own file: the setting is process-wide (each openInstance sets it from its Config).
 */
import { afterEach, describe, expect, it } from 'bun:test';
import { resolveConfig } from '../../src/config';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, UPLOAD_ACTIONS, upload } from './helpers';
import { decodedSize, EXT, makeEncoded } from './images-codecs';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function started(imageOptimize: boolean) {
  server = await startServer({ config: { imageOptimize } });
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  return server;
}

/** Uploads bytes and answers the file object and the bytes served for it. */
async function stored(s: TestServer, bytes: Uint8Array, mime: string, ext: string) {
  const res = await upload(s.url, { files: [{ bytes, filename: `pic${ext}`, type: mime }] });
  expect(res.status).toBe(201);
  const file = res.body[0];
  const served = new Uint8Array(await (await fetch(s.url + file.url)).arrayBuffer());
  return { file, served };
}

describe('FOLIO_IMAGE_OPTIMIZE', () => {
  it('reads FOLIO_IMAGE_OPTIMIZE as a flag, off by default', () => {
    const saved = process.env.FOLIO_IMAGE_OPTIMIZE;
    try {
      delete process.env.FOLIO_IMAGE_OPTIMIZE;
      expect(resolveConfig().imageOptimize).toBe(false);
      process.env.FOLIO_IMAGE_OPTIMIZE = 'true';
      expect(resolveConfig().imageOptimize).toBe(true);
      process.env.FOLIO_IMAGE_OPTIMIZE = 'sometimes';
      expect(() => resolveConfig()).toThrow('FOLIO_IMAGE_OPTIMIZE must be true or false');
    } finally {
      if (saved === undefined) delete process.env.FOLIO_IMAGE_OPTIMIZE;
      else process.env.FOLIO_IMAGE_OPTIMIZE = saved;
    }
  });

  for (const mime of ['image/webp', 'image/avif'] as const) {
    it(`stores a quality-100 ${mime} re-encoded smaller, same size in pixels, when on`, async () => {
      const s = await started(true);
      const original = await makeEncoded(400, 300, mime, 100);
      const { file, served } = await stored(s, original, mime, EXT[mime]);
      expect(served.byteLength).toBeLessThan(original.byteLength);
      expect(file.size).toBe(Math.round((served.byteLength / 1000) * 100) / 100);
      expect(file).toMatchObject({ width: 400, height: 300, mime });
      expect(await decodedSize(served, mime)).toEqual({ width: 400, height: 300 });
    }, 30_000);
  }

  it('keeps an upload that re-encoding would not shrink, and a JPEG at quality 100 shrinks', async () => {
    const s = await started(true);
    const tiny = await makeEncoded(300, 200, 'image/webp', 5);
    expect((await stored(s, tiny, 'image/webp', '.webp')).served).toEqual(tiny);
    const jpeg = await makeImageAtQuality100();
    expect((await stored(s, jpeg, 'image/jpeg', '.jpg')).served.byteLength).toBeLessThan(jpeg.byteLength);
  }, 30_000);

  it('stores uploads byte for byte when off (the default)', async () => {
    const s = await started(false);
    const original = await makeEncoded(400, 300, 'image/webp', 100);
    expect((await stored(s, original, 'image/webp', '.webp')).served).toEqual(original);
    const png = await makeImage(300, 200);
    expect((await stored(s, png, 'image/png', '.png')).served).toEqual(png);
  }, 30_000);
});

/** A JPEG at quality 100 (jimp), which quality 80 makes smaller. */
async function makeImageAtQuality100(): Promise<Uint8Array> {
  const { Jimp } = await import('jimp');
  const image = await Jimp.read(Buffer.from(await makeImage(400, 300)));
  return new Uint8Array(await image.getBuffer('image/jpeg', { quality: 100 }));
}
