/**
 * Links of rows a write has just inserted (a new document's draft and its published copy, a
 * new component row; a bulk create's many documents): their lists start empty, so nothing is
 * read but the targets. ./links.ts writes links of existing rows.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Queryable } from '../../db/database';
import { insertLinkRowsOf } from '../../db/store/bulk';
import * as store from '../../db/store/links';
import type { LinkKey, TargetVersion } from '../../db/store/links';
import type { AnyModel, RelationAttribute } from '../../registry/types';
import { assertFound, dropOtherOwners, linkKey, overlaps, placement, rejectDuplicates, type LinkContext } from './links';
import { inverseIsToOne } from '../write/locks';
import { distinctKeyBetween, gapBefore } from './order-keys';
import type { RelationTarget, RelationWrite } from './input';

/** A source this write has just inserted: its row and the rows inserted beside it (a published copy), and its relation writes. */
export interface NewLinkSource {
  rowIds: number[];
  relations: Record<string, RelationWrite>;
}

/** Bulk creates name many targets: target ids per group, groups per statement. */
const [TARGETS_PER_GROUP, GROUPS_PER_STATEMENT] = [500, 10];

/** The links `sources` ask for (`keys`: a set's targets, all of them, duplicates are checked on these; `checked`: what it links) and their target documents by attribute. */
function plan(model: AnyModel, sources: NewLinkSource[], context: LinkContext) {
  const planned: { source: NewLinkSource; attribute: RelationAttribute; write: RelationWrite; keys: LinkKey[]; checked: LinkKey[] }[] = [];
  const targets = new Map<RelationAttribute, Set<string>>();
  for (const source of sources) {
    for (const [name, write] of Object.entries(source.relations)) {
      const attribute = model.attributes[name] as RelationAttribute;
      if (!attribute.owner) continue;
      const keyOf = (t: RelationTarget) => linkKey(attribute, t, context);
      const keys = write.op === 'set' ? write.targets.map(keyOf) : [...write.connect, ...write.disconnect].map(keyOf);
      const checked = write.op === 'set' && !attribute.toMany ? keys.slice(-1) : keys;
      if (checked.length === 0) continue;
      planned.push({ source, attribute, write, keys, checked });
      const ids = targets.get(attribute) ?? new Set<string>();
      for (const key of checked) ids.add(key.documentId);
      targets.set(attribute, ids);
    }
  }
  return { planned, targets };
}

/** Which versions of the targets exist, and each one's last inverse key: one statement for up to GROUPS_PER_STATEMENT groups. */
async function readTargets(tx: Queryable, targets: Map<RelationAttribute, Set<string>>): Promise<Map<RelationAttribute, TargetVersion[]>> {
  const found = new Map<RelationAttribute, TargetVersion[]>([...targets.keys()].map((a) => [a, []]));
  const groups = [...targets].flatMap(([attribute, ids]) => {
    const all = [...ids];
    const target = attribute.targetType;
    return Array.from({ length: Math.ceil(all.length / TARGETS_PER_GROUP) }, (_, i) => ({
      attribute,
      target,
      documentIds: all.slice(i * TARGETS_PER_GROUP, (i + 1) * TARGETS_PER_GROUP),
    }));
  });
  for (let start = 0; start < groups.length; start += GROUPS_PER_STATEMENT) {
    const chunk = groups.slice(start, start + GROUPS_PER_STATEMENT);
    (await store.targetVersions(tx, chunk)).forEach((versions, i) => found.get(chunk[i]!.attribute)!.push(...versions));
  }
  return found;
}

/** The target read a write sent before inserting its row (prefetchNewLinkTargets), handed to writeNewLinks. */
export interface PrefetchedTargets {
  relations: Record<string, RelationWrite>;
  found: Promise<Map<RelationAttribute, TargetVersion[]>>;
}

/**
 * Sends the target read of a row's new links now, before the row is inserted, so that it goes
 * out beside the INSERT (PostgreSQL's client pipelines them: a round trip less) instead of
 * after it. Nothing the INSERT or the row's components write changes what it reads (the
 * targets' versions, and their inverse lists in this attribute's link table, locked by the
 * write). writeNewLinks takes it when called with the same `relations`; checks and errors
 * stay where they were. A write whose planning fails here reads at the usual place.
 */
export function prefetchNewLinkTargets(
  tx: Queryable,
  model: AnyModel,
  relations: Record<string, RelationWrite>,
  context: LinkContext,
): PrefetchedTargets | undefined {
  let targets: Map<RelationAttribute, Set<string>>;
  try {
    ({ targets } = plan(model, [{ rowIds: [], relations }], context));
  } catch {
    return undefined;
  }
  if (targets.size === 0) return undefined;
  const found = readTargets(tx, targets);
  // A failure surfaces when writeNewLinks awaits it; a write that stops before must not leave it unhandled.
  found.catch(() => {});
  return { relations, found };
}

/**
 * The links of rows this write has just inserted (a new document's draft and its published
 * copy, a new component row; a bulk create's many documents): their lists start empty, so
 * each final list is computed here without reading it, every target is checked and its last
 * inverse key read in one statement for all attributes and sources (store.targetVersions),
 * and each attribute's links for all the rows go in one multi-row insert. The rows get the
 * same links, at the same keys in both lists, as writing the first and copying it to the
 * others would give; a later source's inverse keys follow an earlier one's, as they would
 * had each been created, and read the last key, in turn. Errors come in the order one-by-one
 * creates would meet them: source by source, and per source as patchLinks and setLinks do.
 * `insert` false: only the checks. `early`: the target read prefetchNewLinkTargets sent for this one source.
 */
