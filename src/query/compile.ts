/**
 * A read plan → SQL, through the builder: the SELECT list from the model's fields (row-reader.ts), WHERE from
 * a checked Condition, ORDER BY, the page, its total and one version (the populate queries
 * are in populate-statements.ts). Relations and components are followed with the path
 * resolver (resolve.ts), so the joins of filters, sort and populate are written once. The
 * plan is already checked (parse.ts, filters.ts): nothing here can fail on input.
 */
import { maintainedCount } from '../db/counts';
import { postgresDialect, type Dialect } from '../db/dialect';
import { VERSION as V, column, tableOf } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { ScalarField } from '../registry/fields';
import type { AnyModel, ContentType, Registry } from '../registry/types';
import { rowReader, type RowReader } from './row-reader';
import { correlate, hopThrough, localeCondition, versionScope, type VersionScope } from './resolve';
import type { Condition, PublicationFilter, ReadQuery, SortItem } from './types';

// ─── WHERE ───────────────────────────────────────────────────────────────────

/**
 * A checked Condition (query/filters.ts) → SQL. Relations and components are followed
 * through the path resolver, so a document matches when any related row matches, lists
 * never repeat a document and `total` counts documents.
 *
 * The meaning is Strapi's, whose relation filters are LEFT JOINs (one per occurrence in the
 * tree) under SELECT DISTINCT: a document matches when some combination of its joined rows —
 * a row of NULLs where it has none — makes the WHERE true. Each occurrence joins on its own,
 * so that "some row" distributes over AND and OR but not over NOT: negations are pushed down
 * to the leaves first (De Morgan; SQL's three-valued NOT keeps NULL unknown), and a relation
 * under NOT asks for a related row that does NOT match. A relation condition then reads
 * `EXISTS (a related row matches)`, plus `OR NOT EXISTS (any related row)` when the row of
 * NULLs would match too (`filters[category][id][$null]=true` finds documents without one;
 * `$not` over `category.name = x` leaves them out, as NOT(NULL) does).
 */

interface Walk {
  dialect: Dialect;
  registry: Registry;
  scope: VersionScope;
  aliases: number;
}

/** The WHERE condition of `condition` over rows of `model` aliased `alias`. */
export function whereSql(dialect: Dialect, registry: Registry, model: AnyModel, condition: Condition, scope: VersionScope, alias = 't'): Sql {
  return compile({ dialect, registry, scope, aliases: 0 }, model, alias, condition, false);
}

// Numbers read as their text for text operators: PostgreSQL has no strpos() or right() on numbers.
const NUMERIC = new Set(['integer', 'biginteger', 'float', 'decimal', 'boolean']);

/** `c`, or NOT `c` when `negated`, with the negation pushed down to the leaves. */
function compile(w: Walk, model: AnyModel, alias: string, c: Condition, negated: boolean): Sql {
  switch (c.kind) {
    case 'and':
    case 'or': {
      const parts = c.parts.map((p) => compile(w, model, alias, p, negated));
      // An empty AND is true (no SQL), an empty OR false (`sql.or` writes `1 = 0`).
      return (c.kind === 'and') !== negated ? sql.and(parts) : sql.or(parts);
    }
    case 'not':
      return compile(w, model, alias, c.part, !negated);
    case 'related':
      return related(w, model, alias, c, negated);
    case 'search': {
      const found = searchSql(w, model, alias, c);
      return negated ? sql.not(found) : found;
    }
    case 'publication': {
      const kept = publicationSql(model, alias, c.mode, w.scope.status);
      return negated ? sql.not(kept) : kept;
    }
  }
  const leaf = leafSql(w, alias, c);
  return negated ? sql.not(leaf) : leaf;
}

function leafSql(w: Walk, alias: string, c: Exclude<Condition, { kind: 'and' | 'or' | 'not' | 'related' | 'search' | 'publication' }>): Sql {
  const col = column(alias, c.field.name);
  switch (c.kind) {
    case 'compare':
      return sql`${col} ${sql.raw(c.op)} ${c.value}`;
    case 'null':
      return c.isNull ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    case 'in':
      if (c.values.length === 0) return sql.raw(c.negate ? '1 = 1' : '1 = 0');
      return c.negate ? sql`${col} NOT IN (${sql.list(c.values)})` : sql`${col} IN (${sql.list(c.values)})`;
    case 'between':
      return sql`${col} BETWEEN ${c.low} AND ${c.high}`;
    case 'text':
      return textCondition(w.dialect, NUMERIC.has(c.field.type) ? sql`CAST(${col} AS TEXT)` : col, col, c.op, c.value);
  }
}

