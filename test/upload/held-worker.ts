/**
 * A stand-in image worker for test/upload/image-budget.test.ts: it holds every job until
 * the test releases it, so a test decides when each image "finishes". A job's tag is the
 * byte after its PNG header (tagged() in the test); `new BroadcastChannel(HELD_CHANNEL)
 * .postMessage(tag)` answers that job, with `{ large }` (what the pool told the worker)
 * as its result.
 */
import type { ImageJob } from '../../src/upload/image-pool';

declare const self: Worker;

export const HELD_CHANNEL = 'folio-test-held-image-worker';
/** Where the tag sits: after the PNG signature (8) and the IHDR chunk (25). */
export const TAG_AT = 33;

// The test imports the constants above; only a worker holds jobs.
if (!Bun.isMainThread) {
  const held = new Map<number, ImageJob>();
  new BroadcastChannel(HELD_CHANNEL).addEventListener('message', (event) => {
    const tag = (event as { data: number }).data;
    const job = held.get(tag);
    if (!job) return;
    held.delete(tag);
    postMessage({ id: job.id, ok: true, result: { large: job.large } });
  });
  self.onmessage = (event: MessageEvent<ImageJob>) => {
    held.set(event.data.bytes[TAG_AT]!, event.data);
  };
}
