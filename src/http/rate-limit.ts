/**
 * A fixed-window request counter per client IP and path, for the authentication routes
 * (login, register, password reset), where guessing is the threat.
 */
import { FolioError } from '../errors';

export class RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private max: number,
    private windowMs: number,
  ) {}

  /** Counts a request; throws 429 RateLimitError past the limit. */
  hit(ip: string, path: string): void {
    if (this.max <= 0) return;
    const now = Date.now();
    const key = `${ip}\0${path.toLowerCase().replace(/\/+$/, '')}`;
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.sweep(now);
    }
    window.count++;
    if (window.count > this.max) throw new FolioError(429, 'RateLimitError', 'Too many requests, please try again later.');
  }

  /** Forgets expired windows so memory stays bounded. */
  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
