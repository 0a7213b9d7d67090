/**
 * The second step of writing links (./writer.ts): every read a plan (./plan.ts) needs, sent
 * together: which versions of the targets exist, with each target's last inverse key (one
 * statement for every attribute and polymorphic type, up to GROUPS_PER_STATEMENT groups), and the
 * current lists of the rows that are not new (one statement per list). PostgreSQL's client
 * pipelines statements sent together; a write may send them before it inserts its row
 * (./writer.ts prefetchLinks) so that they go out beside the INSERT.
 *
 * An inverse write (`tag.articles`) reads the owner documents' version rows, each with the last
 * key of its own list, and every link pointing at the document: two statements, sent together.
 *
 * And, before planning, the polymorphic targets a write names by row id (`{ __type, id }`)
 * get their version's documentId (relations' row ids are mapped earlier, by the document
 * service: ./row-ids.ts).
 */
import type { Queryable } from '../../db/database';
import * as store from '../../db/store/links';
import type { IncomingLink, OwnerRow, StoredLink, TargetGroup, TargetVersion } from '../../db/store/links';
import * as morphStore from '../../db/store/morph-links';
import { ValidationError } from '../../errors';
import type { Registry, RelationAttribute } from '../../registry/types';
import type { Key } from './link-keys';
import type { MorphTarget } from './morph-input';
import type { LinkAttribute, LinkPlan, LinkSource, PlannedInverse } from './plan';
import type { RowTarget } from './input';
import { rowTargets } from './row-ids';

/** What a plan's writes are decided from. */
export interface LinkReads {
  /** The versions of relation targets, per attribute, each with its target's last inverse key. */
  targets: Map<RelationAttribute, TargetVersion[]>;
  /** The versions of polymorphic targets, per type uid. */
  morphTargets: Map<string, TargetVersion[]>;
  /** The current lists of rows that are not new, per attribute and row, in list order. */
  lists: Map<LinkAttribute, Map<number, StoredListItem[]>>;
}

/** A link of a current list. */
export type StoredListItem = StoredLink & Key;

/** Bulk creates name many targets: target ids per group, groups per statement. */
const [TARGETS_PER_GROUP, GROUPS_PER_STATEMENT] = [500, 10];

/** Sends every read of `plan` together; the answer comes once all are in. */
export async function readLinks(tx: Queryable, plan: LinkPlan): Promise<LinkReads> {
  const groups: (TargetGroup & { into: TargetVersion[] })[] = [];
  const reads: LinkReads = { targets: new Map(), morphTargets: new Map(), lists: new Map() };
  const chunked = (ids: Set<string>, group: (documentIds: string[]) => void) => {
    const all = [...ids];
    for (let i = 0; i < all.length; i += TARGETS_PER_GROUP) group(all.slice(i, i + TARGETS_PER_GROUP));
  };
  for (const [attribute, ids] of plan.targets) {
    const into: TargetVersion[] = [];
    reads.targets.set(attribute, into);
    chunked(ids, (documentIds) => groups.push({ attribute, target: attribute.targetType, documentIds, into }));
  }
  for (const [target, ids] of plan.morphTargets) {
    const into: TargetVersion[] = [];
    reads.morphTargets.set(target.uid, into);
    chunked(ids, (documentIds) => groups.push({ target, documentIds, into }));
  }
  const pending: Promise<void>[] = [];
  for (let start = 0; start < groups.length; start += GROUPS_PER_STATEMENT) {
    const chunk = groups.slice(start, start + GROUPS_PER_STATEMENT);
    pending.push(store.targetVersions(tx, chunk).then((found) => found.forEach((versions, i) => chunk[i]!.into.push(...versions))));
  }
  for (const [attribute, rowIds] of plan.lists) {
    const byRow = new Map<number, StoredListItem[]>();
    reads.lists.set(attribute, byRow);
    for (const rowId of rowIds) {
      const list = attribute.kind === 'relation' ? store.linksFrom(tx, attribute, rowId) : morphStore.morphLinksFrom(tx, attribute, rowId);
      pending.push(list.then((links) => void byRow.set(rowId, links)));
    }
  }
  await settleAll(pending);
  return reads;
}

/** Awaits every read (none left unhandled), then throws the first failure. */
async function settleAll(pending: Promise<void>[]): Promise<void> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/** Targets named by row id get their version's documentId (and that version's locale and status, unless given). */
export async function mapMorphRowIds(tx: Queryable, registry: Registry, sources: LinkSource[]): Promise<void> {
  const targets = sources.flatMap((s) => Object.values(s.morphs ?? {}).flatMap((w) => (w.op === 'set' ? w.targets : [...w.connect, ...w.disconnect])));
  const byType = new Map<string, number[]>();
  for (const t of targets) if (t.id !== undefined) byType.set(t.type, [...(byType.get(t.type) ?? []), t.id]);
  for (const [uid, ids] of byType) pinRowTargets(uid, targets, await rowTargets(tx, registry.contentType(uid)!, ids));
}

/** Gives the targets of type `uid` named by row id what `rows` found for them; an id beside another document's documentId is refused. */
export function pinRowTargets(uid: string, targets: MorphTarget[], rows: Map<number, RowTarget>): void {
  for (const t of targets) {
    if (t.type !== uid || t.id === undefined) continue;
    const row = rows.get(t.id)!;
    if (t.documentId && t.documentId !== row.documentId) {
      throw new ValidationError(`Invalid relation: id ${t.id} is not a version of document "${t.documentId}"`);
    }
    t.documentId = row.documentId;
    t.locale ??= row.locale;
    t.status ??= row.status;
  }
}

/** What an inverse write (./plan.ts PlannedInverse) is decided from: the owner documents' version rows, and every link pointing at the document. */
export interface InverseReads {
  rows: OwnerRow[];
  incoming: IncomingLink[];
}

/** Sends the reads of every inverse write together (two statements each). */
export async function readInverse(tx: Queryable, planned: PlannedInverse[]): Promise<InverseReads[]> {
  const reads = planned.map((p) =>
    Promise.all([
      store.ownerRows(
        tx,
        p.attribute,
        p.owner,
        p.checked.map((k) => k.documentId),
      ),
      store.linksTo(tx, p.attribute, p.owner, p.self),
    ]),
  );
  const settled = await Promise.allSettled(reads);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((s) => {
    const [rows, incoming] = (s as PromiseFulfilledResult<[OwnerRow[], IncomingLink[]]>).value;
    return { rows, incoming };
  });
}
