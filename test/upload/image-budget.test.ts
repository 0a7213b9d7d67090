/**
 * The memory budget of image work (src/upload/image-budget.ts, image-cost.ts, image-pool.ts):
 * every image running holds its estimated cost against one budget shared by all workers; an
 * image that does not fit waits its turn in the bounded queue, in order; one that could never
 * fit is answered at once without formats (and says why), never reaching a worker. The pool
 * runs on a stand-in worker (held-worker.ts) that holds each job until the test releases it.
 */
import { afterAll, afterEach, describe, expect, it } from 'bun:test';
import { ImageBudget } from '../../src/upload/image-budget';
import { imageCost } from '../../src/upload/image-cost';
import { ImagePool } from '../../src/upload/image-pool';
import { LARGE_IMAGE_PIXELS, MAX_DECODED_PIXELS } from '../../src/upload/images';
import { HELD_CHANNEL, TAG_AT } from './held-worker';

/** The first bytes of a PNG (signature, IHDR) declaring width×height, then a tag byte for the stand-in worker. */
function pngHeader(width: number, height: number, tag = 0, depth = 8): Uint8Array {
  const bytes = new Uint8Array(TAG_AT + 1);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes[24] = depth;
  bytes[25] = 6;
  bytes[TAG_AT] = tag;
  return bytes;
}

describe('the image budget', () => {
  it('holds what it gave until released, and refuses what does not fit beside it', () => {
    const budget = new ImageBudget(100);
    expect(budget.take(60)).toBe(true);
    expect(budget.used).toBe(60);
    expect(budget.fits(40)).toBe(true);
    expect(budget.take(41)).toBe(false);
    // A refused take holds nothing.
    expect(budget.used).toBe(60);
    expect(budget.take(40)).toBe(true);
    expect(budget.used).toBe(100);
    budget.release(60);
    expect(budget.used).toBe(40);
    expect(budget.take(60)).toBe(true);
    budget.release(60);
    budget.release(40);
    expect(budget.used).toBe(0);
  });

  it('admits an image up to the whole budget and never one above it, however empty it is', () => {
    const budget = new ImageBudget(100);
    expect(budget.admits(100)).toBe(true);
    expect(budget.admits(101)).toBe(false);
    expect(budget.take(101)).toBe(false);
    // Zero (or less): nothing is ever decoded.
    expect(new ImageBudget(-5).capacity).toBe(0);
    expect(new ImageBudget(0).admits(1)).toBe(false);
  });
});

describe('the cost of an image', () => {
  it('is a multiple of its decoded bitmap plus its formats, the decoder and the file', () => {
    const header = pngHeader(4000, 3000);
    const cost = imageCost(header, 'image/png', { width: 4000, height: 3000 });
    // More than the bitmap and the four formats made from it (thumbnail, 1000, 750, 500 wide).
    const formats = (234 * 156 + 1000 * 750 + 750 * 563 + 500 * 375) * 4;
    expect(cost).toBeGreaterThan(4000 * 3000 * 4 * 3 + formats);
    // Twice the pixels, about twice the cost.
    const double = imageCost(header, 'image/png', { width: 4000, height: 6000 });
    expect(double / cost).toBeGreaterThan(1.7);
    // jpeg-js holds more per pixel than pngjs.
    expect(imageCost(header, 'image/jpeg', { width: 4000, height: 3000 })).toBeGreaterThan(cost);
  });

  it('counts a 16-bit PNG twice, a re-encoded WebP more, and not an AVIF too large to re-encode', () => {
    const size = { width: 3000, height: 2000 };
    expect(imageCost(pngHeader(3000, 2000, 0, 16), 'image/png', size) - imageCost(pngHeader(3000, 2000), 'image/png', size)).toBeGreaterThan(
      3000 * 2000 * 4 * 3,
    );
    const webp = new Uint8Array(1000);
    expect(imageCost(webp, 'image/webp', size, true)).toBeGreaterThan(imageCost(webp, 'image/webp', size, false));
    // Up to 4 megapixels an AVIF is re-encoded with FOLIO_IMAGE_OPTIMIZE; above, it is not, and costs the same.
    expect(imageCost(webp, 'image/avif', { width: 2000, height: 2000 }, true)).toBeGreaterThan(
      imageCost(webp, 'image/avif', { width: 2000, height: 2000 }, false),
    );
    expect(imageCost(webp, 'image/avif', size, true)).toBe(imageCost(webp, 'image/avif', size, false));
  });
});

