/**
 * The memory image work may hold at once (FOLIO_IMAGE_MEMORY_MB), shared by every image
 * worker and every upload: each image running in a worker holds its estimated cost
 * (image-cost.ts) until its worker has answered and let the memory go. The pool
 * (image-pool.ts) keeps the order: an image that does not fit now waits its turn in the
 * pool's bounded queue, and one that could never fit (its cost above the whole budget)
 * is not decoded at all: its upload is stored without formats.
 */

/**
 * FOLIO_IMAGE_MEMORY_MB's default, for a small VPS (1 GiB): the smallest round budget in
 * which a 12–16 megapixel JPEG photo, the common phone photo, still gets its formats
 * (jpeg-js needs ~350–460 MiB for one: image-cost.ts). Two such photos take turns.
 */
export const DEFAULT_IMAGE_MEMORY_MB = 512;
export class ImageBudget {
  private held = 0;

  /** `capacity` in bytes; negative counts as zero (then no image is decoded). */
  constructor(readonly capacity: number) {
    this.capacity = Math.max(0, capacity);
  }

  /** Bytes held by the images running now. */
  get used(): number {
    return this.held;
  }

  /** Whether an image of this cost may ever run: false above the whole budget. */
  admits(cost: number): boolean {
    return cost <= this.capacity;
  }

  /** Whether `cost` fits beside what is held now. */
  fits(cost: number): boolean {
    return this.held + cost <= this.capacity;
  }

  /** Holds `cost` if it fits now (true); otherwise holds nothing (false) and the caller waits. */
  take(cost: number): boolean {
    if (!this.fits(cost)) return false;
    this.held += cost;
    return true;
  }

  /** Gives back what `take` held. */
  release(cost: number): void {
    this.held = Math.max(0, this.held - cost);
  }
}