export async function writeNewLinks(
  tx: Queryable,
  model: AnyModel,
  sources: NewLinkSource[],
  context: LinkContext,
  insert = true,
  early?: PrefetchedTargets,
): Promise<void> {
  const { planned, targets } = plan(model, sources, context);
  if (planned.length === 0) return;
  const mine = early !== undefined && sources.length === 1 && early.relations === sources[0]!.relations;
  const found = mine ? await early.found : await readTargets(tx, targets);
  // Per attribute: which target versions exist, and the last inverse key of each target, kept as links are added.
  const exists = new Map<RelationAttribute, Set<string>>();
  const last = new Map<RelationAttribute, Map<string, string | null>>();
  for (const [attribute, versions] of found) {
    exists.set(attribute, versionIndex(versions));
    last.set(attribute, new Map(versions.map((v) => [`${v.documentId}\0${v.locale}`, v.lastInverseRank])));
  }
  const rows = new Map<RelationAttribute, store.NewLink[]>();
  const owners: { rowIds: number[]; attribute: RelationAttribute; keys: LinkKey[] }[] = [];
  const toOne = new Map([...targets.keys()].map((a) => [a, inverseIsToOne(a)]));
  for (const { source, attribute, write, keys, checked } of planned) {
    // The errors come in patchLinks' and setLinks' order: duplicates, missing targets, then positions.
    rejectDuplicates(write.op === 'patch' ? keys.slice(0, write.connect.length) : keys);
    assertIndexed(attribute, checked, exists.get(attribute)!);
    const list = newList(attribute, write, context, write.op === 'set' ? checked : undefined);
    // A second link to one target (pinned to the other status) goes after the first.
    const lastKeys = last.get(attribute)!;
    const inverse = list.map(({ key }) => {
      const target = `${key.documentId}\0${key.locale}`;
      const next = distinctKeyBetween(lastKeys.get(target) ?? null, null);
      lastKeys.set(target, next);
      return next;
    });
    const links = rows.get(attribute) ?? [];
    for (const rowId of source.rowIds) list.forEach(({ key, rank }, j) => links.push({ rowId, key, rank, inverseRank: inverse[j]! }));
    rows.set(attribute, links);
    if (toOne.get(attribute)) owners.push({ rowIds: source.rowIds, attribute, keys: list.map((l) => l.key) });
  }
  if (!insert) return;
  await insertLinkRowsOf(tx, [...rows]);
  for (const { rowIds, attribute, keys } of owners) {
    for (const rowId of rowIds) for (const key of keys) await dropOtherOwners(tx, model, attribute, rowId, key);
  }
}

/** The versions found, as `assertIndexed` looks keys up: each with its status, and without (a key pinning none). */
const versionIndex = (versions: TargetVersion[]) =>
  new Set(versions.flatMap((v) => [`${v.documentId}\0${v.locale}\0${v.status}`, `${v.documentId}\0${v.locale}\0`]));

/** assertFound over an index of the versions (a bulk create checks many keys against one read). */
const assertIndexed = (attribute: RelationAttribute, keys: LinkKey[], index: Set<string>) =>
  keys.forEach((key) => index.has(`${key.documentId}\0${key.locale}\0${key.status}`) || assertFound(attribute.name, attribute.targetType.uid, [key], []));

/** A new row's list for one relation write: set, or connect (disconnecting from an empty list removes nothing). */
function newList(attribute: RelationAttribute, write: RelationWrite, context: LinkContext, setKeys?: LinkKey[]): { key: LinkKey; rank: string }[] {
  const keyOf = (t: RelationTarget) => linkKey(attribute, t, context);
  if (write.op === 'set') {
    const keys = setKeys ?? write.targets.map(keyOf).slice(attribute.toMany ? 0 : -1);
    const ranks = firstKeys(keys.length);
    return keys.map((key, i) => ({ key, rank: ranks[i]! }));
  }
  if (!attribute.toMany) {
    const last = write.connect.at(-1);
    return last ? [{ key: keyOf(last), rank: generateKeyBetween(null, null) }] : [];
  }
  // patchLinks' placement, on a list that starts empty.
  let list: { key: LinkKey; rank: string }[] = [];
  for (const target of write.connect) {
    const key = keyOf(target);
    const without = list.filter((o) => !overlaps(o.key, key));
    const index = placement(
      attribute,
      context,
      target,
      key,
      without.map((o) => o.key),
    );
    without.splice(index, 0, {
      key,
      rank: generateKeyBetween(
        ...gapBefore(
          without.map((o) => o.rank),
          index,
        ),
      ),
    });
    list = without;
  }
  return list;
}

/** The keys of a list's first n items (a set): the same for every new list, so computed once per n. */
const firstKeysByCount = new Map<number, string[]>();
const firstKeys = (n: number) => firstKeysByCount.get(n) ?? firstKeysByCount.set(n, generateNKeysBetween(null, null, n)).get(n)!;
