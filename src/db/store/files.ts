/**
 * Rows of the upload plugin's `files` table, and its media links as the upload plugin reads
 * and writes them (documents' own media writes are db/store/media.ts's). Turning uploads
 * into rows (hashes, formats, metadata) is upload/'s business.
 */
import type { Queryable, SqlValue } from '../database';
import { FILE_COLUMNS, FILES_TABLE, MEDIA_LINKS as M, tableOf, VERSION, type FileColumn } from '../layout';
import { sql, type Sql } from '../sql';
import type { ContentType } from '../../registry/types';

/** Columns of `files` stored as JSON text. */
export const FILE_JSON_COLUMNS = ['formats', 'focalPoint', 'provider_metadata'] as const;

/** Parses the JSON columns of a selected file row in place (populated media and the upload API read rows alike). */
export function parseFileRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const column of FILE_JSON_COLUMNS) if (typeof row[column] === 'string') row[column] = JSON.parse(row[column] as string);
  return row;
}

const FILES = sql.id(FILES_TABLE);
const LINKS = sql.id(M.table);
const ID = sql.id('id');
const KNOWN = new Set<string>(FILE_COLUMNS);

const columnList = (columns: readonly FileColumn[], alias?: string) => sql.join(columns.map((c) => (alias ? sql.id(alias, c) : sql.id(c))));

/** A file row by id, every column, JSON columns still as text. */
export function findFileRow(db: Queryable, id: number): Promise<Record<string, unknown> | undefined> {
  return db.get<Record<string, unknown>>(sql`SELECT ${columnList(FILE_COLUMNS)} FROM ${FILES} WHERE ${ID} = ${id}`);
}

export interface FileListQuery {
  columns: readonly FileColumn[];
  /** A condition over the rows, aliased `t` (the query compiler's filters); empty for all. */
  where: Sql;
  /** ORDER BY keys over `t`. */
  order: Sql;
  page?: { limit: number; offset: number };
}

/** File rows for `GET /api/upload/files`. */
export function listFileRows(db: Queryable, query: FileListQuery): Promise<Record<string, unknown>[]> {
  const where = query.where.isEmpty ? sql.empty : sql` WHERE ${query.where}`;
  const page = query.page ? sql` LIMIT ${query.page.limit} OFFSET ${query.page.offset}` : sql.empty;
  return db.all<Record<string, unknown>>(sql`SELECT ${columnList(query.columns, 't')} FROM ${FILES} t${where} ORDER BY ${query.order}${page}`);
}

/** Column values of a file row; only the table's own columns (checked, so no other name reaches SQL). */
export type FileValues = Partial<Record<FileColumn, SqlValue>>;

function assignments(values: FileValues): { columns: Sql[]; values: SqlValue[] } {
  const columns: Sql[] = [];
  const out: SqlValue[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (!KNOWN.has(column)) throw new TypeError(`files has no column "${column}"`);
    if (value === undefined) continue;
    columns.push(sql.id(column));
    out.push(value);
  }
  return { columns, values: out };
}

/** Inserts a file row; returns its id. */
export function insertFile(db: Queryable, values: FileValues): Promise<number> {
  const { columns, values: list } = assignments(values);
  return db.insert(sql`INSERT INTO ${FILES} (${sql.join(columns)}) VALUES (${sql.list(list)})`);
}

/** Sets some columns of a file row. */
export async function updateFile(db: Queryable, id: number, values: FileValues): Promise<void> {
  const { columns, values: list } = assignments(values);
  if (columns.length === 0) return;
  await db.run(sql`UPDATE ${FILES} SET ${sql.join(columns.map((c, i) => sql`${c} = ${list[i]!}`))} WHERE ${ID} = ${id}`);
}

/** Deletes a file row and its links from every entry (in the caller's transaction). */
export async function deleteFile(tx: Queryable, id: number): Promise<void> {
  await tx.run(sql`DELETE FROM ${LINKS} WHERE ${sql.id(M.fileId)} = ${id}`);
  await tx.run(sql`DELETE FROM ${FILES} WHERE ${ID} = ${id}`);
}

/** The files linked in one media field of one row, in order. */
export async function fileIdsInField(tx: Queryable, relatedType: string, relatedId: number, field: string): Promise<number[]> {
  const rows = await tx.all<Record<string, number>>(sql`SELECT ${sql.id(M.fileId)} FROM ${LINKS}
    WHERE ${sql.id(M.relatedType)} = ${relatedType} AND ${sql.id(M.relatedId)} = ${relatedId} AND ${sql.id(M.field)} = ${field}
    ORDER BY ${sql.id(M.position)}`);
  return rows.map((r) => r[M.fileId]!);
}

/**
 * The document and locale of a content version row, for an upload's numeric `refId` (which
 * Strapi reads as a row id); undefined when there is no such row.
 */
export async function findVersionKeyOfRow(tx: Queryable, ct: ContentType, rowId: number): Promise<{ documentId: string; locale: string } | undefined> {
  const row = await tx.get<Record<string, string>>(sql`SELECT ${sql.id(VERSION.documentId)}, ${sql.id(VERSION.locale)}
    FROM ${tableOf(ct)} WHERE ${sql.id(VERSION.id)} = ${rowId}`);
  return row && { documentId: row[VERSION.documentId]!, locale: row[VERSION.locale]! };
}
