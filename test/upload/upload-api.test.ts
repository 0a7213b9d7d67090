/**
 * The upload API from source (spec §5, sample upload-and-attach-media.json): uploads of
 * real PNG and JPEG bytes, responsive formats, listing, serving, metadata updates,
 * replacing and deleting. Attaching and refused uploads have their own files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';
import { FILE_KEYS, makeImage, sizeOf, storedFiles, upload, UPLOAD_ACTIONS } from './helpers';

let server: TestServer;
let bigPng: Uint8Array<ArrayBuffer>;
let bigJpeg: Uint8Array<ArrayBuffer>;
let tinyPng: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  [bigPng, bigJpeg, tinyPng] = await Promise.all([makeImage(1200, 800), makeImage(1200, 800, 'image/jpeg'), makeImage(4, 4)]);
});
afterAll(() => server.stop());

const served = async (url: string) => {
  const response = await fetch(server.url + url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
};

describe('POST /api/upload', () => {
  it('stores one small PNG and answers 201 with a bare array holding the file object, formats null', async () => {
    const res = await upload(server.url, { files: [{ bytes: tinyPng, filename: 'red-dot.png', type: 'image/png' }] });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Array.isArray(res.body)).toBe(true);
    const [file] = res.body;
    expect(Object.keys(file)).toEqual(FILE_KEYS);
    expect(file).toMatchObject({
      name: 'red-dot.png',
      alternativeText: null,
      caption: null,
      focalPoint: null,
      width: 4,
      height: 4,
      formats: null,
      ext: '.png',
      mime: 'image/png',
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
      isUrlSigned: false,
    });
    expect(file.id).toBeGreaterThan(0);
    expect(file.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(file.hash).toMatch(/^red_dot_[0-9a-f]{10}$/);
    expect(file.url).toBe(`/uploads/${file.hash}.png`);
    expect(file.size).toBe(Math.round(tinyPng.byteLength / 10) / 100);
    expect(file.createdAt).toBe(file.publishedAt);
    expect(new Uint8Array(readFileSync(join(server.dataDir, 'uploads', `${file.hash}.png`)))).toEqual(tinyPng);
  });

  it('makes thumbnail, large, medium and small formats of a 1200×800 PNG, fitted like sharp', async () => {
    const res = await upload(server.url, { files: [{ bytes: bigPng, filename: 'Big Picture.png', type: 'image/png' }] });
    expect(res.status).toBe(201);
    const file = res.body[0];
    expect(file).toMatchObject({ width: 1200, height: 800, mime: 'image/png' });
    expect(file.hash).toMatch(/^Big_Picture_[0-9a-f]{10}$/);
    expect(Object.keys(file.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    const expected = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };
    for (const [key, [width, height]] of Object.entries(expected)) {
      const format = file.formats[key];
      expect(Object.keys(format)).toEqual(['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url']);
      expect(format).toMatchObject({ name: `${key}_Big Picture.png`, hash: `${key}_${file.hash}`, ext: '.png', mime: 'image/png', path: null, width, height });
      expect(format.url).toBe(`/uploads/${key}_${file.hash}.png`);
      const got = await served(format.url);
      expect(got.status).toBe(200);
      expect(got.type).toBe('image/png');
      expect(got.bytes.byteLength).toBe(format.sizeInBytes);
      expect(format.size).toBe(Math.round(format.sizeInBytes / 10) / 100);
      expect(await sizeOf(got.bytes)).toEqual({ width, height });
    }
  });

  it('keeps JPEG formats as JPEG', async () => {
    const file = (await upload(server.url, { files: [{ bytes: bigJpeg, filename: 'photo.jpg', type: 'image/jpeg' }] })).body[0];
    expect(file).toMatchObject({ width: 1200, height: 800, mime: 'image/jpeg', ext: '.jpg' });
    expect(file.formats.thumbnail).toMatchObject({ mime: 'image/jpeg', ext: '.jpg', width: 234, height: 156 });
    const got = await served(file.formats.medium.url);
    expect(got.type).toBe('image/jpeg');
    expect([got.bytes[0], got.bytes[1]]).toEqual([0xff, 0xd8]);
    expect(await sizeOf(got.bytes)).toEqual({ width: 750, height: 500 });
  });

  it('makes only the formats a size calls for: a breakpoint only when a side exceeds it', async () => {
    const wide = (await upload(server.url, { files: [{ bytes: await makeImage(300, 100), filename: 'wide.png' }] })).body[0];
    expect(Object.keys(wide.formats)).toEqual(['thumbnail']);
    expect(wide.formats.thumbnail).toMatchObject({ width: 245, height: 82 });
    const tall = (await upload(server.url, { files: [{ bytes: await makeImage(600, 900), filename: 'tall.png' }] })).body[0];
    expect(Object.keys(tall.formats)).toEqual(['thumbnail', 'medium', 'small']);
    expect(tall.formats.thumbnail).toMatchObject({ width: 104, height: 156 });
    expect(tall.formats.medium).toMatchObject({ width: 500, height: 750 });
    expect(tall.formats.small).toMatchObject({ width: 333, height: 500 });
  });

  it('stores several files at once, with one fileInfo per file', async () => {
    const res = await upload(server.url, {
      files: [
        { bytes: tinyPng, filename: 'a.png', type: 'image/png' },
        { bytes: 'hello', filename: 'notes.txt', type: 'text/plain' },
      ],
      fileInfo: [JSON.stringify({ name: 'first.png', alternativeText: 'First', caption: 'One' }), JSON.stringify({ caption: 'Two' })],
    });
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ name: 'first.png', alternativeText: 'First', caption: 'One', width: 4 });
    expect(res.body[0].hash).toMatch(/^first_[0-9a-f]{10}$/);
    expect(res.body[1]).toMatchObject({
      name: 'notes.txt',
      caption: 'Two',
      alternativeText: null,
      mime: 'text/plain',
      ext: '.txt',
      width: null,
      height: null,
      formats: null,
    });
    expect(res.body[0].id).toBeLessThan(res.body[1].id);
  });

  it('takes fileInfo as one JSON array too, and a single object for a single file', async () => {
    const many = await upload(server.url, {
      files: [
        { bytes: tinyPng, filename: 'x.png' },
        { bytes: tinyPng, filename: 'y.png' },
      ],
      fileInfo: [JSON.stringify([{ alternativeText: 'X' }, { alternativeText: 'Y' }])],
    });
    expect(many.body.map((f: any) => f.alternativeText)).toEqual(['X', 'Y']);
    const one = await upload(server.url, { files: [{ bytes: tinyPng, filename: 'z.png' }], fileInfo: [JSON.stringify({ caption: 'Zed' })] });
    expect(one.body[0].caption).toBe('Zed');
  });

  it('reads the MIME type from the bytes, not the name or the declared type', async () => {
    const file = (await upload(server.url, { files: [{ bytes: tinyPng, filename: 'really-a-png.jpg', type: 'application/octet-stream' }] })).body[0];
    expect(file).toMatchObject({ mime: 'image/png', ext: '.jpg', width: 4, height: 4 });
  });
});

describe('GET /api/upload/files', () => {
  // A server of its own with known files, so these tests also pass alone (`-t`) and
  // whatever the tests above stored.
  let listing: TestServer;
  beforeAll(async () => {
    listing = await startServer();
    await listing.instance.roles.grant('public', UPLOAD_ACTIONS);
    const files = [
      { bytes: tinyPng, filename: 'red-dot.png', type: 'image/png' },
      { bytes: await makeImage(300, 200), filename: 'Big Picture.png', type: 'image/png' },
      { bytes: await makeImage(20, 10, 'image/jpeg'), filename: 'photo.jpg', type: 'image/jpeg' },
      { bytes: 'hello', filename: 'notes.txt', type: 'text/plain' },
      { bytes: tinyPng, filename: 'last.png', type: 'image/png' },
    ];
    expect((await upload(listing.url, { files })).status).toBe(201);
  });
  afterAll(() => listing.stop());

  it('lists every file as a bare array, sorted, paginated and filtered on name, mime and ext', async () => {
    const all = await listing.call('GET', '/api/upload/files');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((f: any) => f.name)).toEqual(['red-dot.png', 'Big Picture.png', 'photo.jpg', 'notes.txt', 'last.png']);
    const ids = all.body.map((f: any) => f.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(Object.keys(all.body[0])).toEqual(FILE_KEYS);

    const desc = await listing.call('GET', '/api/upload/files?sort=id:desc');
    expect(desc.body.map((f: any) => f.id)).toEqual([...ids].reverse());
    const page2 = await listing.call('GET', '/api/upload/files?pagination[page]=2&pagination[pageSize]=2&sort[0]=id:asc');
    expect(page2.body.map((f: any) => f.id)).toEqual(ids.slice(2, 4));

    const jpegs = await listing.call('GET', '/api/upload/files?filters[mime][$eq]=image/jpeg');
    expect(jpegs.body.map((f: any) => f.name)).toEqual(['photo.jpg']);
    const texts = await listing.call('GET', '/api/upload/files?filters[ext][$eq]=.txt');
    expect(texts.body.map((f: any) => f.name)).toEqual(['notes.txt']);
    const named = await listing.call('GET', '/api/upload/files?filters[name][$containsi]=PICTURE&fields[0]=name&fields[1]=width');
    expect(named.body).toEqual([{ id: expect.any(Number), documentId: expect.any(String), name: 'Big Picture.png', width: 300 }]);
  });

  it('refuses unknown parameters and fields with 400', async () => {
    expect((await listing.call('GET', '/api/upload/files?bogus=1')).status).toBe(400);
    expect((await listing.call('GET', '/api/upload/files?filters[nope][$eq]=1')).status).toBe(400);
    expect((await listing.call('GET', '/api/upload/files?sort=nope')).status).toBe(400);
  });
});

describe('GET /api/upload/files/:id and /uploads/<name>', () => {
  it('answers one file, or 404 file.notFound', async () => {
    const [created] = (await upload(server.url, { files: [{ bytes: tinyPng, filename: 'one.png' }] })).body;
    const one = await server.call('GET', `/api/upload/files/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created);
    for (const id of ['999999', 'abc']) {
      const missing = await server.call('GET', `/api/upload/files/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} } });
    }
  });

  it('serves stored bytes with their content type; missing names and paths outside the folder are 404', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: bigJpeg, filename: 'serve.jpg' }] })).body;
    const got = await served(file.url);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/jpeg');
    expect(got.bytes).toEqual(bigJpeg);
    for (const path of ['/uploads/missing.png', '/uploads/../folio.db', '/uploads/..%2Ffolio.db', '/uploads/%2e%2e%2fsecrets.json', '/uploads/']) {
      const res = await server.call('GET', path);
      expect(res.status).toBe(404);
      expect(res.body.error.name).toBe('NotFoundError');
    }
  });
});

describe('POST /api/upload?id=N', () => {
  it('updates name, alternativeText and caption from fileInfo alone, keeping hash, url and whatever is null', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: tinyPng, filename: 'before.png' }], fileInfo: [JSON.stringify({ caption: 'Kept' })] })).body;
    const res = await upload(server.url, { query: `?id=${file.id}`, fileInfo: [JSON.stringify({ name: 'after.png', alternativeText: 'Alt', caption: null })] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, name: 'after.png', alternativeText: 'Alt', caption: 'Kept', hash: file.hash, url: file.url });
    expect(res.body.updatedAt >= file.updatedAt).toBe(true);
    const json = await server.call('POST', `/api/upload?id=${file.id}`, { body: { fileInfo: { caption: 'From JSON' } } });
    expect(json.status).toBe(200);
    expect(json.body.caption).toBe('From JSON');
    expect((await upload(server.url, { query: '?id=999999', fileInfo: ['{}'] })).status).toBe(404);
  });

  it('replaces the content under the same id, hash and URL; formats the new file lacks leave the disk', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: bigPng, filename: 'replace-me.png' }] })).body;
    const formatNames = Object.values(file.formats).map((f: any) => f.url.slice('/uploads/'.length));
    const res = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: tinyPng, filename: 'new.png' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: file.id,
      documentId: file.documentId,
      hash: file.hash,
      ext: '.png',
      url: file.url,
      name: 'new.png',
      width: 4,
      height: 4,
      formats: {},
    });
    expect((await served(file.url)).bytes).toEqual(tinyPng);
    for (const name of formatNames) expect(existsSync(join(server.dataDir, 'uploads', name))).toBe(false);
    expect(storedFiles(server.dataDir).filter((n) => n.startsWith('~'))).toEqual([]);

    const many = await upload(server.url, {
      query: `?id=${file.id}`,
      files: [
        { bytes: tinyPng, filename: 'a.png' },
        { bytes: tinyPng, filename: 'b.png' },
      ],
    });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toBe('Cannot replace a file with multiple ones');
  });
});

describe('DELETE /api/upload/files/:id', () => {
  it('answers the deleted file and removes it and its formats from disk', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: bigPng, filename: 'doomed.png' }] })).body;
    const names = [file.url, ...Object.values(file.formats).map((f: any) => f.url)].map((u: string) => u.slice('/uploads/'.length));
    for (const name of names) expect(existsSync(join(server.dataDir, 'uploads', name))).toBe(true);
    const res = await server.call('DELETE', `/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(file);
    for (const name of names) expect(existsSync(join(server.dataDir, 'uploads', name))).toBe(false);
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).status).toBe(404);
    expect((await served(file.url)).status).toBe(404);
    const again = await server.call('DELETE', `/api/upload/files/${file.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe('file.notFound');
  });
});
