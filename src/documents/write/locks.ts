/**
 * Names of the locks document writes take (Queryable.lock: transaction-scoped advisory
 * locks on PostgreSQL, nothing on SQLite, which has one writer at a time). Document writes
 * on PostgreSQL run READ COMMITTED: each statement sees the latest commits, and these locks
 * make the writers that compute something from the same rows run one after the other.
 *
 *  - a document: its versions and all they own (columns, components, media, the owning
 *    side's relation lists and their order keys), publishing, new locales, deletion;
 *  - the links pointing at a document: its inverse-side list (inverse order keys, also
 *    for links that do not exist yet), a to-one other side's single owner, and its deletion
 *    (no link may be added to a document being deleted). Writers that only append a link
 *    to the list share it: their keys differ anyway (see ../relations/apply.ts);
 *    reordering the list, taking the target from other owners or deleting it is exclusive;
 *  - a unique value in a locale: the check that no other published document holds it.
 *
 * A write takes the names its body gives (writeLocks) in one call before it reads anything,
 * then its unique values (which may come from stored values) in a second call. One call's
 * names are taken in the same order in every process, and no write asks for a document or
 * links name after a unique one, so writers never wait on each other in a cycle. (Publishing
 * a link whose other side is to-one names its target late, see copyOwnedLinks; the rare
 * deadlock that can make is detected by PostgreSQL and the write retried.)
 */
import type { ScalarField } from '../../registry/fields/field';
import type { AnyModel, ContentType, RelationAttribute } from '../../registry/types';
import { readRelation, type RelationWrite } from '../relations/input';
import { isObject } from '../../json';

/** A single type has one document: its lock names the type, so it can be taken before the document is looked up. */
export function documentLock(ct: ContentType, documentId: string): string {
  return ct.kind === 'singleType' ? `document\0${ct.uid}` : `document\0${ct.uid}\0${documentId}`;
}

export function linksToLock(ct: ContentType, documentId: string): string {
  return ct.kind === 'singleType' ? `links-to\0${ct.uid}` : `links-to\0${ct.uid}\0${documentId}`;
}

export function uniqueLock(ct: ContentType, field: ScalarField, locale: string, value: unknown): string {
  return `unique\0${ct.uid}\0${field.name}\0${locale}\0${String(field.toColumn(value))}`;
}

/** Whether the other side of a bidirectional relation holds one link only (oneToOne, manyToOne). */
export function inverseIsToOne(attribute: RelationAttribute): boolean {
  if (!attribute.inversedBy) return false;
  const inverse = attribute.inverse;
  return inverse?.kind === 'relation' && !inverse.toMany;
}

/** Lock names by mode, for `tx.lock(locks.exclusive, locks.shared)`. */
export interface Locks {
  exclusive: string[];
  shared: string[];
}

export function mergeLocks(all: Locks[]): Locks {
  return { exclusive: all.flatMap((l) => l.exclusive), shared: all.flatMap((l) => l.shared) };
}

/**
 * The locks a write of `data` to a document needs, named from the body alone (before anything
 * is read): the document itself, then for every relation it writes
 *  - owning side: each connected or set target's incoming links, shared (a new link is
 *    appended to the target's inverse list), exclusive when the other side is to-one (the
 *    target is taken from its other owners);
 *  - inverse side: this document's incoming links (the list is reordered), and each connected
 *    or set owner document (its own list gets a link, at the next order key).
 * Disconnecting only deletes rows and computes no key, so it needs nothing more. A relation
 * value that does not parse names nothing: the write rejects it before touching anything.
 * A document this write creates (`fresh`) is invisible to everyone else until it commits: its
 * own names are left out, which keeps a bulk import from holding one lock per document.
 */
export function writeLocks(ct: ContentType, documentId: string, data: unknown, fresh = false): Locks {
  const own = !fresh || ct.kind === 'singleType';
  const exclusive = new Set(own ? [documentLock(ct, documentId)] : []);
  const shared = new Set<string>();
  const walk = (model: AnyModel, value: unknown) => {
    if (!isObject(value)) return;
    for (const [name, v] of Object.entries(value)) {
      const attribute = model.attributes[name];
      if (attribute?.kind === 'component') {
        for (const item of [v].flat()) walk(attribute.componentModel, item);
      } else if (attribute?.kind === 'dynamiczone') {
        for (const item of [v].flat()) {
          const uid = isObject(item) ? item.__component : undefined;
          const component = typeof uid === 'string' ? attribute.componentModels.find((c) => c.uid === uid) : undefined;
          if (component) walk(component, item);
        }
      } else if (attribute?.kind === 'relation') {
        const target = attribute.targetType;
        let write: RelationWrite;
        try {
          write = readRelation(v, [name]);
        } catch {
          continue;
        }
        if (!target) continue;
        const linked = write.op === 'set' ? write.targets : write.connect;
        if (attribute.owner) {
          const mode = inverseIsToOne(attribute) ? exclusive : shared;
          for (const t of linked) mode.add(linksToLock(target, t.documentId));
        } else {
          if (own) exclusive.add(linksToLock(ct, documentId));
          for (const t of linked) exclusive.add(documentLock(target, t.documentId));
        }
      }
    }
  };
  walk(ct, data);
  return { exclusive: [...exclusive], shared: [...shared] };
}

/** Deleting a document: its versions, and the links pointing at it. */
export function deleteLocks(ct: ContentType, documentId: string): Locks {
  return { exclusive: [documentLock(ct, documentId), linksToLock(ct, documentId)], shared: [] };
}
