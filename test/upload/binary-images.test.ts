/**
 * Image formats from the compiled executable: sharp cannot load inside `bun build
 * --compile` output, so this proves the image library travels inside `dist/folio`.
 * Built as package.json's "build" script does (only --outfile differs), copied alone into
 * an empty folder, initialised, granted and served from there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeImage, sizeOf, upload, zeroPng } from './helpers';
import { decodedSize, EXT, makeEncoded } from './images-codecs';
import { buildCommand } from '../helpers/spawn';

const ROOT = resolve(import.meta.dir, '../..');
const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** The environment without Folio/Bun settings, so the binary sees only its defaults. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('FOLIO_') || k.startsWith('BUN_') || k === 'PORT' || k === 'HOST') continue;
    env[k] = v;
  }
  return env;
}

let work: string;
let folio: string;
let proc: ReturnType<typeof Bun.spawn> | undefined;
let url: string;

function run(args: string[]) {
  const result = Bun.spawnSync([folio, ...args], { cwd: work, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  if (result.exitCode !== 0) throw new Error(`folio ${args.join(' ')} exited ${result.exitCode}: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** Reads stdout until the "listening" line, within a deadline. */
async function listening(p: ReturnType<typeof Bun.spawn>): Promise<string> {
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = out.match(/^Folio listening on (http:\/\/\S+)$/m);
    if (match) {
      // Keep draining so the child never blocks on a full pipe.
      void (async () => {
        for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) break;
      })();
      return match[1]!;
    }
    const chunk = await reader.read();
    if (chunk.done) break;
    out += decoder.decode(chunk.value, { stream: true });
  }
  throw new Error(`serve did not start:\n${out}\n${await new Response(p.stderr as ReadableStream).text()}`);
}

