/**
 * Relation links. A link row belongs to the source version (or component row) on the
 * owning side and names its target by documentId (+ locale, + pinned status). Reads
 * resolve the target version matching the reader's status and locale, so publishing
 * the source or the target never drops a link.
 *
 * Order lives in fractional keys (one for the source's list, one for the target's inverse
 * list): placing an item between two others writes one row and renumbers nothing.
 * A key is computed from the list as committed, so the caller holds the list's lock
 * (../write/locks.ts: the source's document for its list, the target's incoming links for the
 * inverse list) for the whole transaction.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/links';
import type { LinkKey, StoredLink } from '../../db/store/links';
import { existingVersions } from '../../db/store/versions';
import { ValidationError } from '../../errors';
import { targetNotFound } from './not-found';
import type { AnyModel, ContentType, Registry, RelationAttribute } from '../../registry/types';
import { distinctKeyBetween, gapBefore } from './order-keys';
import type { RelationTarget, RelationWrite } from './input';
import { inverseIsToOne, linksToLock } from '../write/locks';
import { copyMorphLinks, deleteMorphLinksTo } from './morph-links';

/** Where the written row sits: the locale and status of the content version that owns it. */
export interface LinkContext {
  /** Content type of the version being written (components inherit it). */
  contentType: ContentType;
  locale: string;
  status: 'draft' | 'published';
  defaultLocale: string;
}

const sameLink = (a: LinkKey, b: LinkKey) => a.documentId === b.documentId && a.locale === b.locale && a.status === b.status;

/**
 * Whether two links reach a common version. A link that pins no status stands for both
 * versions (Strapi links the draft and the published row), so it overlaps either pin.
 */
export const overlaps = (a: LinkKey, b: LinkKey) =>
  a.documentId === b.documentId && a.locale === b.locale && (a.status === b.status || a.status === '' || b.status === '');

/**
 * Disconnects `keys` from `list`: a key without a status removes every link of its document
 * and locale; a pinned key removes its own link, and turns a link to both statuses into a
 * link to the other one (as Strapi, which held one row per status, would keep the other row).
 * Returns the links left.
 */
async function disconnectLinks(tx: Queryable, attribute: RelationAttribute, list: StoredLink[], keys: LinkKey[]): Promise<StoredLink[]> {
  const gone = new Set<StoredLink>();
  for (const key of keys) {
    for (const link of list.filter((o) => overlaps(o, key))) {
      if (key.status === '' || link.status === key.status) gone.add(link);
      else if (link.status === '') {
        link.status = key.status === 'draft' ? 'published' : 'draft';
        await store.setTargetStatus(tx, attribute, link.id, link.status);
      }
    }
  }
  await store.deleteLinks(
    tx,
    attribute,
    [...gone].map((link) => link.id),
  );
  return list.filter((link) => !gone.has(link));
}

/** Maps a written target to the stored key, following Strapi's i18n and draft & publish rules. */
export function linkKey(attribute: RelationAttribute, target: RelationTarget, context: LinkContext): LinkKey {
  // Row ids are mapped by the document service before anything is written (./row-ids.ts).
  if (!target.documentId) throw new Error(`relation target id ${target.id} reached the link writer unresolved`);
  const targetType = attribute.targetType;
  let locale = '';
  if (targetType.localized) {
    locale = context.contentType.localized ? context.locale : (target.locale ?? context.defaultLocale);
  }
  // A source with draft & publish links draft to draft and published to published;
  // only a source without it may pin the target's status.
  const status = targetType.draftAndPublish && !context.contentType.draftAndPublish ? (target.status ?? '') : '';
  return { documentId: target.documentId, locale, status };
}

/** Every key must name an existing version (of its pinned status); the first that does not is the error. */
async function assertTargetsExist(tx: Queryable, attribute: RelationAttribute, keys: LinkKey[]) {
  const targetType = attribute.targetType;
  assertFound(
    attribute.name,
    targetType.uid,
    keys,
    await existingVersions(
      tx,
      targetType,
      keys.map((k) => k.documentId),
    ),
  );
}

/** The first key that names no version among `versions` (of its pinned status, if any) is the error. */
export function assertFound(relation: string, type: string, keys: LinkKey[], versions: { documentId: string; locale: string; status: string }[]) {
  for (const key of keys) {
    const found = versions.some((v) => v.documentId === key.documentId && v.locale === key.locale && (key.status === '' || v.status === key.status));
    if (!found) throw targetNotFound(relation, type, key.documentId, key.locale);
  }
}

