/**
 * Content history's listener on the write pipeline (documents/write/context.ts): every write
 * of a document (create, update, publish, unpublish, discard-draft, a restore) records, for
 * each locale it touched, the document's full content after the write (query/content.ts), its status, the actor and which attributes changed since the version kept
 * before. Written just before the commit, in the write's transaction: a rolled-back write
 * leaves no version. A keys-only recorder: the entry is never read back for it, it reads the
 * content itself once per document and locale, however many events the write had.
 * Deletes record nothing (there is no content after them); the versions kept stay.
 */
import type { Queryable } from '../db/database';
import { insertedValues } from '../db/store/columns';
import { insertHistory, latestHistoryData, type NewHistoryRow } from '../db/store/history';
import { documentContents, insertedContents, type DocumentContent } from '../query/content';
import type { Actor, WriteListener, WriteRecord, WriteRecorder } from '../documents/write/context';
import { knownParts, writtenParts, type InsertedVersion } from '../documents/write/inserted';
import type { ContentType } from '../registry/types';

/** The events that leave a document with new content or a new status. */
const RECORDED: ReadonlySet<string> = new Set(['entry.create', 'entry.update', 'entry.publish', 'entry.unpublish', 'entry.draft-discard']);

/** Attributes whose values differ between two contents (every attribute holding a value when there is no previous one). */
export function changedAttributes(previous: Record<string, unknown> | undefined, next: Record<string, unknown>): string[] {
  const empty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
  if (!previous) return Object.keys(next).filter((name) => !empty(next[name]));
  const names = new Set([...Object.keys(previous), ...Object.keys(next)]);
  return [...names].filter((name) => JSON.stringify(previous[name] ?? null) !== JSON.stringify(next[name] ?? null));
}

interface Touched {
  ct: ContentType;
  documentId: string;
  locale: string;
  event: string;
  /** The draft (the only version without draft & publish) as its create inserted it. */
  inserted?: InsertedVersion;
  /** Whether the write published it. */
  published: boolean;
}

class HistoryRecorder implements WriteRecorder {
  readonly keysOnly = true;
  private touched = new Map<string, Touched>();
  /**
   * Whether every document event of the transaction was a create handing over what it inserted:
   * then no write changed those rows afterwards, and a create's content is what it wrote.
   */
  private onlyInserts = true;

  constructor(
    private tx: Queryable,
    private actor: Actor,
    private now: () => number,
  ) {}

  /** Every document event: a delete records nothing, but says the transaction did more than insert. */
  async wants(event: string): Promise<boolean> {
    return event.startsWith('entry.');
  }

  record(record: WriteRecord): void {
    if (record.kind !== 'entry') return;
    if (!record.inserted) this.onlyInserts = false;
    if (!RECORDED.has(record.event) || record.locale === '*') return;
    const key = `${record.contentType.uid}\u0000${record.documentId}\u0000${record.locale}`;
    let touched = this.touched.get(key);
    // The write's first event names it: a create that publishes is a create.
    if (!touched)
      this.touched.set(
        key,
        (touched = { ct: record.contentType, documentId: record.documentId, locale: record.locale, event: record.event, published: false }),
      );
    if (record.status === 'published') touched.published = true;
    if (record.inserted && (record.status === 'draft' || !record.contentType.draftAndPublish)) touched.inserted ??= record.inserted;
  }

  /**
   * Per type touched: the contents (those of creates from what they wrote, reading only the
   * tables they wrote; the others read whole) and the versions kept before, sent together;
   * one insert (per 200).
   */
  async beforeCommit(): Promise<void> {
    if (this.touched.size === 0) return;
    const createdAt = new Date(this.now()).toISOString();
    const byType = new Map<ContentType, Touched[]>();
    for (const t of this.touched.values()) {
      const list = byType.get(t.ct);
      if (list) list.push(t);
      else byType.set(t.ct, [t]);
    }
    this.touched.clear();
    const rows: NewHistoryRow[] = [];
    for (const [ct, touched] of byType) {
      const inserted = this.onlyInserts ? touched.filter((t) => t.inserted) : [];
      const read = this.onlyInserts ? touched.filter((t) => !t.inserted) : touched;
      // A created document has no version kept before (an import creates thousands: nothing to read).
      const earlier = touched.filter((t) => t.event !== 'entry.create');
      const engine = this.tx.dialect.name;
      const [fromInserts, fromReads, previous] = await Promise.all([
        inserted.length
          ? insertedContents(
              this.tx,
              ct,
              inserted.map((t) => ({
                rowId: t.inserted!.rowId,
                values: insertedValues(ct, engine, t.inserted!.input.scalars),
                status: !ct.draftAndPublish || t.published ? 'published' : 'draft',
                known: knownParts(t.inserted!, engine),
              })),
              // What is read: what the creates wrote and do not know (neither links nor flat components).
              writtenParts(
                ct,
                inserted.map((t) => t.inserted!.input),
              ),
            )
          : [],
        read.length ? documentContents(this.tx, ct, read) : new Map<string, DocumentContent>(),
        earlier.length ? latestHistoryData(this.tx, ct.uid, earlier) : new Map<string, Record<string, unknown>>(),
      ]);
      const contents = new Map<Touched, DocumentContent | undefined>(read.map((t) => [t, fromReads.get(`${t.documentId}\u0000${t.locale}`)]));
      inserted.forEach((t, i) => contents.set(t, fromInserts[i]));
      for (const t of touched) {
        const { documentId, locale, event } = t;
        const content = contents.get(t);
        if (!content) continue;
        rows.push({
          uid: ct.uid,
          documentId,
          locale,
          status: content.status,
          event,
          actorKind: this.actor.kind,
          actorId: this.actor.id === undefined ? null : String(this.actor.id),
          actorName: this.actor.name ?? null,
          changed: changedAttributes(previous.get(`${documentId}\u0000${locale}`), content.data),
          data: content.data,
          createdAt,
        });
      }
    }
    await insertHistory(this.tx, rows);
  }
}

export class HistoryListener implements WriteListener {
  constructor(private now: () => number = Date.now) {}

  open(tx: Queryable, actor: Actor): WriteRecorder {
    return new HistoryRecorder(tx, actor, this.now);
  }
}
