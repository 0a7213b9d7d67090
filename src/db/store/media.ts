/**
 * Media links of document and component rows: which file sits in which media field of
 * which row (named by the row's model uid and id), in order, in the upload plugin's
 * media-link table. The rules (files must exist and suit the field) live in
 * documents/write/media.ts; the upload plugin's own file rows are db/store/files.ts's.
 */
import type { Queryable } from '../database';
import { FILES_TABLE, MEDIA_LINKS as M, type FileColumn } from '../layout';
import { sql, type Sql } from '../sql';

const id = (name: string) => sql.id(name);
const LINKS = sql.id(M.table);
/** Built once: its text is rendered once. */
const ALL_COLUMNS = sql.join([M.fileId, M.relatedType, M.relatedId, M.field, M.position].map(id));
// Two columns of the upload plugin's file rows (typed by layout's list, so a rename fails to compile).
const FILE_ID = 'id' satisfies FileColumn;
const FILE_MIME = 'mime' satisfies FileColumn;

/** The MIME type of each of these files that exists. */
export async function fileTypes(tx: Queryable, fileIds: number[]): Promise<{ id: number; mime: string }[]> {
  if (fileIds.length === 0) return [];
  const rows = await tx.all<Record<string, string | number>>(
    sql`SELECT ${id(FILE_ID)}, ${id(FILE_MIME)} FROM ${sql.id(FILES_TABLE)} WHERE ${id(FILE_ID)} IN (${sql.list(fileIds)})`,
  );
  return rows.map((r) => ({ id: r[FILE_ID] as number, mime: r[FILE_MIME] as string }));
}

const inFields = (fields: string[] | undefined): Sql => (fields ? sql` AND ${id(M.field)} IN (${sql.list(fields)})` : sql.empty);

/** Replaces the files of one media field of one row (in this order). */
export async function replaceMediaLinks(tx: Queryable, relatedType: string, rowId: number, field: string, fileIds: number[]): Promise<void> {
  await tx.run(sql`DELETE FROM ${LINKS} WHERE ${id(M.relatedType)} = ${relatedType} AND ${id(M.relatedId)} = ${rowId} AND ${id(M.field)} = ${field}`);
  if (fileIds.length === 0) return;
  const rows = fileIds.map((fileId, position) => sql`(${sql.list([fileId, relatedType, rowId, field, position])})`);
  await tx.run(sql`INSERT INTO ${LINKS} (${ALL_COLUMNS}) VALUES ${sql.join(rows)}`);
}

/** Copies the media links of one row to another; `fields` limits which (an empty list copies nothing). */
export async function copyMediaLinks(tx: Queryable, relatedType: string, fromId: number, toId: number, fields?: string[]): Promise<void> {
  if (fields && fields.length === 0) return;
  await tx.run(
    sql`INSERT INTO ${LINKS} (${ALL_COLUMNS}) SELECT ${id(M.fileId)}, ${id(M.relatedType)}, ${toId}, ${id(M.field)}, ${id(M.position)} FROM ${LINKS} WHERE ${id(M.relatedType)} = ${relatedType} AND ${id(M.relatedId)} = ${fromId}${inFields(fields)}`,
  );
}

/** Removes the media links of some rows, in some fields or all (the files stay in the library). */
export async function deleteMediaLinks(tx: Queryable, relatedType: string, rowIds: number[], fields?: string[]): Promise<void> {
  if (rowIds.length === 0 || (fields && fields.length === 0)) return;
  await tx.run(sql`DELETE FROM ${LINKS} WHERE ${id(M.relatedType)} = ${relatedType} AND ${id(M.relatedId)} IN (${sql.list(rowIds)})${inFields(fields)}`);
}
