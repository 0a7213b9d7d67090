/**
 * Files served from /uploads cannot script Folio's origin: media show inline, everything
 * else is a download with a safe file name, and all of them carry `nosniff` and a
 * sandboxing CSP — also markup that reached the uploads folder before the upload policy
 * existed, or that FOLIO_UPLOAD_ALLOWED_TYPES lets in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attachmentDisposition, showsInline } from '../../src/upload/serve-headers';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload, UPLOAD_ACTIONS } from './helpers';

let server: TestServer;
let png: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  server = await startServer({ config: { uploadAllowedTypes: ['image/*', 'image/svg+xml', 'text/plain', 'application/pdf'] } });
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  png = await makeImage(300, 200);
});
afterAll(() => server.stop());

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';

async function headersOf(url: string, method: 'GET' | 'HEAD' = 'GET') {
  const res = await fetch(server.url + url, { method });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers;
}

function expectSandboxed(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp.split(';').map((d) => d.trim())).toContain('sandbox');
}

describe('GET and HEAD /uploads/<name>', () => {
  it('serves images and their formats inline, with nosniff and a sandboxing CSP', async () => {
    const [file] = (await upload(server.url, { files: [{ bytes: png, filename: 'photo.png', type: 'image/png' }] })).body;
    for (const url of [file.url, file.formats.thumbnail.url]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const headers = await headersOf(url, method);
        expect(headers.get('content-type')).toBe('image/png');
        expect(headers.get('content-disposition')).toBeNull();
        expectSandboxed(headers);
      }
    }
  });

  it('serves text and PDF as attachments named after the stored file', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const [txt, doc] = (
      await upload(server.url, {
        files: [
          { bytes: 'hello', filename: 'notes.txt', type: 'text/plain' },
          { bytes: pdf, filename: 'paper.pdf' },
        ],
      })
    ).body;
    for (const file of [txt, doc]) {
      const headers = await headersOf(file.url);
      expect(headers.get('content-disposition')).toBe(`attachment; filename="${file.hash}${file.ext}"`);
      expectSandboxed(headers);
    }
    expect((await headersOf(doc.url, 'HEAD')).get('content-disposition')).toStartWith('attachment');
  });

  it('serves an SVG allowed by FOLIO_UPLOAD_ALLOWED_TYPES as an attachment, never inline', async () => {
    const res = await upload(server.url, { files: [{ bytes: SVG, filename: 'logo.svg', type: 'image/svg+xml' }] });
    expect(res.status).toBe(201);
    for (const method of ['GET', 'HEAD'] as const) {
      const headers = await headersOf(res.body[0].url, method);
      expect(headers.get('content-type')).toBe('image/svg+xml');
      expect(headers.get('content-disposition')).toBe(`attachment; filename="${res.body[0].hash}.svg"`);
      expectSandboxed(headers);
    }
  });

  it('serves HTML and SVG already in the uploads folder (stored before the policy) as attachments', async () => {
    writeFileSync(join(server.dataDir, 'uploads', 'legacy_0123456789.svg'), SVG);
    writeFileSync(join(server.dataDir, 'uploads', 'legacy_0123456789.html'), `<html>${SVG}</html>`);
    for (const name of ['legacy_0123456789.svg', 'legacy_0123456789.html']) {
      const headers = await headersOf(`/uploads/${name}`);
      expect(headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expectSandboxed(headers);
    }
  });
});

describe('the serving rules', () => {
  it('shows only images, audio and video inline; SVG and other XML or HTML flavours are downloads', () => {
    for (const type of ['image/png', 'image/jpeg', 'audio/mpeg', 'video/mp4', 'image/webp']) expect(showsInline(type)).toBe(true);
    for (const type of [
      'image/svg+xml',
      'text/html;charset=utf-8',
      'application/pdf',
      'text/plain;charset=utf-8',
      'application/octet-stream',
      'video/vnd.foo+xml',
    ]) {
      expect(showsInline(type)).toBe(false);
    }
  });

  it('names the download with ASCII only, and the real name in filename* when it has other characters', () => {
    expect(attachmentDisposition('report_1a2b.pdf')).toBe('attachment; filename="report_1a2b.pdf"');
    expect(attachmentDisposition('a"b\\c\r\nd;.txt')).toBe(`attachment; filename="a_b_c__d_.txt"; filename*=UTF-8''a%22b%5Cc%0D%0Ad%3B.txt`);
    expect(attachmentDisposition('résumé (1).pdf')).toBe(`attachment; filename="r_sum___1_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`);
  });
});
