/**
 * The document service: Strapi 5's document model over Folio's storage. Every write is
 * one transaction. It knows nothing about HTTP; routes, the CLI and tests call it alike.
 *
 *  - create: the draft, then (unless `status: 'draft'`) a published copy of it;
 *  - update: writes the draft (or creates a new locale), then republishes unless draft;
 *  - delete: every version of the locale (or of all locales with '*');
 *  - publish, unpublish, discardDraft: ./actions.ts.
 *
 * Each write records Strapi's events (entry.create, .update, .delete, .publish) in its own
 * transaction, through the EventLog that src/events/log.ts hands it.
 */
import { componentFieldsOf, storedComponents } from './stored-components';
// documentIds of cuid2's shape without its SHA3 and bignumber.js (./document-id.ts): ~50× cheaper.
import { createDocumentId } from './document-id';
import { ChangeCache } from '../db/cache';
import { SearchGramSamples } from '../db/search-grams';
import type { Database, Queryable } from '../db/database';
import { documentVersions, firstDocumentId, storedValues, updateVersion, valueTaken, valuesOf, type StoredVersion } from '../db/store/versions';
import type { ScalarField } from '../registry/fields/field';
import { FolioError, ValidationError, type FieldError } from '../errors';
import type { AnyModel, ContentType, Registry } from '../registry/types';
import type { ReadQuery } from '../query/types';
import type { EventLog, Events } from '../events/log';
import { runAction, type ActionOptions } from './actions';
import { writeOwnedParts, copyComponents } from './components';
import { fitsBulk, insertBulk } from './bulk-create';
import { hashPasswords, readModelInput, type ModelWrite } from './input';
import { writeInverseLinks } from './inverse-links';
import { deleteLinksTo, type LinkContext } from './links';
import type { Locales } from './locales';
import { deleteLocks, mergeLocks, uniqueLock, writeLocks, type Locks } from './locks';
import { copyMedia } from './media';
import { findMany, findOne, type ReadContext } from './read';
import { resolveRowIds } from './row-ids';
import { answersQuery, updatedDraft, writtenEntry, type WrittenRow } from './written-entry';
import { deleteVersions, insertPublishedDraft, insertVersion, publishDraft, syncNonLocalized, versionIds, type VersionKey } from './versions';

export interface WriteOptions {
  /** 'draft' writes only the draft; anything else also publishes (types with draft & publish). */
  status?: 'draft' | 'published';
  locale?: string;
}

/**
 * Document writes on PostgreSQL run READ COMMITTED and take the locks of ./locks.ts first:
 * writers of the same document or list wait their turn instead of aborting and retrying.
 */
const LOCKED = { isolation: 'read committed' } as const;
const take = (tx: Queryable, locks: Locks) => tx.lock(locks.exclusive, locks.shared);

/**
 * Strapi's own types (files, users, roles, admin users) are written by their own services,
 * which keep their rules (the upload type policy, password hashing, role checks); a document
 * write of one, from any caller, is refused before anything is read.
 */
export function assertDocumentType(ct: ContentType): void {
  if (ct.system) throw new FolioError(400, 'ApplicationError', `${ct.uid} is written through its own service, not as a document`);
}

/** Which version a write produced, so the caller can read it back. */
export interface Written extends VersionKey {
  status: 'draft' | 'published';
  /** The version as written (creates, and updates of an existing draft): `answer()` builds the read-back from it (./written-entry.ts). */
  answer?: WrittenRow;
}

export class DocumentService {
  constructor(
    readonly db: Database,
    readonly registry: Registry,
    readonly locales: Locales,
    readonly events: Events,
  ) {
    this.counts = new ChangeCache(db);
    this.searchGrams = db.dialect.name === 'postgres' ? new SearchGramSamples(db) : undefined;
  }

  private counts: ChangeCache<string, number>;
  /** Statements of read plans the HTTP layer reuses (documents/read.ts). */
  private listStatements: NonNullable<ReadContext['statements']> = new WeakMap();
  /** PostgreSQL: trigram samples behind `_q` (db/search-grams.ts); undefined on SQLite, whose FTS5 index needs none. */
  readonly searchGrams: SearchGramSamples | undefined;

  findMany(ct: ContentType, query: ReadQuery) {
    return findMany({ db: this.db, registry: this.registry, counts: this.counts, searchGrams: this.searchGrams, statements: this.listStatements }, ct, query);
  }

