/**
 * Document actions beyond create/update/delete, as Strapi 5's document service has them:
 *
 *  - publish:      the draft becomes the published version (the old one is replaced), as a
 *                  PUT without `status=draft` publishes; required and unique attributes are
 *                  checked as they are for publishing;
 *  - unpublish:    the published version goes, the draft stays;
 *  - discardDraft: the draft is replaced by a copy of the published version, components,
 *                  relations and media included.
 *
 * Each runs in one transaction under the document's lock, in one locale or all ('*'), and
 * records its events there (entry.publish, entry.unpublish, entry.draft-discard: Strapi's
 * names). A locale without the version an action starts from is left alone, as Strapi does
 * (unpublishing a draft-only document changes nothing); a document without any version in
 * the locale is null (404). Types without draft & publish have no such actions: Strapi's
 * document service has no publish/unpublish/discardDraft methods for them, so Folio answers
 * a 400 naming the type instead.
 */
import { componentFieldsOf, storedComponents } from './stored-components';
import type { Queryable } from '../db/database';
import { existingVersions, firstDocumentId, storedValues, valueTaken } from '../db/store/versions';
import { ValidationError, type FieldError } from '../errors';
import type { EventLog, Events } from '../events/log';
import type { ContentType, Registry } from '../registry/types';
import { readModelInput } from './input';
import type { Locales } from './locales';
import { documentLock, uniqueLock } from './locks';
import type { Written } from './service';
import { deleteVersions, publishDraft, replaceVersion, syncNonLocalized, versionIds, type VersionKey } from './versions';

export type DocumentAction = 'publish' | 'unpublish' | 'discardDraft';

export interface ActionDeps {
  registry: Registry;
  locales: Locales;
  events: Events;
}

export interface ActionOptions {
  /** A locale code, '*' for every locale of the document, or undefined for the default one. */
  locale?: string;
}

/** The version each action leaves to answer with. */
const ANSWER_STATUS: Record<DocumentAction, 'draft' | 'published'> = { publish: 'published', unpublish: 'draft', discardDraft: 'draft' };

export async function runAction(deps: ActionDeps, ct: ContentType, documentId: string | undefined, action: DocumentAction, options: ActionOptions = {}): Promise<Written | null> {
  if (!ct.draftAndPublish) {
    throw new ValidationError(`${ct.uid} has no draft & publish, so it cannot ${action === 'discardDraft' ? 'discard a draft' : action}`, { action });
  }
  const defaultLocale = await deps.locales.defaultCode();
  const wanted = !ct.localized ? '' : (options.locale ?? defaultLocale);
  return deps.events.transaction(async (tx, log) => {
    // A single type's lock names the type, so it is taken before its documentId is known.
    await tx.lock([documentLock(ct, documentId ?? '')]);
    const id = documentId ?? (await firstDocumentId(tx, ct));
    if (id === undefined) return null;
    const versions = await existingVersions(tx, ct, [id]);
    const locales = [...new Set(versions.map((v) => v.locale))].filter((l) => wanted === '*' || l === wanted).sort();
    if (locales.length === 0) return null;
    const now = new Date().toISOString();
    for (const locale of locales) await ACTIONS[action]({ tx, log, registry: deps.registry, ct, now }, { documentId: id, locale });
    // With '*', the answer is the default locale's version when it has one.
    const locale = locales.includes(defaultLocale) ? defaultLocale : locales[0]!;
    return { documentId: id, locale, status: ANSWER_STATUS[action] };
  }, { isolation: 'read committed' });
}

interface Step {
  tx: Queryable;
  log: EventLog;
  registry: Registry;
  ct: ContentType;
  now: string;
}

const ACTIONS: Record<DocumentAction, (step: Step, key: VersionKey) => Promise<void>> = {
  async publish({ tx, log, registry, ct, now }, key) {
    const [draftId] = await versionIds(tx, ct, key.documentId, key.locale, 'draft');
    if (draftId === undefined) return;
    await checkPublishable(tx, registry, ct, key, draftId);
    const publishedId = await publishDraft(tx, registry, ct, key, draftId, now);
    await syncNonLocalized(tx, registry, ct, publishedId, key, 'published');
    await log.entries('entry.publish', ct, key.documentId, key.locale, 'published');
  },

  async unpublish({ tx, log, registry, ct }, key) {
    const published = await versionIds(tx, ct, key.documentId, key.locale, 'published');
    if (published.length === 0) return;
    // Read before it goes: the event carries the version that was public.
    await log.entries('entry.unpublish', ct, key.documentId, key.locale, 'published');
    await deleteVersions(tx, registry, ct, published);
  },

  async discardDraft({ tx, log, registry, ct }, key) {
    const [publishedId] = await versionIds(tx, ct, key.documentId, key.locale, 'published');
    if (publishedId === undefined) return;
    const drafts = await versionIds(tx, ct, key.documentId, key.locale, 'draft');
    const draftId = await replaceVersion(tx, registry, ct, publishedId, drafts, { publishedAt: null });
    // Non-localized values are shared by the drafts of every locale: they go back together.
    await syncNonLocalized(tx, registry, ct, draftId, key, 'draft');
    await log.entries('entry.draft-discard', ct, key.documentId, key.locale, 'draft');
  },
};

/**
 * What publishing through a PUT checks, on the stored draft: required attributes, and unique
 * values against the other published documents of the locale (under the value's lock).
 */
async function checkPublishable(tx: Queryable, registry: Registry, ct: ContentType, key: VersionKey, draftId: number) {
  const existing = await storedValues(tx, ct, draftId);
  const components = await storedComponents(tx, registry, ct, draftId, componentFieldsOf(ct));
  readModelInput(registry, ct, components, { mode: 'published', creating: false, existing });
  const unique = Object.values(ct.fields).flatMap((field) =>
    field.kind === 'scalar' && (field.attribute.unique || field.type === 'uid') && existing[field.name] !== null && existing[field.name] !== undefined ? [field] : [],
  );
  await tx.lock(unique.map((field) => uniqueLock(ct, field, key.locale, existing[field.name])));
  const errors: FieldError[] = [];
  for (const field of unique) {
    const value = existing[field.name];
    if (await valueTaken(tx, ct, field, value, key.locale, key.documentId)) {
      errors.push({ path: [field.name], message: 'This attribute must be unique', name: 'ValidationError', value });
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
}
