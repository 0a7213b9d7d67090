/**
 * Long names: a file name any file system allows (255 bytes) is stored under a shortened
 * name on disk with the whole original in `name`; names over 255 characters — the multipart
 * file name or `fileInfo.name` — are a 400 checked before any pattern looks at them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { MAX_NAME_LENGTH, MAX_SLUG_LENGTH, slugForHash } from '../../src/upload/naming';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, storedFiles, upload, UPLOAD_ACTIONS, type UploadRequest } from './helpers';

let server: TestServer;
let png: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(300, 200);
});
afterAll(() => server.stop());

const diskNamesFit = () => {
  for (const name of storedFiles(server.dataDir)) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
};

async function stored() {
  return { rows: (await server.call('GET', '/api/upload/files')).body.length, disk: storedFiles(server.dataDir) };
}

async function refused(request: UploadRequest, message: string | RegExp) {
  const before = await stored();
  const res = await upload(server.url, request);
  expect(res.status).toBe(400);
  expect(res.body.data).toBeNull();
  expect(res.body.error.name).toBe('ValidationError');
  expect(res.body.error.message).toMatch(message);
  expect(await stored()).toEqual(before);
  return res.body.error;
}

describe('long file names', () => {
  it('stores a 250-character file name under a shortened name on disk, the whole name kept in name', async () => {
    const filename = `${'a'.repeat(120)}${'B'.repeat(126)}.png`;
    expect(filename).toHaveLength(250);
    const res = await upload(server.url, { files: [{ bytes: png, filename, type: 'image/png' }] });
    expect(res.status).toBe(201);
    const [file] = res.body;
    expect(file.name).toBe(filename);
    expect(file.hash.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH + 11);
    expect(file.hash).toMatch(/^a+_B+_[0-9a-f]{10}$/);
    expect(file.formats.thumbnail.name).toBe(`thumbnail_${filename}`);
    for (const url of [file.url, file.formats.thumbnail.url]) expect((await fetch(server.url + url)).status).toBe(200);
    diskNamesFit();

    // Replacing writes the new bytes under new names: they must fit too.
    const replaced = await upload(server.url, { query: `?id=${file.id}`, files: [{ bytes: png, filename, type: 'image/png' }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: file.id, name: filename });
    expect(replaced.body.hash).toMatch(/^a+_B+_[0-9a-f]{10}$/);
    diskNamesFit();
  });

  it('counts bytes, not characters, for multi-byte names and extensions', async () => {
    const cjk = `${'文'.repeat(80)}.txt`; // 244 bytes
    const longExt = `notes.${'文'.repeat(20)}`; // a 61-byte "extension" is part of the name
    const res = await upload(server.url, {
      files: [
        { bytes: 'hello', filename: cjk, type: 'text/plain' },
        { bytes: 'hello', filename: longExt, type: 'text/plain' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.map((f: { name: string }) => f.name)).toEqual([cjk, longExt]);
    expect(res.body.map((f: { ext: string }) => f.ext)).toEqual(['.txt', '.txt']);
    diskNamesFit();
  });

  it('refuses a file name over 255 characters with a 400, storing nothing', async () => {
    const error = await refused(
      { files: [{ bytes: 'hello', filename: `${'n'.repeat(MAX_NAME_LENGTH - 3)}.txt`, type: 'text/plain' }] },
      /^File name is too long \(at most 255 characters\)$/,
    );
    expect(error.details).toMatchObject({ maxLength: 255, length: 256 });
  });
});

describe('fileInfo.name', () => {
  it('takes 255 characters', async () => {
    const name = `${'x'.repeat(251)}.png`;
    const res = await upload(server.url, { files: [{ bytes: png, filename: 'short.png' }], fileInfo: [JSON.stringify({ name })] });
    expect(res.status).toBe(201);
    expect(res.body[0].name).toBe(name);
    diskNamesFit();
  });

  it('refuses 40,000 characters with a 400 on upload and on ?id=N, leaving the file as it was', async () => {
    const name = 'aB'.repeat(20_000);
    const error = await refused(
      { files: [{ bytes: png, filename: 'pic.png' }], fileInfo: [JSON.stringify({ name })] },
      /^name must be at most 255 characters$/,
    );
    expect(error.details.errors[0].path).toEqual(['fileInfo', 'name']);
    expect(error.details.errors[0].value.length).toBeLessThan(40);

    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'kept.png' }] })).body;
    const update = await upload(server.url, { query: `?id=${file.id}`, fileInfo: [JSON.stringify({ name })] });
    expect(update.status).toBe(400);
    expect(update.body.error.message).toBe('name must be at most 255 characters');
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).body.name).toBe('kept.png');
  });

  it('refuses text that cannot be stored (NUL, a lone surrogate) in name, alternativeText or caption', async () => {
    await refused(
      { files: [{ bytes: png, filename: 'a.png' }], fileInfo: [JSON.stringify({ name: 'a\u0000b.png' })] },
      /^name must not contain NUL characters$/,
    );
    await refused(
      { files: [{ bytes: png, filename: 'a.png' }], fileInfo: [JSON.stringify({ caption: 'x\ud800' })] },
      /^caption must not contain unpaired UTF-16 surrogates$/,
    );
    await refused(
      { files: [{ bytes: png, filename: 'a.png' }], fileInfo: [JSON.stringify({ alternativeText: '\u0000' })] },
      /^alternativeText must not contain NUL/,
    );
  });
});

describe('slugs of long names', () => {
  it('are made in linear time: 100,000 characters that defeat a backtracking pattern finish at once', () => {
    // The earlier patterns took seconds here (quadratic); the default 5 s test timeout is the bound.
    expect(slugForHash('a'.repeat(100_000))).toHaveLength(100_000);
    expect(slugForHash('A'.repeat(100_000))).toHaveLength(100_000);
    expect(slugForHash(`${'_'.repeat(100_000)}x`)).toBe('x');
  });
});
