/**
 * Version rows of content types: one row per (documentId, locale, draft | published).
 * Reads and writes of the rows themselves; what a version owns elsewhere (components,
 * links, media) has its own store, and the rules (publishing, locales) live in
 * documents/write/versions.ts.
 */
import type { ScalarField } from '../../registry/fields/field';
import type { ContentType } from '../../registry/types';
import type { Queryable, SqlValue } from '../database';
import { tableOf, VERSION as V } from '../layout';
import { sql, type Sql } from '../sql';
import { columnFields, columnsOf, columnTail, columnValues, exactColumnTail, insertRow, scalarValues } from './columns';

export type VersionStatus = 'draft' | 'published';

export interface VersionTimes {
  createdAt: string;
  updatedAt: string;
  /** null: the draft of a draft & publish type. */
  publishedAt: string | null;
}

const id = (name: string) => sql.id(name);
/** The system columns a copied row is written with, in order. */
const SYSTEM_COLUMNS = sql.join([V.documentId, V.locale, V.createdAt, V.updatedAt, V.publishedAt].map(id));

/** The condition selecting the versions of one status (a draft has no publication time), of the rows aliased `alias` if given. */
export const statusIs = (status: VersionStatus, alias?: string): Sql =>
  sql`${alias ? sql.id(alias, V.publishedAt) : id(V.publishedAt)} IS ${sql.raw(status === 'draft' ? '' : 'NOT ')}NULL`;

/**
 * The same condition written as the expression of the version key's unique index
 * (`(publishedAt IS NULL)`, db/schema-sync.ts): with documentId and locale it pins the index
 * to one row whatever the planner's statistics say. Written `publishedAt IS NULL`, SQLite
 * without fresh statistics (a table that grew since the last ANALYZE) may pick the
 * (locale, publishedAt) list index instead and scan every version of the locale.
 */
const versionKeyStatus = (status: VersionStatus): Sql => sql`(${id(V.publishedAt)} IS NULL) = ${sql.raw(status === 'draft' ? 'TRUE' : 'FALSE')}`;

/**
 * `FROM … WHERE …` of the versions of one status that have no version of the other status for
 * their document and locale (aliased `v`): a type's drafts never published, or, where draft &
 * publish was off, published versions without a draft. The other version is looked up by the
 * version key's unique index.
 */
export function unpairedVersions(ct: ContentType, status: VersionStatus): Sql {
  const same = (name: string) => sql`${sql.id('o', name)} = ${sql.id('v', name)}`;
  const other = sql`(${sql.id('o', V.publishedAt)} IS NULL) = ${sql.raw(status === 'draft' ? 'FALSE' : 'TRUE')}`;
  return sql`FROM ${tableOf(ct)} ${id('v')} WHERE ${statusIs(status, 'v')}
    AND NOT EXISTS (SELECT 1 FROM ${tableOf(ct)} ${id('o')} WHERE ${same(V.documentId)} AND ${same(V.locale)} AND ${other})`;
}

/** Ids of the first `limit` rows of one status, by id; `unpaired`: only those without a version of the other status. */
export async function rowIdsOfStatus(tx: Queryable, ct: ContentType, status: VersionStatus, limit: number, unpaired = false): Promise<number[]> {
  const from = unpaired ? unpairedVersions(ct, status) : sql`FROM ${tableOf(ct)} ${id('v')} WHERE ${statusIs(status)}`;
  const rows = await tx.all<Record<string, number>>(sql`SELECT ${sql.id('v', V.id)} AS ${id(V.id)} ${from} ORDER BY ${sql.id('v', V.id)} LIMIT ${limit}`);
  return rows.map((r) => r[V.id]!);
}

/** Inserts a version row with its attribute values (JSON form); returns its id. */
export function insertVersion(
  tx: Queryable,
  ct: ContentType,
  documentId: string,
  locale: string,
  times: VersionTimes,
  values: Record<string, unknown>,
): Promise<number> {
  const system: [string, SqlValue][] = [
    [V.documentId, documentId],
    [V.locale, locale],
    [V.createdAt, times.createdAt],
    [V.updatedAt, times.updatedAt],
    [V.publishedAt, times.publishedAt],
  ];
  return insertRow(tx, ct, system, values);
}

/**
 * Inserts a new document's draft and its published copy in one statement (a create that
 * publishes): the same values, the draft's publishedAt null. Returns both ids; RETURNING
 * rows come in no promised order, so each is told apart by its publishedAt.
 */
