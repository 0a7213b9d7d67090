/**
 * The last step of writing links (./writer.ts): from a plan (./plan.ts) and what was read for
 * it (./read.ts), first the decisions, pure (`decideLinks`): the errors, in the order writing
 * one source and one attribute at a time meets them (per write: a target twice, a target not
 * found, then an anchor not in the list), and which link rows to delete, re-status, move and
 * insert; then the writes (`applyLinks`): a DELETE per attribute, an UPDATE per moved or
 * re-pinned link, the new rows in one multi-row INSERT per table (on PostgreSQL one statement
 * for all of them), then, where the other side is to-one, the target taken from its other owners.
 *
 * The rules, relation and polymorphic links alike:
 * - set: the targets in order; a link that stays keeps its row (and so its place in the
 *   target's inverse list); a to-one side takes the last target;
 * - disconnect: a key without a status removes every link of its document and locale; a pinned
 *   key removes its own link and turns a link to both statuses into a link to the other one (as
 *   Strapi, which held one row per status, would keep the other row);
 * - connect: at its position (the end when none); a link already reaching the version moves,
 *   links the new one covers (pinned links, when it pins none) make way; a to-one side holds
 *   one link, the last connected;
 * - order: fractional keys (./order-keys.ts), one in the source's list, one in the target's
 *   inverse list (relations only: after the target's last key, distinct from a concurrent writer's).
 * A key is computed from the lists as committed, so the caller holds their locks (../write/locks.ts:
 * the source's document for its lists, the targets' incoming links for the inverse lists).
 *
 * Writes on inverse sides are decided the same way (decideInverse, applyInverse).
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../../db/database';
import { insertLinkRowsOf } from '../../db/store/bulk';
import * as store from '../../db/store/links';
import type { LinkKey, NewLink } from '../../db/store/links';
import * as morphStore from '../../db/store/morph-links';
import type { MorphKey, NewMorphLink } from '../../db/store/morph-links';
import type { AnyModel, MorphAttribute, RelationAttribute } from '../../registry/types';
import { inverseIsToOne } from '../write/locks';
import { assertFound, type Key, overlaps, placement, rejectDuplicates, sameLink, versionIndex } from './link-keys';
import { targetNotFound } from './not-found';
import { distinctKeyBetween, gapBefore } from './order-keys';
import type { LinkAttribute, LinkPlan, PlannedInverse, PlannedWrite } from './plan';
import type { InverseReads, LinkReads } from './read';

/** What a write changes in link rows. */
export interface LinkChanges {
  /** Link rows deleted, per attribute. */
  deleted: Map<LinkAttribute, number[]>;
  /** Links of the current lists that change their pinned status or their key in the source's list. */
  updated: { attribute: LinkAttribute; id: number; status?: string; rank?: string }[];
  /** New link rows, per relation attribute, in the order they are inserted. */
  inserted: Map<RelationAttribute, NewLink[]>;
  /** New polymorphic link rows, per attribute. */
  morphInserted: Map<MorphAttribute, NewMorphLink[]>;
  /** Links whose target may have one owner document (the other side is to-one): its links from other documents go. */
  owners: { attribute: RelationAttribute; rowId: number; key: LinkKey }[];
}

/** A link of a list as the decisions go: a row already there (`id`), or one to insert. */
interface Item {
  id?: number;
  key: Key;
  rank: string;
  /** The target's inverse key of a new link (relations only). */
  inverse?: string;
}

