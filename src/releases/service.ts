/**
 * Releases: a named set of actions (publish or unpublish one document in one locale),
 * optionally scheduled. Publishing applies them all in ONE write of the pipeline: each entry
 * goes through exactly the publish or unpublish operation its own action runs, joining the
 * release's transaction (`within`), so each records its own events and fires its hooks; an
 * entry that cannot be published (a required value missing in its draft) rolls everything
 * back, and the failure (the entry and the field named) is recorded afterwards in its own
 * transaction. Webhooks and the realtime feed get `releases.publish` (Strapi's payload) and
 * the entries' own `entry.publish` / `entry.unpublish`.
 *
 * Exactly once: the first statement of the publishing transaction is a conditional UPDATE
 * of the release's status (db/store/releases.ts claimRelease), which takes its row lock; an
 * instance that publishes the same release at the same time waits for it, then finds it done
 * and does nothing. The scheduler (./scheduler.ts) only ever asks for due pending releases.
 */
import type { Database } from '../db/database';
import {
  claimRelease,
  deleteRelease,
  deleteReleaseEntries,
  findRelease,
  findReleaseById,
  insertRelease,
  listReleases,
  markReleaseFailed,
  releaseEntries,
  releasesOfDocument,
  setSchedule,
  upsertReleaseEntry,
  dueReleases,
  type ReleaseEntryRow,
  type ReleaseRow,
  type ReleaseStatus,
} from '../db/store/releases';
import { existingVersions } from '../db/store/versions';
import type { DocumentService } from '../documents/service';
import type { Actor } from '../documents/write/context';
import { documentLock, mergeLocks } from '../documents/write/locks';
import { FolioError, NotFoundError, ValidationError } from '../errors';
import type { ContentType, Registry } from '../registry/types';
import { unstorableText } from '../text';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import { scheduledInstant } from './schedule';

export type ReleaseAction = 'publish' | 'unpublish';

/** An entry as `folio release show --json` and the admin API show it. */
export interface ReleaseEntry {
  /** The content type's uid. */
  type: string;
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
  action: ReleaseAction;
}

/** Why a release failed: the entry, the field when a value was missing or wrong, and the message. */
export interface ReleaseFailure {
  message: string;
  type?: string;
  documentId?: string;
  locale?: string;
  action?: ReleaseAction;
  field?: string;
}

/** A release as `folio release show --json` and the admin API show it. */
export interface ReleaseView {
  name: string;
  status: ReleaseStatus;
  /** UTC, ISO-8601; null: published by hand only. */
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  createdAt: string;
  entries: ReleaseEntry[];
  error?: ReleaseFailure;
}

export interface ReleaseSummary {
  name: string;
  status: ReleaseStatus;
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  entries: number;
}

/** The most entries one release holds: one transaction holds a lock per document. */
export const RELEASE_ENTRY_LIMIT = 1000;
/** The most releases a listing shows. */
export const RELEASE_LIST_LIMIT = 1000;

/** A release could not be published: the release is marked failed with `failure`, nothing else changed. */
export class ReleaseFailedError extends FolioError {
  constructor(
    readonly release: string,
    readonly failure: ReleaseFailure,
  ) {
    super(400, 'ValidationError', `Release "${release}" failed: ${failure.message}; nothing was changed`, { failure });
  }
}

