/**
 * Uploads that must fail (spec §5 "Bad uploads", §6): each answers the error envelope and
 * leaves neither a row nor a file behind. Then who may call which upload route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, storedFiles, upload, UPLOAD_ACTIONS, type UploadRequest } from './helpers';

let server: TestServer;
let png: Uint8Array;
let documentId: string;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(300, 200);
  documentId = (await server.call('POST', '/api/articles', { body: { data: { title: 'Target' } } })).body.data.documentId;
});
afterAll(() => server.stop());

const fileCount = async (s: TestServer) => (await s.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM files'))!.n;

/** Sends the request, checks the envelope, and that nothing was stored. */
async function refused(request: UploadRequest, status: number, name: string, message?: string | RegExp, s = server) {
  const [rows, files] = [await fileCount(s), storedFiles(s.dataDir)];
  const res = await upload(s.url, request);
  expect(res.status).toBe(status);
  expect(res.body.data).toBeNull();
  expect(res.body.error).toMatchObject({ status, name });
  if (message) expect(res.body.error.message).toMatch(message);
  expect(await fileCount(s)).toBe(rows);
  expect(storedFiles(s.dataDir)).toEqual(files);
  return res.body.error;
}

const image = (filename = 'pic.png') => ({ bytes: png, filename, type: 'image/png' });
const ref = (extra: Record<string, string>) => ({ ref: 'api::article.article', refId: documentId, field: 'gallery', ...extra });

describe('refused uploads', () => {
  it('without files: 400 Files are empty (multipart, empty file part, JSON body)', async () => {
    await refused({ fileInfo: [JSON.stringify({ name: 'x' })] }, 400, 'ValidationError', /^Files are empty$/);
    await refused({ fileInfo: ['{not json'] }, 400, 'ValidationError', /^Files are empty$/);
    await refused({ files: [{ bytes: '', filename: 'empty.png' }] }, 400, 'ValidationError', /^Files are empty$/);
    const json = await server.call('POST', '/api/upload', { body: { files: [] } });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toBe('Files are empty');
  });

  it('with fileInfo that is not JSON, or whose values are not strings: 400', async () => {
    await refused({ files: [image()], fileInfo: ['{not json'] }, 400, 'ValidationError', /fileInfo must be valid JSON/);
    const error = await refused({ files: [image()], fileInfo: [JSON.stringify({ name: 42 })] }, 400, 'ValidationError');
    expect(error.details.errors[0].path).toEqual(['fileInfo', 'name']);
  });

  it('with an unknown ref, field or refId, a field that is not media, or half of ref/refId/field: 400', async () => {
    await refused({ files: [image()], fields: ref({ ref: 'api::nope.nope' }) }, 400, 'ValidationError', /Unknown content type/);
    await refused({ files: [image()], fields: ref({ field: 'nope' }) }, 400, 'ValidationError', /has no attribute "nope"/);
    await refused({ files: [image()], fields: ref({ field: 'title' }) }, 400, 'ValidationError', /is not a media attribute/);
    await refused({ files: [image()], fields: ref({ refId: 'doesnotexist000000000000' }) }, 400, 'ValidationError', /No api::article.article entry/);
    await refused({ files: [image()], fields: ref({ refId: '999999' }) }, 400, 'ValidationError', /No api::article.article entry with id/);
    await refused({ files: [image()], fields: { ref: 'api::article.article', field: 'cover' } }, 400, 'ValidationError', /must be given together/);
  });

  it('with several files for a single media field, or a type the field does not allow: 400', async () => {
    await refused({ files: [image('a.png'), image('b.png')], fields: ref({ field: 'cover' }) }, 400, 'ValidationError', /holds a single file/);
    const text = { bytes: 'plain text', filename: 'notes.txt', type: 'text/plain' };
    await refused({ files: [text], fields: ref({ field: 'cover' }) }, 400, 'ValidationError', /does not accept text\/plain/);
  });

  it('with image bytes that do not decode: 400 File is not a valid image', async () => {
    await refused({ files: [{ bytes: 'not a png at all', filename: 'fake.png', type: 'image/png' }] }, 400, 'ApplicationError', /^File is not a valid image$/);
    const truncated = png.slice(0, 120);
    await refused({ files: [{ bytes: truncated, filename: 'cut.png', type: 'image/png' }] }, 400, 'ApplicationError', /^File is not a valid image$/);
    const jpeg = await makeImage(50, 50, 'image/jpeg');
    await refused({ files: [image('good.png'), { bytes: jpeg.slice(0, 300), filename: 'cut.jpg' }] }, 400, 'ApplicationError', /^File is not a valid image$/);
  });

  it('with a name that cannot be a file name: 400', async () => {
    await refused({ files: [image('what?.png')] }, 400, 'ApplicationError', /^File name contains invalid characters$/);
  });

  it('over FOLIO_UPLOAD_LIMIT: 413 PayloadTooLargeError, per file and for the whole request', async () => {
    const previous = process.env.FOLIO_UPLOAD_LIMIT;
    process.env.FOLIO_UPLOAD_LIMIT = '5000';
    const small = await startServer();
    if (previous === undefined) delete process.env.FOLIO_UPLOAD_LIMIT;
    else process.env.FOLIO_UPLOAD_LIMIT = previous;
    try {
      expect(small.instance.config.uploadLimit).toBe(5000);
      await small.instance.roles.grant('public', UPLOAD_ACTIONS);
      expect((await upload(small.url, { files: [{ bytes: 'x'.repeat(4000), filename: 'fits.txt' }] })).status).toBe(201);
      await refused({ files: [{ bytes: new Uint8Array(6000), filename: 'big.bin' }] }, 413, 'PayloadTooLargeError', /^FileTooBig$/, small);
      await refused(
        {
          files: [
            { bytes: new Uint8Array(10), filename: 'ok.bin' },
            { bytes: new Uint8Array(6000), filename: 'big.bin' },
          ],
        },
        413,
        'PayloadTooLargeError',
        /^FileTooBig$/,
        small,
      );
      await refused({ files: [{ bytes: new Uint8Array(2 * 1024 * 1024), filename: 'huge.bin' }] }, 413, 'PayloadTooLargeError', /^FileTooBig$/, small);
    } finally {
      await small.stop();
    }
  });
});

