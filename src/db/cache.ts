/**
 * A value read from the database and reused until the database changes (see
 * Database.changeMarker). Grants and the default locale are read on every request;
 * this turns those reads into one cheap check while writes elsewhere still apply at once.
 */
import type { Database } from './database';

export class ChangeCache<K, V> {
  private marker: number | undefined;
  private values = new Map<K, V>();

  constructor(
    private db: Database,
    /** Entries kept at most between changes (many distinct keys, e.g. filters, start over). */
    private maxEntries = 1000,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const marker = await this.db.changeMarker();
    if (marker === undefined) return load();
    if (marker !== this.marker) {
      this.values.clear();
      this.marker = marker;
    }
    if (this.values.has(key)) return this.values.get(key)!;
    const value = await load();
    // Only keep it if nothing committed while it was read.
    if ((await this.db.changeMarker()) === marker) {
      if (this.values.size >= this.maxEntries) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
