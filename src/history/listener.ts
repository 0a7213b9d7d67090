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
import { insertHistory, latestHistoryData, type NewHistoryRow } from '../db/store/history';
import { documentContents } from '../query/content';
import type { Actor, WriteListener, WriteRecord, WriteRecorder } from '../documents/write/context';
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
}

class HistoryRecorder implements WriteRecorder {
  readonly keysOnly = true;
  private touched = new Map<string, Touched>();

  constructor(
    private tx: Queryable,
    private actor: Actor,
    private now: () => number,
  ) {}

  async wants(event: string): Promise<boolean> {
    return RECORDED.has(event);
  }

  record(record: WriteRecord): void {
    if (record.kind !== 'entry' || record.locale === '*') return;
    const key = `${record.contentType.uid}\u0000${record.documentId}\u0000${record.locale}`;
    // The write's first event names it: a create that publishes is a create.
    if (!this.touched.has(key)) this.touched.set(key, { ct: record.contentType, documentId: record.documentId, locale: record.locale, event: record.event });
  }

  /** One read of the contents per type touched, one of the versions kept before, one insert (per 200). */
  async beforeCommit(): Promise<void> {
    if (this.touched.size === 0) return;
    const createdAt = new Date(this.now()).toISOString();
    const byType = new Map<ContentType, Touched[]>();
    for (const t of this.touched.values()) byType.set(t.ct, [...(byType.get(t.ct) ?? []), t]);
    this.touched.clear();
    const rows: NewHistoryRow[] = [];
    for (const [ct, touched] of byType) {
      const contents = await documentContents(this.tx, ct, touched);
      // A created document has no version kept before (an import creates thousands: nothing to read).
      const earlier = touched.filter((t) => t.event !== 'entry.create');
      const previous = earlier.length ? await latestHistoryData(this.tx, ct.uid, earlier) : new Map<string, Record<string, unknown>>();
      for (const { documentId, locale, event } of touched) {
        const key = `${documentId}\u0000${locale}`;
        const content = contents.get(key);
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
          changed: changedAttributes(previous.get(key), content.data),
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
