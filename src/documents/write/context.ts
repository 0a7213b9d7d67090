/**
 * The write context: one write transaction and everything that rides on it. Every document
 * write (documents/write/*.ts) and every upload write runs in one, opened by the pipeline
 * (WritePipeline.run) or joined when the caller already holds one (`within`): a bulk action,
 * a release publishing several documents, project code writing inside a lifecycle.
 *
 * What reacts to writes is a listener, registered by the composition root, never called by a
 * write: the outbox (events/), content history, the audit log. Each opens a recorder per
 * transaction; a write asks the recorders whether anyone wants an event (one cheap question
 * per transaction), reads the written versions back only then, hands them every recorder
 * that wants them, and the recorders write their rows just before the commit
 * (`beforeCommit`), so they commit or roll back with the change. `afterCommit` work (waking
 * the deliverer and the realtime feed, project code's after-commit callbacks) runs once the
 * transaction has committed, and never for a rolled-back one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SYSTEM_ACTOR, type Actor } from '../../actor';
import type { Database, Queryable, TransactionOptions } from '../../db/database';
import type { Logger } from '../../log';
import { versionsPlan } from '../../query/plans';
import type { ContentType, Registry } from '../../registry/types';
import { findMany } from '../../query/read';
import type { InsertedVersion } from './inserted';

/** Who writes (src/actor.ts): recorded with every version and audit row. */
export { SYSTEM_ACTOR, type Actor, type ActorKind } from '../../actor';

/** Strapi's document events (events/names.ts lists them). */
export type EntryEventName = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish' | 'entry.draft-discard';
export type MediaEventName = 'media.create' | 'media.update' | 'media.delete';

/** A version a write produced (or removed), as the content API shows it without populate. */
export interface EntryRecord {
  kind: 'entry';
  event: EntryEventName;
  contentType: ContentType;
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
  status: 'draft' | 'published';
  /**
   * The version as the content API shows it. Undefined only in records given to `keysOnly`
   * recorders when no other recorder of the transaction wanted the event.
   */
  entry?: Record<string, unknown>;
  /**
   * Given by creates: the version row this write inserted and everything it wrote into it
   * (./inserted.ts). Undefined for every other write, and for a create that also changed other
   * documents' links: a listener needing the content then reads it.
   */
  inserted?: InsertedVersion;
  actor: Actor;
  /** Milliseconds since the epoch. */
  at: number;
}

/** A file the upload service wrote, as the upload API shows it. */
export interface MediaRecord {
  kind: 'media';
  event: MediaEventName;
  file: Record<string, unknown>;
  actor: Actor;
  at: number;
}

/**
 * A release published (or failed to: then in a transaction of its own, after the rollback),
 * with Strapi's `releases.publish` payload: `{ isPublished, release, error? }`. Its entries'
 * own events are recorded by the publish and unpublish operations it joins.
 */
export interface ReleaseRecord {
  kind: 'release';
  event: 'releases.publish';
  isPublished: boolean;
  release: Record<string, unknown>;
  error?: { name: string; message: string };
  actor: Actor;
  at: number;
}

export type WriteRecord = EntryRecord | MediaRecord | ReleaseRecord;

/** One listener's part in one transaction. */
export interface WriteRecorder {
  /**
   * It reads what it needs itself (history, the audit log): entry records reach it with the
   * document's key, and the version is read back for it only when another recorder wants it.
   * `locale` is then '*' for an event about every locale of a localized document.
   */
  readonly keysOnly?: boolean;
  /** Whether it wants records of `event` (asked before anything is read back for it). */
  wants(event: string): Promise<boolean>;
  /** Send the reads `wants` will need now, beside the write's next statements (PostgreSQL pipelines them). */
  prefetch?(): void;
  record(record: WriteRecord): void;
  /** Writes what it recorded, in the transaction, just before the commit. */
  beforeCommit?(): Promise<void>;
  /** The transaction committed. */
  afterCommit?(): void;
}

/** Something that reacts to writes (the outbox, history, audit): it opens a recorder per transaction. */
export interface WriteListener {
  open(tx: Queryable, actor: Actor): WriteRecorder;
}

/**
 * The write whose work is running (set by WritePipeline.run around its function): a write
 * started from there — a lifecycle handler, project code it calls — joins it, as Strapi's
 * nested `db.transaction` calls join the open one (an AsyncLocalStorage there too). On SQLite
 * a second transaction would wait for the one waiting for it.
 */
const openWrites = new AsyncLocalStorage<WriteContext>();

/** The open write the current code runs inside, if any (none once its transaction has settled). */
export function currentWrite(): WriteContext | undefined {
  const ctx = openWrites.getStore();
  return ctx?.open ? ctx : undefined;
}

export class WriteContext {
  /** Shared between the hooks of one write (Strapi's lifecycle `event.state` lives per event; this per transaction). */
  readonly state: Record<string, unknown> = {};
  /** False once the write's work is done: a promise it left running no longer joins it. */
  open = true;
  private afterCommitWork: (() => void | Promise<void>)[] = [];

  constructor(
    readonly tx: Queryable,
    readonly actor: Actor,
    private recorders: WriteRecorder[],
    private registry: Registry,
    private now: () => number,
  ) {}

  /** Runs `work` once the transaction has committed (never after a rollback). */
  afterCommit(work: () => void | Promise<void>): void {
    this.afterCommitWork.push(work);
  }

  /** See WriteRecorder.prefetch: call it once the write's locks are sent. */
  prefetch(): void {
    for (const recorder of this.recorders) recorder.prefetch?.();
  }

