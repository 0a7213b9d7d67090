/**
 * Uploads are safe by default (the upload policy, src/upload/policy.ts): executables,
 * scripts, HTML, SVG and unknown binaries are refused whether their bytes, their name or
 * their declared type gives them away; a request with one refused file stores nothing;
 * FOLIO_UPLOAD_ALLOWED_TYPES / FOLIO_UPLOAD_DENIED_TYPES change the lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolveConfig } from '../../src/config';
import { declaredPartTypes } from '../../src/upload/multipart';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, storedFiles, upload, UPLOAD_ACTIONS, type Part, type UploadRequest } from './helpers';

let server: TestServer;
let png: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(8, 8);
});
afterAll(() => server.stop());

const text = (s: string) => new TextEncoder().encode(s);

/** The first bytes of a Windows PE executable: `MZ`, the PE offset, `PE\0\0`. */
function windowsExe(): Uint8Array {
  const bytes = new Uint8Array(512);
  bytes.set(text('MZ'), 0);
  bytes[0x3c] = 0x80;
  bytes.set(text('PE\0\0'), 0x80);
  return bytes;
}
/** An OLE compound file: legacy Word, Excel and PowerPoint documents, and Windows installers (MSI). */
function compoundFile(): Uint8Array {
  const bytes = new Uint8Array(1024);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  return bytes;
}
const ELF = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Uint8Array(56)]);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
const HTML = '<!DOCTYPE html><html><script>alert(document.domain)</script></html>';

/** Every row the API lists, and every name on disk. */
async function stored(s: TestServer) {
  const list = await s.call('GET', '/api/upload/files');
  expect(list.status).toBe(200);
  return { rows: list.body.map((f: { id: number }) => f.id), disk: storedFiles(s.dataDir) };
}

/** Sends the request, expects a 400 ValidationError naming the file and the type, and nothing stored. */
async function refusedType(request: UploadRequest, fileName: string, type: string, s = server) {
  const before = await stored(s);
  const res = await upload(s.url, request);
  expect(res.status).toBe(400);
  expect(res.body.data).toBeNull();
  expect(res.body.error).toMatchObject({
    status: 400,
    name: 'ValidationError',
    message: `File type '${type}' is not allowed (file ${JSON.stringify(fileName)})`,
  });
  expect(res.body.error.details).toMatchObject({ fileName, finalType: type });
  expect(await stored(s)).toEqual(before);
  return res.body.error;
}

const one = (part: Part): UploadRequest => ({ files: [part] });

