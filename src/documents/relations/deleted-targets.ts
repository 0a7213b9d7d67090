/**
 * Links to a deleted document: they go with it (in one locale, or in all), relation and
 * polymorphic links alike; the documents holding them stay.
 */
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/links';
import * as morphStore from '../../db/store/morph-links';
import type { ContentType, Registry } from '../../registry/types';

/** Removes every link pointing at a document (in one locale, or in all when no locale is given). */
export async function deleteLinksTo(tx: Queryable, registry: Registry, target: ContentType, documentId: string, locale?: string): Promise<void> {
  // Users own links too (relations from the project's user extension).
  for (const model of [...registry.contentTypes, ...registry.systemTypes, ...registry.components]) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner || attribute.target !== target.uid) continue;
      await store.deleteLinksTo(tx, attribute, documentId, locale);
    }
  }
  for (const model of registry.contentTypes) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'morph' && attribute.owner) await morphStore.deleteMorphLinksTo(tx, attribute, target.uid, documentId, locale);
    }
  }
}
