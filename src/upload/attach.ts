/**
 * `ref`, `refId`, `field` on an upload: the new files go into a media attribute of an
 * entry. Strapi links the file to the one row `refId` names; Folio keeps one row per
 * version, so every version the attribute has the same value in gets the files: draft
 * and published, in the request's locale, or in all locales when the attribute is not
 * localized (its value is shared across locales).
 */
import { allowedType } from '../registry/file-model';
import type { Queryable } from '../db/database';
import { fileIdsInField, findVersionKeyOfRow } from '../db/store/files';
import { writeMedia } from '../documents/write/media';
import { documentLock } from '../documents/write/locks';
import { versionIds } from '../db/store/versions';
import { ValidationError } from '../errors';
import type { ContentType, MediaAttribute, Registry } from '../registry/types';

export interface AttachRequest {
  ref?: string;
  refId?: string;
  field?: string;
  locale?: string;
}

export interface AttachTarget {
  ct: ContentType;
  attribute: MediaAttribute;
  refId: string;
  locale?: string;
}

const invalid = (message: string, key: string, value: unknown) =>
  new ValidationError(message, { errors: [{ path: [key], message, name: 'ValidationError', value }] });

/** Checks the request against the registry; undefined when it asks for no attachment. */
export function attachTarget(registry: Registry, request: AttachRequest, fileCount: number): AttachTarget | undefined {
  const { ref, refId, field } = request;
  if (!ref && !refId && !field) return undefined;
  if (!ref || !refId || !field) throw new ValidationError('ref, refId and field must be given together to attach files to an entry');
  const ct = registry.contentType(ref);
  if (!ct) throw invalid(`Unknown content type "${ref}"`, 'ref', ref);
  const attribute = ct.attributes[field];
  if (!attribute) throw invalid(`${ref} has no attribute "${field}"`, 'field', field);
  if (attribute.kind !== 'media') throw invalid(`${ref}.${field} is not a media attribute`, 'field', field);
  if (!attribute.multiple && fileCount > 1) throw invalid(`${ref}.${field} holds a single file`, 'field', field);
  return { ct, attribute, refId, locale: request.locale || undefined };
}

/** Strapi's allowedTypes: images, videos, audios by MIME family; files for everything else. */
export function checkAllowedTypes(target: AttachTarget, mimes: string[]): void {
  for (const mime of mimes) {
    if (!allowedType(target.attribute, mime)) {
      throw invalid(
        `${target.ct.uid}.${target.attribute.name} does not accept ${mime} (allowed types: ${target.attribute.allowedTypes!.join(', ')})`,
        'field',
        target.attribute.name,
      );
    }
  }
}

/**
 * Ids of the version rows that receive the files; a refId naming no entry is a 400. Inside
 * the upload's transaction (`locked`), first takes the document's write lock; outside it
 * (the early check before any image work) there is nothing to hold a lock for.
 */
export async function targetRows(tx: Queryable, target: AttachTarget, defaultLocale: string, locked = true): Promise<number[]> {
  const { ct, attribute } = target;
  let documentId = target.refId;
  let locale = target.locale;
  if (/^\d+$/.test(target.refId)) {
    // A numeric refId is a row id, as Strapi's; it names the document and, unless the
    // request says otherwise, the locale.
    const row = await findVersionKeyOfRow(tx, ct, Number(target.refId));
    if (!row) throw invalid(`No ${ct.uid} entry with id ${target.refId}`, 'refId', target.refId);
    documentId = row.documentId;
    locale ??= row.locale;
  }
  // The same lock a document write takes: an attach racing a PUT that replaces this media
  // field waits for it instead of leaving both sets of links behind (a no-op on SQLite).
  if (locked) await tx.lock([documentLock(ct, documentId)]);
  const scope = !ct.localized ? '' : attribute.localized ? (locale ?? defaultLocale) : undefined;
  const ids = await versionIds(tx, ct, documentId, scope);
  if (ids.length === 0) {
    throw invalid(`No ${ct.uid} entry with documentId ${documentId}${scope ? ` in locale ${scope}` : ''}`, 'refId', target.refId);
  }
  return ids;
}

/** Appends to a multiple media field, replaces a single one, on every target row. */
export async function attachFiles(tx: Queryable, target: AttachTarget, rowIds: number[], fileIds: number[]): Promise<void> {
  for (const rowId of rowIds) {
    let ids = fileIds;
    if (target.attribute.multiple) ids = [...(await fileIdsInField(tx, target.ct.uid, rowId, target.attribute.name)), ...fileIds];
    await writeMedia(tx, target.ct, rowId, target.attribute.name, ids);
  }
}
