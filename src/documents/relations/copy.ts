/**
 * Copies of a row's owned links, relation and polymorphic (publish, a new locale's copy, a
 * component row copied with its owner): the same targets, at the same places in both lists.
 * Where the other side is to-one, the copy takes each target from its other owners, as
 * connecting it would (./apply.ts).
 */
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/links';
import * as morphStore from '../../db/store/morph-links';
import type { AnyModel, Registry } from '../../registry/types';
import { inverseIsToOne, linksToLock } from '../write/locks';

/** Copies the owning-side links of one row to another (`fields`: only those attributes). */
export async function copyOwnedLinks(tx: Queryable, model: AnyModel, fromId: number, toId: number, registry?: Registry, fields?: string[]): Promise<void> {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'relation' || !attribute.owner) continue;
    if (fields && !fields.includes(attribute.name)) continue;
    const toOne = registry !== undefined && inverseIsToOne(attribute);
    if (toOne) {
      // Under the targets' locks (a second lock call: the targets are known only now; a rare deadlock is retried).
      const target = attribute.targetType;
      const keys = await store.linksFrom(tx, attribute, fromId);
      await tx.lock(keys.map((key) => linksToLock(target, key.documentId)));
    }
    await store.copyLinks(tx, attribute, fromId, toId);
    if (toOne) {
      for (const key of await store.linksFrom(tx, attribute, toId)) await store.unlinkOtherDocuments(tx, model, attribute, toId, key);
    }
  }
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'morph' || !attribute.owner) continue;
    if (fields && !fields.includes(attribute.name)) continue;
    await morphStore.copyMorphLinks(tx, attribute, fromId, toId);
  }
}
