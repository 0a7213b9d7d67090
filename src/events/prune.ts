/**
 * Keeping the outbox and the attempt log small. Every event ever recorded would otherwise
 * stay forever; what may go:
 *  - an outbox row older than the realtime resume window that no webhook still has to send
 *    (every delivery delivered or given up, or none: an event recorded for the feed only).
 *    A client resuming from it could not be told apart from one resuming from a pruned
 *    position anyway, and webhooks are done with it. Its deliveries go with it; its
 *    attempts stay in the log (`folio webhook deliveries` reads only them);
 *  - an attempt-log row older than the retention (FOLIO_WEBHOOK_LOG_DAYS, 30 days by
 *    default: a month of "what happened to that delivery", a bounded table).
 * A serving instance runs it every few minutes; several instances pruning at once only
 * delete the same rows (batches of their own short transactions).
 */
import type { Database } from '../db/database';
import type { Logger } from '../log';
import { pruneAttempts, pruneOutbox } from '../db/store/outbox';

export interface PruneOptions {
  /** Outbox rows younger than this stay (the realtime resume window). */
  keepEventsMs: number;
  /** Attempt-log rows younger than this stay. */
  keepAttemptsMs: number;
  now?: () => number;
  /** Rows deleted per transaction (default 1000): no long lock on a busy outbox. */
  batch?: number;
  /** Where a failed round is reported (the server's logger). */
  log?: Pick<Logger, 'error'>;
}

export interface Pruned {
  events: number;
  attempts: number;
}

/** One pass: deletes what may go, batch after batch. */
export async function pruneEvents(db: Database, options: PruneOptions): Promise<Pruned> {
  const now = (options.now ?? Date.now)();
  const batch = options.batch ?? 1000;
  const eventsBefore = new Date(now - options.keepEventsMs).toISOString();
  let events = 0;
  for (;;) {
    // Reads and deletes only rows nobody else writes any more: read committed is enough, and
    // two instances pruning together wait for each other instead of failing.
    const n = await db.transaction((tx) => pruneOutbox(tx, eventsBefore, batch), { isolation: 'read committed' });
    events += n;
    if (n < batch) break;
  }
  const attempts = await pruneAttempts(db, new Date(now - options.keepAttemptsMs).toISOString());
  return { events, attempts };
}

/** Runs pruneEvents every `intervalMs` (default 5 min) in the background, first soon after start. */
export class Pruner {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;

  constructor(
    private db: Database,
    private options: PruneOptions & { intervalMs?: number },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(Math.min(10_000, this.options.intervalMs ?? 300_000));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.run(), ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async run(): Promise<void> {
    try {
      await pruneEvents(this.db, this.options);
    } catch (error) {
      if (!this.stopped) this.options.log?.error('outbox pruning failed', { error });
    }
    if (!this.stopped) this.schedule(this.options.intervalMs ?? 300_000);
  }
}
