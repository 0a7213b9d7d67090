/**
 * Fixed-window request counters, for the authentication routes (login, register, password
 * reset), where guessing is the threat. In memory for one process; in `folio_rate_limits`
 * when several instances share PostgreSQL, so the limit holds across them. The composition
 * root (instance.ts) picks the store; the HTTP layer only names the client and the path.
 */
import { createHash } from 'node:crypto';
import { RateLimitError } from '../../errors';
import type { Database } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

interface Window {
  /** Hits in the current window, this one included. */
  count: number;
  /** When the current window ends (ms since the epoch). */
  resetAt: number;
}

interface WindowStore {
  /** Counts a hit and returns the window it fell in. */
  hit(key: string, now: number, windowMs: number): Promise<Window>;
}

/** Windows kept in memory at most; past it, expired ones go, then the oldest (a burst of distinct keys cannot grow memory). */
export const MAX_MEMORY_WINDOWS = 10_000;

class MemoryWindows implements WindowStore {
  private windows = new Map<string, Window>();

  async hit(key: string, now: number, windowMs: number): Promise<Window> {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > MAX_MEMORY_WINDOWS) {
        for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
        // Still full of live windows (many distinct e-mails or addresses): the oldest go, down to
        // 90 % so this pass runs once per thousand new keys, not on every one.
        for (const k of this.windows.keys()) {
          if (this.windows.size <= MAX_MEMORY_WINDOWS * 0.9) break;
          this.windows.delete(k);
        }
      }
    }
    window.count++;
    return { ...window };
  }
}

const TABLE_NAME = SYSTEM.rateLimits;
const TABLE = sql.id(TABLE_NAME);
const KEY = sql.id('key');
const COUNT = sql.id('count');
const RESET_AT = sql.id('resetAt');
/** The existing row's value of a column, inside the upsert's SET (qualified, so it cannot be misread). */
const stored = (column: 'count' | 'resetAt') => sql.id(TABLE_NAME, column);

/** Every this many hits an instance deletes the expired windows, so the table holds the live ones only. */
const PRUNE_EVERY = 1000;

class DatabaseWindows implements WindowStore {
  private hits = 0;

  constructor(private db: Database) {}

  async hit(key: string, now: number, windowMs: number): Promise<Window> {
    if (++this.hits % PRUNE_EVERY === 0) await this.db.run(sql`DELETE FROM ${TABLE} WHERE ${RESET_AT} <= ${now}`);
    const resetAt = now + windowMs;
    // One atomic upsert: a new or expired window restarts at 1, a live one counts up.
    const row = await this.db.get<{ count: number; resetAt: number | string }>(sql`
      INSERT INTO ${TABLE} (${KEY}, ${COUNT}, ${RESET_AT}) VALUES (${key}, 1, ${resetAt})
      ON CONFLICT (${KEY}) DO UPDATE SET
        ${COUNT} = CASE WHEN ${stored('resetAt')} <= ${now} THEN 1 ELSE ${stored('count')} + 1 END,
        ${RESET_AT} = CASE WHEN ${stored('resetAt')} <= ${now} THEN ${resetAt} ELSE ${stored('resetAt')} END
      RETURNING ${COUNT}, ${RESET_AT}`);
    // BIGINT comes back as a string from PostgreSQL.
    return { count: Number(row?.count ?? 1), resetAt: Number(row?.resetAt ?? resetAt) };
  }
}

export interface RateLimiterOptions {
  /** Requests allowed per key in each window; 0 turns the limiter off. */
  max: number;
  windowMs: number;
  /** Keep the counters in this database (instances sharing PostgreSQL share the limit). */
  shared?: Database;
  /** The clock, in ms since the epoch; tests inject one to cross a window without waiting. */
  now?: () => number;
}

export class RateLimiter {
  private store: WindowStore;
  private max: number;
  private windowMs: number;
  private now: () => number;

  constructor(options: RateLimiterOptions) {
    this.max = options.max;
    this.windowMs = options.windowMs;
    this.now = options.now ?? Date.now;
    this.store = options.shared ? new DatabaseWindows(options.shared) : new MemoryWindows();
  }

  /**
   * Counts a request; throws 429 RateLimitError (with Retry-After) past the limit. `identifier`
   * (the body's e-mail on register, forgot-password and send-email-confirmation, as Strapi keys
   * them) gives each address its own budget from one client.
   */
  async hit(ip: string, path: string, identifier?: string): Promise<void> {
    if (this.max <= 0) return;
    // A space separates them: PostgreSQL text cannot hold NUL bytes, and IPs hold no spaces.
    // A long identifier is hashed: keys stay short whatever a body holds.
    const who =
      identifier === undefined ? '' : ` ${identifier.length > 256 ? createHash('sha256').update(identifier).digest('hex') : identifier.replace(/\0/g, '')}`;
    const key = `${ip} ${path.toLowerCase().replace(/\/+$/, '')}${who}`;
    const now = this.now();
    const window = await this.store.hit(key, now, this.windowMs);
    // Concurrent hits read the clock before they reach the store, so the window may have been
    // opened by one whose `now` was a little later than this one's: never more than a window.
    if (window.count > this.max) throw new RateLimitError(Math.min(window.resetAt - now, this.windowMs) / 1000);
  }
}
