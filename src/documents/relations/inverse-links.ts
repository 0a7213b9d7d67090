/**
 * Writes to the inverse side of a relation (`tag.articles`, mapped by `article.tags`).
 * The links belong to the owning documents' versions, so a write here adds, moves or
 * removes link rows owned by those versions: the draft (so the link survives the owner's
 * next publish) and, unless the write is draft-only, the published one too. The order the
 * inverse side sees lives in the links' inverse keys. The caller holds this document's incoming
 * links and each connected owner document exclusively (../write/locks.ts), so the keys below are
 * computed from lists nobody else is changing.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/links';
import { versionIds } from '../../db/store/versions';
import { ValidationError } from '../../errors';
import { targetNotFound } from './not-found';
import type { ContentType, RelationAttribute } from '../../registry/types';
import { distinctKeyBetween, gapBefore } from './order-keys';
import type { RelationTarget, RelationWrite } from './input';

export interface InverseContext {
  /** The document being written (the target of the links). */
  contentType: ContentType;
  documentId: string;
  locale: string;
  defaultLocale: string;
  /** Owner versions to touch: the drafts only, or drafts and published versions. */
  statuses: ('draft' | 'published')[];
}

export async function writeInverseLinks(tx: Queryable, relations: Record<string, RelationWrite>, context: InverseContext) {
  for (const [name, write] of Object.entries(relations)) {
    const attribute = context.contentType.attributes[name] as RelationAttribute;
    if (attribute.owner) continue;
    await writeInverse(tx, attribute, write, context);
  }
}

async function writeInverse(tx: Queryable, attribute: RelationAttribute, write: RelationWrite, context: InverseContext) {
  const owner = attribute.targetType;
  const ownerAttribute = owner.attributes[attribute.ownerAttribute!] as RelationAttribute;
  const ownLocale = context.contentType.localized ? context.locale : '';
  const ownerLocale = (t: RelationTarget) => (owner.localized ? (context.contentType.localized ? context.locale : (t.locale ?? context.defaultLocale)) : '');
  // Only the owner versions this write may touch: a draft-only write leaves published links alone.
  const touched = owner.draftAndPublish && context.statuses.length === 1 ? context.statuses[0] : undefined;
  const rowsOf = async (t: RelationTarget): Promise<number[]> => {
    const rows = await versionIds(tx, owner, t.documentId, ownerLocale(t), touched, false);
    if (rows.length === 0) throw targetNotFound(attribute.name, owner.uid, t.documentId, owner.localized ? ownerLocale(t) : '');
    return rows;
  };

  const self = { documentId: context.documentId, locale: ownLocale };
  const current = () => store.linkingDocuments(tx, attribute, owner, self);
  const unlink = (ownerDocumentId: string) => store.unlinkDocument(tx, attribute, owner, self, ownerDocumentId, touched);
  /** Links every version of the owner to this document at this inverse key (moving it if linked). */
  const link = async (t: RelationTarget, inverseKey: string) => {
    for (const rowId of await rowsOf(t)) {
      const existing = await store.linkIdFrom(tx, attribute, rowId, self);
      if (existing !== undefined) {
        await store.setInverseRank(tx, attribute, existing, inverseKey);
        continue;
      }
      // A to-one owner holds one link: this one replaces the previous.
      if (!ownerAttribute.toMany) await store.deleteLinksFrom(tx, attribute, rowId);
      const last = await store.lastRank(tx, attribute, rowId);
      await store.insertLink(tx, attribute, rowId, { ...self, status: '' }, generateKeyBetween(last, null), inverseKey);
    }
  };

  const duplicates = (targets: RelationTarget[]) => {
    const seen = new Set<string>();
    for (const t of targets) {
      const key = `${t.documentId}\0${ownerLocale(t)}`;
      if (seen.has(key)) {
        throw new ValidationError(`The relation with id ${t.documentId} is already connected. You cannot connect the same relation twice.`);
      }
      seen.add(key);
    }
  };

  if (write.op === 'set') {
    let targets = write.targets;
    duplicates(targets);
    if (!attribute.toMany) targets = targets.slice(-1);
    for (const t of targets) await rowsOf(t);
    const keep = new Set(targets.map((t) => t.documentId));
    for (const old of await current()) if (!keep.has(old.documentId)) await unlink(old.documentId);
    const keys = generateNKeysBetween(null, null, targets.length);
    for (let i = 0; i < targets.length; i++) await link(targets[i]!, keys[i]!);
    return;
  }

  duplicates(write.connect);
  for (const t of [...write.connect, ...write.disconnect]) await rowsOf(t);
  for (const t of write.disconnect) {
    if (!write.connect.some((c) => c.documentId === t.documentId)) await unlink(t.documentId);
  }
  for (const t of write.connect) {
    if (!attribute.toMany) {
      for (const old of await current()) if (old.documentId !== t.documentId) await unlink(old.documentId);
      await link(t, generateKeyBetween(null, null));
      continue;
    }
    const list = (await current()).filter((l) => l.documentId !== t.documentId);
    const position = t.position ?? { end: true };
    let index: number;
    if ('start' in position) index = 0;
    else if ('end' in position) index = list.length;
    else {
      const anchor = 'before' in position ? position.before : position.after;
      const at = list.findIndex((l) => l.documentId === anchor);
      if (at < 0) {
        throw new ValidationError(
          `There was a problem connecting relation with id ${t.documentId} at position ${JSON.stringify(position)}. The relation with id ${anchor} needs to be connected first.`,
        );
      }
      index = 'before' in position ? at : at + 1;
    }
    await link(
      t,
      distinctKeyBetween(
        ...gapBefore(
          list.map((l) => l.rank),
          index,
        ),
      ),
    );
  }
}