  findOne(ct: ContentType, documentId: string | undefined, query: ReadQuery) {
    return findOne({ db: this.db, registry: this.registry }, ct, documentId, query);
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
   * Resolves and checks the locale of a write ('' for types without i18n), with the default locale
   * the write needs anyway: one cached read each (the default locale exists: no second look).
   */
  private async writeLocale(ct: ContentType, locale: string | undefined): Promise<{ locale: string; defaultLocale: string }> {
    const defaultLocale = await this.locales.defaultCode();
    if (!ct.localized) return { locale: '', defaultLocale };
    const code = locale ?? defaultLocale;
    if (code !== defaultLocale && !(await this.locales.exists(code))) throw new ValidationError(`Locale "${code}" does not exist`);
    return { locale: code, defaultLocale };
  }

  private context(ct: ContentType, locale: string, defaultLocale: string): LinkContext {
    return { contentType: ct, locale, status: ct.draftAndPublish ? 'draft' : 'published', defaultLocale };
  }

  async create(ct: ContentType, data: Record<string, unknown>, options: WriteOptions = {}): Promise<Written> {
    return (await this.createMany(ct, [data], options))[0]!;
  }

  /**
   * Creates several documents in one transaction (bulk imports): all of them or none.
   * Each is checked and written exactly as `create` would.
   */
  async createMany(ct: ContentType, given: Record<string, unknown>[], options: WriteOptions = {}): Promise<Written[]> {
    assertDocumentType(ct);
    const { locale, defaultLocale } = await this.writeLocale(ct, options.locale);
    // Relation targets named by row id become documentIds first (./row-ids.ts), in one read per target type.
    const items = await resolveRowIds(this.db, this.registry, ct, given);
    const publish = !ct.draftAndPublish || options.status !== 'draft';
    const inputs: ModelWrite[] = [];
    for (const data of items) {
      const input = readModelInput(this.registry, ct, data, { mode: publish ? 'published' : 'draft', creating: true });
      await hashPasswords(this.registry, ct, input);
      inputs.push(input);
    }
    return this.events.transaction(async (tx, log) => {
      const ids = inputs.map(() => createDocumentId());
      // SQLite's lock() takes nothing (one writer already): a batch's names are not worth computing there.
      if (tx.dialect.name !== 'sqlite') await take(tx, mergeLocks(items.map((data, i) => writeLocks(this.registry, ct, ids[i]!, data, true))));
      log.prefetch();
      return this.createIn(tx, log, ct, ids, inputs, locale, defaultLocale, publish);
    }, LOCKED);
  }

  private async createIn(tx: Queryable, log: EventLog, ct: ContentType, ids: string[], inputs: ModelWrite[], locale: string, defaultLocale: string, publish: boolean) {
    // Every item's unique values in one call (see ./locks.ts: one call cannot deadlock another).
    if (publish) await tx.lock(inputs.flatMap((input) => this.uniqueValues(ct, input).map(([a, v]) => uniqueLock(ct, a, locale, v))));
    const context = this.context(ct, locale, defaultLocale);
    const written: Written[] = [];
    // A batch (folio import) is written table by table when its documents allow (./bulk-create.ts): the same rows.
    if (inputs.length > 1 && fitsBulk(this.registry, ct, inputs)) {
      const answers = await insertBulk(tx, this.registry, ct, inputs.map((input, i) => ({ documentId: ids[i]!, input })), locale, publish, context);
      // Asked once for the batch: with no listener, recordWrite records nothing for any document.
      const recorded = (await log.wants('entry.create')) || (await log.wants('entry.publish'));
      for (const { documentId } of answers) if (recorded) await this.recordWrite(log, ct, { documentId, locale }, 'entry.create', publish);
      return answers.map((answer): Written => ({ documentId: answer.documentId, locale, status: publish ? 'published' : 'draft', answer }));
    }
    for (let i = 0; i < inputs.length; i++) {
      const key = { documentId: ids[i]!, locale };
      if (publish) await this.assertUnique(tx, ct, key, inputs[i]!, undefined, false);
      const { answer } = await this.insertNew(tx, ct, key, inputs[i]!, publish, context);
      await this.writeInverse(tx, ct, key, inputs[i]!, publish, defaultLocale);
      await this.recordWrite(log, ct, key, 'entry.create', publish);
      written.push({ ...key, status: publish ? 'published' : 'draft', answer });
    }
    return written;
  }

  /** A new version (and its published copy): the draft's id, and the version a create answers with, as written. */
  private async insertNew(tx: Queryable, ct: ContentType, key: VersionKey, input: ModelWrite, publish: boolean, context: LinkContext) {
    const now = new Date().toISOString();
    const row = (rowId: number, publishedAt: string | null): WrittenRow => ({ rowId, ...key, createdAt: now, updatedAt: now, publishedAt, scalars: input.scalars });
    if (!ct.draftAndPublish || !publish) {
      const publishedAt = ct.draftAndPublish ? null : now;
      const draftId = await insertVersion(tx, this.registry, ct, key, { createdAt: now, updatedAt: now, publishedAt }, input, context);
      return { draftId, answer: row(draftId, publishedAt) };
    }
    const { draftId, publishedId } = await insertPublishedDraft(tx, this.registry, ct, key, now, input, context);
    return { draftId, answer: row(publishedId, now) };
  }

  /** Updates a document in a locale; creates that locale if the document exists in another. Null when there is no document. */
  async update(ct: ContentType, documentId: string, data: Record<string, unknown>, options: WriteOptions = {}): Promise<Written | null> {
    assertDocumentType(ct);
    const { locale, defaultLocale } = await this.writeLocale(ct, options.locale);
    return this.events.transaction(async (tx, log) => {
      const body = (await resolveRowIds(tx, this.registry, ct, [data]))[0]!;
      await take(tx, writeLocks(this.registry, ct, documentId, body));
      log.prefetch();
      return this.updateIn(tx, log, ct, documentId, body, locale, defaultLocale, options);
    }, LOCKED);
  }

  private async updateIn(
    tx: Queryable,
    log: EventLog,
    ct: ContentType,
    documentId: string,
    data: Record<string, unknown>,
    locale: string,
    defaultLocale: string,
    options: WriteOptions,
  ): Promise<Written | null> {
    const publish = !ct.draftAndPublish || options.status !== 'draft';
    const mode = publish ? 'published' : 'draft';
    const key = { documentId, locale };
    const context = this.context(ct, locale, defaultLocale);
    // Every version of the document in one read: the draft's values, the published version it replaces, the other locales.
    const versions = await documentVersions(tx, ct, documentId);
    const drafts = ct.draftAndPublish ? versions.filter((v) => v.status === 'draft') : versions;
    const draft = drafts.find((v) => v.locale === locale);
    const published = ct.draftAndPublish ? versions.find((v) => v.status === 'published' && v.locale === locale) : undefined;
    const now = new Date().toISOString();
    let draftId: number;
    let pendingInverse: ModelWrite | undefined;
    let answer: WrittenRow | undefined; // the update's answer, from what it wrote (./written-entry.ts)
    if (!draft) {
      if (drafts.length === 0) return null;
      ({ draftId, input: pendingInverse } = await this.createLocalization(tx, ct, key, drafts[0]!.id, data, publish, context));
    } else {
      const existing = valuesOf(ct, draft.row);
      const storedWasValid = publish && ct.draftAndPublish ? this.validWhenPublished(ct, data, existing, published) : undefined;
      const input = readModelInput(this.registry, ct, data, { mode, creating: false, existing, storedWasValid });
      // A draft unchanged since it was published holds the components that passed then.
      if (publish && ct.draftAndPublish && published?.updatedAt !== draft.updatedAt) await this.checkStoredComponents(tx, ct, draft.id, data, existing);
      await hashPasswords(this.registry, ct, input);
      if (publish) await this.assertUnique(tx, ct, key, input, existing);
      await updateVersion(tx, ct, draft.id, input.scalars, now);
      await writeOwnedParts(tx, this.registry, ct, draft.id, input, context);
      draftId = draft.id;
      pendingInverse = input;
      answer = updatedDraft(ct, key, draft, input.scalars, now);
    }
    const others = (status: 'draft' | 'published') => versions.filter((v) => v.locale !== locale && (!ct.draftAndPublish || v.status === status)).map((v) => v.id);
    await syncNonLocalized(tx, this.registry, ct, draftId, key, ct.draftAndPublish ? 'draft' : 'published', others('draft'));
    if (ct.draftAndPublish && publish) {
      const publishedId = await publishDraft(tx, this.registry, ct, key, draftId, now, undefined, published ? [published.id] : []);
      await syncNonLocalized(tx, this.registry, ct, publishedId, key, 'published', others('published'));
      if (answer) answer = { ...answer, rowId: publishedId, publishedAt: now }; // the draft's copy: its own id and time
    }
    await this.writeInverse(tx, ct, key, pendingInverse, publish, defaultLocale);
    // A new locale is a create, as in Strapi.
    await this.recordWrite(log, ct, key, !draft ? 'entry.create' : 'entry.update', publish);
    return { ...key, status: publish ? 'published' : 'draft', answer };
  }

  /**
   * A required value the draft lacks and the update does not send: if the published version
   * lacks it too, the attribute became required after that version was written (README
   * "Schema changes"), and an update that never sent it must not start failing. A draft that
   * was never published, or lost a value the published version has, is checked fully. Read
   * only when such a gap exists.
   */
  private validWhenPublished(ct: ContentType, data: Record<string, unknown>, existing: Record<string, unknown>, published: StoredVersion | undefined) {
    const gaps = Object.values(ct.attributes).some((a) => a.kind === 'scalar' && a.required && !(a.name in data) && existing[a.name] == null);
    if (!gaps || !published) return undefined;
    const values = valuesOf(ct, published.row);
    return (attribute: string) => values[attribute] == null;
  }

  /**
   * Publishing through a PUT publishes the stored draft's components the body does not resend:
   * they are checked as a body's would be (a draft may hold one missing a required value).
   */
  private async checkStoredComponents(tx: Queryable, ct: ContentType, rowId: number, data: Record<string, unknown>, existing: Record<string, unknown>) {
    const left = componentFieldsOf(ct).filter((name) => !(name in data));
    if (left.length === 0) return;
    const stored = await storedComponents(tx, this.registry, ct, rowId, left);
    readModelInput(this.registry, ct, stored, { mode: 'published', creating: false, existing });
  }

  /** A new locale of an existing document: non-localized values come from another locale. */
  private async createLocalization(
    tx: Queryable,
    ct: ContentType,
    key: VersionKey,
    baseId: number,
    data: Record<string, unknown>,
    publish: boolean,
    context: LinkContext,
  ): Promise<{ draftId: number; input: ModelWrite }> {
    const base = await storedValues(tx, ct, baseId);
    const shared = Object.values(ct.attributes).filter((a) => !a.localized);
    const merged: Record<string, unknown> = { ...data };
    for (const a of shared) if (a.kind === 'scalar' && !(a.name in data)) merged[a.name] = base[a.name];
    const input = readModelInput(this.registry, ct, merged, { mode: publish ? 'published' : 'draft', creating: true });
    await hashPasswords(this.registry, ct, input);
    // Non-localized components and media the body leaves out are copied, not defaulted.
    const copied = shared.filter((a) => (a.kind === 'component' || a.kind === 'dynamiczone' || a.kind === 'media') && !(a.name in data));
    for (const a of copied) {
      delete input.components[a.name];
      delete input.media[a.name];
    }
    if (publish) await this.assertUnique(tx, ct, key, input);
    const { draftId } = await this.insertNew(tx, ct, key, input, false, context);
    const componentFields = copied.filter((a) => a.kind !== 'media').map((a) => a.name);
    const mediaFields = copied.filter((a) => a.kind === 'media').map((a) => a.name);
    if (componentFields.length) await copyComponents(tx, this.registry, ct, baseId, draftId, componentFields);
    if (mediaFields.length) await copyMedia(tx, ct, baseId, draftId, mediaFields);
    return { draftId, input };
  }

  /** Strapi's events for a write: create/update of the draft (the only version without D&P), then publish. */
  private async recordWrite(log: EventLog, ct: ContentType, key: VersionKey, event: 'entry.create' | 'entry.update', publish: boolean) {
    await log.entries(event, ct, key.documentId, key.locale, ct.draftAndPublish ? 'draft' : 'published');
    if (ct.draftAndPublish && publish) await log.entries('entry.publish', ct, key.documentId, key.locale, 'published');
  }

  /** Relation writes on inverse sides change links owned by the other documents. */
  private async writeInverse(tx: Queryable, ct: ContentType, key: VersionKey, input: ModelWrite | undefined, publish: boolean, defaultLocale: string) {
    if (!input || Object.keys(input.relations).length === 0) return;
    await writeInverseLinks(tx, this.registry, input.relations, {
      contentType: ct,
      documentId: key.documentId,
      locale: key.locale,
      defaultLocale,
      statuses: publish ? ['draft', 'published'] : ['draft'],
    });
  }

  /** The unique (and uid) values a version will hold once written. */
  private uniqueValues(ct: ContentType, input: ModelWrite, existing?: Record<string, unknown>): [ScalarField, unknown][] {
    const values: [ScalarField, unknown][] = [];
    for (const field of Object.values(ct.fields)) {
      if (field.kind !== 'scalar' || !(field.attribute.unique || field.type === 'uid')) continue;
      const value = field.name in input.scalars ? input.scalars[field.name] : existing?.[field.name];
      if (value !== null && value !== undefined) values.push([field, value]);
    }
    return values;
  }

  /**
   * Unique (and uid) attributes must differ from every other published document in the locale.
   * The value's lock keeps a concurrent write of the same value from passing the same check.
   */
  private async assertUnique(tx: Queryable, ct: ContentType, key: VersionKey, input: ModelWrite, existing?: Record<string, unknown>, lock = true) {
    const errors: FieldError[] = [];
    const values = this.uniqueValues(ct, input, existing);
    if (lock) await tx.lock(values.map(([field, value]) => uniqueLock(ct, field, key.locale, value)));
    for (const [field, value] of values) {
      if (await valueTaken(tx, ct, field, value, key.locale, key.documentId)) {
        errors.push({ path: [field.name], message: 'This attribute must be unique', name: 'ValidationError', value });
      }
    }
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
  }

  /** Deletes every version in a locale ('*' = all locales); returns how many rows went. */
  async delete(ct: ContentType, documentId: string, options: { locale?: string } = {}): Promise<number> {
    assertDocumentType(ct);
    const locale = ct.localized ? (options.locale === '*' ? undefined : (options.locale ?? (await this.locales.defaultCode()))) : undefined;
    return this.events.transaction(async (tx, log) => {
      await take(tx, deleteLocks(ct, documentId));
      const ids = await versionIds(tx, ct, documentId, locale);
      // One entry.delete per version, read before it goes (as Strapi emits them).
      for (const status of ct.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const)) {
        await log.entries('entry.delete', ct, documentId, locale, status);
      }
      await deleteVersions(tx, this.registry, ct, ids);
      const remaining = locale === undefined ? [] : await versionIds(tx, ct, documentId, undefined);
      // Links pointing at the deleted versions go too; the documents holding them stay.
      await deleteLinksTo(tx, this.registry, ct, documentId, remaining.length ? locale : undefined);
      return ids.length;
    }, LOCKED);
  }

