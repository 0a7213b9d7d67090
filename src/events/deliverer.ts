/**
 * The background deliverer: claims due webhook deliveries, sends them, records every
 * attempt, and schedules retries with exponential backoff and jitter. It runs inside a
 * serving instance, never on the request path: a commit that recorded events wakes it, and
 * a timer brings it back for retries and for events other processes recorded (`folio
 * import`, other instances). Its timers are unref'd and `stop()` clears them and aborts any
 * send in flight, so it never keeps a process alive. A delivery claimed by a process that
 * dies mid-send becomes due again once its lease lapses.
 */
import type { Database } from '../db/database';
import { claimDue, nextDue, settleDelivery, type ClaimedDelivery } from '../db/store/outbox';
import { insertAttempt } from '../db/store/webhooks';
import { sendWebhook } from './send';

export interface DelivererOptions {
  /** The wait after the first failed attempt; each later one doubles it (FOLIO_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Attempts in all before a delivery is given up (default 6). */
  attempts?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Longest sleep between looks at the queue (default 1 s): events other processes record wait at most this. */
  pollMs?: number;
  /** Deliveries claimed and sent together (default 10). */
  batch?: number;
  now?: () => number;
  random?: () => number;
}

/** The wait after failed attempt `attempt` (1-based): base × 2^(attempt-1), ±20% jitter so retries spread out. */
export function retryDelay(baseMs: number, attempt: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 2 ** (attempt - 1) * (0.8 + 0.4 * random()));
}

export class Deliverer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private running = false;
  private again = false;
  private abort = new AbortController();
  private readonly attempts: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly now: () => number;

  constructor(
    private db: Database,
    private options: DelivererOptions,
  ) {
    this.attempts = options.attempts ?? 6;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.pollMs = options.pollMs ?? 1000;
    this.batch = options.batch ?? 10;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.abort = new AbortController();
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
  }

  /** Look at the queue now (after a commit that recorded events). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, ms));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.stopped || this.running) return;
    this.running = true;
    let wait = this.pollMs;
    try {
      await this.drain();
      const due = this.stopped ? undefined : await nextDue(this.db);
      if (due !== undefined) wait = Math.min(this.pollMs, due - this.now());
    } catch (error) {
      // A database hiccup must not end delivery: the next tick tries again.
      if (!this.stopped) console.error(`[folio] webhook delivery: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      wait = 0;
    }
    this.schedule(wait);
  }

  /** Claims and sends until nothing is due. */
  private async drain(): Promise<void> {
    while (!this.stopped) {
      const now = this.now();
      // The lease outlasts a send's timeout by far: a live claim is never taken twice.
      const leaseUntil = now + this.timeoutMs + 30_000;
      const claimed = await this.db.transaction((tx) => claimDue(tx, now, leaseUntil, this.batch), { isolation: 'read committed' });
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((d) => this.deliver(d)));
    }
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const target = { url: d.url, secret: d.secret, headers: JSON.parse(d.headers) as Record<string, string> };
    const result = await sendWebhook(target, d.event, d.body, { timeoutMs: this.timeoutMs, signal: this.abort.signal, now: this.now });
    // Stopped mid-send: record nothing; the lease lapses and the delivery is due again.
    if (this.stopped) return;
    const now = this.now();
    const state = result.ok ? 'delivered' : d.attempts >= this.attempts ? 'failed' : 'pending';
    const dueAt = state === 'pending' ? now + retryDelay(this.options.retryBaseMs, d.attempts, this.options.random) : now;
    const at = new Date(now).toISOString();
    await this.db.transaction(async (tx) => {
      await settleDelivery(tx, d.id, state, dueAt, at);
      await insertAttempt(tx, {
        webhookId: d.webhookId,
        deliveryId: d.id,
        event: d.event,
        attempt: d.attempts,
        status: result.status,
        error: result.error,
        durationMs: result.durationMs,
        at,
      });
      // It reads nothing it depends on: serializable checks would only make two instances
      // settling at once fail each other.
    }, { isolation: 'read committed' });
  }
}
