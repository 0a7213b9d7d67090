/**
 * What every write operation shares (documents/write/*.ts, one file per operation): its
 * dependencies, its options (status, locale, the actor, an open write to join), what it
 * answers, and the steps each one takes the same way — refusing Strapi's own types,
 * resolving the locale, the lock call, recording Strapi's events, and the inverse sides of
 * the relations it wrote.
 */
import type { Database, Queryable } from '../../db/database';
import { FolioError, ValidationError } from '../../errors';
import type { ContentType, Registry } from '../../registry/types';
import type { ModelWrite } from './input';
import { type LinksByRow, writeInverseLinks } from '../relations/writer';
import type { LinkContext } from '../relations/link-keys';
import type { Locales } from '../locales';
import type { Locks } from './locks';
import type { VersionKey } from './versions';
import type { WrittenRow } from '../../query/written-entry';
import type { DocumentHooks } from './hooks';
import type { Actor, WriteContext, WritePipeline } from './context';
import { insertedVersion } from './inserted';

export interface WriteDeps {
  db: Database;
  registry: Registry;
  locales: Locales;
  pipeline: WritePipeline;
  hooks: DocumentHooks;
}

export interface WriteOptions {
  /** 'draft' writes only the draft; anything else also publishes (types with draft & publish). */
  status?: 'draft' | 'published';
  /** A locale code (undefined: the default one). */
  locale?: string;
  /** Who writes (default: Folio itself). */
  actor?: Actor;
  /** An open write to join (a bulk action, a release, project code inside a lifecycle). */
  within?: WriteContext;
}

/** Which version a write produced, so the caller can read it back. */
export interface Written extends VersionKey {
  status: 'draft' | 'published';
  /** The version as written (creates, and updates of an existing draft): `answer()` builds the read-back from it (query/written-entry.ts). */
  answer?: WrittenRow;
}

/**
 * Document writes on PostgreSQL run READ COMMITTED and take the locks of ./locks.ts first:
 * writers of the same document or list wait their turn instead of aborting and retrying.
 */
export const LOCKED = { isolation: 'read committed' } as const;

export const take = (tx: Queryable, locks: Locks) => tx.lock(locks.exclusive, locks.shared);

/**
 * Strapi's own types (files, users, roles, admin users) are written by their own services,
 * which keep their rules (the upload type policy, password hashing, role checks); a document
 * write of one, from any caller, is refused before anything is read.
 */
export function assertDocumentType(ct: ContentType): void {
  if (ct.system) throw new FolioError(400, 'ApplicationError', `${ct.uid} is written through its own service, not as a document`);
}

/**
 * Resolves and checks the locale of a write ('' for types without i18n), with the default locale
 * the write needs anyway: one cached read each (the default locale exists: no second look).
 */
export async function writeLocale(locales: Locales, ct: ContentType, locale: string | undefined): Promise<{ locale: string; defaultLocale: string }> {
  const defaultLocale = await locales.defaultCode();
  if (!ct.localized) return { locale: '', defaultLocale };
  const code = locale ?? defaultLocale;
  if (code !== defaultLocale && !(await locales.exists(code))) throw new ValidationError(`Locale "${code}" does not exist`);
  return { locale: code, defaultLocale };
}

/** Where the links a write makes start from: its type, locale and the status it writes. */
export function linkContext(ct: ContentType, locale: string, defaultLocale: string): LinkContext {
  return { contentType: ct, locale, status: ct.draftAndPublish ? 'draft' : 'published', defaultLocale };
}

/**
 * Strapi's events for a write: create/update of the draft (the only version without D&P), then
 * publish. `inserted`: a create's rows (the draft's id, the published copy's when it publishes),
 * its input and the relation link rows it inserted by row (a batch's: every document's, split
 * once), handed to the listeners (./inserted.ts).
 */
export async function recordWrite(
  ctx: WriteContext,
  ct: ContentType,
  key: VersionKey,
  event: 'entry.create' | 'entry.update',
  publish: boolean,
  inserted?: { draftId: number; publishedId: number; input: ModelWrite; links: LinksByRow },
) {
  // A published copy's links are its draft's: the same keys in rows of its own (inserted beside them or copied).
  const version = (rowId: number) => (inserted ? insertedVersion(ct, rowId, inserted.input, inserted.links.get(inserted.draftId)) : undefined);
  await ctx.entries(event, ct, key.documentId, key.locale, ct.draftAndPublish ? 'draft' : 'published', inserted && version(inserted.draftId));
  if (ct.draftAndPublish && publish) await ctx.entries('entry.publish', ct, key.documentId, key.locale, 'published', inserted && version(inserted.publishedId));
}

/** Relation writes on inverse sides change links owned by the other documents. */
export async function writeInverse(tx: Queryable, ct: ContentType, key: VersionKey, input: ModelWrite | undefined, publish: boolean, defaultLocale: string) {
  if (!input || Object.keys(input.relations).length === 0) return;
  await writeInverseLinks(tx, {
    relations: input.relations,
    contentType: ct,
    documentId: key.documentId,
    locale: key.locale,
    defaultLocale,
    statuses: publish ? ['draft', 'published'] : ['draft'],
  });
}