/** Strapi's `release` in the releases.publish payload. */
const payloadOf = (row: ReleaseRow) => ({
  id: row.id,
  name: row.name,
  releasedAt: row.releasedAt,
  scheduledAt: row.scheduledAt,
  timezone: row.timezone,
  status: row.status,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const entryOf = (row: ReleaseEntryRow): ReleaseEntry => ({ type: row.uid, documentId: row.documentId, locale: row.locale, action: row.action });

/** What a failed entry tells: the field of the first value error, and its message. */
function failureOf(entry: ReleaseEntryRow, error: unknown): ReleaseFailure {
  const details = (error as FolioError | undefined)?.details as { errors?: { path?: (string | number)[] }[] } | undefined;
  const path = details?.errors?.[0]?.path;
  const field = path?.length ? path.map(String).join('.') : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const where = `${entry.action} ${entry.uid} "${entry.documentId}"${entry.locale ? ` (${entry.locale})` : ''}`;
  return {
    message: `${where}: ${message}`,
    type: entry.uid,
    documentId: entry.documentId,
    locale: entry.locale,
    action: entry.action,
    ...(field ? { field } : {}),
  };
}

export class Releases {
  /** Where release changes are recorded (their publishes reach the audit log as pipeline records). */
  audit: AuditTrail = NO_AUDIT;

  constructor(
    private db: Database,
    private registry: Registry,
    private documents: DocumentService,
    private now: () => number = Date.now,
  ) {}

  private iso = () => new Date(this.now()).toISOString();

  private async require(name: string): Promise<ReleaseRow> {
    const row = await findRelease(this.db, name);
    if (!row) throw new NotFoundError(`No release named "${name}"`);
    return row;
  }

  private static checkName(name: string): string {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 200 || unstorableText(trimmed)) {
      throw new ValidationError('A release name is 1 to 200 characters of text', {
        errors: [{ path: ['name'], message: 'A release name is 1 to 200 characters of text' }],
      });
    }
    return trimmed;
  }

  /** The UTC instant of `at` in `timezone`, which must be in the future. */
  private due(at: string, timezone: string | undefined): string {
    const instant = scheduledInstant(at, timezone ?? 'UTC');
    if (Date.parse(instant) <= this.now()) {
      throw new ValidationError(`The scheduled time ${instant} has passed: schedule a release in the future`, {
        errors: [{ path: ['scheduledAt'], message: 'must be in the future' }],
      });
    }
    return instant;
  }

  async create(input: { name: string; at?: string; timezone?: string }, by: Actor = BY_SYSTEM): Promise<ReleaseView> {
    const name = Releases.checkName(input.name);
    if (input.timezone !== undefined && input.at === undefined)
      throw new ValidationError('A time zone goes with a scheduled time (--at)', { errors: [{ path: ['timezone'], message: 'needs a scheduled time' }] });
    const scheduledAt = input.at === undefined ? null : this.due(input.at, input.timezone);
    if (await findRelease(this.db, name))
      throw new ValidationError(`A release named "${name}" already exists`, { errors: [{ path: ['name'], message: 'name is already taken' }] });
    await insertRelease(this.db, { name, scheduledAt, timezone: scheduledAt ? (input.timezone ?? 'UTC') : null, now: this.iso() });
    await this.audit.record({ action: 'release.create', actor: by, type: 'release', details: { name, scheduledAt } });
    return this.show(name);
  }

  /** Sets (or with `at` null, removes) a pending release's schedule. */
  async schedule(name: string, at: string | null, timezone: string | undefined, by: Actor = BY_SYSTEM): Promise<ReleaseView> {
    const row = await this.pending(name);
    const scheduledAt = at === null ? null : this.due(at, timezone);
    await setSchedule(this.db, row.id, scheduledAt, scheduledAt ? (timezone ?? 'UTC') : null, this.iso());
    await this.audit.record({ action: 'release.update', actor: by, type: 'release', details: { name: row.name, scheduledAt } });
    return this.show(row.name);
  }

  async list(): Promise<ReleaseSummary[]> {
    return (await listReleases(this.db, RELEASE_LIST_LIMIT)).map(({ name, status, scheduledAt, timezone, releasedAt, entries }) => ({
      name,
      status,
      scheduledAt,
      timezone,
      releasedAt,
      entries,
    }));
  }

  async show(name: string): Promise<ReleaseView> {
    const row = await this.require(name);
    const view: ReleaseView = {
      name: row.name,
      status: row.status,
      scheduledAt: row.scheduledAt,
      timezone: row.timezone,
      releasedAt: row.releasedAt,
      createdAt: row.createdAt,
      entries: (await releaseEntries(this.db, row.id)).map(entryOf),
    };
    if (row.error) view.error = row.error as unknown as ReleaseFailure;
    return view;
  }

  /** The releases holding a document (for the edit view's "in releases" list). */
  async ofDocument(ct: ContentType, documentId: string) {
    return releasesOfDocument(this.db, ct.uid, documentId);
  }

  private async pending(name: string): Promise<ReleaseRow> {
    const row = await this.require(name);
    if (row.status === 'done') throw new FolioError(400, 'ApplicationError', `Release "${row.name}" has been published: it can no longer change`);
    return row;
  }

  /** The type and locale an entry names, checked: a draft & publish type, an existing locale version of the document. */
  private async target(type: ContentType, documentId: string, locale: string | undefined): Promise<{ locale: string }> {
    if (type.system || !type.draftAndPublish)
      throw new ValidationError(`${type.uid} has no draft & publish: its documents cannot be in a release`, {
        errors: [{ path: ['type'], message: 'not a draft & publish type' }],
      });
    if (unstorableText(documentId) || !documentId)
      throw new ValidationError('Invalid documentId', { errors: [{ path: ['documentId'], message: 'invalid documentId' }] });
    const code = type.localized ? (locale ?? (await this.documents.locales.defaultCode())) : '';
    if (locale !== undefined && unstorableText(locale))
      throw new ValidationError('Invalid locale', { errors: [{ path: ['locale'], message: 'invalid locale' }] });
    const versions = await existingVersions(this.db, type, [documentId]);
    if (!versions.some((v) => v.locale === code)) {
      throw new NotFoundError(`Document "${documentId}" of ${type.uid} not found${code ? ` in locale "${code}"` : ''}`);
    }
    return { locale: code };
  }

  /** Adds a document's action (or changes the one it has in that locale). */
  async add(name: string, entry: { type: ContentType; documentId: string; locale?: string; action: string }, by: Actor = BY_SYSTEM): Promise<ReleaseView> {
    if (entry.action !== 'publish' && entry.action !== 'unpublish')
      throw new ValidationError('action must be publish or unpublish', { errors: [{ path: ['action'], message: 'must be publish or unpublish' }] });
    const row = await this.pending(name);
    const { locale } = await this.target(entry.type, entry.documentId, entry.locale);
    const entries = await releaseEntries(this.db, row.id);
    const known = entries.some((e) => e.uid === entry.type.uid && e.documentId === entry.documentId && e.locale === locale);
    if (!known && entries.length >= RELEASE_ENTRY_LIMIT) throw new ValidationError(`A release holds at most ${RELEASE_ENTRY_LIMIT} entries`);
    await upsertReleaseEntry(this.db, row.id, { uid: entry.type.uid, documentId: entry.documentId, locale, action: entry.action }, this.iso());
    await this.audit.record({
      action: 'release.entry.add',
      actor: by,
      type: entry.type.uid,
      documentId: entry.documentId,
      locale,
      details: { release: row.name, action: entry.action },
    });
    return this.show(row.name);
  }

  /** Removes a document (in one locale, or in every one) from a release. */
  async remove(name: string, entry: { type: ContentType; documentId: string; locale?: string }, by: Actor = BY_SYSTEM): Promise<ReleaseView> {
    const row = await this.pending(name);
    const locale = entry.type.localized ? entry.locale : entry.locale === undefined ? undefined : '';
    const removed = await deleteReleaseEntries(this.db, row.id, entry.type.uid, entry.documentId, locale);
    if (removed === 0)
      throw new NotFoundError(`Release "${row.name}" holds no entry for ${entry.type.uid} "${entry.documentId}"${locale ? ` (${locale})` : ''}`);
    await this.audit.record({
      action: 'release.entry.remove',
      actor: by,
      type: entry.type.uid,
      documentId: entry.documentId,
      locale: locale ?? '*',
      details: { release: row.name },
    });
    return this.show(row.name);
  }

  async delete(name: string, by: Actor = BY_SYSTEM): Promise<void> {
    const row = await this.require(name);
    await deleteRelease(this.db, row.id);
    await this.audit.record({ action: 'release.delete', actor: by, type: 'release', details: { name: row.name } });
  }

  /**
   * Publishes a release by hand (a pending one, or a failed one again): every entry or none.
   * A failure is a ReleaseFailedError naming the entry and the field; the release is then
   * marked failed with it.
   */
  async publish(name: string, by: Actor = BY_SYSTEM): Promise<ReleaseView> {
    const row = await this.require(name);
    if (row.status === 'done') throw new FolioError(400, 'ApplicationError', `Release "${row.name}" has already been published`);
    await this.apply(row.id, ['pending', 'failed'], by);
    return this.show(row.name);
  }

  /**
   * Publishes the pending releases due at `now` (the scheduler's round); answers the names
   * published. A release another instance published meanwhile is skipped; one that fails is
   * marked failed (and reported to `failed`), the others go on.
   */
  async publishDue(onFailed?: (name: string, failure: ReleaseFailure) => void): Promise<string[]> {
    const published: string[] = [];
    for (const id of await dueReleases(this.db, this.iso(), 20)) {
      try {
        const name = await this.apply(id, ['pending'], BY_SYSTEM);
        if (name) published.push(name);
      } catch (error) {
        if (error instanceof ReleaseFailedError) onFailed?.(error.release, error.failure);
        else throw error;
      }
    }
    return published;
  }

  /** One publish: the claim, every entry, the release's event; or the failure, recorded after the rollback. Undefined: not ours to publish. */
  private async apply(id: number, from: ReleaseStatus[], by: Actor): Promise<string | undefined> {
    const entries = await releaseEntries(this.db, id);
    const initial = await findReleaseById(this.db, id);
    if (!initial) return undefined;
    if (entries.length === 0) throw new ValidationError(`Release "${initial.name}" has no entries to publish`);
    const types = new Map<string, ContentType>();
    for (const e of entries) {
      const ct = this.registry.contentType(e.uid);
      if (!ct) {
        await this.fail(
          initial,
          from,
          { message: `${e.uid} is no longer a content type`, type: e.uid, documentId: e.documentId, locale: e.locale, action: e.action },
          by,
        );
      }
      types.set(e.uid, ct!);
    }
    // Read before the transaction (cached), so the operations' own look-ups inside it never wait for a second pooled connection.
    await this.documents.locales.defaultCode();
    const locks = mergeLocks(entries.map((e) => ({ exclusive: [documentLock(types.get(e.uid)!, e.documentId)], shared: [] })));
    let failed: { entry: ReleaseEntryRow; error: unknown } | undefined;
    try {
      return await this.documents.pipeline.run(
        { actor: by },
        async (ctx) => {
          const claimed = await claimRelease(ctx.tx, id, from, this.iso());
          if (!claimed) return undefined;
          await ctx.tx.lock(locks.exclusive, locks.shared);
          for (const entry of entries) {
            const ct = types.get(entry.uid)!;
            const options = { within: ctx, locale: ct.localized ? entry.locale : undefined };
            try {
              const written =
                entry.action === 'publish'
                  ? await this.documents.publish(ct, entry.documentId, options)
                  : await this.documents.unpublish(ct, entry.documentId, options);
              if (!written) throw new NotFoundError(`the document does not exist${entry.locale ? ` in locale "${entry.locale}"` : ''} any more`);
            } catch (error) {
              failed = { entry, error };
              throw error;
            }
          }
          await ctx.release({ isPublished: true, release: payloadOf(claimed) });
          return claimed.name;
        },
        { isolation: 'read committed' },
      );
    } catch (error) {
      if (!failed) throw error;
      return this.fail(initial, from, failureOf(failed.entry, failed.error), by);
    }
  }

  /** Marks a release failed in a write of its own (unless it moved on meanwhile), with Strapi's failed releases.publish; then throws. */
  private async fail(row: ReleaseRow, from: ReleaseStatus[], failure: ReleaseFailure, by: Actor): Promise<never> {
    await this.documents.pipeline.run({ actor: by }, async (ctx) => {
      if (await markReleaseFailed(ctx.tx, row.id, from, failure as unknown as Record<string, unknown>, this.iso())) {
        await ctx.release({
          isPublished: false,
          release: payloadOf({ ...row, status: 'failed' }),
          error: { name: 'ValidationError', message: failure.message },
        });
      }
    });
    throw new ReleaseFailedError(row.name, failure);
  }
}
