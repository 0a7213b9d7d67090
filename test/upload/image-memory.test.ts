/**
 * Image work within FOLIO_IMAGE_MEMORY_MB, measured on a real server process: `folio serve`
 * runs as a child (from source), its resident memory read from /proc/<pid>/status while
 * 186 KiB PNGs that decode to 196 MB each (7000×7000, all zero, just under the 50-megapixel
 * cap) are uploaded at once. Before the budget, two of them on two workers took the server
 * from ~80 to ~1,300 MiB. Assertions are on memory, never on time. On PostgreSQL too, with
 * FOLIO_TEST_DATABASE_URL. The compiled binary: test/upload/binary-images.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { cliOutput, killSpawned, removeTempDirs, runCli, serve, tempDir, type SpawnedServer } from '../helpers/spawn';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { makeImage, upload, zeroPng } from './helpers';

const SLOW = 120_000;
const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;
const databases: string[] = [];

afterEach(killSpawned);
afterAll(async () => {
  removeTempDirs();
  if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
});

/** `folio serve` as a child process with these settings, uploads open to the public. */
async function served(env: Record<string, string>): Promise<SpawnedServer> {
  const data = tempDir('folio-image-memory-');
  const database = ADMIN_URL ? await createDatabase(ADMIN_URL, 'folio_image_memory') : undefined;
  if (database) databases.push(database);
  cliOutput(['permissions', 'grant', 'public', ...['upload', 'find', 'findOne'].map((a) => `plugin::upload.content-api.${a}`)], { data, database });
  return serve({ data, database, env });
}

/** Resident memory of a process, in MiB. */
const rssOf = (pid: number) => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Samples a process's RSS every 5 ms until stopped; answers the highest seen. */
function sampler(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

/** The server's own share while it takes a few uploads (multipart bodies, answers, the heap's slack). */
const MARGIN_MB = 100;

const SIZES = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };

let bomb: Uint8Array<ArrayBuffer>;
let photo: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  bomb = zeroPng(7000, 7000);
  photo = await makeImage(1200, 800);
}, 60_000);

describe.if(existsSync('/proc/self/status'))('image work within FOLIO_IMAGE_MEMORY_MB', () => {
  // 700 MiB: one bomb's formats fit (its estimate is ~694 MiB: src/upload/image-cost.ts), two do not.
  const BUDGET_MB = 700;

  it(
    'keeps the server within the budget while three PNG bombs and three photos are uploaded at once on two workers: all stored, every one with its formats',
    async () => {
      expect(bomb.byteLength).toBeLessThan(200 * 1024);
      const server = await served({ FOLIO_IMAGE_WORKERS: '2', FOLIO_IMAGE_MEMORY_MB: String(BUDGET_MB) });
      // A first photo loads the image library in a worker: the baseline is a server that has made formats.
      expect((await upload(server.url, { files: [{ bytes: photo, filename: 'warm.png', type: 'image/png' }] })).status).toBe(201);
      const baseline = rssOf(server.proc.pid);
      const watch = sampler(server.proc.pid);
      const answers = await Promise.all(
        [0, 1, 2].flatMap((i) => [
          upload(server.url, { files: [{ bytes: bomb, filename: `bomb-${i}.png`, type: 'image/png' }] }),
          upload(server.url, { files: [{ bytes: photo, filename: `photo-${i}.png`, type: 'image/png' }] }),
        ]),
      );
      const peak = watch.stop();
      // Right after the last answer: the workers that decoded a bomb collected it and were ended.
      const after = rssOf(server.proc.pid);
      for (const res of answers) {
        expect(res.status).toBe(201);
        expect(res.headers.get('x-folio-formats-skipped')).toBeNull();
        const file = res.body[0];
        expect(Object.keys(file.formats)).toEqual(Object.keys(SIZES));
        expect(file.name.startsWith('bomb') ? [file.width, file.height] : [file.formats.large.width, file.formats.large.height]).toEqual(
          file.name.startsWith('bomb') ? [7000, 7000] : [1000, 667],
        );
      }
      expect(peak - baseline).toBeLessThan(BUDGET_MB + MARGIN_MB);
      expect(after - baseline).toBeLessThan(150);
    },
    SLOW,
  );

  it(
    'stores a PNG bomb that alone needs more than the budget without decoding it: formats null, named in X-Folio-Formats-Skipped and the log; a photo beside it gets its formats',
    async () => {
      // The default budget, 512 MiB: below one bomb's ~694.
      const server = await served({});
      expect((await upload(server.url, { files: [{ bytes: photo, filename: 'warm.png', type: 'image/png' }] })).status).toBe(201);
      const baseline = rssOf(server.proc.pid);
      const watch = sampler(server.proc.pid);
      const res = await upload(server.url, {
        files: [
          { bytes: bomb, filename: 'bomb.png', type: 'image/png' },
          { bytes: photo, filename: 'photo.png', type: 'image/png' },
        ],
      });
      const peak = watch.stop();
      expect(res.status).toBe(201);
      const [stored, beside] = res.body;
      // Strapi's shape for an image it made no formats of; its size comes from the header.
      expect(stored).toMatchObject({ name: 'bomb.png', width: 7000, height: 7000, formats: null, mime: 'image/png' });
      expect(Object.keys(beside.formats)).toEqual(Object.keys(SIZES));
      expect(res.headers.get('x-folio-formats-skipped')).toBe(`${stored.id};reason=memory`);
      // Never decoded: the server did not grow by anything like a bitmap (196 MB).
      expect(peak - baseline).toBeLessThan(MARGIN_MB);
      // The original is stored as uploaded, and reads back as it was answered.
      const original = await fetch(server.url + stored.url);
      expect(new Uint8Array(await original.arrayBuffer())).toEqual(bomb);
      expect((await server.call('GET', `/api/upload/files/${stored.id}`)).body).toMatchObject({ width: 7000, formats: null });
      // Replacing a file with a bomb says so the same way.
      const replaced = await upload(server.url, { query: `?id=${beside.id}`, files: [{ bytes: bomb, filename: 'bomb-2.png', type: 'image/png' }] });
      expect(replaced.status).toBe(200);
      // Strapi answers a replaced file without formats as formats {} (upload/service.ts).
      expect(replaced.body).toMatchObject({ id: beside.id, formats: {}, width: 7000 });
      expect(replaced.headers.get('x-folio-formats-skipped')).toBe(`${beside.id};reason=memory`);
      expect(await server.stop()).toBe(0);
      expect(server.stderr()).toMatch(
        /Image formats skipped for bomb\.png: 7000×7000 image\/png needs about \d+ MiB to decode and resize, more than FOLIO_IMAGE_MEMORY_MB \(512\); stored without formats/,
      );
    },
    SLOW,
  );
});

describe('FOLIO_IMAGE_MEMORY_MB', () => {
  it(
    'stops serve before it listens when it is not a whole number of MiB',
    () => {
      for (const bad of ['lots', '-1', '1.5']) {
        // Wrapped in `timeout`: a server that ignored the variable would serve on.
        const run = runCli(['serve', '--port', '0'], { env: { FOLIO_IMAGE_MEMORY_MB: bad }, wrap: ['timeout', '20'] });
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain(`FOLIO_IMAGE_MEMORY_MB must be a non-negative integer, got "${bad}"`);
        expect(run.stdout).not.toContain('Folio listening');
      }
    },
    SLOW,
  );
});