/** Decides every write of `plan` from `reads` (see the file comment); throws the first error. */
export function decideLinks(plan: LinkPlan, reads: LinkReads): LinkChanges {
  const changes: LinkChanges = { deleted: new Map(), updated: [], inserted: new Map(), morphInserted: new Map(), owners: [] };
  const indexes = new Map<unknown, Set<string>>();
  const indexOf = (at: unknown, versions: () => { documentId: string; locale: string; status: string }[]) =>
    indexes.get(at) ?? indexes.set(at, versionIndex(versions())).get(at)!;
  // The last inverse key of each target, per attribute, kept as links are added.
  const lastInverse = new Map<RelationAttribute, Map<string, string | null>>();
  for (const [attribute, versions] of reads.targets) {
    lastInverse.set(attribute, new Map(versions.map((v) => [`${v.documentId}\0${v.locale}`, v.lastInverseRank])));
  }
  const firstKeys = new Map<number, string[]>();
  const context: Decisions = {
    changes,
    firstKeys: (n) => firstKeys.get(n) ?? firstKeys.set(n, generateNKeysBetween(null, null, n)).get(n)!,
    nextInverse: (attribute, key) => {
      const last = lastInverse.get(attribute)!;
      const target = `${key.documentId}\0${key.locale}`;
      const next = distinctKeyBetween(last.get(target) ?? null, null);
      last.set(target, next);
      return next;
    },
  };
  for (const write of plan.writes) {
    const { attribute } = write;
    rejectDuplicates(write.connect.map((c) => c.key));
    if (attribute.kind === 'relation') {
      assertFound(
        attribute.name,
        attribute.targetType.uid,
        write.checked,
        indexOf(attribute, () => reads.targets.get(attribute)!),
      );
    } else {
      for (const key of write.checked)
        assertFound(
          attribute.name,
          key.type!,
          [key],
          indexOf(key.type, () => reads.morphTargets.get(key.type!)!),
        );
    }
    decideWrite(write, write.source.fresh ? [] : current(reads, write), context);
  }
  // A link re-pinned then removed needs no update.
  const gone = new Map([...changes.deleted].map(([attribute, ids]) => [attribute, new Set(ids)]));
  changes.updated = changes.updated.filter((u) => !gone.get(u.attribute)?.has(u.id));
  return changes;
}

/** A copy of the list `write` starts from (its items change as the decisions go). */
function current(reads: LinkReads, write: PlannedWrite): Item[] {
  const { source, attribute } = write;
  if (source.rowIds.length !== 1) throw new Error('links of an existing row are written to that row only');
  const links = reads.lists.get(attribute)?.get(source.rowIds[0]!) ?? [];
  return links.map(({ id, rank, ...key }) => ({ id, rank, key }));
}

interface Decisions {
  changes: LinkChanges;
  firstKeys: (n: number) => string[];
  nextInverse: (attribute: RelationAttribute, key: Key) => string;
}

function decideWrite(write: PlannedWrite, list: Item[], decisions: Decisions): void {
  const { attribute, source } = write;
  const { changes } = decisions;
  const toOneInverse = attribute.kind === 'relation' && inverseIsToOne(attribute);
  const remove = (items: Item[]) => {
    const ids = items.flatMap((item) => (item.id === undefined ? [] : [item.id]));
    if (ids.length) changes.deleted.set(attribute, [...(changes.deleted.get(attribute) ?? []), ...ids]);
  };
  const move = (item: Item, rank: string) => {
    if (item.id !== undefined && item.rank !== rank) changes.updated.push({ attribute, id: item.id, rank });
    item.rank = rank;
  };
  const add = (key: Key, rank: string): Item => ({ key, rank, ...(attribute.kind === 'relation' ? { inverse: decisions.nextInverse(attribute, key) } : {}) });
  const own = (key: Key) => {
    if (toOneInverse) for (const rowId of source.rowIds) changes.owners.push({ attribute: attribute as RelationAttribute, rowId, key });
  };

  const keys = write.connect.map((c) => c.key);
  if (write.op === 'set') {
    const wanted = attribute.toMany ? keys : keys.slice(-1);
    const ranks = decisions.firstKeys(wanted.length);
    remove(list.filter((old) => !wanted.some((k) => sameLink(k, old.key))));
    list = wanted.map((key, i) => {
      const old = list.find((o) => sameLink(o.key, key));
      if (!old) return add(key, ranks[i]!);
      move(old, ranks[i]!);
      return old;
    });
    wanted.forEach(own);
  } else if (!attribute.toMany) {
    // A to-one side holds one link: the last connected target wins.
    const last = keys.at(-1);
    list = disconnect(attribute, list, last ? [] : write.disconnect, remove, changes);
    remove(list.filter((old) => last && !sameLink(last, old.key)));
    list = list.filter((old) => !last || sameLink(last, old.key));
    if (last && list.length === 0) list.push(add(last, generateKeyBetween(null, null)));
    if (last) own(last);
  } else {
    const disconnected = write.disconnect.filter((key) => !keys.some((k) => sameLink(k, key)));
    list = disconnect(attribute, list, disconnected, remove, changes);
    for (const { key, place, position } of write.connect) {
      // A link already reaching this version moves (a link to both statuses stays one); links the
      // new one covers (pinned links, when it pins no status) make way for it.
      const covered = list.filter((o) => overlaps(o.key, key));
      const only = covered.length === 1 ? covered[0]! : undefined;
      const old = only && (only.key.status === key.status || only.key.status === '') ? only : undefined;
      remove(covered.filter((o) => o !== old));
      const without = list.filter((o) => !covered.includes(o));
      const index = placement(
        place,
        key,
        position,
        without.map((o) => o.key),
      );
      const rank = generateKeyBetween(
        ...gapBefore(
          without.map((o) => o.rank),
          index,
        ),
      );
      if (old) move(old, rank);
      else own(key);
      without.splice(index, 0, old ?? add(key, rank));
      list = without;
    }
  }
  // The new links, in list order, for every row of the source.
  const added = list.filter((item) => item.id === undefined);
  if (added.length === 0) return;
  if (attribute.kind === 'relation') {
    const rows = changes.inserted.get(attribute) ?? [];
    for (const rowId of source.rowIds) for (const item of added) rows.push({ rowId, key: item.key, rank: item.rank, inverseRank: item.inverse! });
    changes.inserted.set(attribute, rows);
  } else {
    const rows = changes.morphInserted.get(attribute) ?? [];
    for (const rowId of source.rowIds) for (const item of added) rows.push({ rowId, key: item.key as MorphKey, rank: item.rank });
    changes.morphInserted.set(attribute, rows);
  }
}

