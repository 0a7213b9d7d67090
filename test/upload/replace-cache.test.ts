/**
 * Replacing a file keeps its URL (issue #38), as Strapi 5.54.0 does ("so the file url doesn't
 * change when the file is replaced"): `POST /api/upload?id=N` with a file keeps the hash and
 * the extension, writes the new content (and the new file's formats) under the same names,
 * and removes formats the new file does not have. Uploads are served for revalidation (a
 * short max-age and an ETag that changes with the bytes), not as immutable, so a replaced
 * file reaches browsers. A replacement that is refused changes nothing: the old file stays served.
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

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(server.url + path, { headers });
  return { status: res.status, cacheControl: res.headers.get('cache-control'), etag: res.headers.get('etag'), bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe('POST /api/upload?id=N with a file', () => {
  it('keeps the URL of the file and of its formats: the old URL serves the new bytes, a format the new file lacks is gone', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'hero.png', type: 'image/png' }] })).body;
    expect(Object.keys(file.formats).sort()).toEqual(['small', 'thumbnail']);
    const article = await server.call('POST', '/api/articles', { body: { data: { title: 'Linked', cover: file.id } } });
    expect(article.status).toBe(201);
    const before = await get(file.url);
    expect(before.cacheControl).toBe('public, max-age=60, must-revalidate');
    expect(before.etag).toBeTruthy();

    const res = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: jpeg, filename: 'hero.jpg', type: 'image/jpeg' }] });
    expect(res.status).toBe(200);
    const replaced = res.body;
    // Strapi's answer: the hash, the extension and so the URL stay; name, type and size are the new file's.
    expect(replaced).toMatchObject({
      id: file.id,
      documentId: file.documentId,
      name: 'hero.jpg',
      hash: file.hash,
      ext: '.png',
      url: file.url,
      mime: 'image/jpeg',
      width: 300,
      height: 200,
    });
    // 300×200 makes a thumbnail only, under the thumbnail's old name; the old `small` format is gone.
    expect(Object.keys(replaced.formats)).toEqual(['thumbnail']);
    expect(replaced.formats.thumbnail).toMatchObject({ url: file.formats.thumbnail.url, ext: '.png', mime: 'image/jpeg', width: 234 });
    expect((await get(file.formats.small.url)).status).toBe(404);

    const served = await get(file.url);
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(jpeg);
    expect(served.etag).not.toBe(before.etag);
    expect(served.cacheControl).toBe('public, max-age=60, must-revalidate');
    // A browser revalidating its copy gets the new bytes; revalidating the new one, a 304.
    expect((await get(file.url, { 'if-none-match': before.etag! })).status).toBe(200);
    expect((await get(file.url, { 'if-none-match': served.etag! })).status).toBe(304);
    expect((await get(file.formats.thumbnail.url)).status).toBe(200);

    // Only the kept names are on disk: no `small`, no temporary file.
    const onDisk = storedFiles(server.dataDir);
    for (const url of urlsOf(replaced)) expect(onDisk).toContain(url.slice('/uploads/'.length));
    expect(onDisk).not.toContain(file.formats.small.url.slice('/uploads/'.length));
    expect(onDisk.filter((n) => n.startsWith('.') || n.startsWith('~'))).toEqual([]);

    // The row and the entries that link it answer the same URL.
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).body.url).toBe(file.url);
    const populated = await server.call('GET', `/api/articles/${article.body.data.documentId}?populate=cover`);
    expect(populated.body.data.cover).toMatchObject({ id: file.id, url: file.url, mime: 'image/jpeg' });
  });

  it('keeps the URL of a file without formats, whose formats then answer {} as in Strapi', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: 'hello one', filename: 'one.txt', type: 'text/plain' }] })).body;
    const res = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: 'second file body', filename: 'two.csv', type: 'text/csv' }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'two.csv', hash: file.hash, ext: '.txt', url: file.url, mime: 'text/csv', formats: {} });
    const served = await get(file.url);
    expect(new TextDecoder().decode(served.bytes)).toBe('second file body');
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