/**
 * `_q` (see db/search-index.ts). Either way it means "the folded text contains the folded
 * search", as `$containsi` on each attribute would. SQLite: a search of 3 characters or more
 * over the text attributes alone is a phrase query on the type's FTS5 trigram table, which
 * holds each attribute folded by the same folio_lower, so it finds exactly the same rows;
 * shorter ones (trigrams cannot serve them) and those that also look at id or numbers read
 * the rows. PostgreSQL: LIKE over the ICU-folded column, the expression the pg_trgm indexes
 * are built on; `%`, `_` and `\` are escaped, so the pattern is the literal text (folding
 * leaves those three alone, and they are not letters, so no context-dependent fold changes).
 * With `grams` (db/search-grams.ts) the indexes look up only those rare trigrams, the exact
 * test runs on the rows they find, and the page is read from that id list: walking the sort's
 * index and testing every row (what the planner picks when it guesses the matches are many and
 * evenly spread) took seconds on a million rows.
 */
function searchSql(w: Walk, model: AnyModel, alias: string, c: Extract<Condition, { kind: 'search' }>): Sql {
  const scan = (fields: ScalarField[]) => fields.map((field) => leafSql(w, alias, { kind: 'text', field, op: '$containsi', value: c.value }));
  return w.dialect.search({
    value: c.value,
    alias,
    tableName: model.tableName,
    table: tableOf(model),
    text: c.text.map((f) => f.name),
    hasOthers: c.others.length > 0,
    sharedEntries: model.modelType === 'contentType' && model.draftAndPublish && w.scope.status === 'published',
    grams: c.grams,
    scanOthers: () => scan(c.others),
    scanText: () => scan(c.text),
  });
}

/**
 * Strapi 5's `publicationFilter` over versions of `status` aliased `alias` (its
 * buildPublicationFilterWhere): each version is kept by whether the document has a version
 * of the other status in the same locale (or, `-document`, in any), and for `modified` /
 * `unmodified` whether the draft was saved after the published version. A mode that cannot
 * hold for `status` keeps nothing; types without draft & publish are not filtered.
 */
function publicationSql(model: AnyModel, alias: string, mode: PublicationFilter, status: 'draft' | 'published'): Sql {
  if (model.modelType !== 'contentType' || !model.draftAndPublish) return sql.empty;
  const own = column(alias, V.publishedAt);
  const draft = status === 'draft';
  // The other status's version, `o`, of the same document (and locale unless document-wide).
  const other = (sameLocale: boolean, extra: Sql = sql.empty) =>
    sql`EXISTS (SELECT 1 FROM ${tableOf(model)} pf WHERE ${sql.and([
      sql`${column('pf', V.documentId)} = ${column(alias, V.documentId)}`,
      sameLocale ? sql`${column('pf', V.locale)} = ${column(alias, V.locale)}` : sql.empty,
      draft ? sql`${column('pf', V.publishedAt)} IS NOT NULL` : sql`${column('pf', V.publishedAt)} IS NULL`,
      extra,
    ])})`;
  const versions = draft ? sql`${own} IS NULL` : sql`${own} IS NOT NULL`;
  const nothing = sql.raw('1 = 0');
  // The draft's and the published version's updatedAt, whichever side `alias` is.
  const [draftSaved, publishedSaved] = draft
    ? [column(alias, V.updatedAt), column('pf', V.updatedAt)]
    : [column('pf', V.updatedAt), column(alias, V.updatedAt)];
  switch (mode) {
    case 'never-published':
      return draft ? sql.and([versions, sql.not(other(true))]) : nothing;
    case 'never-published-document':
      return draft ? sql.and([versions, sql.not(other(false))]) : nothing;
    case 'has-published-version':
      return sql.and([versions, other(true)]);
    case 'has-published-version-document':
      return sql.and([versions, other(false)]);
    case 'modified':
      return sql.and([versions, other(true, sql`${draftSaved} > ${publishedSaved}`)]);
    case 'unmodified':
      return sql.and([versions, other(true, sql`${draftSaved} <= ${publishedSaved}`)]);
    case 'published-without-draft':
      return draft ? nothing : sql.and([versions, sql.not(other(true))]);
    case 'published-with-draft':
      return draft ? nothing : sql.and([versions, other(true)]);
  }
}

/**
 * What `c` (negated or not) makes of a joined row of NULLs, in SQL's three values (null:
 * unknown), exactly as leafSql's SQL would: only `true` keeps the row.
 */
