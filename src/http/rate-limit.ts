/**
 * A fixed-window request counter per client IP and path, for the authentication routes
 * (login, register, password reset), where guessing is the threat. In memory for one
 * process; in the database when several instances share PostgreSQL, so the limit holds
 * across them.
 */
import { isIP } from 'node:net';
import type { Database } from '../db/database';
import { RateLimitError } from '../errors';

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

class MemoryWindows implements WindowStore {
  private windows = new Map<string, Window>();

  async hit(key: string, now: number, windowMs: number): Promise<Window> {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
      // Forget expired windows so memory stays bounded.
      if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }
    window.count++;
    return { ...window };
  }
}

class DatabaseWindows implements WindowStore {
  constructor(private db: Database) {}

  async hit(key: string, now: number, windowMs: number): Promise<Window> {
    // One atomic upsert: a new or expired window restarts at 1, a live one counts up.
    const row = await this.db.get<{ count: number; resetAt: number | string }>(
      `INSERT INTO folio_rate_limits ("key", "count", "resetAt") VALUES (?, 1, ?)
       ON CONFLICT ("key") DO UPDATE SET
         "count" = CASE WHEN folio_rate_limits."resetAt" <= ? THEN 1 ELSE folio_rate_limits."count" + 1 END,
         "resetAt" = CASE WHEN folio_rate_limits."resetAt" <= ? THEN ? ELSE folio_rate_limits."resetAt" END
       RETURNING "count", "resetAt"`,
      [key, now + windowMs, now, now, now + windowMs],
    );
    // BIGINT comes back as a string from PostgreSQL.
    return { count: Number(row?.count ?? 1), resetAt: Number(row?.resetAt ?? now + windowMs) };
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

  /** Counts a request; throws 429 RateLimitError (with Retry-After) past the limit. */
  async hit(ip: string, path: string): Promise<void> {
    if (this.max <= 0) return;
    // A space separates them: PostgreSQL text cannot hold NUL bytes, and IPs hold no spaces.
    const key = `${ip} ${path.toLowerCase().replace(/\/+$/, '')}`;
    const now = this.now();
    const window = await this.store.hit(key, now, this.windowMs);
    if (window.count > this.max) throw new RateLimitError((window.resetAt - now) / 1000);
  }
}

// An address (IPv6 with a zone id included) is far shorter; the cap comes before isIP.
const MAX_ADDRESS_LENGTH = 64;

/**
 * The address a request's budget is counted against. The connection's peer, unless
 * `trustProxy`: then the right-most entry of X-Forwarded-For, when it is an IP address.
 *
 * Right-most, because that is the one entry the proxy in front of Folio wrote itself (the
 * peer it accepted the connection from); everything to its left came from the client and
 * can be anything, so a client that sent `X-Forwarded-For: <random>` would otherwise get a
 * fresh budget per request. This assumes exactly one proxy (the usual load balancer or
 * reverse proxy); behind a chain of them, the right-most entry is the next proxy's address
 * and its clients share one budget, as they do without the setting. Without `trustProxy`
 * the header is ignored: anyone can send it.
 */
export function clientAddress(request: Request, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    // Several X-Forwarded-For headers arrive joined with ", " in the order received.
    const header = request.headers.get('x-forwarded-for') ?? '';
    const last = header.slice(header.lastIndexOf(',') + 1).trim();
    if (last.length <= MAX_ADDRESS_LENGTH && isIP(last)) return last;
  }
  return peer ?? 'unknown';
}
