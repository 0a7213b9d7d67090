/**
 * The pure parts of the upload plugin: hash names as Strapi's generateFileName makes
 * them, KB sizes, MIME detection, header sizes and the format plan.
 */
import { describe, expect, it } from 'bun:test';
import { headerSize } from '../../src/upload/image-size';
import { fitInside, plannedFormats, processImage } from '../../src/upload/images';
import { bytesToKb, detectType, generateHash, slugForHash } from '../../src/upload/naming';
import { makeImage } from './helpers';

describe('names and sizes', () => {
  it('slugs the base name with _ keeping case, transliterating and splitting camelCase like @sindresorhus/slugify', () => {
    expect(slugForHash('red-dot')).toBe('red_dot');
    expect(slugForHash('Héllo Wörld & Friends')).toBe('Hello_Woerld_and_Friends');
    expect(slugForHash('myPhotoFile 2024')).toBe('my_Photo_File_2024');
    expect(slugForHash('  --weird!!name--  ')).toBe('weird_name');
    expect(generateHash('red-dot')).toMatch(/^red_dot_[0-9a-f]{10}$/);
  });

  it('reports kilobytes of 1000 bytes with two decimals', () => {
    expect(bytesToKb(73)).toBe(0.07);
    expect(bytesToKb(5197)).toBe(5.2);
    expect(bytesToKb(1_234_567)).toBe(1234.57);
  });

  it('types files by their bytes first, then the extension, then what the client declared', async () => {
    const png = await makeImage(2, 2);
    expect(await detectType(png, 'x.jpg', 'image/jpeg')).toEqual({ mime: 'image/png', sniffedExt: 'png' });
    expect((await detectType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.svg', '')).mime).toBe('image/svg+xml');
    expect((await detectType(new TextEncoder().encode('a,b'), 'data.csv', '')).mime).toBe('text/csv');
    expect((await detectType(new TextEncoder().encode('???'), 'noext', 'application/x-custom')).mime).toBe('application/x-custom');
    expect((await detectType(new TextEncoder().encode('???'), 'noext', '')).mime).toBe('text/plain');
    expect((await detectType(new Uint8Array([0, 1, 2, 0xff]), 'noext', '')).mime).toBe('application/octet-stream');
  });
});

describe('image sizes', () => {
  it('reads PNG, JPEG and WebP sizes from headers', async () => {
    expect(headerSize(await makeImage(30, 20), 'image/png')).toEqual({ width: 30, height: 20 });
    expect(headerSize(await makeImage(30, 20, 'image/jpeg'), 'image/jpeg')).toEqual({ width: 30, height: 20 });
    const vp8x = new Uint8Array(30);
    vp8x.set(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8X'), 0);
    vp8x.set([0x1f, 0x03, 0x00, 0xc7, 0x00, 0x00], 24); // 800 × 200, stored minus one
    expect(headerSize(vp8x, 'image/webp')).toEqual({ width: 800, height: 200 });
    expect(headerSize(new Uint8Array(10), 'image/png')).toBeUndefined();
  });

  it('plans formats like Strapi: thumbnail when larger than 245×156, a breakpoint when a side exceeds it', () => {
    expect(fitInside(1200, 800, 245, 156)).toEqual({ width: 234, height: 156 });
    expect(fitInside(1200, 800, 1000, 1000)).toEqual({ width: 1000, height: 667 });
    expect(plannedFormats(200, 150)).toEqual([]);
    expect(plannedFormats(1000, 1000).map((f) => f.key)).toEqual(['thumbnail', 'medium', 'small']);
    expect(plannedFormats(4000, 3000)).toEqual([
      { key: 'thumbnail', width: 208, height: 156 },
      { key: 'large', width: 1000, height: 750 },
      { key: 'medium', width: 750, height: 563 },
      { key: 'small', width: 500, height: 375 },
    ]);
  });

  it('does not decode a canvas larger than 50 megapixels (a decompression bomb): header size, no formats', async () => {
    const png = await makeImage(4, 4);
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 20_000);
    view.setUint32(20, 20_000);
    expect(await processImage(png, 'image/png')).toEqual({ width: 20_000, height: 20_000, formats: [] });
  });
});
