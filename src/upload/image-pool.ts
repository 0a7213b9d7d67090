/**
 * Image work off the event loop: a small pool of workers (image-worker.ts) that decode,
 * resize and encode uploads, with a bounded queue. The server's thread only posts the bytes
 * and waits, so a 12-megapixel AVIF no longer holds every other request for a second or two.
 *
 * - At most `size` workers, started on first use; an idle one is unref'd (it never keeps a
 *   CLI command or a test alive) and ended after IDLE_MS, releasing its WASM memory.
 * - Memory: every image running holds its estimated cost (image-cost.ts) against one budget
 *   shared by all workers (`memoryBytes`, FOLIO_IMAGE_MEMORY_MB: image-budget.ts). An image
 *   that does not fit beside those running waits its turn in the queue (first come, first
 *   served); one whose cost alone is above the budget, or whose canvas is above
 *   MAX_DECODED_PIXELS, is never decoded: it is answered at once with its header's width
 *   and height, no formats, and why (`skipped`). A worker that ran a large image is ended
 *   once it answered, so the memory it grew goes back to the system with it.
 * - At most `queueLimit` jobs wait (for a worker or for memory); one more is a 503 with
 *   Retry-After, refused before anything is stored.
 * - A job that overruns `timeoutMs`, or a worker that crashes, fails that upload with a 422
 *   naming the reason; the worker is ended and the next queued job gets a fresh one.
 */
import { FolioError, ServiceUnavailableError } from '../errors';
import { DEFAULT_IMAGE_MEMORY_MB, ImageBudget } from './image-budget';
import { imageCost } from './image-cost';
import { headerSize } from './image-size';
import { getsFormats, isProcessable, LARGE_IMAGE_PIXELS, MAX_DECODED_PIXELS, type ImageResult, type SkippedFormats } from './images';

export interface ImageJob {
  id: number;
  bytes: Uint8Array;
  mime: string;
  optimize: boolean;
  /** A large image: the worker collects its garbage before it answers (and is ended after). */
  large: boolean;
}

export type ImageAnswer =
  | { id: number; ok: true; result: ImageResult | null }
  | { id: number; ok: false; error: { status?: number; name?: string; message: string; details?: Record<string, unknown> } };

export interface ImagePoolOptions {
  /** Workers at most (FOLIO_IMAGE_WORKERS). */
  size: number;
  /** Jobs that may wait for a worker (FOLIO_IMAGE_QUEUE); beyond: 503. */
  queueLimit: number;
  /** Longest one image may take (FOLIO_IMAGE_TIMEOUT_MS); beyond: the worker is ended, 422. */
  timeoutMs: number;
  /** Bytes all running images may hold together (FOLIO_IMAGE_MEMORY_MB); default DEFAULT_IMAGE_MEMORY_MB. */
  memoryBytes?: number;
  /** Another worker module (tests: one that crashes). */
  workerUrl?: string;
}

/** An idle worker is ended after this long: its heap and WASM memory go back. */
const IDLE_MS = 30_000;
/** Seconds a client is told to wait when the queue is full. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Where the worker module is. From source, beside this file. In `dist/folio` the bundle's
 * import.meta.url is the executable's (`/$bunfs/root/folio`), not this file's, and Bun
 * resolves a relative worker path against the embedded entrypoints' common root (src/): the
 * build names `src/upload/image-worker.ts` as an entrypoint (package.json "build").
 */
export const WORKER_URL = import.meta.url.includes('/$bunfs/') ? './upload/image-worker.ts' : new URL('./image-worker.ts', import.meta.url).href;

/** The default pool size: one core left to the server, at most two (each may hold a 200 MB bitmap). */
export const defaultImageWorkers = () => Math.max(1, Math.min(2, navigator.hardwareConcurrency - 1));

export const imageFailed = (reason: string) => new FolioError(422, 'ApplicationError', `Image processing failed: ${reason}`);

interface Pending {
  job: ImageJob;
  /** Estimated bytes its work holds (image-cost.ts), held in the budget while it runs. */
  cost: number;
  resolve: (result: ImageResult | null) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  running?: Pending & { timer: ReturnType<typeof setTimeout> };
  idleTimer?: ReturnType<typeof setTimeout>;
}

function errorOf(error: Extract<ImageAnswer, { ok: false }>['error']): Error {
  // A FolioError (e.g. "File is not a valid image") keeps its status; anything else is unexpected.
  if (error.status !== undefined && error.name) return new FolioError(error.status, error.name, error.message, error.details ?? {});
  return new Error(`image worker: ${error.message}`);
}

const MiB = 1024 * 1024;

