/**
 * Link rows of relation attributes. A link belongs to a source row (a version or a
 * component row of the owning side) and names its target by documentId, locale ('' when
 * the target has no i18n) and pinned status ('' = the reader's). Two fractional keys order
 * it: one in the source's list, one in the target's (inverse) list. The rules (connect, disconnect, set,
 * fractional keys, to-one sides) live in documents/relations/ (link-keys.ts, apply.ts).
 */
import type { AnyModel, ContentType, MorphAttribute, RelationAttribute } from '../../registry/types';
import type { Queryable } from '../database';
import { column, LINK as L, linkTableOf, MORPH_LINK as M, tableOf, VERSION as V } from '../layout';
import { sql, type Sql } from '../sql';
import type { VersionStatus } from './versions';

const id = (name: string) => sql.id(name);

/** What a link points at. */
export interface LinkTarget {
  documentId: string;
  /** '' when the target type has no i18n. */
  locale: string;
}

/** A target with its pinned status: '' = the version matching the reader's status. */
export interface LinkKey extends LinkTarget {
  status: string;
}

export interface StoredLink extends LinkKey {
  id: number;
  /** Its key in the source's list. */
  rank: string;
}

const pointsAt = (target: LinkTarget, alias?: string): Sql => {
  const col = (name: string) => (alias ? column(alias, name) : id(name));
  return sql`${col(L.targetDocumentId)} = ${target.documentId} AND ${col(L.targetLocale)} = ${target.locale}`;
};

// Column lists every call spells the same: built once, so their text is rendered once.
const FROM_COLUMNS = sql.join([L.id, L.targetDocumentId, L.targetLocale, L.targetStatus, L.position].map(id));
const COPIED_COLUMNS = sql.join([L.targetDocumentId, L.targetLocale, L.targetStatus, L.position, L.inversePosition].map(id));

/** The links of one source row, in list order. */
export async function linksFrom(tx: Queryable, attribute: RelationAttribute, rowId: number): Promise<StoredLink[]> {
  const rows = await tx.all<Record<string, string | number>>(
    sql`SELECT ${FROM_COLUMNS} FROM ${linkTableOf(attribute)} WHERE ${id(L.sourceId)} = ${rowId} ORDER BY ${id(L.position)}`,
  );
  return rows.map((r) => ({
    id: r[L.id] as number,
    documentId: r[L.targetDocumentId] as string,
    locale: r[L.targetLocale] as string,
    status: r[L.targetStatus] as string,
    rank: r[L.position] as string,
  }));
}

/** A link row to insert. */
export interface NewLink {
  rowId: number;
  key: LinkKey;
  rank: string;
  inverseRank: string;
}

/** The documents some links of one attribute would point at, all of one target type (no attribute: polymorphic links, which keep no inverse order). */
export interface TargetGroup {
  attribute?: RelationAttribute;
  target: ContentType;
  documentIds: string[];
}

/** A version of a linked document and the last key of its inverse list in that attribute's links. */
export interface TargetVersion {
  documentId: string;
  locale: string;
  status: VersionStatus;
  lastInverseRank: string | null;
}

/**
 * For links to write: which versions of the targets exist, and each target's last inverse key
 * (as lastInverseRank gives it), for every group in one statement (a UNION ALL, one part
 * per attribute). Index `i` of the answer holds group `i`'s versions.
 */
export async function targetVersions(tx: Queryable, groups: TargetGroup[]): Promise<TargetVersion[][]> {
  const parts = groups.map((g, i) => {
    const last = g.attribute
      ? sql`(SELECT MAX(${column('l', L.inversePosition)}) FROM ${linkTableOf(g.attribute)} l WHERE ${column('l', L.targetDocumentId)} = ${column('v', V.documentId)} AND ${column('l', L.targetLocale)} = ${column('v', V.locale)})`
      : sql.raw('NULL');
    const columns = sql`${sql.raw(String(i))} AS g, ${column('v', V.documentId)} AS d, ${column('v', V.locale)} AS l, ${column('v', V.publishedAt)} AS s, ${last} AS p`;
    return sql`SELECT ${columns} FROM ${tableOf(g.target)} v WHERE ${column('v', V.documentId)} IN (${sql.list([...new Set(g.documentIds)])})`;
  });
  const found: TargetVersion[][] = groups.map(() => []);
  if (parts.length === 0) return found;
  const rows = await tx.all<{ g: number; d: string; l: string; s: unknown; p: string | null }>(sql.join(parts, ' UNION ALL '));
  for (const r of rows) {
    found[Number(r.g)]!.push({ documentId: r.d, locale: r.l, status: r.s === null ? 'draft' : 'published', lastInverseRank: r.p });
  }
  return found;
}

