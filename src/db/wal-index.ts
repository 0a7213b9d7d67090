/**
 * Whether anything committed to a WAL-mode SQLite file since a moment, without a statement.
 *
 * SQLite's WAL-index (the `-shm` file every connection to the database maps) begins with a
 * header that every commit rewrites, by whichever connection or process makes it, before the
 * commit returns: its change counter is "incremented with each transaction"
 * (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). So if the header's bytes
 * are the same as they were just before a `PRAGMA data_version` read, nothing committed since,
 * and that answer still holds. Comparing the bytes costs ~50 ns where the pragma (it opens a
 * read transaction, taking and dropping a lock on the `-shm` file) costs 2–5 µs: the change
 * marker is asked once per request (db/sqlite.ts, ./read-horizon.ts).
 *
 * Any difference, a header being rewritten as it is read included, sends the caller back to
 * the pragma: the check can only say "unchanged" when nothing committed. A file without a
 * `-shm` (an in-memory database) or a map that fails has no watch, and the caller always asks
 * SQLite. The map is taken while this process holds connections to the file, and SQLite only
 * truncates a `-shm` when the first connection to a database opens, so it never shrinks under it.
 */

/** The two copies of the header (48 bytes each), as 32-bit words. */
const HEADER_WORDS = 24;

export class WalIndexWatch {
  private header: Uint32Array;
  private snapshot = new Uint32Array(HEADER_WORDS);
  private taken = false;

  private constructor(map: Uint8Array) {
    this.header = new Uint32Array(map.buffer, map.byteOffset, HEADER_WORDS);
  }

  /** A watch on `path`'s WAL-index, or undefined when there is none to map. */
  static open(path: string): WalIndexWatch | undefined {
    try {
      const map = Bun.mmap(`${path}-shm`);
      if (map.byteLength < HEADER_WORDS * 4 || map.byteOffset % 4 !== 0) return undefined;
      return new WalIndexWatch(map);
    } catch {
      return undefined;
    }
  }

  /** Remembers the header as it is now: call it just before reading what it is to guard. */
  take(): void {
    this.snapshot.set(this.header);
    this.taken = true;
  }

  /** True only when no commit has been made since take(). */
  unchanged(): boolean {
    if (!this.taken) return false;
    for (let i = 0; i < HEADER_WORDS; i++) if (this.header[i] !== this.snapshot[i]) return false;
    return true;
  }

  /** Forgets the snapshot (the next unchanged() is false until take()). */
  forget(): void {
    this.taken = false;
  }
}
