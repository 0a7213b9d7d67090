/**
 * A small least-recently-used map with a size cap. Every cache whose key comes from a
 * request (field lists, query shapes) must be one of these: a client can send endless
 * distinct keys, and an unbounded Map would keep each of them for the life of the process.
 */
export class Lru<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest entry first.
  private entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('Lru needs a positive integer size');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  /** The cached value, or `make()`'s result, stored. */
  getOrSet(key: K, make: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = make();
    this.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