/** Deletes links by id. */
export async function deleteLinks(tx: Queryable, attribute: RelationAttribute, linkIds: number[]): Promise<void> {
  if (linkIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${id(L.id)} IN (${sql.list(linkIds)})`);
}

/** Moves a link in its source's list. */
export async function setRank(tx: Queryable, attribute: RelationAttribute, linkId: number, rank: string): Promise<void> {
  await tx.run(sql`UPDATE ${linkTableOf(attribute)} SET ${id(L.position)} = ${rank} WHERE ${id(L.id)} = ${linkId}`);
}

/** Moves a link in its target's (inverse) list. */
export async function setInverseRank(tx: Queryable, attribute: RelationAttribute, linkId: number, rank: string): Promise<void> {
  await tx.run(sql`UPDATE ${linkTableOf(attribute)} SET ${id(L.inversePosition)} = ${rank} WHERE ${id(L.id)} = ${linkId}`);
}

/** Changes which status a link pins ('' = the reader's). */
export async function setTargetStatus(tx: Queryable, attribute: RelationAttribute, linkId: number, status: string): Promise<void> {
  await tx.run(sql`UPDATE ${linkTableOf(attribute)} SET ${id(L.targetStatus)} = ${status} WHERE ${id(L.id)} = ${linkId}`);
}

/**
 * Deletes the links to a target held by other documents' versions of the same status as
 * the source row's (a to-one other side: the target may have one owner document).
 */
export async function unlinkOtherDocuments(tx: Queryable, owner: AnyModel, attribute: RelationAttribute, rowId: number, target: LinkTarget): Promise<void> {
  const drafts = (alias: string) => sql`(${column(alias, V.publishedAt)} IS NULL)`;
  await tx.run(
    sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${pointsAt(target)} AND ${id(L.sourceId)} IN (
       SELECT ${column('o', V.id)} FROM ${tableOf(owner)} o JOIN ${tableOf(owner)} me ON ${column('me', V.id)} = ${rowId}
       WHERE ${column('o', V.documentId)} <> ${column('me', V.documentId)} AND ${drafts('o')} = ${drafts('me')})`,
  );
}

/** Copies every link of one source row to another (same targets, same places in both lists). */
export async function copyLinks(tx: Queryable, attribute: RelationAttribute, fromId: number, toId: number): Promise<void> {
  await tx.run(
    sql`INSERT INTO ${linkTableOf(attribute)} (${id(L.sourceId)}, ${COPIED_COLUMNS}) SELECT ${toId}, ${COPIED_COLUMNS} FROM ${linkTableOf(attribute)} WHERE ${id(L.sourceId)} = ${fromId}`,
  );
}

/** Deletes every link to a document (in one locale, or in all when undefined). */
export async function deleteLinksTo(tx: Queryable, attribute: RelationAttribute, documentId: string, locale?: string): Promise<void> {
  const where = sql.and([sql`${id(L.targetDocumentId)} = ${documentId}`, locale === undefined ? sql.empty : sql`${id(L.targetLocale)} = ${locale}`]);
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${where}`);
}

/**
 * The versions a write names by row id (Strapi 5 accepts `2` / `{ id: 2 }` beside documentIds):
 * each found row's documentId, locale and status, in one statement per chunk of ids.
 */
export async function versionsByRowId(
  tx: Queryable,
  ct: ContentType,
  rowIds: number[],
): Promise<Map<number, { documentId: string; locale: string; status: VersionStatus }>> {
  const found = new Map<number, { documentId: string; locale: string; status: VersionStatus }>();
  const ids = [...new Set(rowIds)];
  // Chunks keep the bound parameters well under both engines' limits.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx.all<Record<string, string | number | null>>(
      sql`SELECT ${sql.join([V.id, V.documentId, V.locale, V.publishedAt].map(id))} FROM ${tableOf(ct)} WHERE ${id(V.id)} IN (${sql.list(ids.slice(i, i + 500))})`,
    );
    for (const r of rows) {
      const status: VersionStatus = r[V.publishedAt] === null ? 'draft' : 'published';
      found.set(Number(r[V.id]), { documentId: r[V.documentId] as string, locale: r[V.locale] as string, status });
    }
  }
  return found;
}

/** A version row of an owning type the inverse side links, and the last key of its own list in this attribute. */
export interface OwnerRow {
  id: number;
  documentId: string;
  locale: string;
  status: VersionStatus;
  lastRank: string | null;
}

/** The version rows of some documents of the owning type, each with the last key of its list (as lastRank gives it). */
export async function ownerRows(tx: Queryable, attribute: RelationAttribute, owner: ContentType, documentIds: string[]): Promise<OwnerRow[]> {
  if (documentIds.length === 0) return [];
  const last = sql`(SELECT MAX(${column('l', L.position)}) FROM ${linkTableOf(attribute)} l WHERE ${column('l', L.sourceId)} = ${column('v', V.id)})`;
  const rows = await tx.all<{ i: number; d: string; l: string; s: unknown; p: string | null }>(
    sql`SELECT ${column('v', V.id)} AS i, ${column('v', V.documentId)} AS d, ${column('v', V.locale)} AS l, ${column('v', V.publishedAt)} AS s, ${last} AS p
       FROM ${tableOf(owner)} v WHERE ${column('v', V.documentId)} IN (${sql.list([...new Set(documentIds)])}) ORDER BY ${column('v', V.id)}`,
  );
  return rows.map((r) => ({ id: Number(r.i), documentId: r.d, locale: r.l, status: r.s === null ? 'draft' : 'published', lastRank: r.p }));
}

/** A link pointing at a target, with the owner version holding it. */
export interface IncomingLink {
  id: number;
  sourceId: number;
  /** The owner version's document and status. */
  documentId: string;
  status: VersionStatus;
  inverseRank: string;
}

/** Every link of an attribute pointing at a target (any pinned status), with the owner version holding it. */
export async function linksTo(tx: Queryable, attribute: RelationAttribute, owner: ContentType, target: LinkTarget): Promise<IncomingLink[]> {
  const rows = await tx.all<{ i: number; r: number; d: string; s: unknown; p: string }>(
    sql`SELECT ${column('l', L.id)} AS i, ${column('l', L.sourceId)} AS r, ${column('o', V.documentId)} AS d, ${column('o', V.publishedAt)} AS s, ${column('l', L.inversePosition)} AS p
       FROM ${linkTableOf(attribute)} l JOIN ${tableOf(owner)} o ON ${column('o', V.id)} = ${column('l', L.sourceId)} WHERE ${pointsAt(target, 'l')} ORDER BY ${column('l', L.id)}`,
  );
  return rows.map((r) => ({ id: Number(r.i), sourceId: Number(r.r), documentId: r.d, status: r.s === null ? 'draft' : 'published', inverseRank: r.p }));
}

/** Deletes every link of some source rows. */
export async function deleteLinksFromRows(tx: Queryable, attribute: RelationAttribute, rowIds: number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${id(L.sourceId)} IN (${sql.list(rowIds)})`);
}