  /**
   * Single types: update the document, or create it when it does not exist yet. Looked up
   * under the type's lock, so concurrent first writes create it once.
   */
  async upsertSingle(ct: ContentType, given: Record<string, unknown>, options: WriteOptions = {}): Promise<Written> {
    assertDocumentType(ct);
    const { locale, defaultLocale } = await this.writeLocale(ct, options.locale);
    const publish = !ct.draftAndPublish || options.status !== 'draft';
    return this.events.transaction(async (tx, log) => {
      const data = (await resolveRowIds(tx, this.registry, ct, [given]))[0]!;
      const documentId = createDocumentId();
      // A single type's locks name the type, whichever documentId it turns out to have.
      await take(tx, writeLocks(this.registry, ct, documentId, data));
      const existing = await this.singleDocumentId(ct, tx);
      if (existing) {
        const written = await this.updateIn(tx, log, ct, existing, data, locale, defaultLocale, options);
        if (written) return written;
      }
      const input = readModelInput(this.registry, ct, data, { mode: publish ? 'published' : 'draft', creating: true });
      await hashPasswords(this.registry, ct, input);
      return (await this.createIn(tx, log, ct, [documentId], [input], locale, defaultLocale, publish))[0]!;
    }, LOCKED);
  }

  /** Publishes the draft (./actions.ts); `documentId` undefined = the single type's document. Null: no such document or locale. */
  publish(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return runAction(this, ct, documentId, 'publish', options);
  }

  /** Removes the published version; the draft stays. */
  unpublish(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return runAction(this, ct, documentId, 'unpublish', options);
  }

  /** Resets the draft to the published version. */
  discardDraft(ct: ContentType, documentId: string | undefined, options: ActionOptions = {}): Promise<Written | null> {
    return runAction(this, ct, documentId, 'discardDraft', options);
  }
}
