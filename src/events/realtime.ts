/**
 * The realtime hub: one reader per serving instance that follows the outbox and fans its
 * events out to the open streams of GET /api/realtime (src/http/routes/realtime.ts).
 *
 *  - While it has subscribers it keeps the realtime lease live (db/store/realtime.ts), so
 *    every instance's writes record their events, and pushes it to now + the resume window
 *    so a client that reconnects within the window finds what it missed.
 *  - It reads `id > position` (a range of the primary key) while it has subscribers: at once
 *    when a local commit recorded events (Events.listen), at once when any instance commits on
 *    a database that signals commits (PostgreSQL: Database.watchCommits, the notification
 *    every commit sends), and otherwise every `pollMs` (SQLite: another process's writes arrive
 *    within one poll; with the signal only every `watchedPollMs`, in case one went missing).
 *    Not at all without subscribers.
 *  - Each subscriber has its own position: one resuming from Last-Event-ID is caught up from
 *    the outbox first, one joining fresh starts at the newest event. Ticks never overlap, so
 *    a subscriber sees every event once, in order.
 *  - A subscriber takes a batch or refuses it (its buffer is full: the client reads too
 *    slowly); a refusing subscriber is dropped, never allowed to grow memory.
 * Its timers are unref'd and stop() ends them, so it never keeps a process alive.
 */
import type { Database } from '../db/database';
import type { Logger } from '../log';
import { eventsAfter, lastPosition, renewLease, type FeedRow } from '../db/store/realtime';

export type FeedEvent = FeedRow;

export interface Subscriber {
  /** Whether this subscriber may and wants to see the event (permissions, `types`). */
  accepts(event: FeedEvent): boolean;
  /** Takes a batch of accepted events; false when its buffer is full (the hub then drops it). */
  send(events: FeedEvent[]): boolean;
  /** The hub let go of it (too slow, access lost, or the hub stopped): end its stream. */
  dropped(): void;
  /**
   * Looks again at the subscriber's credential and grants (before events committed after a
   * settings change reach it, and every recheckMs); false or a throw: its access is gone, drop it.
   */
  recheck(): Promise<boolean>;
  /**
   * Subscribers with the same key (one credential) are rechecked once for all of them: the
   * hub calls one's recheck and applies the answer to each. Without one, each on its own.
   */
  readonly accessKey?: unknown;
}

export interface RealtimeOptions {
  /** How long after the last subscriber left writes keep recording events (the resume window). */
  resumeWindowMs: number;
  /** Between looks at the outbox while someone subscribes (default 250 ms). */
  pollMs?: number;
  /** The same where the database signals every commit (default 10 s: the signal wakes it). */
  watchedPollMs?: number;
  /** Rows read per statement (default 500). */
  batch?: number;
  /**
   * What access depends on (the settings version: grants, roles, tokens, users); when it moves,
   * every subscriber is rechecked before another event reaches it. Read fresh.
   */
  accessMarker?: () => Promise<unknown>;
  /** Subscribers are also rechecked this often whatever happens (expiring tokens; default 5 s). */
  recheckMs?: number;
  /** Where a failed look at the outbox is reported (the server's logger). */
  log?: Pick<Logger, 'error'>;
  now?: () => number;
}

interface Entry {
  subscriber: Subscriber;
  /** The last position this subscriber has been given (or skipped). */
  position: number;
}

export class RealtimeHub {
  private entries = new Set<Entry>();
  /** The last position read for live subscribers; undefined while nobody subscribes. */
  private position: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private again = false;
  private stopped = false;
  private renewedAt = -Infinity;
  private readonly pollMs: number;
  private readonly watchedPollMs: number;
  /** Stops watching the database's commits (set while someone subscribes and the database signals them). */
  private unwatch: (() => void) | undefined;
  private readonly batch: number;
  private readonly recheckMs: number;
  private readonly now: () => number;
  /** The access marker the subscribers were last checked at, and when. */
  private accessSeen: unknown;
  private checkedAt = -Infinity;

  constructor(
    private db: Database,
    private options: RealtimeOptions,
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.watchedPollMs = options.watchedPollMs ?? 10_000;
    this.batch = options.batch ?? 500;
    this.recheckMs = options.recheckMs ?? 5000;
    this.now = options.now ?? Date.now;
  }

  /** Open subscribers (tests and diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Registers a subscriber after `after` (a Last-Event-ID; undefined: from now on). The
   * lease is live when this resolves, so any write that starts later records its events.
   * Returns the function that unsubscribes.
   */
  async subscribe(subscriber: Subscriber, after?: number): Promise<() => void> {
    if (this.stopped) throw new Error('The realtime hub is stopped');
    await this.renew();
    const newest = await lastPosition(this.db);
    // A position beyond the newest event (a client's invention) would silence the stream.
    const entry: Entry = { subscriber, position: after === undefined ? newest : Math.min(after, newest) };
    this.position ??= newest;
    this.entries.add(entry);
    this.unwatch ??= this.db.watchCommits(() => this.wake());
    if (entry.position < this.position) this.wake();
    else this.schedule(this.interval);
    return () => this.remove(entry);
  }

