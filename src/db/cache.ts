/**
 * A value read from the database and reused until a marker says it may have changed.
 * Two markers: any commit (Database.changeMarker; e.g. list totals), or a settings write
 * (Database.settingsVersion; grants, roles, locales, read on every request). Keying settings
 * on their own version means a content write does not make the next request re-read them,
 * while a grant written elsewhere (the CLI, another instance) still applies to the next one.
 */
import type { Database } from './database';

type Marker = () => Promise<number | undefined>;

export class ChangeCache<K, V> {
  private marker: number | undefined;
  private values = new Map<K, V>();
  private readMarker: Marker;

  constructor(
    db: Database,
    /** Entries kept at most between changes (many distinct keys, e.g. filters, start over). */
    private maxEntries = 1000,
    readMarker?: Marker,
  ) {
    this.readMarker = readMarker ?? (() => db.changeMarker());
  }

  /** A cache of settings (grants, roles, locales): valid until a settings write, by anyone. */
  static settings<K, V>(db: Database, maxEntries = 1000): ChangeCache<K, V> {
    return new ChangeCache<K, V>(db, maxEntries, () => db.settingsVersion());
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const marker = await this.readMarker();
    if (marker === undefined) return load();
    if (marker !== this.marker) {
      this.values.clear();
      this.marker = marker;
    }
    if (this.values.has(key)) return this.values.get(key)!;
    const value = await load();
    // Only keep it if nothing changed while it was read.
    if ((await this.readMarker()) === marker) {
      if (this.values.size >= this.maxEntries) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
