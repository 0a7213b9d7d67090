/**
 * The document service: Strapi 5's document model over Folio's storage, as one object the
 * HTTP routes, the admin, the CLI, the library entry, GraphQL and project code all call. It
 * knows nothing about HTTP. Reads run read plans (query/); every write is one operation of
 * ./write/ (one file each: create, create-many, update, upsert-single, delete, publish,
 * unpublish, discard-draft, bulk), in one transaction opened or joined by the write
 * pipeline, through the document middlewares and lifecycle hooks (./write/hooks.ts), with
 * its actor. What reacts to writes (the outbox, history, audit) listens to the pipeline.
 */
import { ChangeCache } from '../db/cache';
import type { Database, Queryable } from '../db/database';
import { SearchGramSamples } from '../db/search-grams';
import { firstDocumentId } from '../db/store/versions';
import type { Logger } from '../log';
import type { ReadQuery } from '../query/types';
import type { ContentType, Registry } from '../registry/types';
import type { Locales } from './locales';
import { findMany, findOne, type ReadContext } from '../query/read';
import { answersQuery, writtenEntry } from '../query/written-entry';
import { DocumentReads } from './reads';
import { runBulk, type BulkAction } from './write/bulk';
import { WritePipeline } from './write/context';
import { create } from './write/create';
import { createMany } from './write/create-many';
import { deleteDocument } from './write/delete';
import { discardDraft } from './write/discard-draft';
import type { ActionOptions } from './write/document-action';
import { DocumentHooks, type DocumentAction } from './write/hooks';
import type { WriteDeps, WriteOptions, Written } from './write/operation';
import { publish } from './write/publish';
import { unpublish } from './write/unpublish';
import { update } from './write/update';
import { upsertSingle } from './write/upsert-single';
import { deleteRow, deleteRows, updateRow, updateRows, type RowAccess, type RowWriteOptions } from './write/rows';
import type { LifecycleEvent } from './write/hooks';

export type { Written, WriteOptions } from './write/operation';
export type { ActionOptions } from './write/document-action';

type Data = Record<string, unknown>;

export class DocumentService {
  /** Document middlewares and lifecycle subscribers (Strapi 5's hook points). */
  readonly hooks = new DocumentHooks();
  /** Opens every write transaction; listeners (the outbox, history, audit) register here. */
  readonly pipeline: WritePipeline;
  private deps: WriteDeps;
  private counts: ChangeCache<string, number>;
  /** Statements of read plans the HTTP layer reuses (query/read.ts). */
  private listStatements: NonNullable<ReadContext['statements']> = new WeakMap();
  /** PostgreSQL: trigram samples behind `_q` (db/search-grams.ts); undefined where the engine's index needs none. */
  readonly searchGrams: SearchGramSamples | undefined;
  /** Reads as Strapi's document service takes them, through the document middlewares and read lifecycles (./read/hooked.ts). */
  readonly reads: DocumentReads;

  constructor(
    readonly db: Database,
    readonly registry: Registry,
    readonly locales: Locales,
    options: { log?: Pick<Logger, 'error'> } = {},
  ) {
    this.counts = new ChangeCache(db);
    this.searchGrams = db.dialect.searchSamples ? new SearchGramSamples(db) : undefined;
    this.pipeline = new WritePipeline(db, registry, { log: options.log });
    this.deps = { db, registry, locales, pipeline: this.pipeline, hooks: this.hooks };
    this.reads = new DocumentReads(this.hooks, registry, locales, this, db);
  }

  /** Runs a read plan; `from`: an open transaction to read through (what it wrote is seen; nothing cached is used). */
  findMany(ct: ContentType, query: ReadQuery, from?: Queryable) {
    if (from) return findMany({ db: from, registry: this.registry }, ct, query);
    return findMany({ db: this.db, registry: this.registry, counts: this.counts, searchGrams: this.searchGrams, statements: this.listStatements }, ct, query);
  }

  findOne(ct: ContentType, documentId: string | undefined, query: ReadQuery, from?: Queryable) {
    return findOne({ db: from ?? this.db, registry: this.registry }, ct, documentId, query);
  }

