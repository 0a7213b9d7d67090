/**
 * The audit log's listener on the write pipeline (documents/write/context.ts): every event of
 * a document write (entry.create, entry.update, entry.delete, entry.publish, entry.unpublish,
 * entry.draft-discard), of a file (media.create, media.update, media.delete) and a release's
 * publish becomes a row, written in the write's own transaction just before it commits (a
 * rolled-back write leaves none). A keys-only recorder: nothing is read back for it.
 */
import type { Queryable } from '../db/database';
import { insertAudit, type NewAuditRow } from '../db/store/audit';
import type { Actor, WriteListener, WriteRecord, WriteRecorder } from '../documents/write/context';
import { auditRow } from './log';

const FILE_UID = 'plugin::upload.file';

class AuditRecorder implements WriteRecorder {
  readonly keysOnly = true;
  private rows: NewAuditRow[] = [];
  private seen = new Set<string>();

  constructor(
    private tx: Queryable,
    private actor: Actor,
  ) {}

  async wants(event: string): Promise<boolean> {
    return event.startsWith('entry.') || event.startsWith('media.') || event === 'releases.publish';
  }

  record(record: WriteRecord): void {
    const at = new Date(record.at).toISOString();
    if (record.kind === 'entry') {
      // One row per event and version: a delete of every locale reads as one row, locale '*'.
      const key = `${record.event}\u0000${record.contentType.uid}\u0000${record.documentId}\u0000${record.locale}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      this.rows.push(
        auditRow(
          {
            action: record.event,
            actor: this.actor,
            type: record.contentType.uid,
            documentId: record.documentId,
            locale: record.locale,
            details: { status: record.status },
          },
          at,
        ),
      );
    } else if (record.kind === 'media') {
      const file = record.file;
      this.rows.push(
        auditRow(
          {
            action: record.event,
            actor: this.actor,
            type: FILE_UID,
            documentId: file.documentId as string | undefined,
            details: { id: file.id, name: file.name },
          },
          at,
        ),
      );
    } else {
      const details = { name: record.release.name, isPublished: record.isPublished, ...(record.error ? { error: record.error.message } : {}) };
      this.rows.push(auditRow({ action: record.event, actor: this.actor, type: 'release', details }, at));
    }
  }

  async beforeCommit(): Promise<void> {
    if (this.rows.length === 0) return;
    await insertAudit(this.tx, this.rows);
    this.rows = [];
  }
}

export class AuditListener implements WriteListener {
  open(tx: Queryable, actor: Actor): WriteRecorder {
    return new AuditRecorder(tx, actor);
  }
}
