/**
 * A stand-in image worker for test/upload/image-worker.test.ts: the first byte of a job
 * says what to do. 1: throw from the handler (an uncaught error), 2: exit the thread,
 * 3: never answer; anything else answers "no image" as the real worker does for a non-image.
 */
import type { ImageJob } from '../../src/upload/image-pool';

declare const self: Worker;

self.onmessage = (event: MessageEvent<ImageJob>) => {
  const { id, bytes } = event.data;
  if (bytes[0] === 1) throw new Error('decoder exploded');
  if (bytes[0] === 2) process.exit(3);
  if (bytes[0] === 3) return;
  postMessage({ id, ok: true, result: null });
};