/** Disconnects `keys` from `list` (see the file comment); returns the links left. */
function disconnect(attribute: LinkAttribute, list: Item[], keys: Key[], remove: (items: Item[]) => void, changes: LinkChanges): Item[] {
  const gone = new Set<Item>();
  for (const key of keys) {
    for (const link of list.filter((o) => overlaps(o.key, key))) {
      if (key.status === '' || link.key.status === key.status) gone.add(link);
      else if (link.key.status === '') {
        link.key = { ...link.key, status: key.status === 'draft' ? 'published' : 'draft' };
        if (link.id !== undefined) changes.updated.push({ attribute, id: link.id, status: link.key.status });
      }
    }
  }
  remove([...gone]);
  return list.filter((link) => !gone.has(link));
}

/** Writes what `decideLinks` decided. */
export async function applyLinks(tx: Queryable, model: AnyModel, changes: LinkChanges): Promise<void> {
  for (const [attribute, ids] of changes.deleted) {
    if (attribute.kind === 'relation') await store.deleteLinks(tx, attribute, ids);
    else await morphStore.deleteMorphLinks(tx, attribute, ids);
  }
  for (const { attribute, id, status, rank } of changes.updated) {
    if (attribute.kind === 'relation') {
      if (status !== undefined) await store.setTargetStatus(tx, attribute, id, status);
      if (rank !== undefined) await store.setRank(tx, attribute, id, rank);
    } else {
      if (status !== undefined) await morphStore.setMorphTargetStatus(tx, attribute, id, status);
      if (rank !== undefined) await morphStore.setMorphRank(tx, attribute, id, rank);
    }
  }
  await insertLinkRowsOf(tx, [...changes.inserted]);
  for (const [attribute, rows] of changes.morphInserted) await morphStore.insertMorphLinks(tx, attribute, rows);
  for (const { attribute, rowId, key } of changes.owners) await store.unlinkOtherDocuments(tx, model, attribute, rowId, key);
}

/** What an inverse write changes in one attribute's link rows. */
export interface InverseChanges {
  attribute: RelationAttribute;
  deleted: number[];
  /** Owner rows whose links all go first (a to-one owner linked to this document instead). */
  cleared: number[];
  /** Links that stay, at a new place in this document's (inverse) list. */
  moved: { id: number; inverseRank: string }[];
  inserted: NewLink[];
}

/** A link to this document as the decisions go: a row already there (`id`), or one to insert (`row`). */
interface Incoming {
  id?: number;
  row?: NewLink;
  sourceId: number;
  documentId: string;
  status: string;
  inverseRank: string;
}

/**
 * Decides inverse writes (`tag.articles`): the links belong to the owner documents' versions, so
 * linking an owner links its draft (so the link survives the owner's next publish) and, unless
 * the write is draft-only, its published version too, at the end of the version's own list
 * (a to-one owner's other link goes); unlinking removes the touched versions' links. The
 * order this document's list shows lives in the links' inverse keys: each owner document at
 * its first key. Errors in the order writing them one by one meets them.
 */
export function decideInverse(planned: PlannedInverse[], reads: InverseReads[]): InverseChanges[] {
  return planned.map((p, i) => decideOneInverse(p, reads[i]!));
}

