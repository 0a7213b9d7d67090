/**
 * Executes a ReadQuery: the page of versions, the total, then populate.
 */
import { createHash } from 'node:crypto';
import type { ChangeCache } from '../db/cache';
import type { Queryable } from '../db/database';
import type { ContentType, Registry } from '../registry/types';
import { compileFilters } from '../query/filters';
import { orderBy } from '../query/sort';
import { and, versionScope, type Fragment } from '../query/sql';
import type { ReadQuery } from '../query/types';
import { checkResponseSize, populateRows } from './populate';
import { rowReader, type Row } from './rows';

export interface PageMeta {
  page?: number;
  pageSize?: number;
  pageCount?: number;
  start?: number;
  limit?: number;
  total?: number;
}

export interface ReadContext {
  db: Queryable;
  registry: Registry;
  /** Totals of list queries, reused until the next commit (counting a large table dominates a page). */
  counts?: ChangeCache<string, number>;
}

function whereOf(ctx: ReadContext, ct: ContentType, query: ReadQuery, extra?: Fragment): Fragment {
  const scope = versionScope(ctx.db.dialect, ct, query.status, query.locale);
  const filters = query.filters ? compileFilters(ctx.db.dialect, ctx.registry, ct, query.filters, query) : undefined;
  return and([scope, ...(filters ? [filters] : []), ...(extra ? [extra] : [])]);
}

/**
 * The totals cache's key: a digest of the count statement and its values. Both come from the
 * request (a filter tree can make a 60 KB statement), and the cache keeps up to 1,000 keys.
 */
function countKey(sql: string, params: Fragment['params']): string {
  const values = JSON.stringify(params, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v));
  return createHash('sha256').update(sql).update('\0').update(values).digest('base64');
}

export async function findMany(ctx: ReadContext, ct: ContentType, query: ReadQuery): Promise<{ data: Row[]; pagination: PageMeta }> {
  const q = ctx.db.dialect.quote;
  const reader = rowReader(ctx.db.dialect, ct, query.fields);
  const where = whereOf(ctx, ct, query);
  const whereSql = where.sql ? ` WHERE ${where.sql}` : '';
  const { start, limit, withCount, mode } = query.pagination;
  const order = orderBy(ctx.db.dialect, ctx.registry, ct, query.sort, query);
  const rows = (
    await ctx.db.all<Row>(
      `SELECT ${reader.columns} FROM ${q(ct.tableName)} t${whereSql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`,
      [...where.params, ...order.params, limit, start],
    )
  ).map(reader.read);
  await populateRows(ctx.db, ctx.registry, ct, rows, query.populate, query);
  checkResponseSize(rows, query.populate);

  let total: number | undefined;
  if (withCount) {
    const sql = `SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${q(ct.tableName)} t${whereSql}`;
    const count = async () => (await ctx.db.get<{ n: number }>(sql, where.params))?.n ?? 0;
    total = ctx.counts ? await ctx.counts.get(countKey(sql, where.params), count) : await count();
  }
  let pagination: PageMeta;
  if (mode === 'offset') pagination = { start, limit, ...(total !== undefined ? { total } : {}) };
  else if (total === undefined) pagination = { page: Math.floor(start / limit) + 1, pageSize: limit };
  else pagination = { page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit), total };
  return { data: rows, pagination };
}

/** One version of a document, or null. `documentId` undefined = the single type's document. */
export async function findOne(ctx: ReadContext, ct: ContentType, documentId: string | undefined, query: ReadQuery): Promise<Row | null> {
  const q = ctx.db.dialect.quote;
  if (query.locale === '*') return null;
  const reader = rowReader(ctx.db.dialect, ct, query.fields);
  const byId: Fragment | undefined = documentId === undefined ? undefined : { sql: `t.${q('documentId')} = ?`, params: [documentId] };
  const where = whereOf(ctx, ct, query, byId);
  const row = await ctx.db.get<Row>(
    `SELECT ${reader.columns} FROM ${q(ct.tableName)} t${where.sql ? ` WHERE ${where.sql}` : ''} ORDER BY t.${q('id')} LIMIT 1`,
    where.params,
  );
  if (!row) return null;
  const doc = reader.read(row);
  await populateRows(ctx.db, ctx.registry, ct, [doc], query.populate, query);
  checkResponseSize([doc], query.populate);
  return doc;
}
