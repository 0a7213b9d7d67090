/**
 * Populate's statements without a server: what they bind and what they write into their text.
 * SQLite prepares a statement again whenever a bound text value that a join's WHERE compares
 * is bound anew (bun:sqlite binds on every call), so schema names are written as literals and
 * only the parents' keys (and a client's filter values) are bound.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { postgresDialect, sqliteDialect } from '../../../src/db/dialect';
import { FILE_COLUMNS } from '../../../src/db/layout';
import { rowReader } from '../../../src/query/row-reader';
import {
  componentStatement,
  localizationsStatement,
  mediaSelect,
  morphSourcesStatement,
  morphTargetsStatement,
  orderUnionRows,
  owningRelationStatement,
  schemaName,
  selectStatement,
  slotName,
  unionGroups,
  unionStatement,
  unionWidth,
} from '../../../src/query/populate-statements';
import { loadRegistry } from '../../../src/registry/load';
import type { ContentType, MorphAttribute, RelationAttribute } from '../../../src/registry/types';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const morph = loadRegistry(resolve(import.meta.dir, '../../fixtures/morph'));
const article = example.contentType('api::article.article')!;
const scope = { status: 'published' as const, locale: 'en' };
const ids = [3, 1, 2];

describe('populate statements bind only values that change between requests', () => {
  test('a media read writes the owner type and attribute into its text and binds only the parent ids', () => {
    for (const style of ['question', 'numbered'] as const) {
      const { text, params } = selectStatement(mediaSelect(article, 'cover', ids, FILE_COLUMNS)).compile(style);
      expect(params).toEqual(ids);
      expect(text).toContain(`"r"."relatedType" = 'api::article.article' AND "r"."field" = 'cover'`);
    }
  });

  test('a component read writes the owner type and attribute into its text and binds only the parent ids', () => {
    const seo = example.component('shared.seo')!;
    const { statement } = componentStatement(sqliteDialect, example, article, 'seo', seo, ids, {}, scope);
    const { text, params } = statement.compile('question');
    expect(params).toEqual(ids);
    expect(text).toContain(`"t"."__ownerType" = 'api::article.article' AND "t"."__ownerField" = 'seo'`);
  });

  test("a level's union binds the parent ids of each branch and no schema name", () => {
    const seo = componentStatement(sqliteDialect, example, article, 'seo', example.component('shared.seo')!, ids, {}, scope).select;
    const media = mediaSelect(article, 'gallery', ids, FILE_COLUMNS);
    const { params } = unionStatement([media, seo]).statement.compile('question');
    expect(params).toEqual([...ids, ...ids]);
  });

  test('polymorphic reads write the linked type into their text', () => {
    const comment = morph.contentType('api::comment.comment')!;
    const target = morph.contentType('api::video.video')!;
    const subject = comment.attributes.subject as MorphAttribute;
    const targets = morphTargetsStatement(postgresDialect, morph, subject, target, ids, {}, scope).statement.compile('numbered');
    expect(targets.params).toEqual(ids);
    expect(targets.text).toContain(`= 'api::video.video'`);
    const video = morph.contentType('api::video.video') as ContentType;
    const mentionedIn = video.attributes.mentionedIn as MorphAttribute;
    const sources = morphSourcesStatement(sqliteDialect, morph, video, mentionedIn, ['doc1'], ['en'], {}, scope).statement.compile('question');
    expect(sources.params).not.toContain('api::video.video');
    expect(sources.text).toContain(`= 'api::video.video'`);
  });

  test('a schema name is quoted as an SQL string, its quotes doubled, and NUL refused', () => {
    expect(schemaName("it's").compile('question')).toEqual({ text: "'it''s'", params: [] });
    expect(() => schemaName('a\u0000b')).toThrow();
  });
});

describe('row readers', () => {
  test('readAt builds from renamed columns the same object, in the same key order, that read builds from named ones', () => {
    const reader = rowReader(article);
    const named = {
      id: 7,
      documentId: 'doc7',
      title: 'T',
      slug: 't',
      summary: null,
      body: '[{"type":"paragraph","children":[{"type":"text","text":"x"}]}]',
      kind: 'news',
      views: 3,
      rating: 1.5,
      featured: 1,
      publishDate: '2024-01-15',
      meta: '{"a":1}',
      createdAt: 'c',
      updatedAt: 'u',
      publishedAt: 'p',
      locale: 'en',
    };
    const names = reader.parts.map(([name]) => name);
    expect(names).toEqual(Object.keys(named));
    const slots = Object.fromEntries(names.map((name, i) => [slotName(i), named[name as keyof typeof named]]));
    const fromSlots = reader.readAt(
      slots,
      names.map((_, i) => slotName(i)),
    );
    const fromNames = reader.read(named);
    expect(JSON.stringify(fromSlots)).toBe(JSON.stringify(fromNames));
    expect(fromSlots.featured).toBe(true);
  });
});

describe("a level's unions", () => {
  const component = (name: string, field: string) =>
    componentStatement(sqliteDialect, example, article, field, example.component(name)!, ids, {}, scope).select;
  const relation = (name: string) => owningRelationStatement(sqliteDialect, example, article.attributes[name] as RelationAttribute, ids, {}, scope).select;

  test("a stored order's keys are read from the columns that hold them, and only the others get slots of their own", () => {
    const seo = component('shared.seo', 'seo');
    const tags = relation('tags');
    // A component's parent and order are columns already; a link's position is not.
    expect(unionWidth(seo)).toBe(seo.columns.length);
    expect(unionWidth(tags)).toBe(tags.columns.length + 1);
    const { statement, keys } = unionStatement([seo, tags]);
    expect(keys).toEqual([
      [slotName(0), slotName(1)],
      [slotName(0), '__o0'],
    ]);
    const text = statement.compile('question').text;
    expect(text).toContain(`SELECT 0 AS __b, NULL AS __o0, "t"."__ownerId" AS c0, "t"."__order" AS c1,`);
    expect(text).toContain(`SELECT 1 AS __b, "l"."position" AS __o0, "l"."sourceId" AS c0,`);
  });

  test('each branch of a union is put in order by its own keys', () => {
    const rows = [
      { __b: 1, __o0: 'b', c0: 1 },
      { __b: 0, __o0: null, c0: 2, c1: 0 },
      { __b: 1, __o0: 'a', c0: 1 },
      { __b: 0, __o0: null, c0: 1, c1: 1 },
      { __b: 0, __o0: null, c0: 1, c1: 0 },
    ];
    const [first, second] = orderUnionRows(rows, [
      ['c0', 'c1'],
      ['c0', '__o0'],
    ]);
    expect(first!.map((r) => [r.c0, r.c1])).toEqual([
      [1, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(second!.map((r) => r.__o0)).toEqual(['a', 'b']);
  });

  test("populate=*'s reads go out as two unions: media and whole articles apart from components and small targets", () => {
    const media = ['cover', 'gallery'].map((field) => mediaSelect(article, field, ids, FILE_COLUMNS));
    const relations = ['category', 'author', 'tags', 'related'].map(relation);
    const components = [component('shared.seo', 'seo'), component('shared.link', 'links'), component('shared.quote', 'blocks')];
    const localizations = localizationsStatement(sqliteDialect, example, article, ['d1', 'd2', 'd3'], ids, {}, scope).select;
    const selects = [...media, ...relations, ...components, localizations];
    // cover, gallery, related (articles) and localizations (articles) are 17-22 slots wide; the rest at most 11.
    expect(unionGroups(selects)).toEqual([
      [2, 3, 4, 6, 7, 8],
      [0, 1, 5, 9],
    ]);
  });

  test('reads of close widths stay in one union', () => {
    const selects = [relation('category'), relation('author'), component('shared.seo', 'seo')];
    expect(unionGroups(selects)).toEqual([[0, 1, 2]]);
    expect(unionGroups([relation('tags')])).toEqual([[0]]);
  });
});

describe("a level's reads built again on every request", () => {
  test('reuse the columns made for their reader the first time, and build their order only when a statement needs it', () => {
    const seo = example.component('shared.seo')!;
    const first = componentStatement(sqliteDialect, example, article, 'seo', seo, ids, {}, scope).select;
    const again = componentStatement(sqliteDialect, example, article, 'seo', seo, [9, 8], {}, scope).select;
    expect(again.columns).toBe(first.columns);
    const tags = article.attributes.tags as RelationAttribute;
    expect(owningRelationStatement(sqliteDialect, example, tags, [1], {}, scope).select.columns).toBe(
      owningRelationStatement(sqliteDialect, example, tags, [2], {}, scope).select.columns,
    );
    expect(mediaSelect(article, 'cover', [1], FILE_COLUMNS).columns).toBe(mediaSelect(article, 'gallery', [2], FILE_COLUMNS).columns);
    // The order is the read's own: built from its getter, the same text every time.
    expect(selectStatement(again).compile('question').text).toContain('ORDER BY "t"."__ownerId", "t"."__order"');
    expect(Object.getOwnPropertyDescriptor(again, 'order')?.get).toBeDefined();
  });
});
