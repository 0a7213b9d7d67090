/**
 * `_q` without a server: which attributes a search looks at (Strapi's rules), and the SQL each
 * engine gets — the FTS5 table on SQLite when the trigram index can serve the search, LIKE over
 * the folded column (what the pg_trgm indexes hold) on PostgreSQL.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { postgresDialect, sqliteDialect } from '../../../src/db/dialect';
import { whereSql } from '../../../src/query/compile';
import { parseSearch } from '../../../src/query/parse';
import type { Condition } from '../../../src/query/types';
import { loadRegistry } from '../../../src/registry/load';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const article = example.contentType('api::article.article')!;
const author = example.contentType('api::author.author')!;
const scope = { status: 'published' as const, locale: 'en' };

const search = (q: string, ct = article) => parseSearch(ct, q) as Extract<Condition, { kind: 'search' }>;
const names = (q: string, ct = article) => {
  const s = search(q, ct);
  return { text: s.text.map((f) => f.name), others: s.others.map((f) => f.name) };
};
const sqlOf = (q: string, dialect = sqliteDialect, ct = article) =>
  whereSql(dialect, example, ct, search(q, ct), scope).compile(dialect === sqliteDialect ? 'question' : 'numbered');

describe('what _q looks at', () => {
  test('text attributes always (string, text, uid, enumeration, email, richtext), never private ones', () => {
    expect(names('hello')).toEqual({ text: ['title', 'slug', 'summary', 'kind'], others: [] });
    // author.internalNotes is private.
    expect(names('hello', author).text).not.toContain('internalNotes');
    expect(names('hello', author).text).toContain('email');
  });

  test('leaves out attributes marked searchable: false, as Strapi does', () => {
    const registry = loadRegistry(resolve(import.meta.dir, '../../fixtures/strapi-project'));
    const product = registry.contentType('api::product.product')!;
    expect(product.attributes.name).toMatchObject({ searchable: false });
    expect(names('hello', product).text).not.toContain('name');
    expect(names('hello', product).text).toContain('description');
  });

  test('id only when the search is all digits (its text never holds anything else), numbers when it reads as a number', () => {
    expect(names('42').others).toEqual(['id', 'views', 'rating']);
    expect(names('4.5').others).toEqual(['views', 'rating']);
    expect(names('-3').others).toEqual(['views', 'rating']);
    expect(names('42a').others).toEqual([]);
    expect(names(' ').others).toEqual([]);
  });

  test('nothing for an empty search, a 400 for one that is not text', () => {
    expect(parseSearch(article, '')).toBeUndefined();
    expect(() => parseSearch(article, ['a'])).toThrow();
  });
});

describe('the SQL of a search', () => {
  test('SQLite: a phrase query on the FTS5 table, of the folded text, quotes doubled', () => {
    expect(sqlOf('Hello "World"', sqliteDialect, author)).toEqual({
      text: '"t"."id" IN (SELECT rowid FROM "folio_search_authors_fts" WHERE "folio_search_authors_fts" MATCH ?)',
      params: ['"hello ""world"""'],
    });
  });

  test('SQLite, draft & publish: published versions are the matching rows and those sharing a matching draft’s entry (same text, same document and locale); drafts the matching rows', () => {
    expect(sqlOf('Hello', sqliteDialect, article)).toEqual({
      text:
        '"t"."id" IN (SELECT "t_qx"."id" FROM "folio_search_articles_fts" JOIN "articles" "t_qd" ON "t_qd"."id" = "folio_search_articles_fts".rowid' +
        ' JOIN "articles" "t_qx" ON "t_qx"."documentId" = "t_qd"."documentId" AND "t_qx"."locale" = "t_qd"."locale"' +
        ' WHERE "folio_search_articles_fts" MATCH ? AND ("t_qx"."id" = "t_qd"."id" OR ("t_qd"."publishedAt" IS NULL) AND ("t_qx"."publishedAt" IS NOT NULL)' +
        ' AND ("t_qx"."title" IS "t_qd"."title") AND ("t_qx"."slug" IS "t_qd"."slug") AND ("t_qx"."summary" IS "t_qd"."summary") AND ("t_qx"."kind" IS "t_qd"."kind")))',
      params: ['"hello"'],
    });
    expect(whereSql(sqliteDialect, example, article, search('Hello'), { status: 'draft', locale: 'en' }).compile('question')).toEqual({
      text: '"t"."id" IN (SELECT rowid FROM "folio_search_articles_fts" WHERE "folio_search_articles_fts" MATCH ?)',
      params: ['"hello"'],
    });
  });

  test('SQLite: under 3 characters (counted as code points) or with id and numbers, the rows are read', () => {
    for (const q of ['ab', '😀a', '42']) expect(sqlOf(q).text).not.toContain('folio_search');
    expect(sqlOf('😀ab').text).toContain('folio_search_articles_fts');
    expect(sqlOf('ab').text).toContain('instr(folio_lower("t"."title"), folio_lower(?)) > 0');
  });

  test('PostgreSQL: LIKE over the ICU-folded column with %, _ and \\ escaped', () => {
    const { text, params } = sqlOf('50%_a\\b', postgresDialect);
    expect(text).toContain('lower(CAST("t"."title" AS TEXT) COLLATE "und-x-icu") LIKE lower(CAST($1 AS TEXT) COLLATE "und-x-icu")');
    expect(params[0]).toBe('%50\\%\\_a\\\\b%');
  });
});
