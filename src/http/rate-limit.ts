/**
 * A fixed-window request counter per client IP and path, for the authentication routes
 * (login, register, password reset), where guessing is the threat. In memory for one
 * process; in the database when several instances share PostgreSQL, so the limit holds
 * across them.
 */
import type { Database } from '../db/database';
import { FolioError } from '../errors';

interface WindowStore {
  /** Counts a hit; returns the count in the current window. */
  hit(key: string, now: number, windowMs: number): Promise<number>;
}

class MemoryWindows implements WindowStore {
  private windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, now: number, windowMs: number): Promise<number> {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
      // Forget expired windows so memory stays bounded.
      if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    return ++window.count;
  }
}

class DatabaseWindows implements WindowStore {
  constructor(private db: Database) {}

  async hit(key: string, now: number, windowMs: number): Promise<number> {
    // One atomic upsert: a new or expired window restarts at 1, a live one counts up.
    const row = await this.db.get<{ count: number }>(
      `INSERT INTO folio_rate_limits ("key", "count", "resetAt") VALUES (?, 1, ?)
       ON CONFLICT ("key") DO UPDATE SET
         "count" = CASE WHEN folio_rate_limits."resetAt" <= ? THEN 1 ELSE folio_rate_limits."count" + 1 END,
         "resetAt" = CASE WHEN folio_rate_limits."resetAt" <= ? THEN ? ELSE folio_rate_limits."resetAt" END
       RETURNING "count"`,
      [key, now + windowMs, now, now, now + windowMs],
    );
    return Number(row?.count ?? 1);
  }
}

export class RateLimiter {
  private store: WindowStore;

  constructor(
    private max: number,
    private windowMs: number,
    shared?: Database,
  ) {
    this.store = shared ? new DatabaseWindows(shared) : new MemoryWindows();
  }

  /** Counts a request; throws 429 RateLimitError past the limit. */
  async hit(ip: string, path: string): Promise<void> {
    if (this.max <= 0) return;
    // A space separates them: PostgreSQL text cannot hold NUL bytes, and IPs hold no spaces.
    const key = `${ip} ${path.toLowerCase().replace(/\/+$/, '')}`;
    if ((await this.store.hit(key, Date.now(), this.windowMs)) > this.max) {
      throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.');
    }
  }
}
