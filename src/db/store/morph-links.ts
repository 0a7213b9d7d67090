/**
 * Link rows of polymorphic relations (morphToOne / morphToMany). A link belongs to a source
 * version and names its target by type uid, documentId, locale ('' when the target has no
 * i18n) and pinned status ('' = the reader's), ordered by a fractional key in the source's
 * list. The rules (set, connect, disconnect, which version a link names) live in
 * documents/relations/morph-links.ts.
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