describe('the default upload policy', () => {
  it('refuses a Windows executable, whether named .exe or posing as an image or a text file', async () => {
    await refusedType(one({ bytes: windowsExe(), filename: 'setup.exe', type: 'application/x-msdownload' }), 'setup.exe', 'application/x-msdownload');
    await refusedType(one({ bytes: windowsExe(), filename: 'holiday.png', type: 'image/png' }), 'holiday.png', 'application/x-msdownload');
    await refusedType(one({ bytes: windowsExe(), filename: 'readme.txt', type: 'text/plain' }), 'readme.txt', 'application/x-msdownload');
    await refusedType(one({ bytes: ELF, filename: 'tool', type: '' }), 'tool', 'application/x-elf');
    await refusedType(one({ bytes: compoundFile(), filename: 'setup.msi', type: '' }), 'setup.msi', 'application/x-msdownload');
    await refusedType(one({ bytes: compoundFile(), filename: 'container', type: '' }), 'container', 'application/x-cfb');
  });

  it('refuses a file whose name alone is an executable or a script, whatever its bytes', async () => {
    await refusedType(one({ bytes: 'hello', filename: 'run.exe', type: 'text/plain' }), 'run.exe', 'application/x-msdownload');
    await refusedType(one({ bytes: 'echo hi', filename: 'run.sh', type: 'text/plain' }), 'run.sh', 'application/x-sh');
    await refusedType(one({ bytes: 'Write-Host hi', filename: 'run.ps1', type: 'text/plain' }), 'run.ps1', 'application/x-powershell');
    await refusedType(one({ bytes: 'alert(1)', filename: 'app.js', type: 'text/plain' }), 'app.js', 'text/javascript');
    await refusedType(one({ bytes: '<?php echo 1;', filename: 'shell.php', type: 'image/png' }), 'shell.php', 'application/x-httpd-php');
  });

  it('refuses SVG and HTML by content, by name or by declared type', async () => {
    await refusedType(one({ bytes: SVG, filename: 'logo.svg', type: 'image/svg+xml' }), 'logo.svg', 'image/svg+xml');
    await refusedType(one({ bytes: SVG, filename: 'logo.txt', type: 'text/plain' }), 'logo.txt', 'image/svg+xml');
    await refusedType(one({ bytes: `<?xml version="1.0"?>\n${SVG}`, filename: 'logo.xml', type: '' }), 'logo.xml', 'image/svg+xml');
    await refusedType(one({ bytes: HTML, filename: 'page.html', type: 'text/html' }), 'page.html', 'text/html');
    await refusedType(one({ bytes: HTML, filename: 'notes.txt', type: 'text/plain' }), 'notes.txt', 'text/html');
    await refusedType(one({ bytes: 'just words', filename: 'notes.txt', type: 'text/html' }), 'notes.txt', 'text/html');
    await refusedType(one({ bytes: png, filename: 'pic.html', type: 'image/png' }), 'pic.html', 'text/html');
    await refusedType(one({ bytes: '#!/bin/sh\nrm -rf ~', filename: 'notes.txt', type: 'text/plain' }), 'notes.txt', 'application/x-sh');
  });

  it('refuses an unknown binary type (octet-stream) and an unknown declared type', async () => {
    await refusedType(
      one({ bytes: new Uint8Array([0, 1, 2, 3, 0xff, 0xfe]), filename: 'blob.bin', type: 'application/octet-stream' }),
      'blob.bin',
      'application/octet-stream',
    );
    await refusedType(one({ bytes: new Uint8Array([0, 1, 2, 3, 0xff, 0xfe]), filename: 'blob', type: '' }), 'blob', 'application/octet-stream');
    await refusedType(one({ bytes: 'data', filename: 'data', type: 'application/x-custom' }), 'data', 'application/x-custom');
  });

  it('lists the type details as Strapi does: detected, declared and the lists in force', async () => {
    const error = await refusedType(one({ bytes: windowsExe(), filename: 'x.png', type: 'image/png' }), 'x.png', 'application/x-msdownload');
    expect(error.details).toMatchObject({ detectedType: 'application/x-msdownload', declaredType: 'image/png', extensionType: 'image/png' });
    expect(error.details.allowedTypes).toContain('image/*');
    expect(error.details.deniedTypes).toEqual([]);
  });

  it('stores plain text, CSV, JSON, Markdown, PDF, zip, office documents and media', async () => {
    const pdf = text('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Uint8Array(18)]); // an empty zip archive
    const mp3 = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64, ...new Uint8Array(400)]);
    const parts: [Part, string][] = [
      [{ bytes: 'hello, world', filename: 'hello.txt', type: 'text/plain' }, 'text/plain'],
      [{ bytes: 'just text, no extension', filename: 'README', type: '' }, 'text/plain'],
      [{ bytes: 'a,b\n1,2\n', filename: 'table.csv', type: 'application/vnd.ms-excel' }, 'text/csv'],
      [{ bytes: '{"a":1}', filename: 'data.json', type: 'application/json' }, 'application/json'],
      [{ bytes: '# Title\n', filename: 'doc.md', type: 'text/markdown' }, 'text/markdown'],
      [{ bytes: pdf, filename: 'paper.pdf', type: 'application/pdf' }, 'application/pdf'],
      [{ bytes: zip, filename: 'bundle.zip', type: 'application/x-zip-compressed' }, 'application/zip'],
      [{ bytes: 'not really parsed', filename: 'letter.docx', type: '' }, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [{ bytes: compoundFile(), filename: 'legacy.doc', type: 'application/msword' }, 'application/msword'],
      [{ bytes: mp3, filename: 'song.mp3', type: 'audio/mpeg' }, 'audio/mpeg'],
      [{ bytes: png, filename: 'dot.png', type: 'image/png' }, 'image/png'],
    ];
    const res = await upload(server.url, { files: parts.map(([part]) => part) });
    expect(res.status).toBe(201);
    expect(res.body.map((f: { mime: string }) => f.mime)).toEqual(parts.map(([, mime]) => mime));
    expect(res.body[1].ext).toBe('.txt');
  });

  it('refuses a request mixing an allowed and a refused file, and stores neither', async () => {
    const request = {
      files: [
        { bytes: png, filename: 'fine.png', type: 'image/png' },
        { bytes: HTML, filename: 'evil.html', type: 'text/html' },
      ],
    };
    await refusedType(request, 'evil.html', 'text/html');
    const reversed = {
      files: [
        { bytes: SVG, filename: 'evil.svg', type: 'image/svg+xml' },
        { bytes: 'fine', filename: 'fine.txt', type: 'text/plain' },
      ],
    };
    await refusedType(reversed, 'evil.svg', 'image/svg+xml');
  });

  it('refuses one fileInfo object for several files with a 400, storing nothing', async () => {
    const before = await stored(server);
    const res = await upload(server.url, {
      files: [
        { bytes: png, filename: 'a.png', type: 'image/png' },
        { bytes: 'b', filename: 'b.txt', type: 'text/plain' },
      ],
      fileInfo: [JSON.stringify({ caption: 'which one?' })],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect(res.body.error.details.errors[0].path).toEqual(['fileInfo']);
    expect(await stored(server)).toEqual(before);
  });

  it('refuses a replacement (?id=N) of a refused type and keeps the old content', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'keep.png', type: 'image/png' }] })).body;
    await refusedType({ query: `?id=${file.id}`, files: [{ bytes: HTML, filename: 'keep.html', type: 'text/html' }] }, 'keep.html', 'text/html');
    const served = await fetch(server.url + file.url);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect((await server.call('GET', `/api/upload/files/${file.id}`)).body).toMatchObject({ mime: 'image/png', name: 'keep.png' });
  });
});