  /** Whether any listener wants `event` (a batch asks once, then records nothing when nobody does). */
  async wants(event: string): Promise<boolean> {
    for (const recorder of this.recorders) if (await recorder.wants(event)) return true;
    return false;
  }

  /**
   * Records `event` for each version of a document in `locale` ('*' or undefined: every
   * locale) and `status`, as they stand now in this transaction. Call it after a write for
   * what the write produced, before a removal for what goes. Read back only when some
   * listener wants the event, through the transaction's own connection: on PostgreSQL,
   * writers holding every pooled connection while waiting for one more would wait forever.
   * `inserted`: the version is one this write inserted (a create), as ./inserted.ts gives it.
   */
  async entries(
    event: EntryEventName,
    ct: ContentType,
    documentId: string,
    locale: string | undefined,
    status: 'draft' | 'published',
    inserted?: InsertedVersion,
  ): Promise<void> {
    const wanting: WriteRecorder[] = [];
    for (const recorder of this.recorders) if (await recorder.wants(event)) wanting.push(recorder);
    if (wanting.length === 0) return;
    const at = this.now();
    if (wanting.every((recorder) => recorder.keysOnly)) {
      const record: EntryRecord = {
        kind: 'entry',
        event,
        contentType: ct,
        documentId,
        locale: ct.localized ? (locale ?? '*') : '',
        status,
        inserted,
        actor: this.actor,
        at,
      };
      for (const recorder of wanting) recorder.record(record);
      return;
    }
    const data = await this.versions(ct, documentId, locale, status);
    for (const entry of data) {
      const record: EntryRecord = {
        kind: 'entry',
        event,
        contentType: ct,
        documentId,
        locale: (entry.locale as string | undefined) ?? locale ?? '',
        status,
        entry,
        inserted,
        actor: this.actor,
        at,
      };
      for (const recorder of wanting) recorder.record(record);
    }
  }

  /**
   * The versions of a document in `locale` ('*' or undefined: every locale) and `status` as they
   * stand in this transaction, shown as the content API shows them without populate.
   */
  async versions(ct: ContentType, documentId: string, locale: string | undefined, status: 'draft' | 'published'): Promise<Record<string, unknown>[]> {
    return (await findMany({ db: this.tx, registry: this.registry }, ct, versionsPlan(ct, documentId, locale, status))).data;
  }

  /** Records a media event with the file as the upload API answers it. */
  async media(event: MediaEventName, file: Record<string, unknown>): Promise<void> {
    const record: MediaRecord = { kind: 'media', event, file, actor: this.actor, at: this.now() };
    for (const recorder of this.recorders) if (await recorder.wants(event)) recorder.record(record);
  }

  /** Records a release's publish (src/releases/), for every recorder that wants `releases.publish`. */
  async release(fields: Pick<ReleaseRecord, 'isPublished' | 'release' | 'error'>): Promise<void> {
    const record: ReleaseRecord = { kind: 'release', event: 'releases.publish', ...fields, actor: this.actor, at: this.now() };
    for (const recorder of this.recorders) if (await recorder.wants(record.event)) recorder.record(record);
  }

  /** @internal The pipeline's last step inside the transaction. */
  async beforeCommit(): Promise<void> {
    for (const recorder of this.recorders) await recorder.beforeCommit?.();
  }

  /** @internal After the commit: the listeners first, then the write's own work; a failure there is logged, the write stands. */
  async committed(log?: Pick<Logger, 'error'>): Promise<void> {
    for (const recorder of this.recorders) recorder.afterCommit?.();
    for (const work of this.afterCommitWork) {
      try {
        await work();
      } catch (error) {
        log?.error('after-commit work failed', { error });
      }
    }
  }
}

export interface RunOptions {
  /** Who writes (default: Folio itself). Ignored when joining: the open transaction's actor stands. */
  actor?: Actor;
  /** An open write to join instead of opening a transaction (default: the write the caller runs inside, if any: currentWrite()). */
  within?: WriteContext;
}

/** Opens write transactions with their listeners' recorders. */
export class WritePipeline {
  private listeners: WriteListener[] = [];

  constructor(
    private db: Database,
    private registry: Registry,
    private options: { now?: () => number; log?: Pick<Logger, 'error'> } = {},
  ) {}

  /** Adds a listener to every write from now on; returns the way to remove it. */
  listen(listener: WriteListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /**
   * Runs `fn` as one write: in `within`'s transaction when given, or in the write the caller
   * runs inside (a lifecycle handler's writes), their after-commit work then waiting for that
   * transaction's commit; else in a new one. On PostgreSQL a retried transaction starts again
   * with fresh recorders, so only the attempt that committed counts.
   */
  async run<T>(options: RunOptions, fn: (ctx: WriteContext) => Promise<T>, txOptions?: TransactionOptions): Promise<T> {
    const within = options.within ?? currentWrite();
    if (within) return fn(within);
    const actor = options.actor ?? SYSTEM_ACTOR;
    const now = this.options.now ?? Date.now;
    let ctx: WriteContext | undefined;
    const result = await this.db.transaction(async (tx) => {
      const attempt = (ctx = new WriteContext(
        tx,
        actor,
        this.listeners.map((l) => l.open(tx, actor)),
        this.registry,
        now,
      ));
      try {
        return await openWrites.run(attempt, async () => {
          const value = await fn(attempt);
          await attempt.beforeCommit();
          return value;
        });
      } finally {
        attempt.open = false;
      }
    }, txOptions);
    await ctx!.committed(this.options.log);
    return result;
  }
}