export class ImagePool {
  /** The memory running images hold, shared by every worker (tests read `used`). */
  readonly budget: ImageBudget;
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private options: ImagePoolOptions) {
    // Zero workers would queue forever; a zero timeout would fail every image.
    this.options = { ...options, size: Math.max(1, options.size), timeoutMs: Math.max(1, options.timeoutMs) };
    this.budget = new ImageBudget(options.memoryBytes ?? DEFAULT_IMAGE_MEMORY_MB * MiB);
  }

  /** Jobs running and waiting, and live workers (tests wait on `running` to know an upload is being processed). */
  get stats() {
    return { running: this.slots.filter((s) => s.running).length, queued: this.queue.length, workers: this.slots.length };
  }

  /**
   * Width, height and formats of an upload (images.ts processImage), computed in a worker;
   * null for a type no image work applies to. An image too large to decode (pixels) or to
   * fit the memory budget at all is answered at once: its header's size, no formats, and `skipped`.
   */
  process(bytes: Uint8Array, mime: string, { optimize = false } = {}): Promise<ImageResult | null> {
    if (!isProcessable(mime)) return Promise.resolve(null);
    // Unreadable header: the worker decides (it refuses the bytes as not an image), at the file's cost.
    const size = headerSize(bytes, mime);
    const cost = size ? imageCost(bytes, mime, size, optimize) : bytes.byteLength;
    // Not decoded: the header's size, no formats, and why (for an image that would have had formats).
    const undecoded = (skipped: SkippedFormats) =>
      Promise.resolve({ ...size!, formats: [], ...(getsFormats(mime, size!.width, size!.height) ? { skipped } : {}) });
    if (size && size.width * size.height > MAX_DECODED_PIXELS) {
      return undecoded({ reason: 'pixels', message: `${size.width}×${size.height} is over ${MAX_DECODED_PIXELS / 1e6} megapixels, which are never decoded` });
    }
    if (size && !this.budget.admits(cost)) {
      const message = `${size.width}×${size.height} ${mime} needs about ${Math.ceil(cost / MiB)} MiB to decode and resize, more than FOLIO_IMAGE_MEMORY_MB (${Math.floor(this.budget.capacity / MiB)})`;
      return undecoded({ reason: 'memory', message });
    }
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new ServiceUnavailableError('The server is shutting down'));
      // Full when as many wait as may, unless this one can start now (nobody ahead of it, room for it).
      const startsNow = this.queue.length === 0 && this.budget.fits(cost) && (this.slots.some((s) => !s.running) || this.slots.length < this.options.size);
      if (!startsNow && this.queue.length >= this.options.queueLimit) {
        return reject(new ServiceUnavailableError('Too many images are being processed, please retry', RETRY_AFTER_SECONDS));
      }
      // A large image's worker is ended after it rather than kept with what it grew (below, a
      // fresh worker and its WASM compilation would cost more than they give back).
      const large = !!size && size.width * size.height >= LARGE_IMAGE_PIXELS;
      this.queue.push({ job: { id: this.nextId++, bytes, mime, optimize, large }, cost, resolve, reject });
      this.pump();
    });
  }

  /** Ends every worker; waiting jobs fail with a 503. */
  close() {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new ServiceUnavailableError('The server is shutting down'));
    for (const slot of [...this.slots]) this.lost(slot, new ServiceUnavailableError('The server is shutting down'));
  }

  /**
   * Starts waiting jobs in their order while the first fits: a free worker (or room for one)
   * and room in the budget. The first job that does not fit holds back the ones behind it,
   * so a large image is never passed over forever by a stream of small ones.
   */
  private pump() {
    while (!this.closed && this.queue.length > 0) {
      const next = this.queue[0]!;
      if (!this.budget.fits(next.cost)) return;
      const slot = this.slots.find((s) => !s.running) ?? (this.slots.length < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      this.queue.shift();
      this.budget.take(next.cost);
      this.start(slot, next);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.workerUrl ?? WORKER_URL);
    const slot: Slot = { worker };
    worker.addEventListener('message', (event: MessageEvent<ImageAnswer>) => this.answered(slot, event.data));
    // Bun's message quotes the worker's source around the throw: not for an API answer.
    worker.addEventListener('error', () => this.lost(slot, 'the image worker crashed'));
    // A worker that exits (process.exit, out of memory) without an error event.
    worker.addEventListener('close', () => this.lost(slot, 'the image worker stopped'));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, pending: Pending) {
    clearTimeout(slot.idleTimer);
    // Busy, the worker keeps the process alive: a CLI command waits for its image.
    slot.worker.ref();
    const timer = setTimeout(() => this.lost(slot, `it took longer than ${this.options.timeoutMs} ms`), this.options.timeoutMs);
    slot.running = { ...pending, timer };
    slot.worker.postMessage(pending.job);
  }

  /** The job's end, however it ended: its timer stops and its memory goes back to the budget. */
  private finish(slot: Slot) {
    const running = slot.running;
    if (!running) return undefined;
    clearTimeout(running.timer);
    slot.running = undefined;
    this.budget.release(running.cost);
    return running;
  }

  private answered(slot: Slot, answer: ImageAnswer) {
    if (!slot.running || slot.running.job.id !== answer.id) return;
    const running = this.finish(slot)!;
    if (answer.ok) running.resolve(answer.result);
    else running.reject(errorOf(answer.error));
    // A large image's worker goes with the memory it grew; the next job gets a fresh one.
    if (running.job.large) this.retire(slot);
    else this.idle(slot);
    this.pump();
  }

  /** A worker with nothing to do: unref'd, ended after IDLE_MS unless a job comes first. */
  private idle(slot: Slot) {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => this.retire(slot), IDLE_MS);
    slot.idleTimer.unref();
  }

  private remove(slot: Slot): boolean {
    const at = this.slots.indexOf(slot);
    if (at < 0) return false;
    this.slots.splice(at, 1);
    clearTimeout(slot.idleTimer);
    return true;
  }

  private retire(slot: Slot) {
    if (this.remove(slot)) slot.worker.terminate();
  }

  /** A worker that crashed or overran: its job fails, it is ended, and a waiting job gets a fresh worker. */
  private lost(slot: Slot, reason: string | FolioError) {
    if (!this.remove(slot)) return;
    slot.worker.terminate();
    const running = this.finish(slot);
    if (running) running.reject(typeof reason === 'string' ? imageFailed(reason) : reason);
    this.pump();
  }
}
