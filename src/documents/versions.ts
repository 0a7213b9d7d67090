/**
 * Version rows of a document: insert, publish (copy the draft to a fresh published
 * row), delete, and keeping non-localized attributes equal across locales.
 */
import type { Queryable } from '../db/database';
import type { ContentType, Registry } from '../registry/types';
import { copyComponents, deleteComponentField, deleteOwnedParts, insertRow, writeOwnedParts } from './components';
import type { ModelWrite } from './input';
import type { LinkContext } from './links';
import { copyOwnedLinks } from './links';
import { copyMedia, deleteMedia } from './media';

export interface VersionKey {
  documentId: string;
  /** '' for types without i18n. */
  locale: string;
}

/** Columns copied verbatim when a version is copied (publish, new locale). */
function copiedColumns(tx: Queryable, ct: ContentType): string[] {
  return Object.values(ct.attributes)
    .filter((a) => tx.dialect.columnType(a))
    .map((a) => a.name);
}

/** Inserts a new version row with everything it owns; returns its id. */
export async function insertVersion(
  tx: Queryable,
  registry: Registry,
  ct: ContentType,
  key: VersionKey,
  times: { createdAt: string; updatedAt: string; publishedAt: string | null },
  input: ModelWrite,
  context: LinkContext,
): Promise<number> {
  const id = await insertRow(tx, ct, { documentId: key.documentId, locale: key.locale, ...times }, input.scalars);
  await writeOwnedParts(tx, registry, ct, id, input, context, true);
  return id;
}

/** Ids of a document's rows in a locale (all locales when undefined), optionally of one status. */
export async function versionIds(
  tx: Queryable,
  ct: ContentType,
  documentId: string,
  locale: string | undefined,
  status?: 'draft' | 'published',
): Promise<number[]> {
  const q = tx.dialect.quote;
  const params: string[] = [documentId];
  let sql = `SELECT id FROM ${q(ct.tableName)} WHERE ${q('documentId')} = ?`;
  if (locale !== undefined) {
    sql += ` AND ${q('locale')} = ?`;
    params.push(locale);
  }
  if (status && ct.draftAndPublish) sql += ` AND ${q('publishedAt')} IS ${status === 'draft' ? '' : 'NOT '}NULL`;
  return (await tx.all<{ id: number }>(sql + ' ORDER BY id', params)).map((r) => r.id);
}

/** Deletes version rows and everything they own. */
export async function deleteVersions(tx: Queryable, registry: Registry, ct: ContentType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const q = tx.dialect.quote;
  await deleteOwnedParts(tx, registry, ct, ids);
  await tx.run(`DELETE FROM ${q(ct.tableName)} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
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
  const q = tx.dialect.quote;
  const columns = copiedColumns(tx, ct).map(q);
  const system = ['documentId', 'locale', 'createdAt', 'updatedAt', 'publishedAt'].map(q);
  const values = [
    q('documentId'),
    set.locale === undefined ? q('locale') : '?',
    set.createdAt === undefined ? q('createdAt') : '?',
    set.updatedAt === undefined ? q('updatedAt') : '?',
    '?',
  ];
  const params = [
    ...(set.locale === undefined ? [] : [set.locale]),
    ...(set.createdAt === undefined ? [] : [set.createdAt]),
    ...(set.updatedAt === undefined ? [] : [set.updatedAt]),
    set.publishedAt,
    fromId,
  ];
  const id = await tx.insert(
    `INSERT INTO ${q(ct.tableName)} (${[...system, ...columns].join(', ')}) SELECT ${[...values, ...columns].join(', ')} FROM ${q(ct.tableName)} WHERE id = ?`,
    params,
  );
  await copyComponents(tx, registry, ct, fromId, id, owned?.components);
  await copyOwnedLinks(tx, ct, fromId, id, registry, owned?.relations);
  await copyMedia(tx, ct, fromId, id, owned?.media);
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
    components: Object.entries(input.components).filter(([, v]) => v !== null && (!Array.isArray(v) || v.length > 0)).map(([k]) => k),
    relations: Object.entries(input.relations).filter(([, w]) => (w.op === 'set' ? w.targets.length > 0 : w.connect.length > 0)).map(([k]) => k),
    media: Object.entries(input.media).filter(([, ids]) => ids.length > 0).map(([k]) => k),
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
) {
  // A document created in this write has no published version to replace.
  if (!fresh) await deleteVersions(tx, registry, ct, await versionIds(tx, ct, key.documentId, key.locale, 'published'));
  return copyVersion(tx, registry, ct, draftId, { publishedAt: now }, fresh);
}

/**
 * Copies the non-localized attributes of one version to the other locales' versions of
 * the same document and status, so they stay equal (Strapi's i18n sync).
 */
export async function syncNonLocalized(tx: Queryable, registry: Registry, ct: ContentType, fromId: number, key: VersionKey, status: 'draft' | 'published') {
  if (!ct.localized) return;
  const q = tx.dialect.quote;
  const shared = Object.values(ct.attributes).filter((a) => !a.localized);
  if (shared.length === 0) return;
  const others = (await versionIds(tx, ct, key.documentId, undefined, status)).filter((id) => id !== fromId);
  if (others.length === 0) return;
  const columns = shared.filter((a) => tx.dialect.columnType(a)).map((a) => q(a.name));
  const marks = others.map(() => '?').join(', ');
  if (columns.length) {
    await tx.run(
      `UPDATE ${q(ct.tableName)} SET (${columns.join(', ')}) = (SELECT ${columns.join(', ')} FROM ${q(ct.tableName)} WHERE id = ?) WHERE id IN (${marks})`,
      [fromId, ...others],
    );
  }
  const componentFields = shared.filter((a) => a.kind === 'component' || a.kind === 'dynamiczone').map((a) => a.name);
  const mediaFields = shared.filter((a) => a.kind === 'media').map((a) => a.name);
  for (const id of others) {
    for (const field of componentFields) await deleteComponentField(tx, registry, ct, [id], field);
    if (componentFields.length) await copyComponents(tx, registry, ct, fromId, id, componentFields);
    if (mediaFields.length) {
      await deleteMedia(tx, ct, [id], mediaFields);
      await copyMedia(tx, ct, fromId, id, mediaFields);
    }
  }
}
