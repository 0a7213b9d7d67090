/**
 * The background deliverer: claims due webhook deliveries, sends them, records every
 * attempt, and schedules retries with exponential backoff and jitter. It runs inside a
 * serving instance, never on the request path: a commit that recorded events wakes it, and
 * a timer brings it back for retries and for events other processes recorded (`folio
 * import`, other instances). Its timers are unref'd and `stop()` clears them and aborts any
 * send in flight, so it never keeps a process alive. A delivery claimed by a process that
 * dies mid-send becomes due again once its lease lapses.
 *
 * Each webhook has a lane of its own: at most `perWebhook` of its sends in flight, claimed
 * oldest first and started in that order (several at once, so arrival order is not
 * guaranteed), and `maxInFlight` sends in all. A send that ends frees its place and wakes
 * the deliverer, which claims more for the lanes with room. A receiver that hangs fills only
 * its own lane: the others go on being claimed and sent as their events come.
 */
import type { Database } from '../db/database';
import type { Logger } from '../log';
import { claimDue, nextDue, settleDelivery, type ClaimedDelivery, type Lane } from '../db/store/outbox';
import { insertAttempt, webhookIds } from '../db/store/webhooks';
import { refuseNonPublic } from './private-address';
import { sendWebhook, type SendResult } from './send';

export interface DelivererOptions {
  /** The wait after the first failed attempt; each later one doubles it (FOLIO_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Attempts in all before a delivery is given up (default 6). */
  attempts?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Longest sleep between looks at the queue (default 1 s): events other processes record wait at most this. */
  pollMs?: number;
  /** Sends in flight to one webhook at most (default 10). */
  perWebhook?: number;
  /** Sends in flight in all at most (default 50). */
  maxInFlight?: number;
  /** FOLIO_WEBHOOK_DENY_PRIVATE: never send to a loopback, private, link-local… address, whatever a name resolves to. */
  denyPrivate?: boolean;
  now?: () => number;
  random?: () => number;
  /** Where a failure of the queue itself (error) and each failed attempt (warn) are reported (the server's logger). */
  log?: Pick<Logger, 'error' | 'warn'> & { format?: Logger['format'] };
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
  /** Sends in flight, per webhook id (no entry: none) and in all. */
  private readonly lanes = new Map<number, number>();
  private inFlight = 0;
  /** Which webhook's lane is served first in the next claim, so that when `maxInFlight` binds every lane gets its turn. */
  private turn = 0;
  private readonly attempts: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly perWebhook: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;

  constructor(
    private db: Database,
    private options: DelivererOptions,
  ) {
    this.attempts = options.attempts ?? 6;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.pollMs = options.pollMs ?? 1000;
    this.perWebhook = Math.max(1, options.perWebhook ?? 10);
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 50);
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

  /** Look at the queue now (after a commit that recorded events, or a send that ended). */
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
      // Lanes left with room have nothing more due now: sleep until the first of theirs is.
      // A full lane (or a full deliverer) is woken by its sends ending.
      const idle = await this.claim();
      const due = this.stopped ? undefined : await nextDue(this.db, idle);
      if (due !== undefined) wait = Math.min(this.pollMs, due - this.now());
    } catch (error) {
      // A database hiccup must not end delivery: the next tick tries again.
      if (!this.stopped) this.options.log?.error('webhook delivery failed', { error });
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

  /**
   * Claims what the lanes with room can take and starts sending it (not waiting for the
   * sends). Returns the ids of the webhooks whose lanes still have room: nothing of theirs
   * is due now (none when the deliverer as a whole is full).
   */
  private async claim(): Promise<number[]> {
    const room = this.maxInFlight - this.inFlight;
    if (room <= 0) return [];
    const now = this.now();
    // The lease outlasts a send's timeout by far: a live claim is never taken twice.
    const leaseUntil = now + this.timeoutMs + 30_000;
    const { lanes, claimed } = await this.db.transaction(
      async (tx) => {
        const ids = await webhookIds(tx);
        const first = ids.length ? this.turn++ % ids.length : 0;
        const lanes: Lane[] = [...ids.slice(first), ...ids.slice(0, first)]
          .map((webhookId) => ({ webhookId, room: this.perWebhook - (this.lanes.get(webhookId) ?? 0) }))
          .filter((lane) => lane.room > 0);
        return { lanes, claimed: await claimDue(tx, now, leaseUntil, lanes, room) };
      },
      { isolation: 'read committed' },
    );
    if (this.stopped) return [];
    for (const d of claimed) this.send(d);
    if (this.inFlight >= this.maxInFlight) return [];
    return lanes.filter((lane) => (this.lanes.get(lane.webhookId) ?? 0) < this.perWebhook).map((lane) => lane.webhookId);
  }

  private send(d: ClaimedDelivery): void {
    this.inFlight++;
    this.lanes.set(d.webhookId, (this.lanes.get(d.webhookId) ?? 0) + 1);
    this.deliver(d)
      .catch((error) => {
        // The delivery stays claimed; it is due again once its lease lapses.
        if (!this.stopped) this.options.log?.error('webhook delivery failed', { error });
      })
      .finally(() => {
        this.inFlight--;
        const left = (this.lanes.get(d.webhookId) ?? 1) - 1;
        if (left > 0) this.lanes.set(d.webhookId, left);
        else this.lanes.delete(d.webhookId);
        this.wake();
      });
  }

  /** One line per failed attempt: the webhook, the event, what answered, and when the next try is (or that it was given up). */
  private logFailure(d: ClaimedDelivery, result: SendResult, state: 'pending' | 'delivered' | 'failed', dueAt: number): void {
    const answer = result.status !== null ? `HTTP ${result.status}` : `error: ${result.error}`;
    const next = state === 'pending' ? `next try at ${new Date(dueAt).toISOString()}` : 'given up';
    const message = `webhook "${d.name}": ${d.event} not delivered (${answer}), attempt ${d.attempts} of ${this.attempts}; ${next}`;
    // The text line says it all; JSON lines carry the parts as fields too.
    const fields = {
      webhook: d.name,
      event: d.event,
      attempt: d.attempts,
      status: result.status,
      error: result.error,
      nextTryAt: state === 'pending' ? new Date(dueAt).toISOString() : null,
    };
    this.options.log?.warn(message, this.options.log.format === 'json' ? fields : undefined);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const target = { url: d.url, secret: d.secret, headers: JSON.parse(d.headers) as Record<string, string> };
    const result = await sendWebhook(target, d.event, d.body, {
      timeoutMs: this.timeoutMs,
      signal: this.abort.signal,
      now: this.now,
      refuseAddress: this.options.denyPrivate ? refuseNonPublic : undefined,
    });
    // Stopped mid-send: record nothing; the lease lapses and the delivery is due again.
    if (this.stopped) return;
    const now = this.now();
    // Every answer but a 2xx (a 3xx, whose redirect is not followed, and a 4xx too) and every
    // error is a failed attempt, retried until the attempts run out.
    const state = result.ok ? 'delivered' : d.attempts >= this.attempts ? 'failed' : 'pending';
    const dueAt = state === 'pending' ? now + retryDelay(this.options.retryBaseMs, d.attempts, this.options.random) : now;
    const at = new Date(now).toISOString();
    if (!result.ok) this.logFailure(d, result, state, dueAt);
    await this.db.transaction(
      async (tx) => {
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
      },
      { isolation: 'read committed' },
    );
  }
}