export async function insertDraftAndPublished(
  tx: Queryable,
  ct: ContentType,
  documentId: string,
  locale: string,
  times: VersionTimes & { publishedAt: string },
  values: Record<string, unknown>,
): Promise<{ draftId: number; publishedId: number }> {
  const attributes = columnValues(ct, values);
  const columns = [V.documentId, V.locale, V.createdAt, V.updatedAt, V.publishedAt].map(id).concat(attributes.columns);
  const row = (publishedAt: string | null) => sql`(${sql.list([documentId, locale, times.createdAt, times.updatedAt, publishedAt, ...attributes.values])})`;
  const rows = await tx.all<Record<string, unknown>>(
    sql`INSERT INTO ${tableOf(ct)} (${sql.join(columns)}) VALUES ${row(null)}, ${row(times.publishedAt)} RETURNING ${id(V.id)}, ${id(V.publishedAt)}`,
  );
  const idOf = (draft: boolean) => Number(rows.find((r) => (r[V.publishedAt] === null) === draft)![V.id]);
  return { draftId: idOf(true), publishedId: idOf(false) };
}

/**
 * Ids of a document's rows in a locale (all locales when undefined), optionally of one status
 * (types without draft & publish have one status). `ordered = false` leaves them in the
 * engine's order, sorting nothing.
 */
export async function versionIds(
  tx: Queryable,
  ct: ContentType,
  documentId: string,
  locale: string | undefined,
  status?: VersionStatus,
  ordered = true,
): Promise<number[]> {
  const where = sql.and([
    sql`${id(V.documentId)} = ${documentId}`,
    locale === undefined ? sql.empty : sql`${id(V.locale)} = ${locale}`,
    status && ct.draftAndPublish ? versionKeyStatus(status) : sql.empty,
  ]);
  const order = ordered ? sql` ORDER BY ${id(V.id)}` : sql.empty;
  const rows = await tx.all<Record<string, number>>(sql`SELECT ${id(V.id)} FROM ${tableOf(ct)} WHERE ${where}${order}`);
  return rows.map((r) => r[V.id]!);
}

/** A stored version of a document: its row as read (all columns), and what identifies it. */
export interface StoredVersion {
  id: number;
  locale: string;
  status: VersionStatus;
  updatedAt: unknown;
  row: Record<string, unknown>;
}

/**
 * Every version of a document (all locales, both statuses), whole rows, in id order: an
 * update reads them once, for the draft's values, the published version it replaces and
 * the other locales it keeps in step.
 */
export async function documentVersions(tx: Queryable, ct: ContentType, documentId: string): Promise<StoredVersion[]> {
  // Sorted here, not by the statement: ORDER BY would cost SQLite a temporary b-tree for a handful of rows.
  const rows = await tx.all<Record<string, unknown>>(sql`SELECT * FROM ${tableOf(ct)} WHERE ${id(V.documentId)} = ${documentId}`);
  rows.sort((a, b) => Number(a[V.id]) - Number(b[V.id]));
  return rows.map((row) => ({
    id: Number(row[V.id]),
    locale: row[V.locale] as string,
    status: row[V.publishedAt] === null ? 'draft' : 'published',
    updatedAt: row[V.updatedAt],
    row,
  }));
}

/** Which (documentId, locale, status) versions exist among some documents. */
export async function existingVersions(
  tx: Queryable,
  ct: ContentType,
  documentIds: string[],
): Promise<{ documentId: string; locale: string; status: VersionStatus }[]> {
  if (documentIds.length === 0) return [];
  const rows = await tx.all<Record<string, string | null>>(
    sql`SELECT ${sql.join([id(V.documentId), id(V.locale), id(V.publishedAt)])} FROM ${tableOf(ct)} WHERE ${id(V.documentId)} IN (${sql.list([...new Set(documentIds)])})`,
  );
  return rows.map((r) => ({ documentId: r[V.documentId]!, locale: r[V.locale]!, status: r[V.publishedAt] === null ? 'draft' : 'published' }));
}

/** The documentId of the type's first row (a single type's one document). */
export async function firstDocumentId(tx: Queryable, ct: ContentType): Promise<string | undefined> {
  const row = await tx.get<Record<string, string>>(sql`SELECT ${id(V.documentId)} FROM ${tableOf(ct)} ORDER BY ${id(V.id)} LIMIT 1`);
  return row?.[V.documentId];
}

/** The attribute values of a version row already read, in JSON form. */
export const valuesOf = (ct: ContentType, row: Record<string, unknown>) => scalarValues(ct, row);

/** The attribute values of a version row, in JSON form. */
export async function storedValues(tx: Queryable, ct: ContentType, rowId: number): Promise<Record<string, unknown>> {
  return scalarValues(ct, await tx.get(sql`SELECT * FROM ${tableOf(ct)} WHERE ${id(V.id)} = ${rowId}`));
}

