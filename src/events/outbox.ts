/**
 * The outbox: a listener of the write pipeline (documents/write/context.ts) that records
 * Strapi's events in the write's own transaction, so they commit (or roll back) with the
 * change and nothing is sent before the commit. Once a transaction has committed with
 * events in it, the deliverer and the realtime hub are woken (`onCommit`, `listen`).
 *
 * The payload is fixed at write time, as webhooks receive it (Strapi's shape):
 *   entries  `{ event, createdAt, model, uid, entry }`, the entry the write pipeline read
 *            back inside the transaction (no populate, private attributes never selected),
 *            in the locale and status the event is about;
 *   media    `{ event, createdAt, media }`, the file as the upload API answers it;
 *   releases `{ event: 'releases.publish', createdAt, isPublished, release, error? }` (Strapi's).
 * An event is written only when a webhook subscribes to it or the realtime lease is live
 * (someone streams /api/realtime, or did within the resume window): both come from one
 * small query per transaction (a bulk import one per batch), so a write nobody listens to
 * pays that query and no read-back per document.
 *
 * Rows are appended at the end of the transaction, just before it commits. While the lease
 * is live they are appended under one lock (PostgreSQL; SQLite has one writer anyway), so
 * outbox ids become visible in the order they were given and the feed, which reads
 * `id > last position`, can never skip a row committed late below one it already read. The
 * lock is taken last and its holder only commits after it, so it cannot close a cycle with
 * the document locks.
 *
 * It knows nothing of documents or queries: what it records comes to it as plain records.
 */
import type { Queryable } from '../db/database';
import { appendEvent } from '../db/store/outbox';
import { wantedEvents, type WantedEvents } from '../db/store/realtime';
import { FILE_UID, RELEASE_UID } from './names';

/** The lock that orders appends while the realtime feed reads the outbox (any constant name). */
const OUTBOX_ORDER_LOCK = 'folio:outbox-order';

/**
 * What the outbox reads of a write pipeline record (documents/write/context.ts WriteRecord).
 * An entry record always carries its entry here: the outbox is not a keys-only recorder.
 */
export type OutboxRecord =
  | { kind: 'entry'; event: string; contentType: { uid: string; singularName: string }; entry?: Record<string, unknown>; at: number }
  | { kind: 'media'; event: string; file: Record<string, unknown>; at: number }
  | { kind: 'release'; event: string; isPublished: boolean; release: Record<string, unknown>; error?: { name: string; message: string }; at: number };

/** The outbox's part in one transaction. */
export class EventLog {
  /** Events appended in this transaction (counted once written, just before the commit). */
  recorded = 0;
  private wanted: Promise<WantedEvents> | undefined;
  private pending: { event: string; uid: string; body: string; createdAt: string }[] = [];

  constructor(
    readonly tx: Queryable,
    private outbox: Outbox,
  ) {}

  /** Whether a webhook listens to `event` or the realtime lease is live; read once per transaction. */
  async wants(event: string): Promise<boolean> {
    this.wanted ??= wantedEvents(this.tx, this.outbox.now());
    const wanted = await this.wanted;
    return wanted.realtime || wanted.events.has(event);
  }

  /**
   * Sends the listeners check now, for a write that will ask `wants` anyway: it goes out
   * beside the write's next statements (PostgreSQL's client pipelines them, a round trip
   * less) instead of after them.
   */
  prefetch(): void {
    this.wanted ??= wantedEvents(this.tx, this.outbox.now());
    // A failure surfaces where `wants` awaits it; a write that never asks must not leave it unhandled.
    this.wanted.catch(() => {});
  }

  record(record: OutboxRecord): void {
    const createdAt = new Date(record.at).toISOString();
    const [uid, payload] =
      record.kind === 'entry'
        ? [record.contentType.uid, { model: record.contentType.singularName, uid: record.contentType.uid, entry: record.entry }]
        : record.kind === 'media'
          ? [FILE_UID, { media: record.file }]
          : [RELEASE_UID, { isPublished: record.isPublished, release: record.release, ...(record.error ? { error: record.error } : {}) }];
    this.pending.push({ event: record.event, uid, body: JSON.stringify({ event: record.event, createdAt, ...payload }), createdAt });
  }

  /** Writes the recorded events: the last step before the commit. */
  async beforeCommit(): Promise<void> {
    if (this.pending.length === 0) return;
    if ((await this.wanted)?.realtime) await this.tx.lock([OUTBOX_ORDER_LOCK]);
    for (const e of this.pending) await appendEvent(this.tx, e, this.outbox.now());
    this.recorded += this.pending.length;
    this.pending = [];
  }

  afterCommit(): void {
    if (this.recorded > 0) this.outbox.committed();
  }
}

export class Outbox {
  /** Called after a transaction that recorded events has committed (the deliverer's wake). */
  onCommit?: () => void;
  private listeners = new Set<() => void>();

  constructor(readonly now: () => number = Date.now) {}

  /** Opens the outbox's part in a write transaction (the write pipeline calls it). */
  open(tx: Queryable): EventLog {
    return new EventLog(tx, this);
  }

  /** Also calls `listener` after each commit that recorded events (the realtime hub); returns the way to stop. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @internal A transaction with events committed. */
  committed(): void {
    this.onCommit?.();
    for (const listener of this.listeners) listener();
  }
}