/**
 * Next inverse key for a target: after the last link pointing at it. Writers appending to
 * one target's list run side by side (they share its lock, ../write/locks.ts) and may read the same
 * last key, so the key is made distinct from theirs (order-keys.ts).
 */
async function nextInverseKey(tx: Queryable, attribute: RelationAttribute, key: LinkKey): Promise<string> {
  return distinctKeyBetween(await store.lastInverseRank(tx, attribute, key), null);
}

/**
 * When the other side is to-one, a target may be linked from one document only: linking it
 * here unlinks it from other documents' versions of the same status.
 */
export function dropOtherOwners(tx: Queryable, model: AnyModel, attribute: RelationAttribute, rowId: number, key: LinkKey) {
  return store.unlinkOtherDocuments(tx, model, attribute, rowId, key);
}

/** Adds a link at the end of the target's inverse list; returns its id. */
async function insertLink(tx: Queryable, attribute: RelationAttribute, rowId: number, key: LinkKey, rank: string): Promise<number> {
  return store.insertLink(tx, attribute, rowId, key, rank, await nextInverseKey(tx, attribute, key));
}

/** Applies relation writes of the owning side to one source row. */
export async function writeOwnedLinks(
  tx: Queryable,
  model: AnyModel,
  rowId: number,
  relations: Record<string, RelationWrite>,
  context: LinkContext,
): Promise<void> {
  for (const [name, write] of Object.entries(relations)) {
    const attribute = model.attributes[name] as RelationAttribute;
    // The inverse side's links belong to the other documents (see inverse-links.ts).
    if (!attribute.owner) continue;
    if (write.op === 'set') await setLinks(tx, model, attribute, rowId, write.targets, context);
    else await patchLinks(tx, model, attribute, rowId, write.connect, write.disconnect, context);
  }
}

/** Where a connected target goes in a list (its position: start, end, before or after an anchor already in it). */
export function placement(attribute: RelationAttribute, context: LinkContext, target: RelationTarget, key: LinkKey, list: LinkKey[]): number {
  const position = target.position ?? { end: true };
  if ('start' in position) return 0;
  if ('end' in position) return list.length;
  const anchorId = 'before' in position ? position.before : position.after;
  // The anchor is the element's own version unless the position names one (Strapi's position.locale / status).
  const { locale = target.locale, status = target.status } = position;
  const anchorKey = linkKey(attribute, { documentId: anchorId, locale, status }, context);
  const at = list.findIndex((o) => overlaps(o, anchorKey));
  if (at < 0) {
    throw new ValidationError(
      `There was a problem connecting relation with id ${key.documentId} at position ${JSON.stringify(position)}. The relation with id ${anchorId} needs to be connected first.`,
    );
  }
  return 'before' in position ? at : at + 1;
}

export function rejectDuplicates(keys: LinkKey[]) {
  keys.forEach((key, i) => {
    if (keys.findIndex((other) => overlaps(other, key)) !== i) {
      throw new ValidationError(`The relation with id ${key.documentId} is already connected. You cannot connect the same relation twice.`);
    }
  });
}

async function setLinks(tx: Queryable, model: AnyModel, attribute: RelationAttribute, rowId: number, targets: RelationTarget[], context: LinkContext) {
  let keys = targets.map((t) => linkKey(attribute, t, context));
  rejectDuplicates(keys);
  if (!attribute.toMany) keys = keys.slice(-1);
  await assertTargetsExist(tx, attribute, keys);
  const existing = await store.linksFrom(tx, attribute, rowId);
  const ranks = generateNKeysBetween(null, null, keys.length);
  // Links that stay keep their row (and so their place on the inverse side).
  await store.deleteLinks(
    tx,
    attribute,
    existing.filter((old) => !keys.some((k) => sameLink(k, old))).map((old) => old.id),
  );
  for (let i = 0; i < keys.length; i++) {
    const old = existing.find((o) => sameLink(o, keys[i]!));
    if (old) await store.setRank(tx, attribute, old.id, ranks[i]!);
    else await insertLink(tx, attribute, rowId, keys[i]!, ranks[i]!);
  }
  if (inverseIsToOne(attribute)) for (const key of keys) await dropOtherOwners(tx, model, attribute, rowId, key);
}