describe('permissions', () => {
  it('checks plugin::upload.content-api.* per route for the public role and API tokens; /uploads stays public', async () => {
    const closed = await startServer({ publicAccess: false });
    try {
      const grant = (action: string) => closed.instance.roles.grant('public', [`plugin::upload.content-api.${action}`]);
      await refused({ files: [image()] }, 403, 'ForbiddenError', undefined, closed);
      await grant('upload');
      const uploaded = await upload(closed.url, { files: [image()] });
      expect(uploaded.status).toBe(201);
      const id = uploaded.body[0].id;
      expect((await upload(closed.url, { query: `?id=${id}`, fileInfo: ['{"caption":"c"}'] })).status).toBe(200);

      expect((await closed.call('GET', '/api/upload/files')).status).toBe(403);
      await grant('find');
      expect((await closed.call('GET', '/api/upload/files')).status).toBe(200);
      expect((await closed.call('GET', `/api/upload/files/${id}`)).status).toBe(403);
      await grant('findOne');
      expect((await closed.call('GET', `/api/upload/files/${id}`)).status).toBe(200);

      const served = await fetch(closed.url + uploaded.body[0].url);
      expect(served.status).toBe(200);

      const readOnly = { authorization: `Bearer ${closed.tokens.readOnly}` };
      const fullAccess = { authorization: `Bearer ${closed.tokens.fullAccess}` };
      await closed.instance.roles.revoke('public', ['plugin::upload.content-api.upload']);
      expect((await closed.call('GET', '/api/upload/files', { headers: readOnly })).status).toBe(200);
      expect((await upload(closed.url, { files: [image()], headers: readOnly })).status).toBe(403);
      expect((await upload(closed.url, { files: [image()], headers: fullAccess })).status).toBe(201);
      expect((await upload(closed.url, { files: [image()], headers: { authorization: 'Bearer nope' } })).status).toBe(401);

      expect((await closed.call('DELETE', `/api/upload/files/${id}`)).status).toBe(403);
      expect((await closed.call('DELETE', `/api/upload/files/${id}`, { headers: readOnly })).status).toBe(403);
      await grant('destroy');
      expect((await closed.call('DELETE', `/api/upload/files/${id}`)).status).toBe(200);
    } finally {
      await closed.stop();
    }
  });
});