/**
 * Which link rows of a table (relation or polymorphic) a change of pins touches: those of the
 * source rows `sources` (a subquery of row ids: store/components.ts rowsUnder), those to
 * targets of `types` (a polymorphic table). Used when a type's draft & publish changed
 * (documents/write/draft-toggle.ts).
 */
export interface PinScope {
  sources?: Sql;
  types?: string[];
}

function inScope(attribute: RelationAttribute | MorphAttribute, scope: PinScope): Sql {
  const rows = scope.sources ? sql`${id(L.sourceId)} IN (${scope.sources})` : sql.empty;
  const types = attribute.kind === 'morph' && scope.types ? sql`${id(M.targetType)} IN (${sql.list(scope.types)})` : sql.empty;
  return sql.and([rows, types]);
}

/** Deletes the links in scope that pin `status` ('' for the unpinned ones). */
export async function deleteLinksPinning(tx: Queryable, attribute: RelationAttribute | MorphAttribute, status: string, scope: PinScope = {}): Promise<void> {
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${sql.and([inScope(attribute, scope), sql`${id(L.targetStatus)} = ${status}`])}`);
}

/**
 * Re-pins the links in scope that pin one of `from` to `to` ('' = the reader's version),
 * keeping one link per source row and target: one already pinning `to` if there is, else the oldest.
 */
export async function repinLinks(
  tx: Queryable,
  attribute: RelationAttribute | MorphAttribute,
  from: string[],
  to: string,
  scope: PinScope = {},
): Promise<void> {
  const table = linkTableOf(attribute);
  const t = attribute.linkTable;
  const moved = sql.and([inScope(attribute, scope), sql`${id(L.targetStatus)} IN (${sql.list(from)})`]);
  const target = [L.sourceId, L.targetDocumentId, L.targetLocale, ...(attribute.kind === 'morph' ? [M.targetType] : [])];
  const same = target.map((c) => sql`${column('o', c)} = ${sql.id(t, c)}`);
  const kept = sql`(${column('o', L.targetStatus)} = ${to} OR (${column('o', L.targetStatus)} IN (${sql.list(from)}) AND ${column('o', L.id)} < ${sql.id(t, L.id)}))`;
  const other = sql`EXISTS (SELECT 1 FROM ${table} ${id('o')} WHERE ${sql.and([...same, sql`${column('o', L.id)} <> ${sql.id(t, L.id)}`, kept])})`;
  await tx.run(sql`DELETE FROM ${table} WHERE ${sql.and([moved, other])}`);
  await tx.run(sql`UPDATE ${table} SET ${id(L.targetStatus)} = ${to} WHERE ${moved}`);
}
