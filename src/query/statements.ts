/**
 * The statements of a read plan: a page of versions, its total, one version. The plan is
 * already checked (query/parse.ts); this only assembles SQL through the builder.
 */
import type { Dialect } from '../db/dialect';
import { VERSION as V, column, tableOf } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { ContentType, Registry } from '../registry/types';
import { versionScope } from './resolve';
import { rowReader, type RowReader } from './select';
import { orderBy } from './sort';
import type { ReadQuery } from './types';
import { whereSql } from './where';

/** The WHERE clause of a plan (with a leading space), or nothing. */
function whereOf(dialect: Dialect, registry: Registry, ct: ContentType, query: ReadQuery, extra: Sql = sql.empty): Sql {
  const condition = sql.and([
    versionScope(ct, query, 't'),
    query.filters ? whereSql(dialect, registry, ct, query.filters, query) : sql.empty,
    extra,
  ]);
  return condition.isEmpty ? sql.empty : sql` WHERE ${condition}`;
}

export interface ListStatements {
  page: Sql;
  /** COUNT(*) of every matching version, for the total. */
  count: Sql;
  reader: RowReader;
}

export function listStatements(dialect: Dialect, registry: Registry, ct: ContentType, query: ReadQuery): ListStatements {
  const reader = rowReader(ct, query.fields);
  const where = whereOf(dialect, registry, ct, query);
  const { start, limit } = query.pagination;
  const order = orderBy(registry, ct, query.sort, query);
  return {
    page: sql`SELECT ${reader.columns} FROM ${tableOf(ct)} t${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${start}`,
    count: sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${tableOf(ct)} t${where}`,
    reader,
  };
}

/** One version of a document (`documentId` undefined: the single type's only document). */
export function findOneStatement(dialect: Dialect, registry: Registry, ct: ContentType, documentId: string | undefined, query: ReadQuery): { statement: Sql; reader: RowReader } {
  const reader = rowReader(ct, query.fields);
  const byId = documentId === undefined ? sql.empty : sql`${column('t', V.documentId)} = ${documentId}`;
  const where = whereOf(dialect, registry, ct, query, byId);
  return { statement: sql`SELECT ${reader.columns} FROM ${tableOf(ct)} t${where} ORDER BY ${column('t', V.id)} LIMIT 1`, reader };
}