/** A version of a document with its attribute values, big integers exact (a version's full content: query/content.ts). */
export interface VersionValues {
  id: number;
  documentId: string;
  locale: string;
  status: VersionStatus;
  updatedAt: string;
  values: Record<string, unknown>;
}

/** Every version of some documents (all locales, both statuses), with their values; one statement per 500 documents. */
export async function versionsWithValues(tx: Queryable, ct: ContentType, documentIds: string[]): Promise<VersionValues[]> {
  const ids = [...new Set(documentIds)];
  const out: VersionValues[] = [];
  const system = sql.join([V.id, V.documentId, V.locale, V.updatedAt, V.publishedAt].map(id));
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await tx.all<Record<string, unknown>>(
      sql`SELECT ${system}${exactColumnTail(ct, tx.dialect.name)} FROM ${tableOf(ct)} WHERE ${id(V.documentId)} IN (${sql.list(ids.slice(i, i + 500))})`,
    );
    for (const row of rows) {
      out.push({
        id: Number(row[V.id]),
        documentId: row[V.documentId] as string,
        locale: row[V.locale] as string,
        status: row[V.publishedAt] === null ? 'draft' : 'published',
        updatedAt: String(row[V.updatedAt]),
        values: scalarValues(ct, row),
      });
    }
  }
  return out.sort((a, b) => a.id - b.id);
}

/** Sets some attribute values (JSON form) and the update time of a version row. */
export async function updateVersion(tx: Queryable, ct: ContentType, rowId: number, values: Record<string, unknown>, updatedAt: string) {
  const set = columnValues(ct, values);
  const assignments = [...set.columns.map((column, i) => sql`${column} = ${set.values[i]!}`), sql`${id(V.updatedAt)} = ${updatedAt}`];
  await tx.run(sql`UPDATE ${tableOf(ct)} SET ${sql.join(assignments)} WHERE ${id(V.id)} = ${rowId}`);
}

/** Deletes version rows (their own columns only; the caller deletes what they own). */
export async function deleteVersionRows(tx: Queryable, ct: ContentType, rowIds: number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${tableOf(ct)} WHERE ${id(V.id)} IN (${sql.list(rowIds)})`);
}

/** What a copied version changes; everything left out is copied from the source row. */
export interface VersionCopy {
  locale?: string;
  publishedAt: string | null;
  createdAt?: string;
  updatedAt?: string;
}

/** Copies a version row's own columns into a new row; returns its id. */
export function copyVersionRow(tx: Queryable, ct: ContentType, fromId: number, set: VersionCopy): Promise<number> {
  const columns = columnTail(ct, tx.dialect.name);
  const keep = (name: string, value: string | undefined) => (value === undefined ? id(name) : sql`${value}`);
  const values = sql`${id(V.documentId)}, ${keep(V.locale, set.locale)}, ${keep(V.createdAt, set.createdAt)}, ${keep(V.updatedAt, set.updatedAt)}, ${set.publishedAt}`;
  return tx.insert(sql`INSERT INTO ${tableOf(ct)} (${SYSTEM_COLUMNS}${columns}) SELECT ${values}${columns} FROM ${tableOf(ct)} WHERE ${id(V.id)} = ${fromId}`);
}

/** Copies the values of the non-localized attributes stored in the row from one version row to others (i18n's sync). */
export async function copySharedValues(tx: Queryable, ct: ContentType, fromId: number, toIds: number[]): Promise<void> {
  const fields = columnFields(ct, tx.dialect.name).filter((f) => !f.attribute.localized);
  if (fields.length === 0 || toIds.length === 0) return;
  const columns = sql.join(columnsOf(fields));
  await tx.run(
    sql`UPDATE ${tableOf(ct)} SET (${columns}) = (SELECT ${columns} FROM ${tableOf(ct)} WHERE ${id(V.id)} = ${fromId}) WHERE ${id(V.id)} IN (${sql.list(toIds)})`,
  );
}

/** Whether another document's published version in the locale holds this value of a unique field. */
export async function valueTaken(tx: Queryable, ct: ContentType, field: ScalarField, value: unknown, locale: string, documentId: string): Promise<boolean> {
  const clash = await tx.get(
    sql`SELECT 1 AS x FROM ${tableOf(ct)} WHERE ${sql.and([
      sql`${id(field.name)} = ${field.toColumn(value)}`,
      sql`${id(V.locale)} = ${locale}`,
      statusIs('published'),
      sql`${id(V.documentId)} <> ${documentId}`,
    ])} LIMIT 1`,
  );
  return clash !== undefined;
}