describe('FOLIO_UPLOAD_ALLOWED_TYPES and FOLIO_UPLOAD_DENIED_TYPES', () => {
  function withEnv<T>(vars: Record<string, string>, fn: () => T): T {
    const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      return fn();
    } finally {
      for (const [k, v] of Object.entries(previous)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }

  it('are read as comma-separated, lower-cased MIME patterns; anything else stops the start', () => {
    const config = withEnv({ FOLIO_UPLOAD_ALLOWED_TYPES: ' image/*, Application/PDF ,', FOLIO_UPLOAD_DENIED_TYPES: 'image/gif' }, () => resolveConfig());
    expect(config.uploadAllowedTypes).toEqual(['image/*', 'application/pdf']);
    expect(config.uploadDeniedTypes).toEqual(['image/gif']);
    expect(resolveConfig().uploadAllowedTypes).toBeUndefined();
    expect(() => withEnv({ FOLIO_UPLOAD_ALLOWED_TYPES: 'images' }, () => resolveConfig())).toThrow(/FOLIO_UPLOAD_ALLOWED_TYPES must list MIME patterns/);
  });

  it('narrow the policy: only images and PDF, and no GIF', async () => {
    const narrow = await startServer({ config: { uploadAllowedTypes: ['image/*', 'application/pdf'], uploadDeniedTypes: ['image/gif'] } });
    try {
      await narrow.instance.roles.grant('public', UPLOAD_ACTIONS);
      expect((await upload(narrow.url, one({ bytes: png, filename: 'ok.png', type: 'image/png' }))).status).toBe(201);
      await refusedType(one({ bytes: 'words', filename: 'notes.txt', type: 'text/plain' }), 'notes.txt', 'text/plain', narrow);
      const gif = text('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
      const error = await refusedType(one({ bytes: gif, filename: 'anim.gif', type: 'image/gif' }), 'anim.gif', 'image/gif', narrow);
      expect(error.details).toMatchObject({ allowedTypes: ['image/*', 'application/pdf'], deniedTypes: ['image/gif'] });
    } finally {
      await narrow.stop();
    }
  });

  it('let a dangerous type in only when they name it exactly: image/* or * never admits SVG or executables', async () => {
    const wide = await startServer({ config: { uploadAllowedTypes: ['*'] } });
    const svg = await startServer({ config: { uploadAllowedTypes: ['image/*', 'image/svg+xml'] } });
    try {
      for (const s of [wide, svg]) await s.instance.roles.grant('public', UPLOAD_ACTIONS);
      expect((await upload(wide.url, one({ bytes: new Uint8Array([0, 1, 2]), filename: 'blob.bin' }))).status).toBe(201);
      await refusedType(one({ bytes: SVG, filename: 'logo.svg', type: 'image/svg+xml' }), 'logo.svg', 'image/svg+xml', wide);
      await refusedType(one({ bytes: windowsExe(), filename: 'setup.exe' }), 'setup.exe', 'application/x-msdownload', wide);
      const stored = await upload(svg.url, one({ bytes: `<?xml version="1.0"?>\n${SVG}`, filename: 'logo.svg', type: 'image/svg+xml' }));
      expect(stored.status).toBe(201);
      expect(stored.body[0]).toMatchObject({ mime: 'image/svg+xml', ext: '.svg' });
    } finally {
      await Promise.all([wide.stop(), svg.stop()]);
    }
  });
});

describe('the declared type of a multipart part', () => {
  const raw = (boundary: string, parts: string[]) => `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;

  it("is read from the part headers, which Bun's formData() drops (a .txt declared text/html is refused)", async () => {
    const body = raw('X-B', ['Content-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/html\r\n\r\nhello']);
    const before = await stored(server);
    const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body, headers: { 'content-type': 'multipart/form-data; boundary="X-B"' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toBe(`File type 'text/html' is not allowed (file "a.txt")`);
    expect(await stored(server)).toEqual(before);
  });

  it('is listed per file part in body order, skipping other fields and the name inside filename', () => {
    const body = raw('b0undary', [
      'Content-Disposition: form-data; name="fileInfo"\r\n\r\n{}',
      'content-disposition: form-data; filename="files"; name="files"\r\ncontent-type: image/png\r\n\r\n\x89PNG',
      'Content-Disposition: form-data; name="files"; filename="b"\r\n\r\n',
      'Content-Disposition: form-data; name=files; filename="c.txt"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n--b0undar',
    ]);
    expect(declaredPartTypes(text(body), 'multipart/form-data; boundary=b0undary', 'files')).toEqual(['image/png', '', 'text/plain; charset=utf-8']);
    expect(declaredPartTypes(text(body), 'multipart/form-data', 'files')).toBeUndefined();
  });
});