describe('the image pool within its memory budget', () => {
  const pools: ImagePool[] = [];
  const release = new BroadcastChannel(HELD_CHANNEL);
  afterEach(() => {
    for (const pool of pools.splice(0)) pool.close();
  });
  afterAll(() => release.close());
  const held = new URL('./held-worker.ts', import.meta.url).href;
  /** Releases the job tagged `tag` and waits for its answer (sent again until it lands: the job may not have reached its worker yet). */
  async function finish<T>(tag: number, job: Promise<T>): Promise<T> {
    let done = false;
    job.then(
      () => (done = true),
      () => (done = true),
    );
    while (!done) {
      release.postMessage(tag);
      await Bun.sleep(5);
    }
    return job;
  }
  function poolOf(memoryBytes: number, options: { size?: number; queueLimit?: number; timeoutMs?: number } = {}) {
    const pool = new ImagePool({ size: 2, queueLimit: 8, timeoutMs: 30_000, ...options, memoryBytes, workerUrl: held });
    pools.push(pool);
    return pool;
  }
  const costOf = (width: number, height: number) => imageCost(pngHeader(width, height), 'image/png', { width, height });
  const BIG = [3000, 3000] as const;
  const SMALL = [400, 300] as const;

  it('holds an image waiting while it does not fit beside the one running, though a worker is free, and starts it when that one ends', async () => {
    const pool = poolOf(Math.floor(costOf(...BIG) * 1.5));
    const first = pool.process(pngHeader(...BIG, 1), 'image/png');
    const second = pool.process(pngHeader(...BIG, 2), 'image/png');
    expect(pool.stats).toEqual({ running: 1, queued: 1, workers: 1 });
    expect(pool.budget.used).toBe(costOf(...BIG));
    await finish(1, first);
    // Its memory went back; the waiting image got it (and a worker).
    expect(pool.stats.running).toBe(1);
    expect(pool.stats.queued).toBe(0);
    expect(pool.budget.used).toBe(costOf(...BIG));
    await finish(2, second);
    expect(pool.budget.used).toBe(0);
  });

  it('keeps the order of arrival: a small image behind a waiting large one waits too, then both run', async () => {
    const pool = poolOf(Math.floor(costOf(...BIG) * 1.5));
    const first = pool.process(pngHeader(...BIG, 1), 'image/png');
    const second = pool.process(pngHeader(...BIG, 2), 'image/png');
    const small = pool.process(pngHeader(...SMALL, 3), 'image/png');
    // The small one would fit beside the first, but the large one came before it.
    expect(pool.stats).toEqual({ running: 1, queued: 2, workers: 1 });
    await finish(1, first);
    expect(pool.stats).toEqual({ running: 2, queued: 0, workers: 2 });
    expect(pool.budget.used).toBe(costOf(...BIG) + costOf(...SMALL));
    await finish(3, small);
    await finish(2, second);
    expect(pool.budget.used).toBe(0);
  });

  it('answers an image whose cost alone is above the budget at once, without formats and saying why, and never starts a worker for it', async () => {
    const pool = poolOf(costOf(...BIG) - 1);
    const result = await pool.process(pngHeader(...BIG, 1), 'image/png');
    expect(result).toEqual({
      width: 3000,
      height: 3000,
      formats: [],
      skipped: {
        reason: 'memory',
        message: expect.stringMatching(/^3000×3000 image\/png needs about \d+ MiB to decode and resize, more than FOLIO_IMAGE_MEMORY_MB \(\d+\)$/),
      },
    });
    expect(pool.stats).toEqual({ running: 0, queued: 0, workers: 0 });
    expect(pool.budget.used).toBe(0);
    // A GIF never gets formats: not decoded either, but nothing was skipped.
    const gif = Uint8Array.of(0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x70, 0x17, 0x70, 0x17, 0, 0, 0);
    expect(await pool.process(gif, 'image/gif')).toEqual({ width: 6000, height: 6000, formats: [] });
    expect(pool.stats.workers).toBe(0);
    // Above the pixel cap, whatever the budget: `pixels`.
    const huge = await poolOf(Number.MAX_SAFE_INTEGER).process(pngHeader(10_000, MAX_DECODED_PIXELS / 10_000 + 1, 2), 'image/png');
    expect(huge).toMatchObject({ width: 10_000, formats: [], skipped: { reason: 'pixels' } });
  });

  it('counts images waiting for memory against the queue limit: one more is a 503, nothing held for it', async () => {
    const pool = poolOf(Math.floor(costOf(...BIG) * 1.5), { queueLimit: 1 });
    const first = pool.process(pngHeader(...BIG, 1), 'image/png');
    const second = pool.process(pngHeader(...BIG, 2), 'image/png');
    expect(pool.process(pngHeader(...SMALL, 3), 'image/png')).rejects.toMatchObject({
      status: 503,
      name: 'ServiceUnavailableError',
      headers: { 'retry-after': '5' },
    });
    expect(pool.stats).toEqual({ running: 1, queued: 1, workers: 1 });
    await finish(1, first);
    await finish(2, second);
    expect(pool.budget.used).toBe(0);
  });

  it('gives the memory of a job that overran back to the budget, and the waiting image runs', async () => {
    const pool = poolOf(Math.floor(costOf(...BIG) * 1.5), { timeoutMs: 200 });
    const hung = pool.process(pngHeader(...BIG, 1), 'image/png');
    const next = pool.process(pngHeader(...BIG, 2), 'image/png');
    expect(hung).rejects.toMatchObject({ status: 422, message: 'Image processing failed: it took longer than 200 ms' });
    await hung.catch(() => {});
    expect(pool.stats).toMatchObject({ running: 1, queued: 0 });
    expect(pool.budget.used).toBe(costOf(...BIG));
    await finish(2, next);
    expect(pool.budget.used).toBe(0);
  });

  it('ends the worker of a large image once it answered (its grown memory goes with it), and keeps the worker of a small one', async () => {
    expect(BIG[0] * BIG[1]).toBeGreaterThanOrEqual(LARGE_IMAGE_PIXELS);
    expect(SMALL[0] * SMALL[1]).toBeLessThan(LARGE_IMAGE_PIXELS);
    const pool = poolOf(costOf(...BIG), { size: 1 });
    const small = pool.process(pngHeader(...SMALL, 1), 'image/png');
    expect(await finish(1, small)).toEqual({ large: false } as never);
    expect(pool.stats).toEqual({ running: 0, queued: 0, workers: 1 });
    const big = pool.process(pngHeader(...BIG, 2), 'image/png');
    // The worker was told to collect its garbage before answering.
    expect(await finish(2, big)).toEqual({ large: true } as never);
    expect(pool.stats).toEqual({ running: 0, queued: 0, workers: 0 });
  });
});
