/**
 * The statements of issue #21's "Scale" reads, without a database: a deep page as a deferred
 * join (ids past the offset in an inner query, the page's rows by id, the same WHERE and
 * ORDER BY bound in place on both sides), and a total of a list that only its locale and
 * status choose, read from the maintained counts instead of counting rows.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import qs from 'qs';
import { postgresDialect, sqliteDialect } from '../../../src/db/dialect';
import { DEFERRED_PAGE_FROM, listStatements } from '../../../src/query/compile';
import { parseReadQuery } from '../../../src/query/parse';
import { loadRegistry } from '../../../src/registry/load';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const article = example.contentType('api::article.article')!;
const author = example.contentType('api::author.author')!;
const plan = (query: string, ct = article) => parseReadQuery(example, ct, qs.parse(query) as Record<string, unknown>, 'en');

describe('a deep page', () => {
  test('is a deferred join on PostgreSQL from the threshold on, its filter and order bound on both sides in place', () => {
    const { page } = listStatements(
      postgresDialect,
      example,
      article,
      plan(`filters[views][$gt]=3&sort=views:desc&pagination[start]=${DEFERRED_PAGE_FROM}&pagination[limit]=25&fields[0]=title`),
    );
    const compiled = page.compile('numbered');
    expect(compiled.text).toBe(
      'SELECT "t"."id", "t"."documentId", "t"."title" FROM (SELECT "t"."id" AS "pageId" FROM "articles" t ' +
        'WHERE (("t"."publishedAt" IS NOT NULL) AND ("t"."locale" = $1)) AND ("t"."views" > $2) ' +
        'ORDER BY "t"."views" DESC NULLS LAST, "t"."id" ASC LIMIT $3 OFFSET $4) p JOIN "articles" t ON "t"."id" = "p"."pageId" ' +
        'ORDER BY "t"."views" DESC NULLS LAST, "t"."id" ASC',
    );
    expect(compiled.params).toEqual(['en', 3, 25, DEFERRED_PAGE_FROM]);
  });

  test('stays a plain OFFSET below the threshold, and on SQLite unless asked for', () => {
    const shallow = listStatements(postgresDialect, example, article, plan(`pagination[start]=${DEFERRED_PAGE_FROM - 1}`)).page.toString();
    expect(shallow).not.toContain('pageId');
    expect(listStatements(sqliteDialect, example, article, plan('pagination[start]=100000')).page.toString()).not.toContain('pageId');
    expect(listStatements(sqliteDialect, example, article, plan('pagination[start]=5'), { deferredFrom: 5 }).page.toString()).toContain('pageId');
  });
});

describe('the total', () => {
  test('of a list chosen by locale and status reads the maintained counts of that key', () => {
    const count = listStatements(sqliteDialect, example, article, plan('status=draft&locale=fr')).count.compile('question');
    expect(count.text).toBe(
      'SELECT CAST(COALESCE(SUM("n"), 0) AS INTEGER) AS n FROM "folio_counts" WHERE ("contentTable" = ?) AND ("locale" = ?) AND ("published" = ?)',
    );
    expect(count.params).toEqual(['articles', 'fr', 0]);
  });

  test('of every locale, or of a type without i18n and draft & publish, sums every key of the table', () => {
    expect(listStatements(sqliteDialect, example, article, plan('locale=*')).count.compile('question').params).toEqual(['articles', 1]);
    expect(listStatements(sqliteDialect, example, author, plan('', author)).count.compile('question').params).toEqual(['authors']);
  });

  test('of a filtered list still counts the matching rows', () => {
    const count = listStatements(sqliteDialect, example, article, plan('filters[views][$gt]=3')).count.toString();
    expect(count).toContain('COUNT(*)');
    expect(count).not.toContain('folio_counts');
  });
});