async function patchLinks(
  tx: Queryable,
  model: AnyModel,
  attribute: RelationAttribute,
  rowId: number,
  connect: RelationTarget[],
  disconnect: RelationTarget[],
  context: LinkContext,
) {
  const connectKeys = connect.map((t) => linkKey(attribute, t, context));
  rejectDuplicates(connectKeys);
  const disconnectKeys = disconnect.map((t) => linkKey(attribute, t, context));
  await assertTargetsExist(tx, attribute, [...connectKeys, ...disconnectKeys]);

  if (!attribute.toMany) {
    // A to-one side holds one link: the last connected target wins.
    const last = connectKeys.at(-1);
    let existing = await disconnectLinks(tx, attribute, await store.linksFrom(tx, attribute, rowId), last ? [] : disconnectKeys);
    const dropped = existing.filter((old) => last && !sameLink(last, old));
    await store.deleteLinks(
      tx,
      attribute,
      dropped.map((old) => old.id),
    );
    existing = existing.filter((old) => !dropped.includes(old));
    if (last && !existing.some((o) => sameLink(o, last))) await insertLink(tx, attribute, rowId, last, generateKeyBetween(null, null));
    if (last && inverseIsToOne(attribute)) await dropOtherOwners(tx, model, attribute, rowId, last);
    return;
  }

  const disconnected = disconnectKeys.filter((key) => !connectKeys.some((k) => sameLink(k, key)));
  let list = await disconnectLinks(tx, attribute, await store.linksFrom(tx, attribute, rowId), disconnected);
  for (let i = 0; i < connect.length; i++) {
    const key = connectKeys[i]!;
    // A link already reaching this version moves (a link to both statuses stays one); links the
    // new one covers (pinned links, when it pins no status) make way for it.
    const covered = list.filter((o) => overlaps(o, key));
    const old = covered.length === 1 && (covered[0]!.status === key.status || covered[0]!.status === '') ? covered[0] : undefined;
    await store.deleteLinks(
      tx,
      attribute,
      covered.filter((o) => o !== old).map((o) => o.id),
    );
    const without = list.filter((o) => !covered.includes(o));
    const index = placement(attribute, context, connect[i]!, key, without);
    const keyBetween = generateKeyBetween(
      ...gapBefore(
        without.map((l) => l.rank),
        index,
      ),
    );
    if (old) {
      await store.setRank(tx, attribute, old.id, keyBetween);
      old.rank = keyBetween;
      without.splice(index, 0, old);
    } else {
      // The new row's id is only needed if a later element of this request moves it again.
      const id = await insertLink(tx, attribute, rowId, key, keyBetween);
      if (inverseIsToOne(attribute)) await dropOtherOwners(tx, model, attribute, rowId, key);
      without.splice(index, 0, { id, ...key, rank: keyBetween });
    }
    list = without;
  }
}

/** Copies the owning-side links of one row to another (publish, new locale copies). */
export async function copyOwnedLinks(tx: Queryable, model: AnyModel, fromId: number, toId: number, registry?: Registry, fields?: string[]): Promise<void> {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'relation' || !attribute.owner) continue;
    if (fields && !fields.includes(attribute.name)) continue;
    const toOne = registry !== undefined && inverseIsToOne(attribute);
    if (toOne) {
      // The copy takes each target from its other owners, as connecting it would: under the same
      // locks (a second lock call: the targets are known only now; a rare deadlock is retried).
      const target = attribute.targetType;
      const keys = await store.linksFrom(tx, attribute, fromId);
      await tx.lock(keys.map((key) => linksToLock(target, key.documentId)));
    }
    await store.copyLinks(tx, attribute, fromId, toId);
    if (toOne) {
      for (const key of await store.linksFrom(tx, attribute, toId)) await dropOtherOwners(tx, model, attribute, toId, key);
    }
  }
  await copyMorphLinks(tx, model, fromId, toId, fields);
}

/** Removes every link pointing at a document (in one locale, or in all when no locale is given). */
export async function deleteLinksTo(tx: Queryable, registry: Registry, target: ContentType, documentId: string, locale?: string) {
  // Users own links too (relations from the project's user extension).
  for (const model of [...registry.contentTypes, ...registry.systemTypes, ...registry.components]) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== target.uid) continue;
      await store.deleteLinksTo(tx, attribute, documentId, locale);
    }
  }
  await deleteMorphLinksTo(tx, registry, target, documentId, locale);
}