function decideOneInverse(p: PlannedInverse, reads: InverseReads): InverseChanges {
  const changes: InverseChanges = { attribute: p.attribute, deleted: [], cleared: [], moved: [], inserted: [] };
  rejectDuplicates(p.connect.map((c) => c.key));
  const rows = reads.rows.map((row) => ({ ...row }));
  const rowsOf = (key: Key) => {
    const found = rows.filter((v) => v.documentId === key.documentId && v.locale === key.locale && (p.touched === undefined || v.status === p.touched));
    if (found.length === 0) throw targetNotFound(p.attribute.name, p.owner.uid, key.documentId, p.owner.localized ? key.locale : '');
    return found;
  };
  for (const key of p.checked) rowsOf(key);

  let incoming: Incoming[] = reads.incoming.map((l) => ({ ...l }));
  /** The owner documents linking here, each once at its first key, in list order. */
  const current = () => {
    const first = new Map<string, string>();
    for (const l of incoming) if (!first.has(l.documentId) || l.inverseRank < first.get(l.documentId)!) first.set(l.documentId, l.inverseRank);
    return [...first].map(([documentId, rank]) => ({ documentId, rank })).sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  };
  const unlink = (documentId: string) => {
    const gone = incoming.filter((l) => l.documentId === documentId && (p.touched === undefined || l.status === p.touched));
    for (const l of gone) {
      if (l.id !== undefined) changes.deleted.push(l.id);
      else changes.inserted = changes.inserted.filter((row) => row !== l.row);
    }
    incoming = incoming.filter((l) => !gone.includes(l));
  };
  /** Links every touched version of the owner here at this inverse key (moving it if linked). */
  const link = (key: Key, inverseRank: string) => {
    for (const row of rowsOf(key)) {
      const existing = incoming.find((l) => l.sourceId === row.id);
      if (existing) {
        existing.inverseRank = inverseRank;
        if (existing.row) existing.row.inverseRank = inverseRank;
        else changes.moved.push({ id: existing.id!, inverseRank });
        continue;
      }
      // A to-one owner holds one link: this one replaces the previous.
      if (!p.ownerToMany) {
        changes.cleared.push(row.id);
        row.lastRank = null;
      }
      row.lastRank = generateKeyBetween(row.lastRank, null);
      const inserted: NewLink = { rowId: row.id, key: { ...p.self, status: '' }, rank: row.lastRank, inverseRank };
      changes.inserted.push(inserted);
      incoming.push({ row: inserted, sourceId: row.id, documentId: row.documentId, status: row.status, inverseRank });
    }
  };

  const keys = p.connect.map((c) => c.key);
  if (p.op === 'set') {
    const targets = p.attribute.toMany ? keys : keys.slice(-1);
    const keep = new Set(targets.map((k) => k.documentId));
    for (const old of current()) if (!keep.has(old.documentId)) unlink(old.documentId);
    const ranks = generateNKeysBetween(null, null, targets.length);
    targets.forEach((key, i) => link(key, ranks[i]!));
  } else {
    for (const key of p.disconnect) if (!keys.some((k) => k.documentId === key.documentId)) unlink(key.documentId);
    for (const { key, place, position } of p.connect) {
      if (!p.attribute.toMany) {
        for (const old of current()) if (old.documentId !== key.documentId) unlink(old.documentId);
        link(key, generateKeyBetween(null, null));
        continue;
      }
      const list = current().filter((l) => l.documentId !== key.documentId);
      const index = placement(
        place,
        key,
        position,
        list.map((l) => ({ documentId: l.documentId, locale: '', status: '' })),
      );
      link(
        key,
        distinctKeyBetween(
          ...gapBefore(
            list.map((l) => l.rank),
            index,
          ),
        ),
      );
    }
  }
  // A link moved then unlinked needs no update.
  const gone = new Set(changes.deleted);
  changes.moved = changes.moved.filter((m) => !gone.has(m.id));
  return changes;
}

/** Writes what `decideInverse` decided. */
export async function applyInverse(tx: Queryable, changes: InverseChanges[]): Promise<void> {
  for (const { attribute, deleted, cleared, moved } of changes) {
    await store.deleteLinks(tx, attribute, deleted);
    await store.deleteLinksFromRows(tx, attribute, cleared);
    for (const { id, inverseRank } of moved) await store.setInverseRank(tx, attribute, id, inverseRank);
  }
  await insertLinkRowsOf(
    tx,
    changes.map((c) => [c.attribute, c.inserted]),
  );
}
