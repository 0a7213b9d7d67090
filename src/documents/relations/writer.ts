/**
 * The one writer of owned links, relation and polymorphic, for rows a write has just inserted
 * (a new document's draft and its published copy, a new component row, a bulk create's many
 * documents) and for rows that exist (an update): plan (./plan.ts, pure) → read (./read.ts,
 * every read sent together) → apply (./apply.ts: the decisions, pure, then the writes). A new
 * row's lists start empty, so nothing is read but the targets; the rows inserted beside it (a
 * published copy) get the same links, at the same keys in both lists, in the same statements.
 * A later source's inverse keys follow an earlier one's, as they would had each been written in turn.
 *
 * Writes on inverse sides (`tag.articles`) go the same three steps (writeInverseLinks). Copies of
 * a row's links (publish, a new locale) are ./copy.ts; links to deleted documents ./deleted-targets.ts.
 */
import type { Queryable } from '../../db/database';
import type { NewLink } from '../../db/store/links';
import type { AnyModel, Registry, RelationAttribute } from '../../registry/types';
import { applyInverse, applyLinks, decideInverse, decideLinks } from './apply';
import type { RelationWrite } from './input';
import type { LinkContext } from './link-keys';
import type { MorphWrite } from './morph-input';
import { type InverseSource, type LinkSource, planInverse, planLinks } from './plan';
import { type LinkReads, mapMorphRowIds, readInverse, readLinks } from './read';

export type { LinkContext } from './link-keys';
export type { LinkSource } from './plan';

/** The reads of a new row's links, sent before the row was inserted (prefetchLinks), handed to writeLinks. */
export interface PrefetchedLinks {
  relations: Record<string, RelationWrite>;
  reads: Promise<LinkReads>;
}

export interface LinkWriteOptions {
  /** Only the checks (a bulk create meeting a unique clash: a document before it whose links fail fails first). */
  checkOnly?: boolean;
  /** The reads prefetchLinks sent for this one new source. */
  prefetched?: PrefetchedLinks;
}

/** Relation link rows a write inserted, per attribute, in the order inserted (rows of every source). */
export type InsertedLinks = ReadonlyMap<RelationAttribute, readonly NewLink[]>;

/** A write's InsertedLinks split by source row (linksByRow): each row's own, per attribute. */
export type LinksByRow = ReadonlyMap<number, InsertedLinks>;

/**
 * The rows of `inserted` grouped by the row they belong to, in one pass over them (a bulk
 * create's batch holds a thousand documents' links: nothing looks through all of them per row).
 */
export function linksByRow(inserted: InsertedLinks): LinksByRow {
  const out = new Map<number, Map<RelationAttribute, NewLink[]>>();
  for (const [attribute, rows] of inserted) {
    // A source's rows come one after another: the list of the row before is looked up once.
    let rowId: number | undefined;
    let list: NewLink[] = [];
    for (const row of rows) {
      if (row.rowId !== rowId) {
        rowId = row.rowId;
        let own = out.get(rowId);
        if (!own) out.set(rowId, (own = new Map()));
        const known = own.get(attribute);
        if (known) list = known;
        else own.set(attribute, (list = []));
      }
      list.push(row);
    }
  }
  return out;
}

/**
 * Writes the owning-side relation and polymorphic links of `sources` (see the file comment).
 * Answers the relation link rows it inserted (none with `checkOnly`): for sources that are new
 * rows, all the relation links they have (../write/inserted.ts hands them to the listeners).
 */
export async function writeLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  sources: LinkSource[],
  context: LinkContext,
  options: LinkWriteOptions = {},
): Promise<InsertedLinks> {
  if (sources.some((s) => namesMorphRows(s.morphs))) await mapMorphRowIds(tx, registry, sources);
  const plan = planLinks(registry, model, sources, context);
  if (plan.writes.length === 0) return new Map();
  const { prefetched } = options;
  const mine = prefetched !== undefined && sources.length === 1 && sources[0]!.fresh && prefetched.relations === sources[0]!.relations;
  const reads = mine ? await prefetched.reads : await readLinks(tx, plan);
  const changes = decideLinks(plan, reads);
  if (options.checkOnly) return new Map();
  await applyLinks(tx, model, changes);
  return changes.inserted;
}

/** Whether some polymorphic target is named by row id only (mapped before planning). */
const namesMorphRows = (morphs: Record<string, MorphWrite> | undefined) =>
  morphs !== undefined &&
  Object.values(morphs).some((w) => (w.op === 'set' ? w.targets : [...w.connect, ...w.disconnect]).some((t) => t.id !== undefined && !t.documentId));

/**
 * Sends the reads of a new row's links now, before the row is inserted, so that they go out
 * beside the INSERT (PostgreSQL's client pipelines them: a round trip less) instead of after
 * it. Nothing the INSERT or the row's components write changes what they read (the targets'
 * versions, and their inverse lists in this attribute's link table, locked by the write).
 * writeLinks takes them when called with the same `relations`; checks and errors stay where
 * they were. A write whose planning fails here (a polymorphic target named by row id) reads at the usual place.
 */
export function prefetchLinks(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  relations: Record<string, RelationWrite>,
  morphs: Record<string, MorphWrite>,
  context: LinkContext,
): PrefetchedLinks | undefined {
  let plan: ReturnType<typeof planLinks>;
  try {
    if (namesMorphRows(morphs)) return undefined;
    plan = planLinks(registry, model, [{ rowIds: [], fresh: true, relations, morphs }], context);
  } catch {
    return undefined;
  }
  if (plan.writes.length === 0) return undefined;
  const reads = readLinks(tx, plan);
  // A failure surfaces when writeLinks awaits it; a write that stops before must not leave it unhandled.
  reads.catch(() => {});
  return { relations, reads };
}

/**
 * Writes on inverse sides (`tag.articles`, mapped by `article.tags`): the links belong to the
 * owning documents' versions, so a write here adds, moves or removes link rows owned by those
 * versions (./apply.ts decideInverse). The caller holds this document's incoming links and each
 * connected owner document exclusively (../write/locks.ts), so the keys are computed from lists
 * nobody else is changing.
 */
export async function writeInverseLinks(tx: Queryable, source: InverseSource): Promise<void> {
  const planned = planInverse(source);
  if (planned.length === 0) return;
  const reads = await readInverse(tx, planned);
  await applyInverse(tx, decideInverse(planned, reads));
}
