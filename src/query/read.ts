/**
 * Executes a read plan: the page of versions, the total, then populate. The statements
 * come from query/compile.ts; nothing here writes SQL.
 */
import { createHash } from 'node:crypto';
import type { ChangeCache } from '../db/cache';
import type { Queryable } from '../db/database';
import type { Sql } from '../db/sql';
import type { ContentType, Registry } from '../registry/types';
import { rarestTrigrams, type SearchGramSamples } from '../db/search-grams';
import { findOneStatement, listStatements, type ListStatements } from './compile';
import type { Row } from './row-reader';
import type { ReadQuery } from './types';
import { checkResponseSize, populateRows } from './populate';

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
  /** PostgreSQL: trigram samples of the searched tables, for `_q` (db/search-grams.ts). */
  searchGrams?: SearchGramSamples;
  /** The offset from which pages are read as a deferred join (query/compile.ts DEFERRED_PAGE_FROM; tests lower it). */
  deferredPagesFrom?: number;
  /**
   * Statements of plans read before: a plan the HTTP layer reuses for the same query string
   * (routes/content.ts) is compiled once. Weak: a plan nobody holds takes its statements along.
   */
  statements?: WeakMap<ReadQuery, CompiledList>;
}

interface CompiledList extends ListStatements {
  countKey: string;
}

/** PostgreSQL `_q`: the rarest trigrams of the search for its indexes to look up, when the table has a sample. */
const searchOf = ({ filters: f }: ReadQuery) => (f?.kind === 'search' ? f : f?.kind === 'and' ? f.parts.find((p) => p.kind === 'search') : undefined);

async function chooseSearchGrams(ctx: ReadContext, ct: ContentType, query: ReadQuery) {
  const search = searchOf(query);
  if (!ctx.searchGrams || search?.kind !== 'search' || search.others.length > 0 || search.text.length === 0) return;
  const frequencies = await ctx.searchGrams.frequencies(
    ct.tableName,
    search.text.map((field) => field.name),
  );
  if (frequencies) search.grams = rarestTrigrams(search.value.toLowerCase(), frequencies);
}

/**
 * The totals cache's key: the count statement and its values. Both come from the request
 * (a filter tree can make a 60 KB statement) and the cache keeps up to 1,000 keys, so a
 * long key is kept as its digest; the usual short one is used as is (hashing it cost more
 * than the rest of a cached list's bookkeeping).
 */
function countKey(statement: Sql): string {
  const { text, params } = statement.compile('question');
  const values = params.length === 0 ? '' : JSON.stringify(params, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? [...v] : v));
  const key = `${text}\0${values}`;
  return key.length <= 2048 ? key : createHash('sha256').update(key).digest('base64');
}

/** The plan's statements, built once per plan object (a `_q` plan is built each time: its grams are chosen per read). */
function listOf(ctx: ReadContext, ct: ContentType, query: ReadQuery): CompiledList {
  const kept = ctx.statements?.get(query);
  if (kept) return kept;
  const list = listStatements(ctx.db.dialect, ctx.registry, ct, query, { deferredFrom: ctx.deferredPagesFrom });
  const compiled = { ...list, countKey: countKey(list.count) };
  if (!searchOf(query)) ctx.statements?.set(query, compiled);
  return compiled;
}

export async function findMany(ctx: ReadContext, ct: ContentType, query: ReadQuery): Promise<{ data: Row[]; pagination: PageMeta }> {
  await chooseSearchGrams(ctx, ct, query);
  const { page, count, reader, countKey: totalKey } = listOf(ctx, ct, query);
  const { withCount } = query.pagination;
  const pageRows = ctx.db.all<Row>(page);
  // The total is asked for beside the page, not after it: PostgreSQL's client sends both
  // together, a round trip less (SQLite runs each as it is called, page first, as before).
  // Cached until the next commit either way: a maintained total (db/counts.ts) is a few rows
  // read by key, so the first list after a write no longer counts every matching row.
  const counted = async () => (await ctx.db.get<{ n: number }>(count))?.n ?? 0;
  const totalRead = withCount ? (ctx.counts ? ctx.counts.get(totalKey, counted) : counted()) : undefined;
  // Awaited below; a failing page must not leave its rejection unhandled meanwhile.
  totalRead?.catch(() => {});
  const rows = (await pageRows).map(reader.readInPlace);
  await populateRows(ctx.db, ctx.registry, ct, rows, query.populate, query);
  checkResponseSize(rows, query.populate);

  return { data: rows, pagination: pageMeta(query.pagination, await totalRead) };
}

/** A list's `meta.pagination`, in the mode the client asked in (page or offset), with the total when counted. */
export function pageMeta({ mode, start, limit }: Pick<ReadQuery['pagination'], 'mode' | 'start' | 'limit'>, total?: number): PageMeta {
  if (mode === 'offset') return { start, limit, ...(total !== undefined ? { total } : {}) };
  if (total === undefined) return { page: Math.floor(start / limit) + 1, pageSize: limit };
  return { page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit), total };
}

/** One version of a document, or null. `documentId` undefined = the single type's document. */
export async function findOne(ctx: ReadContext, ct: ContentType, documentId: string | undefined, query: ReadQuery): Promise<Row | null> {
  // `locale=*` names no one version (Strapi matches nothing); `filters[locale]` does.
  if (query.locale === '*' && !query.localeInFilters) return null;
  const { statement, reader } = findOneStatement(ctx.db.dialect, ctx.registry, ct, documentId, query);
  const row = await ctx.db.get<Row>(statement);
  if (!row) return null;
  const doc = reader.readInPlace(row);
  await populateRows(ctx.db, ctx.registry, ct, [doc], query.populate, query);
  checkResponseSize([doc], query.populate);
  return doc;
}
