/**
 * Read answers kept until the next commit (one of the read caches, ./caches.ts). Front ends
 * ask the same lists and documents again and again between two edits; a `populate=*` page
 * costs a millisecond of SQL and JSON each time, while sending the bytes it gave last time
 * costs a few microseconds. The exact bytes of a 200 are kept under a key naming everything
 * the answer depends on besides the data (the HTTP layer's: the caller's grants, the
 * response format, the URL) and answered again while no connection has committed anything:
 * SQLite's data_version moves on any commit, this process's writer, the CLI and another
 * process alike, and PostgreSQL's change marker on any Folio commit, of any instance
 * (db/postgres.ts); then the whole cache starts over.
 *
 * What is checked is unchanged: the guard authenticates and authorizes every request, and the
 * query string is parsed and validated, before a kept answer is used. Bounded in bytes (the
 * least recently used answers go first); an answer over an eighth of the budget is not kept.
 */
import type { Database } from '../db/database';

/**
 * Per entry, besides its bytes: the key (UTF-16), and what the process holds for each kept
 * array and Map entry beyond its length (measured: ~1 KB of RSS per small answer kept), so
 * the budget bounds the memory the cache really takes, not just the bodies.
 */
const entryOverhead = (key: string) => key.length * 2 + 1024;

export class AnswerCache {
  private entries = new Map<string, Uint8Array>();
  private bytes = 0;
  private marker: number | undefined;
  private readonly maxEntryBytes: number;

  constructor(
    private db: Pick<Database, 'changeMarker'>,
    private readonly maxBytes: number,
  ) {
    this.maxEntryBytes = Math.floor(maxBytes / 8);
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /**
   * The answer kept for `key`, if any, and the marker an answer built now must be kept
   * under (undefined: the engine cannot tell when to forget it, so nothing may be kept).
   */
  async lookup(key: string): Promise<{ bytes?: Uint8Array; marker?: number }> {
    if (!this.enabled) return {};
    const marker = await this.db.changeMarker();
    if (marker === undefined) return {};
    if (marker !== this.marker) this.clear(marker);
    const bytes = this.entries.get(key);
    if (bytes) {
      // Re-inserted: the Map's order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, bytes);
    }
    return { bytes, marker };
  }

  /**
   * Keeps an answer built since `lookup` gave `marker`, unless anything committed meanwhile:
   * the marker is read again (not this turn's shared answer), since a read of several
   * statements could have seen another process's commit halfway.
   */
  async remember(key: string, marker: number, bytes: Uint8Array): Promise<void> {
    if (bytes.length > this.maxEntryBytes) return;
    if ((await this.db.changeMarker({ fresh: true })) !== marker || this.marker !== marker) return;
    const size = bytes.length + entryOverhead(key);
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.length + entryOverhead(key);
    }
    for (const [oldest, kept] of this.entries) {
      if (this.bytes + size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= kept.length + entryOverhead(oldest);
    }
    this.entries.set(key, bytes);
    this.bytes += size;
  }

  /** Entries and bytes kept (tests and diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private clear(marker: number) {
    this.entries.clear();
    this.bytes = 0;
    this.marker = marker;
  }
}
