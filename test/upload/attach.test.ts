/**
 * Files in entries (spec §5 "Setting media on an entry"): attached by the upload itself
 * with ref/refId/field, or set by id in a document write, read back with populate, and
 * gone from every entry once the file is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { FILE_KEYS, makeImage, upload, UPLOAD_ACTIONS } from './helpers';

let server: TestServer;
let png: Uint8Array;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(8, 8);
});
afterAll(() => server.stop());

async function article(title: string) {
  const res = await server.call('POST', '/api/articles', { body: { data: { title } } });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; documentId: string };
}

async function uploadTo(fields: Record<string, string>, names = ['pic.png']) {
  const res = await upload(server.url, { files: names.map((filename) => ({ bytes: png, filename })), fields });
  expect(res.status).toBe(201);
  return res.body as { id: number }[];
}

const read = async (path: string) => {
  const res = await server.call('GET', path);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('ref, refId and field on an upload', () => {
  it('sets a single media attribute on the draft and the published version, replacing what was there', async () => {
    const doc = await article('With a cover');
    const ref = { ref: 'api::article.article', refId: doc.documentId, field: 'cover' };
    const [first] = await uploadTo(ref);
    const published = await read(`/api/articles/${doc.documentId}?populate[cover]=true`);
    expect(published.cover.id).toBe(first!.id);
    expect(Object.keys(published.cover)).toEqual(FILE_KEYS.filter((k) => k !== 'isUrlSigned'));
    expect((await read(`/api/articles/${doc.documentId}?status=draft&populate[cover]=true`)).cover.id).toBe(first!.id);

    const [second] = await uploadTo(ref);
    expect((await read(`/api/articles/${doc.documentId}?populate[cover]=true`)).cover.id).toBe(second!.id);
    expect((await read(`/api/articles/${doc.documentId}?status=draft&populate[cover]=true`)).cover.id).toBe(second!.id);
  });

  it('appends to a multiple media attribute, in upload order', async () => {
    const doc = await article('With a gallery');
    const ref = { ref: 'api::article.article', refId: doc.documentId, field: 'gallery' };
    const two = await uploadTo(ref, ['one.png', 'two.png']);
    const [three] = await uploadTo(ref, ['three.png']);
    const gallery = (await read(`/api/articles/${doc.documentId}?populate[gallery]=true`)).gallery;
    expect(gallery.map((f: any) => f.id)).toEqual([two[0]!.id, two[1]!.id, three!.id]);
    expect(gallery.map((f: any) => f.name)).toEqual(['one.png', 'two.png', 'three.png']);
  });

  it('reaches every locale for a non-localized attribute', async () => {
    const doc = await article('Hello');
    const fr = await server.call('PUT', `/api/articles/${doc.documentId}?locale=fr`, { body: { data: { title: 'Bonjour' } } });
    expect(fr.status).toBe(200);
    const [file] = await uploadTo({ ref: 'api::article.article', refId: doc.documentId, field: 'cover' });
    expect((await read(`/api/articles/${doc.documentId}?locale=fr&populate[cover]=true`)).cover.id).toBe(file!.id);
    expect((await read(`/api/articles/${doc.documentId}?locale=en&populate[cover]=true`)).cover.id).toBe(file!.id);
  });

  it('takes a numeric row id as refId, as Strapi does', async () => {
    const author = await server.call('POST', '/api/authors', { body: { data: { name: 'Grace', email: 'grace@example.com' } } });
    expect(author.status).toBe(201);
    const { id, documentId } = author.body.data;
    const [file] = await uploadTo({ ref: 'api::author.author', refId: String(id), field: 'avatar' });
    expect((await read(`/api/authors/${documentId}?populate[avatar]=true`)).avatar.id).toBe(file!.id);
  });
});

describe('media set by file id in document writes', () => {
  it('sets cover and gallery by id, and null / [] clear them', async () => {
    const [a, b] = (
      await upload(server.url, {
        files: [
          { bytes: png, filename: 'a.png' },
          { bytes: png, filename: 'b.png' },
        ],
      })
    ).body;
    const doc = await article('Media by id');
    const put = await server.call('PUT', `/api/articles/${doc.documentId}?populate[cover]=true&populate[gallery]=true`, {
      body: { data: { cover: a.id, gallery: [b.id, a.id] } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.cover.id).toBe(a.id);
    expect(put.body.data.cover.url).toBe(a.url);
    expect(put.body.data.gallery.map((f: any) => f.id)).toEqual([b.id, a.id]);

    const cleared = await server.call('PUT', `/api/articles/${doc.documentId}?populate[cover]=true&populate[gallery]=true`, {
      body: { data: { cover: null, gallery: [] } },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.cover).toBeNull();
    expect(cleared.body.data.gallery).toEqual([]);
  });

  it('refuses a file id that does not exist with 400', async () => {
    const doc = await article('Missing file');
    const res = await server.call('PUT', `/api/articles/${doc.documentId}`, { body: { data: { cover: 999999 } } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.message).toBe('1 relation(s) of type plugin::upload.file associated with this entity do not exist');
  });
});

describe('deleting a file', () => {
  it('removes it from every entry and version that used it', async () => {
    const doc = await article('Loses its media');
    const [keep, gone] = (
      await upload(server.url, {
        files: [
          { bytes: png, filename: 'keep.png' },
          { bytes: png, filename: 'gone.png' },
        ],
      })
    ).body;
    await server.call('PUT', `/api/articles/${doc.documentId}`, { body: { data: { cover: gone.id, gallery: [gone.id, keep.id] } } });
    expect((await server.call('DELETE', `/api/upload/files/${gone.id}`)).status).toBe(200);
    for (const status of ['published', 'draft']) {
      const data = await read(`/api/articles/${doc.documentId}?status=${status}&populate[cover]=true&populate[gallery]=true`);
      expect(data.cover).toBeNull();
      expect(data.gallery.map((f: any) => f.id)).toEqual([keep.id]);
    }
    const links = await server.instance.db.all('SELECT * FROM files_related_mph WHERE "fileId" = ?', [gone.id]);
    expect(links).toEqual([]);
  });
});
