/**
 * Recording events: the outbox side of src/events/. A write runs through
 * `Events.transaction`, which hands it an EventLog bound to the write's own transaction;
 * the log appends each event to the outbox there, so it commits (or rolls back) with the
 * change, and nothing is sent before the commit. Once the transaction has committed with
 * events in it, the deliverer is woken.
 *
 * The payload is fixed at write time, as webhooks receive it (Strapi's shape):
 *   entries  `{ event, createdAt, model, uid, entry }`, the entry read back inside the
 *            transaction with the API's own reader and no populate (private attributes are
 *            never selected), in the locale and status the event is about;
 *   media    `{ event, createdAt, media }`, the file as the upload API answers it.
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
 */
import type { Database, Queryable, TransactionOptions } from '../db/database';
import { appendEvent } from '../db/store/outbox';
import { wantedEvents, type WantedEvents } from '../db/store/realtime';
import { findMany } from '../documents/read';
import { parseReadQuery } from '../query/parse';
import type { ContentType, Registry } from '../registry/types';
import { FILE_UID, type EntryEvent, type MediaEvent } from './names';

/** Enough rows for every locale and status of one document. */
const VERSIONS_LIMIT = { defaultLimit: 1000, maxLimit: 1000 };

/** The lock that orders appends while the realtime feed reads the outbox (any constant name). */
const OUTBOX_ORDER_LOCK = 'folio:outbox-order';

export class EventLog {
  /** Events appended in this transaction (counted once written, just before the commit). */
  recorded = 0;
  private wanted: Promise<WantedEvents> | undefined;
  private pending: { event: string; uid: string; body: string; createdAt: string }[] = [];

  constructor(
    readonly tx: Queryable,
    private registry: Registry,
    private now: () => number,
  ) {}

  /** Whether a webhook listens to `event` or the realtime lease is live; read once per transaction. */
  async wants(event: string): Promise<boolean> {
    this.wanted ??= wantedEvents(this.tx, this.now());
    const wanted = await this.wanted;
    return wanted.realtime || wanted.events.has(event);
  }

  /**
   * Sends the listeners check now, for a write that will ask `wants` anyway: it goes out
   * beside the write's next statements (PostgreSQL's client pipelines them, a round trip
   * less) instead of after them. Call it once the write's locks are sent: before them it
   * would go out alone, with the BEGIN.
   */
  prefetch(): void {
    this.wanted ??= wantedEvents(this.tx, this.now());
    // A failure surfaces where `wants` awaits it; a write that never asks must not leave it unhandled.
    this.wanted.catch(() => {});
  }

  /**
   * Records `event` for each version of a document in `locale` ('*' or undefined: every
   * locale) and `status`, as they stand now in this transaction. Call it after a write for
   * what the write produced, before a removal for what goes.
   */
  async entries(event: EntryEvent, ct: ContentType, documentId: string, locale: string | undefined, status: 'draft' | 'published'): Promise<void> {
    if (!(await this.wants(event))) return;
    for (const entry of await this.read(ct, documentId, locale, status)) {
      await this.append(event, ct.uid, { model: ct.singularName, uid: ct.uid, entry });
    }
  }

  /** Records a media event with the file as the upload API answers it. */
  async media(event: MediaEvent, file: Record<string, unknown>): Promise<void> {
    if (await this.wants(event)) await this.append(event, FILE_UID, { media: file });
  }

  private async read(ct: ContentType, documentId: string, locale: string | undefined, status: 'draft' | 'published') {
    const raw: Record<string, unknown> = { filters: { documentId: { $eq: documentId } }, pagination: { start: 0, limit: VERSIONS_LIMIT.maxLimit, withCount: 'false' } };
    if (ct.draftAndPublish) raw.status = status;
    if (ct.localized) raw.locale = locale ?? '*';
    // The locale is given whenever the type has i18n (types without ignore it). Nothing here
    // may use a connection other than the transaction's: on PostgreSQL, writers holding every
    // pooled connection while waiting for one more would wait forever.
    const query = parseReadQuery(this.registry, ct, raw, '*', VERSIONS_LIMIT);
    return (await findMany({ db: this.tx, registry: this.registry }, ct, query)).data;
  }

  private async append(event: string, uid: string, payload: Record<string, unknown>): Promise<void> {
    const createdAt = new Date(this.now()).toISOString();
    this.pending.push({ event, uid, body: JSON.stringify({ event, createdAt, ...payload }), createdAt });
  }

  /** Writes the recorded events; Events.transaction calls it as the last step before the commit. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    if ((await this.wanted)?.realtime) await this.tx.lock([OUTBOX_ORDER_LOCK]);
    for (const e of this.pending) await appendEvent(this.tx, e, this.now());
    this.recorded += this.pending.length;
    this.pending = [];
  }
}

export class Events {
  /** Called after a transaction that recorded events has committed (the deliverer's wake). */
  onCommit?: () => void;
  private listeners = new Set<() => void>();

  constructor(
    private db: Database,
    private registry: Registry,
    private now: () => number = Date.now,
  ) {}

  /** Also calls `listener` after each commit that recorded events (the realtime hub); returns the way to stop. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `fn` as one write transaction with an EventLog bound to it. On PostgreSQL a retried
   * transaction starts again with a fresh log, so only the attempt that committed counts.
   */
  async transaction<T>(fn: (tx: Queryable, log: EventLog) => Promise<T>, options?: TransactionOptions): Promise<T> {
    let log: EventLog | undefined;
    const result = await this.db.transaction(async (tx) => {
      log = new EventLog(tx, this.registry, this.now);
      const value = await fn(tx, log);
      await log.flush();
      return value;
    }, options);
    if (log && log.recorded > 0) {
      this.onCommit?.();
      for (const listener of this.listeners) listener();
    }
    return result;
  }
}
