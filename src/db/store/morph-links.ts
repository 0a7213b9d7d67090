/**
 * Link rows of polymorphic relations (morphToOne / morphToMany). A link belongs to a source
 * version and names its target by type uid, documentId, locale ('' when the target has no
 * i18n) and pinned status ('' = the reader's), ordered by a fractional key in the source's
 * list. The rules (set, connect, disconnect, which version a link names) live in
 * documents/relations/ (link-keys.ts, apply.ts).
 */
import type { MorphAttribute } from '../../registry/types';
import type { Queryable } from '../database';
import { MORPH_LINK as M, linkTableOf } from '../layout';
import { sql } from '../sql';

const id = (name: string) => sql.id(name);

/** What a polymorphic link points at. */
export interface MorphKey {
  type: string;
  documentId: string;
  locale: string;
  status: string;
}

export interface StoredMorphLink extends MorphKey {
  id: number;
  rank: string;
}

const FROM_COLUMNS = sql.join([M.id, M.targetType, M.targetDocumentId, M.targetLocale, M.targetStatus, M.position].map(id));
const INSERT_COLUMNS = sql.join([M.sourceId, M.targetType, M.targetDocumentId, M.targetLocale, M.targetStatus, M.position].map(id));
const COPIED_COLUMNS = sql.join([M.targetType, M.targetDocumentId, M.targetLocale, M.targetStatus, M.position].map(id));

/** The links of one source row, in list order. */
export async function morphLinksFrom(tx: Queryable, attribute: MorphAttribute, rowId: number): Promise<StoredMorphLink[]> {
  const rows = await tx.all<Record<string, string | number>>(
    sql`SELECT ${FROM_COLUMNS} FROM ${linkTableOf(attribute)} WHERE ${id(M.sourceId)} = ${rowId} ORDER BY ${id(M.position)}`,
  );
  return rows.map((r) => ({
    id: r[M.id] as number,
    type: r[M.targetType] as string,
    documentId: r[M.targetDocumentId] as string,
    locale: r[M.targetLocale] as string,
    status: r[M.targetStatus] as string,
    rank: r[M.position] as string,
  }));
}

export function insertMorphLink(tx: Queryable, attribute: MorphAttribute, rowId: number, key: MorphKey, rank: string): Promise<number> {
  return tx.insert(
    sql`INSERT INTO ${linkTableOf(attribute)} (${INSERT_COLUMNS}) VALUES (${sql.list([rowId, key.type, key.documentId, key.locale, key.status, rank])})`,
  );
}

/** A polymorphic link row to insert. */
export interface NewMorphLink {
  rowId: number;
  key: MorphKey;
  rank: string;
}

/** Inserts links in one statement, in the order given. */
export async function insertMorphLinks(tx: Queryable, attribute: MorphAttribute, links: NewMorphLink[]): Promise<void> {
  if (links.length === 0) return;
  const rows = links.map((l) => sql`(${sql.list([l.rowId, l.key.type, l.key.documentId, l.key.locale, l.key.status, l.rank])})`);
  await tx.run(sql`INSERT INTO ${linkTableOf(attribute)} (${INSERT_COLUMNS}) VALUES ${sql.join(rows)}`);
}

/** Moves a link in its source's list. */
export async function setMorphRank(tx: Queryable, attribute: MorphAttribute, linkId: number, rank: string): Promise<void> {
  await tx.run(sql`UPDATE ${linkTableOf(attribute)} SET ${id(M.position)} = ${rank} WHERE ${id(M.id)} = ${linkId}`);
}

/** Changes which status a link pins ('' = the reader's). */
export async function setMorphTargetStatus(tx: Queryable, attribute: MorphAttribute, linkId: number, status: string): Promise<void> {
  await tx.run(sql`UPDATE ${linkTableOf(attribute)} SET ${id(M.targetStatus)} = ${status} WHERE ${id(M.id)} = ${linkId}`);
}

export async function deleteMorphLinks(tx: Queryable, attribute: MorphAttribute, linkIds: number[]): Promise<void> {
  if (linkIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${id(M.id)} IN (${sql.list(linkIds)})`);
}

/** Copies every link of one source row to another (publish, a new locale's copy). */
export async function copyMorphLinks(tx: Queryable, attribute: MorphAttribute, fromId: number, toId: number): Promise<void> {
  await tx.run(
    sql`INSERT INTO ${linkTableOf(attribute)} (${id(M.sourceId)}, ${COPIED_COLUMNS}) SELECT ${toId}, ${COPIED_COLUMNS} FROM ${linkTableOf(attribute)} WHERE ${id(M.sourceId)} = ${fromId}`,
  );
}

/** Deletes every link to a document of `type` (in one locale, or in all when undefined). */
export async function deleteMorphLinksTo(tx: Queryable, attribute: MorphAttribute, type: string, documentId: string, locale?: string): Promise<void> {
  const where = sql.and([
    sql`${id(M.targetType)} = ${type}`,
    sql`${id(M.targetDocumentId)} = ${documentId}`,
    locale === undefined ? sql.empty : sql`${id(M.targetLocale)} = ${locale}`,
  ]);
  await tx.run(sql`DELETE FROM ${linkTableOf(attribute)} WHERE ${where}`);
}
