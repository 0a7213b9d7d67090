/**
 * What a link names, and the rules every link follows, relation and polymorphic alike. A link
 * belongs to a source row (a version or a component row of the owning side) and names its
 * target by documentId, locale ('' when the target type has no i18n) and pinned status ('' =
 * the reader's), and a polymorphic link by the target's type too. Reads resolve the target
 * version matching the reader's status and locale, so publishing the source or the target
 * never drops a link. Pure: nothing here touches the database.
 */
import type { LinkKey } from '../../db/store/links';
import { ValidationError } from '../../errors';
import type { ContentType } from '../../registry/types';
import type { Position } from './input';
import { targetNotFound } from './not-found';

/** Where the written row sits: the locale and status of the content version that owns it. */
export interface LinkContext {
  /** Content type of the version being written (components inherit it). */
  contentType: ContentType;
  locale: string;
  status: 'draft' | 'published';
  defaultLocale: string;
}

/** A link's target: a relation's (no `type`) or a polymorphic link's (its target's type uid). */
export interface Key extends LinkKey {
  type?: string;
}

/** What a write names: a documentId, and the locale and status it asks for. */
export interface Named {
  documentId: string;
  locale?: string;
  status?: 'draft' | 'published';
}

/** Two links to the same version(s): the same type, document, locale and pinned status. */
export const sameLink = (a: Key, b: Key) => a.type === b.type && a.documentId === b.documentId && a.locale === b.locale && a.status === b.status;

/**
 * Whether two links reach a common version. A link that pins no status stands for both
 * versions (Strapi links the draft and the published row), so it overlaps either pin.
 */
export const overlaps = (a: Key, b: Key) =>
  a.type === b.type && a.documentId === b.documentId && a.locale === b.locale && (a.status === b.status || a.status === '' || b.status === '');

/**
 * Maps a written target of `targetType` to the stored key, following Strapi's i18n and draft &
 * publish rules: a localized source links its own locale; a source with draft & publish links
 * draft to draft and published to published, only a source without it may pin the target's status.
 */
export function keyFor(targetType: ContentType, target: Named, context: LinkContext, type?: string): Key {
  // Row ids are mapped before anything is written (./row-ids.ts, ./read.ts mapMorphRowIds).
  if (!target.documentId) throw new Error(`relation target of ${targetType.uid} reached the link writer unresolved`);
  let locale = '';
  if (targetType.localized) locale = context.contentType.localized ? context.locale : (target.locale ?? context.defaultLocale);
  const status = targetType.draftAndPublish && !context.contentType.draftAndPublish ? (target.status ?? '') : '';
  return type === undefined ? { documentId: target.documentId, locale, status } : { type, documentId: target.documentId, locale, status };
}

/** The same target twice in one connect (or set) is refused, as Strapi refuses it. */
export function rejectDuplicates(keys: Key[]): void {
  keys.forEach((key, i) => {
    if (keys.findIndex((other) => overlaps(other, key)) !== i) {
      throw new ValidationError(`The relation with id ${key.documentId} is already connected. You cannot connect the same relation twice.`);
    }
  });
}

/** A found version of a target document. */
export interface FoundVersion {
  documentId: string;
  locale: string;
  status: string;
}

/** The versions found, as `assertFound` looks keys up: each with its status, and without (a key pinning none). */
export const versionIndex = (versions: FoundVersion[]) =>
  new Set(versions.flatMap((v) => [`${v.documentId}\0${v.locale}\0${v.status}`, `${v.documentId}\0${v.locale}\0`]));

/** Every key must name a version among the indexed ones (of its pinned status, if any): the first that does not is the error. */
export function assertFound(relation: string, type: string, keys: Key[], index: Set<string>): void {
  for (const key of keys) {
    if (!index.has(`${key.documentId}\0${key.locale}\0${key.status}`)) throw targetNotFound(relation, key.type ?? type, key.documentId, key.locale);
  }
}

/** Where a connected target goes: the start, the end, or before or after the link of an anchor already in the list. */
export type Place = { start: true } | { end: true } | { before: Key; anchor: string } | { after: Key; anchor: string };

/** A connect's place, from its position (the anchor is the element's own version unless the position names one: Strapi's position.locale / status). */
export function placeOf(target: Named & { position?: Position }, anchorKey: (anchor: Named) => Key): Place {
  const position = target.position ?? { end: true };
  if ('start' in position) return { start: true };
  if ('end' in position) return { end: true };
  const { locale = target.locale, status = target.status } = position;
  if ('before' in position) return { before: anchorKey({ documentId: position.before, locale, status }), anchor: position.before };
  return { after: anchorKey({ documentId: position.after, locale, status }), anchor: position.after };
}

/** The index in `list` a connect goes to; an anchor not in the list is the error, worded as Strapi's. */
export function placement(place: Place, key: Key, position: Position | undefined, list: Key[]): number {
  if ('start' in place) return 0;
  if ('end' in place) return list.length;
  const anchor = 'before' in place ? place.before : place.after;
  const at = list.findIndex((o) => overlaps(o, anchor));
  if (at < 0) {
    throw new ValidationError(
      `There was a problem connecting relation with id ${key.documentId} at position ${JSON.stringify(position)}. The relation with id ${place.anchor} needs to be connected first.`,
    );
  }
  return 'before' in place ? at : at + 1;
}
