/**
 * The query compiler without a server: the SQL and parameters each operator and each path
 * shape produce, on both dialects. Parameters must line up with their placeholders
 * whatever the nesting.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import qs from 'qs';
import { postgresDialect, sqliteDialect, type Dialect } from '../../../src/db/dialect';
import { listStatements, orderBy, whereSql } from '../../../src/query/compile';
import { parseFilters } from '../../../src/query/filters';
import { parseReadQuery, parseSort } from '../../../src/query/parse';
import { loadRegistry } from '../../../src/registry/load';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const nested = loadRegistry(resolve(import.meta.dir, '../../fixtures/nested'));
const article = example.contentType('api::article.article')!;
const page = nested.contentType('api::page.page')!;
const scope = { status: 'published' as const, locale: 'en' };

const where = (dialect: Dialect, filters: Record<string, unknown>, registry = example, model = article) =>
  whereSql(dialect, registry, model, parseFilters(registry, model, filters), scope).compile(dialect === sqliteDialect ? 'question' : 'numbered');

describe('scalar operators', () => {
  test.each([
    [{ title: { $eq: 'a' } }, '"t"."title" = ?', ['a']],
    [{ title: { $ne: 'a' } }, '"t"."title" <> ?', ['a']],
    [{ title: { $eq: null } }, '"t"."title" IS NULL', []],
    [{ views: { $lt: '3' } }, '"t"."views" < ?', [3]],
    [{ views: { $gte: 3 } }, '"t"."views" >= ?', [3]],
    [{ views: { $in: ['1', '2'] } }, '"t"."views" IN (?, ?)', [1, 2]],
    [{ views: { $notIn: [] } }, '1 = 1', []],
    [{ views: { $between: [1, 5] } }, '"t"."views" BETWEEN ? AND ?', [1, 5]],
    [{ title: { $null: true } }, '"t"."title" IS NULL', []],
    [{ title: { $notNull: true } }, '"t"."title" IS NOT NULL', []],
    [{ title: { $contains: 'x' } }, 'instr("t"."title", ?) > 0', ['x']],
    [{ title: { $notContainsi: 'x' } }, 'NOT (instr(folio_lower("t"."title"), folio_lower(?)) > 0)', ['x']],
    [{ title: { $startsWith: 'x' } }, 'instr("t"."title", ?) = 1', ['x']],
    [{ title: { $endsWith: 'xy' } }, 'substr("t"."title", -(?)) = ?', [2, 'xy']],
    [{ title: { $eqi: 'X' } }, 'folio_lower("t"."title") = folio_lower(?)', ['X']],
    [{ title: 'a', views: 2 }, '("t"."title" = ?) AND ("t"."views" = ?)', ['a', 2]],
    [{ $or: [{ title: 'a' }, { views: 2 }] }, '("t"."title" = ?) OR ("t"."views" = ?)', ['a', 2]],
    [{ $not: { title: 'a' } }, 'NOT ("t"."title" = ?)', ['a']],
    [{ title: { $eq: ['a', 'b'] } }, '("t"."title" = ?) OR ("t"."title" = ?)', ['a', 'b']],
  ] as [Record<string, unknown>, string, (string | number)[]][])('%j on SQLite → %s', (filters, text, params) => {
    expect(where(sqliteDialect, filters)).toEqual({ text, params });
  });

  test('PostgreSQL numbers its placeholders, folds through ICU and reads numbers as text for text operators', () => {
    expect(where(postgresDialect, { title: { $containsi: 'x' }, views: { $gt: 1 } })).toEqual({
      text: '(strpos(lower(CAST("t"."title" AS TEXT) COLLATE "und-x-icu"), lower(CAST($1 AS TEXT) COLLATE "und-x-icu")) > 0) AND ("t"."views" > $2)',
      params: ['x', 1],
    });
    expect(where(postgresDialect, { views: { $endsWith: '2' } }).text).toBe('right(CAST("t"."views" AS TEXT), $1) = $2');
  });
});

describe('paths through relations and components', () => {
  test('an owning relation on SQLite is an IN over its link table joined to the version the reader sees', () => {
    const { text, params } = where(sqliteDialect, { author: { name: 'Ada' } });
    expect(text).toStartWith('"t"."id" IN (SELECT "f1l"."sourceId" FROM "articles_author_lnk" "f1l" JOIN "authors" "f1" ON ');
    expect(text).toEndWith('WHERE "f1"."name" = ?)');
    expect(params).toEqual(['Ada']);
  });

  test('an owning relation on PostgreSQL is a correlated EXISTS', () => {
    const { text } = where(postgresDialect, { author: { name: 'Ada' } });
    expect(text).toStartWith('EXISTS (SELECT 1 FROM "articles_author_lnk" "f1l" JOIN "authors" "f1" ON ');
    expect(text).toContain('("f1l"."sourceId" = "t"."id") AND ("f1"."name" = $1)');
  });

  test('an inverse relation matches the parent document in its locale, the targets scoped to the reader', () => {
    const category = example.contentType('api::category.category')!;
    const { text, params } = where(sqliteDialect, { articles: { title: 'x' } }, example, category);
    expect(text).toContain('("t"."documentId", "t"."locale") IN (SELECT "f1l"."targetDocumentId", "f1l"."targetLocale"');
    expect(text).toContain('"f1"."publishedAt" IS NOT NULL');
    expect(params).toEqual(['en', 'x']);
  });

  test('$null on a relation asks whether any link exists', () => {
    expect(where(sqliteDialect, { author: { $null: true } }).text).toStartWith('"t"."id" NOT IN (SELECT "f1l"."sourceId" FROM');
  });

  test('a component inside a component nests two hops, each bound to its own owner and field', () => {
    const { text, params } = where(sqliteDialect, { seo: { meta: { rank: { $gt: 2 } } } }, nested, page);
    expect(text).toBe(
      '"t"."id" IN (SELECT "f1"."__ownerId" FROM "components_seo_page_seos" "f1" WHERE ("f1"."__ownerType" = ? AND "f1"."__ownerField" = ?) AND ' +
        '("f1"."id" IN (SELECT "f2"."__ownerId" FROM "components_seo_metas" "f2" WHERE ("f2"."__ownerType" = ? AND "f2"."__ownerField" = ?) AND ("f2"."rank" > ?))))',
    );
    expect(params).toEqual(['api::page.page', 'seo', 'seo.page-seo', 'meta', 2]);
  });
});

describe('sort', () => {
  test('sorting through a component inside a component binds each level parameters in place', () => {
    const order = orderBy(page, parseSort(page, 'seo.meta.rank:desc'), scope).compile('numbered');
    expect(order.text).toBe(
      '(SELECT (SELECT "s2"."rank" FROM "components_seo_metas" "s2" WHERE ("s2"."__ownerType" = $1 AND "s2"."__ownerField" = $2) AND ("s2"."__ownerId" = "s1"."id") ORDER BY "s2"."__order" LIMIT 1) ' +
        'FROM "components_seo_page_seos" "s1" WHERE ("s1"."__ownerType" = $3 AND "s1"."__ownerField" = $4) AND ("s1"."__ownerId" = "t"."id") ORDER BY "s1"."__order" LIMIT 1) DESC NULLS LAST, "t"."id" ASC',
    );
    expect(order.params).toEqual(['seo.page-seo', 'meta', 'api::page.page', 'seo']);
  });

  test('id breaks ties unless it is sorted on already', () => {
    expect(orderBy(article, parseSort(article, 'title'), scope).toString()).toBe('"t"."title" ASC NULLS FIRST, "t"."id" ASC');
    expect(orderBy(article, parseSort(article, 'id:desc'), scope).toString()).toBe('"t"."id" DESC NULLS LAST');
  });
});

describe('a whole list request', () => {
  test('scope, filters, order and the page bind in the order they appear on PostgreSQL', () => {
    const raw = qs.parse('filters[title][$contains]=x&sort=views:desc&pagination[page]=2&pagination[pageSize]=10&fields[0]=title');
    const plan = parseReadQuery(example, article, raw as Record<string, unknown>, 'en');
    const { page: statement, count } = listStatements(postgresDialect, example, article, plan);
    const compiled = statement.compile('numbered');
    expect(compiled.text).toBe(
      'SELECT "t"."id", "t"."documentId", "t"."title" FROM "articles" t WHERE (("t"."publishedAt" IS NOT NULL) AND ("t"."locale" = $1)) AND (strpos("t"."title", $2) > 0) ' +
        'ORDER BY "t"."views" DESC NULLS LAST, "t"."id" ASC LIMIT $3 OFFSET $4',
    );
    expect(compiled.params).toEqual(['en', 'x', 10, 10]);
    expect(count.compile('question').params).toEqual(['en', 'x']);
  });
});
