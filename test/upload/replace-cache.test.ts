/**
 * Content-addressed replace (issue #16): `POST /api/upload?id=N` with a file stores the new
 * content under new names, points the row (and every entry that links it) at them, and
 * removes the old files after the commit, so `/uploads/*` can be cached for a year as
 * immutable. A replacement that is refused changes nothing: the old file stays served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, storedFiles, upload, UPLOAD_ACTIONS } from './helpers';

let server: TestServer;
let png: Uint8Array<ArrayBuffer>;
let jpeg: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  [png, jpeg] = await Promise.all([makeImage(600, 400), makeImage(300, 200, 'image/jpeg')]);
});
afterAll(() => server.stop());

type FileObject = { id: number; url: string; formats: Record<string, { url: string }> | null };
const urlsOf = (file: FileObject) => [file.url, ...Object.values(file.formats ?? {}).map((f) => f.url)];
const namesOf = (file: FileObject) => urlsOf(file).map((u) => u.slice('/uploads/'.length));

const get = async (path: string) => {
  const res = await fetch(server.url + path);
  return { status: res.status, cacheControl: res.headers.get('cache-control'), bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe('POST /api/upload?id=N with a file', () => {
  it('gives the file and its formats new URLs; the old ones answer 404, the new ones serve the new bytes as immutable', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'hero.png', type: 'image/png' }] })).body;
    expect(Object.keys(file.formats).sort()).toEqual(['small', 'thumbnail']);
    const article = await server.call('POST', '/api/articles', { body: { data: { title: 'Linked', cover: file.id } } });
    expect(article.status).toBe(201);

    const res = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: jpeg, filename: 'hero.jpg', type: 'image/jpeg' }] });
    expect(res.status).toBe(200);
    const replaced = res.body;
    expect(replaced).toMatchObject({ id: file.id, documentId: file.documentId, name: 'hero.jpg', ext: '.jpg', mime: 'image/jpeg', width: 300, height: 200 });
    expect(replaced.hash).not.toBe(file.hash);
    expect(replaced.url).toBe(`/uploads/${replaced.hash}.jpg`);
    // 300×200 makes a thumbnail only: the old `small` format is gone with the rest.
    expect(Object.keys(replaced.formats)).toEqual(['thumbnail']);
    expect(replaced.formats.thumbnail.url).toBe(`/uploads/thumbnail_${replaced.hash}.jpg`);

    for (const url of urlsOf(file)) expect((await get(url)).status).toBe(404);
    const served = await get(replaced.url);
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(jpeg);
    expect(served.cacheControl).toBe('public, max-age=31536000, immutable');
    expect((await get(replaced.formats.thumbnail.url)).cacheControl).toBe('public, max-age=31536000, immutable');

    // Only the new names are left on disk: no old file, no staged copy.
    const onDisk = storedFiles(server.dataDir);
    for (const name of namesOf(file)) expect(onDisk).not.toContain(name);
    for (const name of namesOf(replaced)) expect(onDisk).toContain(name);
    expect(onDisk.filter((n) => n.startsWith('~'))).toEqual([]);

    // The row and the entries that link it answer the new URL.
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).body.url).toBe(replaced.url);
    const populated = await server.call('GET', `/api/articles/${article.body.data.documentId}?populate=cover`);
    expect(populated.body.data.cover).toMatchObject({ id: file.id, url: replaced.url });
  });

  it('keeps the old file, its row and its URL when the replacement is refused', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'keep.png', type: 'image/png' }] })).body;
    const before = storedFiles(server.dataDir);
    const refused = [
      { bytes: 'not an image', filename: 'broken.png', type: 'image/png' }, // fails decoding
      { bytes: '<!DOCTYPE html><html><script>alert(1)</script></html>', filename: 'page.html', type: 'text/html' }, // refused type
    ];
    for (const part of refused) {
      const res = await upload(server.url, { query: `?id=${file.id}`, files: [part] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ data: null, error: { status: 400 } });
    }
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).body).toEqual({ ...file });
    for (const url of urlsOf(file)) expect((await get(url)).status).toBe(200);
    expect((await get(file.url)).bytes).toEqual(png);
    expect(storedFiles(server.dataDir)).toEqual(before);
  });
});
