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
 * An event no webhook subscribes to is not written at all: a write with no webhook pays one
 * small query (a bulk import one per batch), not a read-back per document.
 */
import type { Database, Queryable, TransactionOptions } from '../db/database';
import { appendEvent } from '../db/store/outbox';
import { subscribedEvents } from '../db/store/webhooks';
import { findMany } from '../documents/read';
import { parseReadQuery } from '../query/parse';
import type { ContentType, Registry } from '../registry/types';
import { FILE_UID, type EntryEvent, type MediaEvent } from './names';

/** Enough rows for every locale and status of one document. */
const VERSIONS_LIMIT = { defaultLimit: 1000, maxLimit: 1000 };

export class EventLog {
  /** Events appended so far in this transaction. */
  recorded = 0;
  private subscribed: Promise<Set<string>> | undefined;

  constructor(
    readonly tx: Queryable,
    private registry: Registry,
    private now: () => number,
  ) {}

  /** Whether any webhook listens to `event`; the webhooks are read once per transaction. */
  async wants(event: string): Promise<boolean> {
    this.subscribed ??= subscribedEvents(this.tx);
    return (await this.subscribed).has(event);
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
    const body = JSON.stringify({ event, createdAt, ...payload });
    await appendEvent(this.tx, { event, uid, body, createdAt }, this.now());
    this.recorded++;
  }
}

export class Events {
  /** Called after a transaction that recorded events has committed (the deliverer's wake). */
  onCommit?: () => void;

  constructor(
    private db: Database,
    private registry: Registry,
    private now: () => number = Date.now,
  ) {}

  /**
   * Runs `fn` as one write transaction with an EventLog bound to it. On PostgreSQL a retried
   * transaction starts again with a fresh log, so only the attempt that committed counts.
   */
  async transaction<T>(fn: (tx: Queryable, log: EventLog) => Promise<T>, options?: TransactionOptions): Promise<T> {
    let log: EventLog | undefined;
    const result = await this.db.transaction((tx) => {
      log = new EventLog(tx, this.registry, this.now);
      return fn(tx, log);
    }, options);
    if (log && log.recorded > 0) this.onCommit?.();
    return result;
  }
}
