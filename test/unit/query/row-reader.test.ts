/**
 * How a stored row becomes an answer's object (src/query/row-reader.ts): Strapi's key order,
 * values converted from their columns, and the in-place reading of list pages giving the
 * same object as the copying one.
 */
import { expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { rowReader } from '../../../src/query/row-reader';
import { loadRegistry } from '../../../src/registry/load';

const example = loadRegistry(resolve(import.meta.dir, '../../../content-types'));
const article = example.contentType('api::article.article')!;

/** An article row as SQLite returns it: booleans as 0/1, blocks and JSON as text. */
const stored = () => ({
  id: 7,
  documentId: 'a0mwupk8bnw8cky62qwg1iwp',
  title: 'T',
  slug: 't',
  summary: null,
  body: '[{"type":"paragraph","children":[{"type":"text","text":"x"}]}]',
  kind: 'news',
  views: 3,
  rating: 1.5,
  featured: 1,
  publishDate: '2024-01-15',
  meta: '{"a":[1,2]}',
  createdAt: 'c',
  updatedAt: 'u',
  publishedAt: 'p',
  locale: 'en',
});

test('a stored row is answered with booleans, blocks and JSON values converted, in Strapi key order', () => {
  const answer = rowReader(article).read(stored());
  expect(answer.featured).toBe(true);
  expect(answer.body).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }]);
  expect(answer.meta).toEqual({ a: [1, 2] });
  expect(Object.keys(answer)).toEqual(Object.keys(stored()));
});

test('reading a list page row in place converts the row itself and gives exactly what the copying read gives', () => {
  const reader = rowReader(article);
  const row = stored();
  const inPlace = reader.readInPlace(row);
  expect(inPlace).toBe(row);
  expect(inPlace).toEqual(reader.read(stored()));
  expect(Object.keys(inPlace)).toEqual(Object.keys(reader.read(stored())));
});

test('the copying read leaves out columns the reader did not select (a populate row keeps its own keys apart), for every model', () => {
  const answer = rowReader(article).read({ ...stored(), __parent: 3 });
  expect('__parent' in answer).toBe(false);
  // Types with no attribute to convert too (a tag: strings only), whose rows once came back as they were.
  for (const model of [...example.contentTypes, ...example.components]) {
    expect(Object.keys(rowReader(model).read({ id: 1, __parent: 3, __locale: 'en' }))).not.toContain('__locale');
  }
});