beforeAll(async () => {
  const buildDir = tempDir('folio-img-build-');
  const build = Bun.spawnSync(buildCommand(join(buildDir, 'folio')), { cwd: ROOT, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout.toString()}\n${build.stderr.toString()}`);
  work = tempDir('folio-img-work-');
  folio = join(work, 'folio');
  copyFileSync(join(buildDir, 'folio'), folio);
  run(['init']);
  run(['permissions', 'grant', 'public', 'plugin::upload.content-api.upload', 'plugin::upload.content-api.find']);
  proc = Bun.spawn([folio, 'serve', '--port', '0'], { cwd: work, env: cleanEnv(), stdout: 'pipe', stderr: 'pipe' });
  url = await listening(proc);
}, 180_000);

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    proc.kill('SIGTERM');
    await proc.exited;
  }
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const SIZES = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };

describe('image formats in the compiled binary', () => {
  for (const mime of ['image/png', 'image/jpeg'] as const) {
    it(`makes thumbnail, large, medium and small of a 1200×800 ${mime}`, async () => {
      const ext = mime === 'image/png' ? '.png' : '.jpg';
      const res = await upload(url, { files: [{ bytes: await makeImage(1200, 800, mime), filename: `big${ext}`, type: mime }] });
      expect(res.status).toBe(201);
      const file = res.body[0];
      expect(file).toMatchObject({ width: 1200, height: 800, mime, ext });
      expect(Object.keys(file.formats)).toEqual(Object.keys(SIZES));
      for (const [key, [width, height]] of Object.entries(SIZES)) {
        expect(file.formats[key]).toMatchObject({ width, height, mime });
        const got = await fetch(url + file.formats[key].url);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe(mime);
        expect(await sizeOf(await got.arrayBuffer())).toEqual({ width, height });
      }
    }, 30_000);
  }

  // The WASM codecs (src/upload/codecs.ts) load their .wasm from the files embedded in the binary.
  for (const mime of ['image/webp', 'image/avif'] as const) {
    it(`makes thumbnail, large, medium and small of a 1200×800 ${mime}, and 400 for a truncated one`, async () => {
      const bytes = await makeEncoded(1200, 800, mime);
      const res = await upload(url, { files: [{ bytes, filename: `big${EXT[mime]}`, type: mime }] });
      expect(res.status).toBe(201);
      const file = res.body[0];
      expect(file).toMatchObject({ width: 1200, height: 800, mime, ext: EXT[mime] });
      expect(Object.keys(file.formats)).toEqual(Object.keys(SIZES));
      for (const [key, [width, height]] of Object.entries(SIZES)) {
        expect(file.formats[key]).toMatchObject({ width, height, mime });
        const got = await fetch(url + file.formats[key].url);
        expect(got.headers.get('content-type')).toBe(mime);
        expect(await decodedSize(await got.arrayBuffer(), mime)).toEqual({ width, height });
      }
      const corrupt = await upload(url, { files: [{ bytes: bytes.slice(0, bytes.length >> 1), filename: `cut${EXT[mime]}`, type: mime }] });
      expect(corrupt.status).toBe(400);
      expect(corrupt.body.error.message).toBe('File is not a valid image');
    }, 60_000);
  }

  // The image worker (src/upload/image-worker.ts) is an entrypoint of the build: inside the
  // binary the upload's image work runs on it, and the server keeps answering meanwhile.
  // On the event loop, this upload held the server 4–5 s in one block (measured from source).
  it('answers GET /_health promptly while a 3000×2000 AVIF upload is processed in the image worker', async () => {
    const bytes = await makeEncoded(3000, 2000, 'image/avif');
    let done = false;
    const uploading = upload(url, { files: [{ bytes, filename: `huge${EXT['image/avif']}`, type: 'image/avif' }] }).finally(() => (done = true));
    let answered = 0;
    let slowest = 0;
    while (!done) {
      const started = performance.now();
      const health = await fetch(`${url}/_health`);
      slowest = Math.max(slowest, performance.now() - started);
      expect(health.ok).toBe(true);
      if (!done) answered++;
    }
    const res = await uploading;
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ width: 3000, height: 2000, mime: 'image/avif' });
    expect(Object.keys(res.body[0].formats)).toEqual(Object.keys(SIZES));
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(slowest).toBeLessThan(250);
  }, 60_000);

  it('answers width/height and null formats for a small image, and 400 for a corrupt one', async () => {
    const small = await upload(url, { files: [{ bytes: await makeImage(4, 4), filename: 'dot.png' }] });
    expect(small.body[0]).toMatchObject({ width: 4, height: 4, formats: null });
    const corrupt = await upload(url, { files: [{ bytes: 'not an image', filename: 'fake.png', type: 'image/png' }] });
    expect(corrupt.status).toBe(400);
    expect(corrupt.body.error.message).toBe('File is not a valid image');
    const list = await fetch(`${url}/api/upload/files`);
    // Two PNG/JPEG uploads, a WebP, an AVIF and the large AVIF before this test, and the small PNG.
    expect(((await list.json()) as unknown[]).length).toBe(6);
  });

  // FOLIO_IMAGE_MEMORY_MB (src/upload/image-budget.ts) in the binary, at its default of 512 MiB:
  // a 186 KiB PNG that decodes to 196 MB (its formats' work ~694 MiB) is stored undecoded, while
  // the photo beside it still gets its formats from the worker. Before the budget, the binary
  // decoded it and grew by ~600 MiB.
  it.if(existsSync('/proc/self/status'))(
    'stores a 7000×7000 PNG bomb without decoding it (formats null, X-Folio-Formats-Skipped) and makes the formats of a photo beside it',
    async () => {
      const rss = () => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${proc!.pid}/status`, 'utf8'))![1]) / 1024;
      const baseline = rss();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rss())), 5);
      const res = await upload(url, {
        files: [
          { bytes: zeroPng(7000, 7000), filename: 'bomb.png', type: 'image/png' },
          { bytes: await makeImage(1200, 800), filename: 'beside.png', type: 'image/png' },
        ],
      });
      clearInterval(sampler);
      expect(res.status).toBe(201);
      const [bomb, beside] = res.body;
      expect(bomb).toMatchObject({ width: 7000, height: 7000, formats: null });
      expect(Object.keys(beside.formats)).toEqual(Object.keys(SIZES));
      expect(res.headers.get('x-folio-formats-skipped')).toBe(`${bomb.id};reason=memory`);
      expect(peak - baseline).toBeLessThan(100);
    },
    60_000,
  );
});