  /** Look at the outbox now (a local commit recorded events). */
  wake(): void {
    if (this.stopped || this.entries.size === 0) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const entry of [...this.entries]) this.drop(entry);
  }

  /** Between two looks when nothing wakes the hub. */
  private get interval(): number {
    return this.unwatch ? this.watchedPollMs : this.pollMs;
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry);
    // Nobody left: stop polling and watching. The lease runs out on its own after the resume window.
    if (this.entries.size === 0) {
      this.position = undefined;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.unwatch?.();
      this.unwatch = undefined;
    }
  }

  private drop(entry: Entry): void {
    this.remove(entry);
    entry.subscriber.dropped();
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * Pushes the lease forward, at most every quarter of its length: it always stays well
   * ahead. It lasts the resume window, and never less than a few polls, so that a tiny (or
   * zero) window cannot let it lapse between two ticks while someone subscribes.
   */
  private async renew(): Promise<void> {
    const now = this.now();
    const length = Math.max(this.options.resumeWindowMs, 4 * this.pollMs);
    if (now - this.renewedAt < length / 4) return;
    await renewLease(this.db, now + length);
    this.renewedAt = now;
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (this.stopped || this.running || this.entries.size === 0) return;
    this.running = true;
    try {
      await this.renew();
      await this.checkAccess();
      await this.catchUp();
      await this.follow();
    } catch (error) {
      // A database hiccup must not end the feed: the next tick reads from the same position.
      if (!this.stopped) this.options.log?.error('realtime feed: reading the outbox failed', { error });
    } finally {
      this.running = false;
    }
    if (this.stopped || this.entries.size === 0) return;
    const wait = this.again ? 0 : this.interval;
    this.again = false;
    this.schedule(wait);
  }

  /** Subscribers resuming from before the live position read their part of the outbox alone. */
  private async catchUp(): Promise<void> {
    for (const entry of [...this.entries]) {
      while (this.entries.has(entry) && this.position !== undefined && entry.position < this.position) {
        const rows = await eventsAfter(this.db, entry.position, this.batch, this.position);
        if (rows.length === 0) entry.position = this.position;
        else {
          await this.checkAccess();
          if (this.entries.has(entry)) this.deliver(entry, rows);
        }
      }
    }
  }

  /** Reads past the live position and gives each subscriber what it has not had. */
  private async follow(): Promise<void> {
    while (this.position !== undefined && this.entries.size > 0) {
      const rows = await eventsAfter(this.db, this.position, this.batch);
      if (rows.length === 0) return;
      // Read after the rows: a grant revoked before they were written is seen here.
      await this.checkAccess();
      for (const entry of [...this.entries]) this.deliver(entry, rows);
      if (this.position === undefined) return;
      this.position = rows[rows.length - 1]!.id;
      if (rows.length < this.batch) return;
    }
  }

  /**
   * Rechecks every subscriber when the access marker moved since they were last checked, or
   * recheckMs has passed; drops those whose access is gone before anything else reaches them.
   */
  private async checkAccess(): Promise<void> {
    const marker = await this.options.accessMarker?.();
    const now = this.now();
    if (marker === this.accessSeen && now - this.checkedAt < this.recheckMs) return;
    this.accessSeen = marker;
    this.checkedAt = now;
    // One recheck per credential, however many streams it holds open.
    const groups = new Map<unknown, Entry[]>();
    for (const entry of this.entries) {
      const key = entry.subscriber.accessKey ?? entry;
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const allowed = await group[0]!.subscriber.recheck().catch(() => false);
        if (allowed) return;
        for (const entry of group) if (this.entries.has(entry)) this.drop(entry);
      }),
    );
  }

  /** Gives a subscriber the rows past its position it accepts (the rows themselves when it takes them all: thousands of subscribers share them). */
  private deliver(entry: Entry, rows: FeedEvent[]): void {
    let first = 0;
    while (first < rows.length && rows[first]!.id <= entry.position) first++;
    if (first === rows.length) return;
    entry.position = rows[rows.length - 1]!.id;
    let accepted: FeedEvent[] | undefined;
    for (let i = first; i < rows.length; i++) {
      const row = rows[i]!;
      if (entry.subscriber.accepts(row)) accepted?.push(row);
      else accepted ??= rows.slice(first, i);
    }
    const batch = accepted ?? (first === 0 ? rows : rows.slice(first));
    if (batch.length > 0 && !entry.subscriber.send(batch)) this.drop(entry);
  }
}