  /**
   * The version a write produced, as the API answers it: a create without populate or `fields`
   * is answered from what it wrote (no statement); anything else is read back.
   */
  answer(ct: ContentType, written: Written, query: ReadQuery) {
    if (written.answer && answersQuery(query)) return Promise.resolve(writtenEntry(ct, written.answer));
    return this.findOne(ct, written.documentId, query);
  }

  /** The single type's documentId, if it has been created in any locale. */
  singleDocumentId(ct: ContentType, from: Queryable = this.db): Promise<string | undefined> {
    return firstDocumentId(from, ct);
  }

  /**
   * A write through the document middlewares: they see (and may change) Strapi's params —
   * documentId, data, status, locale — before the operation reads them.
   */
  private write<T>(
    action: DocumentAction,
    ct: ContentType,
    params: Data,
    options: WriteOptions,
    run: (params: Data, options: WriteOptions) => Promise<T>,
  ): Promise<T> {
    return this.hooks.around(action, ct, params, (p) =>
      run(p, { ...options, status: p.status as WriteOptions['status'], locale: p.locale as string | undefined }),
    );
  }

  create(ct: ContentType, data: Data, options: WriteOptions = {}): Promise<Written> {
    return this.write('create', ct, { data, status: options.status, locale: options.locale }, options, (p, o) => create(this.deps, ct, p.data as Data, o));
  }

  /** Creates several documents in one transaction (imports, seeds): all of them or none. */
  createMany(ct: ContentType, data: Data[], options: WriteOptions = {}): Promise<Written[]> {
    return createMany(this.deps, ct, data, options);
  }

  /** Updates a document in a locale; creates that locale if the document exists in another. Null when there is no document. */
  update(ct: ContentType, documentId: string, data: Data, options: WriteOptions = {}): Promise<Written | null> {
    return this.write('update', ct, { documentId, data, status: options.status, locale: options.locale }, options, (p, o) =>
      update(this.deps, ct, p.documentId as string, p.data as Data, o),
    );
  }

  /** Single types: update the document, or create it when it does not exist yet. */
  upsertSingle(ct: ContentType, data: Data, options: WriteOptions = {}): Promise<Written> {
    return this.write('update', ct, { data, status: options.status, locale: options.locale }, options, (p, o) =>
      upsertSingle(this.deps, ct, p.data as Data, o),
    );
  }

  /** Deletes every version in a locale ('*' = all locales); returns how many rows went. */
  delete(ct: ContentType, documentId: string, options: ActionOptions = {}): Promise<number> {
    return this.write('delete', ct, { documentId, locale: options.locale }, options, (p, o) => deleteDocument(this.deps, ct, p.documentId as string, o));
  }

  /** Publishes the draft; `documentId` undefined = the single type's document. Null: no such document or locale. */
  publish(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return this.write('publish', ct, { documentId, locale: options.locale }, options, (p, o) => publish(this.deps, ct, p.documentId as string | undefined, o));
  }

  /** Removes the published version; the draft stays. */
  unpublish(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return this.write('unpublish', ct, { documentId, locale: options.locale }, options, (p, o) =>
      unpublish(this.deps, ct, p.documentId as string | undefined, o),
    );
  }

  /** Resets the draft to the published version. */
  discardDraft(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return this.write('discardDraft', ct, { documentId, locale: options.locale }, options, (p, o) =>
      discardDraft(this.deps, ct, p.documentId as string | undefined, o),
    );
  }

  /**
   * Row writes of Strapi's query engine (strapi.db.query update/updateMany/delete/deleteMany,
   * ./write/rows.ts): the rows `params.where` finds through `access`, not documents.
   */
  rows(ct: ContentType, access: RowAccess, options: RowWriteOptions = {}) {
    type Params = LifecycleEvent['params'];
    return {
      update: (params: Params) => updateRow(this.deps, ct, params, access, options),
      updateMany: (params: Params) => updateRows(this.deps, ct, params, access, options),
      delete: (params: Params) => deleteRow(this.deps, ct, params, access, options),
      deleteMany: (params: Params) => deleteRows(this.deps, ct, params, access, options),
    };
  }

  /** Delete, publish or unpublish several documents in one transaction, all or none (./write/bulk.ts). */
  bulk(ct: ContentType, action: BulkAction, documentIds: string[], options: Pick<WriteOptions, 'locale' | 'actor'> = {}): Promise<number> {
    return runBulk(this.deps, ct, action, documentIds, options);
  }
}
