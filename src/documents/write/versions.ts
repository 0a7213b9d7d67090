/**
 * Version rows of a document: insert, publish (copy the draft to a fresh published
 * row, replacing the old one), delete, and keeping non-localized attributes equal across locales.
 */
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/versions';
import type { ContentType, Registry } from '../../registry/types';
import { copyComponents, deleteComponentField, deleteOwnedParts, replaceWithCopy, writeOwnedParts } from '../components/rows';
import type { ModelWrite } from './input';
import { copyOwnedLinks } from '../relations/copy';
import { type InsertedLinks, type LinkContext, prefetchLinks } from '../relations/writer';
import { copyMedia, deleteMedia } from './media';

export interface VersionKey {
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
}

/** Inserts a new version row with everything it owns; returns its id and the relation link rows inserted. */
export async function insertVersion(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  key: VersionKey,
  times: { createdAt: string; updatedAt: string; publishedAt: string | null },
  input: ModelWrite,
  context: LinkContext,
): Promise<{ id: number; links: InsertedLinks }> {
  const prefetched = prefetchLinks(tx, registry, ct, input.relations, input.morphs, context);
  const id = await store.insertVersion(tx, ct, key.documentId, key.locale, times, input.scalars);
  const links = await writeOwnedParts(tx, registry, ct, id, input, context, true, [], prefetched);
  return { id, links };
}

/**
 * A new document's draft and its published copy (a create that publishes): both rows in one
 * statement, the links of both (relation and polymorphic) written together, then the copy gets
 * the draft's components and media, as publishDraft would copy them. Returns both ids and the
 * relation link rows inserted (of both rows).
 */
export async function insertPublishedDraft(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  key: VersionKey,
  now: string,
  input: ModelWrite,
  context: LinkContext,
): Promise<{ draftId: number; publishedId: number; links: InsertedLinks }> {
  const prefetched = prefetchLinks(tx, registry, ct, input.relations, input.morphs, context);
  const ids = await store.insertDraftAndPublished(tx, ct, key.documentId, key.locale, { createdAt: now, updatedAt: now, publishedAt: now }, input.scalars);
  const links = await writeOwnedParts(tx, registry, ct, ids.draftId, input, context, true, [ids.publishedId], prefetched);
  const owned = ownedFields(input);
  const media = owned.components.length ? await copyComponents(tx, registry, ct, ids.draftId, ids.publishedId, owned.components) : undefined;
  if (media !== false && owned.media.length) await copyMedia(tx, ct, ids.draftId, ids.publishedId, owned.media);
  return { ...ids, links };
}

/** Ids of a document's rows in a locale (all locales when undefined), optionally of one status. */
export const versionIds = store.versionIds;

/** Deletes version rows and everything they own. */
export async function deleteVersions(tx: Queryable, registry: Registry, ct: ContentType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteOwnedParts(tx, registry, ct, ids);
  await store.deleteVersionRows(tx, ct, ids);
}

/** Copies a version row (columns, components, owned links, media) into a new row. */
export async function copyVersion(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  fromId: number,
  set: { locale?: string; publishedAt: string | null; createdAt?: string; updatedAt?: string },
  owned?: OwnedFields,
): Promise<number> {
  const id = await store.copyVersionRow(tx, ct, fromId, set);
  // The components' read also tells whether the row holds media links (false: nothing to copy).
  const media = await copyComponents(tx, registry, ct, fromId, id, owned?.components);
  await copyOwnedLinks(tx, ct, fromId, id, registry, owned?.relations);
  if (media !== false) await copyMedia(tx, ct, fromId, id, owned?.media);
  return id;
}

/** Which non-scalar fields a row is known to hold (undefined: unknown, copy everything). */
export interface OwnedFields {
  components: string[];
  relations: string[];
  media: string[];
}

/** The fields a freshly written row holds, from the write itself: empty ones need no copying. */
export function ownedFields(input: ModelWrite): OwnedFields {
  return {
    components: Object.entries(input.components)
      .filter(([, v]) => v !== null && (!Array.isArray(v) || v.length > 0))
      .map(([k]) => k),
    // Relations and polymorphic relations alike: the link fields copied with the row.
    relations: [...Object.entries(input.relations), ...Object.entries(input.morphs)]
      .filter(([, w]) => (w.op === 'set' ? w.targets.length > 0 : w.connect.length > 0))
      .map(([k]) => k),
    media: Object.entries(input.media)
      .filter(([, ids]) => ids.length > 0)
      .map(([k]) => k),
  };
}

/** Publishes a draft: the old published row of that locale goes, a fresh copy of the draft comes. */
export async function publishDraft(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  key: VersionKey,
  draftId: number,
  now: string,
  fresh?: OwnedFields,
  published?: number[],
) {
  // A document created in this write has no published version to replace.
  if (fresh) return copyVersion(tx, registry, ct, draftId, { publishedAt: now }, fresh);
  // `published`: the ones the caller already read.
  const old = published ?? (await versionIds(tx, ct, key.documentId, key.locale, 'published'));
  return replaceVersion(tx, registry, ct, draftId, old, { publishedAt: now });
}

/**
 * Replaces version rows by a new copy of another (publish: the draft over the published
 * version; discard draft: the reverse), reading what they own once (../components/rows.ts
 * replaceWithCopy). The copy gets a new id, as Strapi's does.
 */
export function replaceVersion(tx: Queryable, registry: Registry, ct: ContentType, fromId: number, oldIds: number[], set: store.VersionCopy): Promise<number> {
  return replaceWithCopy(
    tx,
    registry,
    ct,
    fromId,
    oldIds,
    () => store.copyVersionRow(tx, ct, fromId, set),
    () => store.deleteVersionRows(tx, ct, oldIds),
  );
}

/**
 * Copies the non-localized attributes of one version to the other locales' versions of
 * the same document and status, so they stay equal (Strapi's i18n sync).
 */
export async function syncNonLocalized(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  fromId: number,
  key: VersionKey,
  status: 'draft' | 'published',
  /** The document's versions of this status in other locales, when the caller has read them. */
  known?: number[],
) {
  if (!ct.localized) return;
  const shared = Object.values(ct.fields).filter((f) => !f.attribute.localized);
  if (shared.length === 0) return;
  const others = (known ?? (await versionIds(tx, ct, key.documentId, undefined, status))).filter((id) => id !== fromId);
  if (others.length === 0) return;
  await store.copySharedValues(tx, ct, fromId, others);
  const componentFields = shared.filter((f) => f.kind === 'component' || f.kind === 'dynamiczone').map((f) => f.name);
  const mediaFields = shared.filter((f) => f.kind === 'media').map((f) => f.name);
  // Every other version's values go first, then each gets a copy (the source is not among them).
  for (const field of componentFields) await deleteComponentField(tx, registry, ct, others, field);
  if (mediaFields.length) await deleteMedia(tx, ct, others, mediaFields);
  for (const id of others) {
    if (componentFields.length) await copyComponents(tx, registry, ct, fromId, id, componentFields);
    if (mediaFields.length) await copyMedia(tx, ct, fromId, id, mediaFields);
  }
}
