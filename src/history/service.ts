/**
 * Content history: the versions the listener (./listener.ts) keeps, read and restored. What
 * `folio history` and /admin/api/history call. A version shows its content whole, private
 * attributes included: only the admin and the CLI read it (the content API never does).
 * Restoring writes the version's content as the document's draft (its only version without
 * draft & publish) through the document service, as a write of its own by the restoring
 * actor: it is in the history and the audit log like any other.
 */
import type { Database } from '../db/database';
import { findHistory, historyAuthors, listHistory, pruneHistory, type HistoryAuthor, type HistoryRow } from '../db/store/history';
import type { DocumentService, Written } from '../documents/service';
import type { Actor } from '../documents/write/context';
import { NotFoundError } from '../errors';
import type { ContentType, Registry } from '../registry/types';
import { restorableBody, type LeftOut } from './restore';

/** A kept version as the CLI's `--json` and the admin API show it. */
export interface HistoryVersion {
  id: number;
  createdAt: string;
  /** The content type's uid. */
  type: string;
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
  /** draft (never published), published (the draft is what is published) or modified (saved since publishing). */
  status: string;
  /** The write's first event: entry.create, entry.update, entry.publish, entry.unpublish, entry.draft-discard. */
  event: string;
  actor: { kind: string; name: string | null };
  /** Attributes that differ from the version kept before (every attribute holding a value for the first). */
  changed: string[];
  data: Record<string, unknown>;
}

export interface RestoreResult {
  version: HistoryVersion;
  written: Written;
  leftOut: LeftOut[];
}

/** Most versions one page lists. */
export const HISTORY_PAGE_LIMIT = 100;

const DAY_MS = 24 * 60 * 60 * 1000;

const versionOf = (row: HistoryRow): HistoryVersion => ({
  id: row.id,
  createdAt: row.createdAt,
  type: row.uid,
  documentId: row.documentId,
  locale: row.locale,
  status: row.status,
  event: row.event,
  actor: { kind: row.actorKind, name: row.actorName },
  changed: row.changed,
  data: row.data,
});

export class ContentHistory {
  constructor(
    private db: Database,
    private registry: Registry,
    private documents: DocumentService,
    /** FOLIO_HISTORY_DAYS: versions older than this go; 0: history is off. */
    readonly days: number,
  ) {}

  /**
   * A document's versions, newest first: in one locale, or in all (undefined); at most `limit`
   * (HISTORY_PAGE_LIMIT, and one), older than version `before` for the next page.
   */
  async list(ct: ContentType, documentId: string, options: { locale?: string; before?: number; limit?: number } = {}): Promise<HistoryVersion[]> {
    // One more than a page may be asked: whether a next page exists.
    const limit = Math.min(Math.max(1, options.limit ?? HISTORY_PAGE_LIMIT), HISTORY_PAGE_LIMIT + 1);
    const locale = ct.localized ? options.locale : undefined;
    return (await listHistory(this.db, { uid: ct.uid, documentId, locale, before: options.before, limit })).map(versionOf);
  }

  /** Every version of a document, newest first (the CLI pages through them all). */
  async all(ct: ContentType, documentId: string, locale?: string): Promise<HistoryVersion[]> {
    const out: HistoryVersion[] = [];
    for (;;) {
      const page = await this.list(ct, documentId, { locale, before: out.at(-1)?.id });
      out.push(...page);
      if (page.length < HISTORY_PAGE_LIMIT) return out;
    }
  }

  /**
   * Who created a document's locale version and who wrote it last, as the versions kept say
   * (the edit view's "Created … by", "Last saved … by"); null where none is kept (history off,
   * pruned, or written before history was kept).
   */
  authors(ct: ContentType, documentId: string, locale: string | undefined): Promise<{ created: HistoryAuthor | null; updated: HistoryAuthor | null }> {
    return historyAuthors(this.db, ct.uid, documentId, ct.localized ? (locale ?? '') : '');
  }

  async get(versionId: number): Promise<HistoryVersion | undefined> {
    const row = await findHistory(this.db, versionId);
    return row && versionOf(row);
  }

  /**
   * Writes a version's content back as the document's current draft (the document itself
   * without draft & publish), by `actor`. What no longer exists is left out and reported.
   */
  async restore(versionId: number, actor: Actor): Promise<RestoreResult> {
    const version = await this.get(versionId);
    if (!version) throw new NotFoundError(`No history version ${versionId}`);
    const ct = this.registry.contentType(version.type);
    if (!ct || ct.system) throw new NotFoundError(`The content type ${version.type} of version ${versionId} no longer exists`);
    const { body, leftOut } = await restorableBody(this.db, this.registry, ct, version.data);
    const options = { status: ct.draftAndPublish ? ('draft' as const) : undefined, locale: version.locale || undefined, actor };
    const written = await this.documents.update(ct, version.documentId, body, options);
    if (!written) throw new NotFoundError(`Document "${version.documentId}" of ${ct.uid} no longer exists`);
    return { version, written, leftOut };
  }

  /** Deletes versions older than the retention; returns how many went. */
  async prune(now = Date.now(), batch = 1000): Promise<number> {
    if (this.days <= 0) return 0;
    const before = new Date(now - this.days * DAY_MS).toISOString();
    let pruned = 0;
    for (;;) {
      const n = await pruneHistory(this.db, before, batch);
      pruned += n;
      if (n < batch) return pruned;
    }
  }
}