function onNullRow(c: Condition, negated: boolean): boolean | null {
  const not = (v: boolean | null) => (negated && v !== null ? !v : v);
  switch (c.kind) {
    case 'and':
    case 'or': {
      const values = c.parts.map((p) => onNullRow(p, negated));
      const conjunction = (c.kind === 'and') !== negated;
      if (values.includes(!conjunction)) return !conjunction;
      return values.includes(null) ? null : conjunction;
    }
    case 'not':
      return onNullRow(c.part, !negated);
    case 'related':
      // Behind a row of NULLs every further join is a row of NULLs too.
      return c.condition ? onNullRow(c.condition, negated) : c.none !== negated;
    case 'null':
      return not(c.isNull);
    case 'in':
      return c.values.length === 0 ? not(c.negate) : null;
    case 'text':
      // `$endsWith ''` is `IS NOT NULL`; every other text test of NULL is unknown.
      return (c.op === '$endsWith' || c.op === '$endsWithi') && c.value === '' ? not(false) : null;
    default:
      return null;
  }
}

/** `$contains`, `$startsWith`, `$endsWith`, `$eqi` and their negated and case-insensitive forms. */
function textCondition(dialect: Dialect, text: Sql, col: Sql, op: Extract<Condition, { kind: 'text' }>['op'], value: string): Sql {
  const ci = op.endsWith('i');
  const hay = ci ? dialect.lower(col) : text;
  const needle = ci ? dialect.lower(sql`${value}`) : sql`${value}`;
  switch (op) {
    case '$eqi':
      return sql`${hay} = ${needle}`;
    case '$nei':
      return sql`${hay} <> ${needle}`;
    case '$contains':
    case '$containsi':
      return sql`${dialect.position(hay, needle)} > 0`;
    case '$notContains':
    case '$notContainsi':
      return sql`NOT (${dialect.position(hay, needle)} > 0)`;
    case '$startsWith':
    case '$startsWithi':
      return sql`${dialect.position(hay, needle)} = 1`;
    case '$endsWith':
    case '$endsWithi':
      // Every value ends with the empty string.
      if (value === '') return sql`${col} IS NOT NULL`;
      return sql`${dialect.suffix(hay, sql`${value.length}`)} = ${needle}`;
  }
}

/**
 * "The row has a related row matching" (see the WHERE notes above for NOT and missing rows).
 * On SQLite this is `key IN (SELECT …)`, a subquery that does not depend on the outer row, so
 * SQLite runs it once per statement into a temporary index (as a correlated EXISTS it ran once
 * per row: 200 relation conditions took seconds on 100 articles). PostgreSQL keeps EXISTS,
 * which its planner turns into a semi-join (and NOT EXISTS into an anti-join, where NOT IN
 * over a large subquery would not be).
 */
function related(w: Walk, model: AnyModel, alias: string, c: Extract<Condition, { kind: 'related' }>, negated: boolean): Sql {
  const inner = `f${++w.aliases}`;
  const hop = hopThrough(model, c.name, w.scope, inner)!;
  const outer = hop.parentValues(alias);
  const exists = (condition: Sql, none: boolean): Sql =>
    w.dialect.semiJoin({ outer, keys: hop.parentKeys, from: hop.from, where: sql.and([hop.where, condition]), none });
  // Operators on the link itself (`filters[author][$null]`): no related row, or some.
  if (!c.condition) return exists(sql.empty, c.none !== negated);
  const some = exists(compile(w, hop.to, inner, c.condition, negated), false);
  return onNullRow(c.condition, negated) === true ? sql.or([some, exists(sql.empty, true)]) : some;
}

// ─── ORDER BY ────────────────────────────────────────────────────────────────

/**
 * `sort` → ORDER BY. A path through to-one relations or single components (nested too)
 * sorts by a correlated subquery through the path resolver, so each document still
 * appears once; `id` is always the last key so pages are stable.
 */

export function orderBy(model: AnyModel, sort: SortItem[], scope: VersionScope, alias = 't'): Sql {
  let counter = 0;

  /** The value at `path`, starting from the row aliased `from` of `current`. */
  const valueOf = (current: AnyModel, from: string, path: string[]): Sql => {
    const [head, ...rest] = path;
    if (rest.length === 0) return column(from, head!);
    const inner = `s${++counter}`;
    const hop = hopThrough(current, head!, scope, inner)!;
    return sql`(SELECT ${valueOf(hop.to, inner, rest)} FROM ${hop.from} WHERE ${correlate(hop, from)} ORDER BY ${hop.order} LIMIT 1)`;
  };

  // Empty values first when ascending, on both engines (PostgreSQL's default is the opposite).
  const parts = sort.map((item) => sql`${valueOf(model, alias, item.path)} ${sql.raw(item.order === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST')}`);
  // `id ASC` breaks ties as Strapi does; an index on (locale, column) still feeds the rows
  // in order, and the engine sorts only within runs of equal values.
  if (!sort.some((s) => s.path.length === 1 && s.path[0] === 'id')) parts.push(sql`${column(alias, V.id)} ASC`);
  return sql.join(parts);
}

