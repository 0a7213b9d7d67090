/**
 * The image worker's entry: decoding, resizing and encoding (jimp, and the WASM codecs of
 * codecs.ts) run here, on a thread of their own, so an upload's 0.5–2 s of image work never
 * holds the server's event loop. image-pool.ts starts it; `npm run build` names this file as
 * a second entrypoint so `dist/folio` carries it (a worker file is not bundled otherwise).
 *
 * One job at a time: the pool sends the next only after this one answered (after a large
 * one it ends this worker instead). Errors travel back as plain data (a FolioError's
 * status, name, message, details) because an Error instance loses its class on the way.
 */
import { FolioError } from '../errors';
import { processImage } from './images';
import type { ImageJob, ImageAnswer } from './image-pool';

declare const self: Worker;

self.onmessage = async (event: MessageEvent<ImageJob>) => {
  const { id, bytes, mime, optimize, large } = event.data;
  let answer: ImageAnswer;
  try {
    answer = { id, ok: true, result: await processImage(bytes, mime, { optimize }) };
  } catch (error) {
    const e = error as Error;
    answer = {
      id,
      ok: false,
      error: e instanceof FolioError ? { status: e.status, name: e.name, message: e.message, details: e.details } : { message: e?.message ?? String(error) },
    };
  }
  // A large image's garbage (decoded bitmaps, the decoder's copies) is collected before the
  // answer: the pool gives its memory back to the budget on the answer, and ends this worker.
  if (large) Bun.gc(true);
  // No transfer list: jimp's small buffers may share one pooled ArrayBuffer, and the copy
  // of a few encoded formats costs far less than the work that made them.
  postMessage(answer);
};