// ─── Pages, totals, one version ──────────────────────────────────────────────

/**
 * The statements of a read plan: a page of versions, its total, one version. The plan is
 * already checked (query/parse.ts); this only assembles SQL through the builder.
 */

/** The WHERE clause of a plan (with a leading space), or nothing. */
function whereOf(dialect: Dialect, registry: Registry, ct: ContentType, query: ReadQuery, extra: Sql = sql.empty): Sql {
  const condition = sql.and([
    query.everyStatus ? localeCondition(ct, query.locale, 't') : versionScope(ct, query, 't'),
    query.filters ? whereSql(dialect, registry, ct, query.filters, query) : sql.empty,
    extra,
  ]);
  return condition.isEmpty ? sql.empty : sql` WHERE ${condition}`;
}

export interface ListStatements {
  page: Sql;
  /** The total: COUNT(*) of every matching version, or the maintained count (db/counts.ts) when only locale and status choose. */
  count: Sql;
  reader: RowReader;
}

/**
 * PostgreSQL: from this offset on, a page is read as a deferred join. The inner query walks
 * only row ids past the offset, an index-only scan of the `(locale, column)` sort index (the
 * list index for drafts), and the outer one reads the page's rows by id; a plain OFFSET
 * fetched every skipped row from the heap (page 5,000 of 25 at a million articles: 195 ms,
 * deferred 14). Below it the plain statement is as fast and simpler. SQLite keeps the plain
 * statement: its OFFSET already skips rows without reading them (a deferred seek), and the
 * join measured no faster there. Tests force either form (`deferredFrom`).
 */
export const DEFERRED_PAGE_FROM = postgresDialect.deferredPageFrom;

export function listStatements(
  dialect: Dialect,
  registry: Registry,
  ct: ContentType,
  query: ReadQuery,
  options: { deferredFrom?: number } = {},
): ListStatements {
  const reader = rowReader(ct, query.fields);
  const where = whereOf(dialect, registry, ct, query);
  const { start, limit } = query.pagination;
  const order = orderBy(ct, query.sort, query);
  const table = tableOf(ct);
  // The inner query's `t` hides the outer one, so the same WHERE and ORDER BY serve both; the
  // outer ORDER BY only puts the page's rows back in order.
  const page =
    start >= (options.deferredFrom ?? dialect.deferredPageFrom)
      ? sql`SELECT ${reader.columns} FROM (SELECT ${column('t', V.id)} AS ${sql.id('pageId')} FROM ${table} t${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${start}) p JOIN ${table} t ON ${column('t', V.id)} = ${column('p', 'pageId')} ORDER BY ${order}`
      : sql`SELECT ${reader.columns} FROM ${table} t${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${start}`;
  return {
    page,
    // Strapi's own types (files, users, roles) keep no maintained totals (db/counts.ts), nor do reads of every status: counted.
    count:
      query.filters || ct.system || (query.everyStatus && ct.draftAndPublish)
        ? sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${table} t${where}`
        : maintainedCount(ct, query),
    reader,
  };
}

/** One version of a document (`documentId` undefined: the single type's only document). */
export function findOneStatement(
  dialect: Dialect,
  registry: Registry,
  ct: ContentType,
  documentId: string | undefined,
  query: ReadQuery,
): { statement: Sql; reader: RowReader } {
  const reader = rowReader(ct, query.fields);
  const byId = documentId === undefined ? sql.empty : sql`${column('t', V.documentId)} = ${documentId}`;
  const where = whereOf(dialect, registry, ct, query, byId);
  // A documentId, one locale and one status name at most one row (the version index is
  // unique on them; a type without draft & publish has only published rows), so no ORDER BY:
  // SQLite sorted even that one row in a temporary B-tree, 15 of a find-one's 17 µs in SQL.
  const pinned = documentId !== undefined && !(query.everyStatus && ct.draftAndPublish) && (!ct.localized || query.locale !== '*');
  const order = pinned ? sql.empty : sql` ORDER BY ${column('t', V.id)}`;
  return { statement: sql`SELECT ${reader.columns} FROM ${tableOf(ct)} t${where}${order} LIMIT 1`, reader };
}
