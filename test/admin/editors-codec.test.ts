/**
 * The blocks editor's codec and the uid slug, without a browser: Strapi blocks JSON read into
 * the editor and written back unchanged is the same JSON; edited blocks come out as Strapi
 * nodes; slugs follow @sindresorhus/slugify's defaults, as Strapi's uid generation does.
 */
import { describe, expect, test } from 'bun:test';
import { fromBlocks, parseInline, toBlocks } from '../../src/admin/ui/fields/blocks-codec';
import { slugify, uniqueSlug } from '../../src/admin/slug';

const STRAPI_BLOCKS = [
  { type: 'heading', level: 2, children: [{ type: 'text', text: 'Title' }] },
  { type: 'paragraph', children: [{ type: 'text', text: 'Plain ' }, { type: 'text', text: 'bold', bold: true }, { type: 'text', text: ' and ' }, { type: 'link', url: 'https://example.com/a(b)', children: [{ type: 'text', text: 'a *link*', italic: true }] }] },
  { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list', format: 'ordered', indentLevel: 1, children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }] }] },
  { type: 'quote', children: [{ type: 'text', text: 'snake_case ~ [x]' }] },
  { type: 'code', language: 'ts', children: [{ type: 'text', text: 'const a = `b`;\n' }] },
  { type: 'image', image: { name: 'p.png', url: '/uploads/p.png', alternativeText: 'A p', width: 1, height: 1 }, children: [{ type: 'text', text: '' }] },
  { type: 'some-plugin-block', data: { x: 1 } },
];

describe('blocks codec', () => {
  test('blocks read and written back without an edit are the very same JSON', () => {
    expect(toBlocks(fromBlocks(structuredClone(STRAPI_BLOCKS)))).toEqual(STRAPI_BLOCKS);
  });

  test('an edit that changes nothing visible still writes nodes equal to the originals, marks and links included', () => {
    // Force a rebuild from the text of every block the editor understands: the markup round-trips.
    const items = fromBlocks(structuredClone(STRAPI_BLOCKS)).map((b) => ({ ...b, original: undefined }));
    expect(toBlocks(items).slice(0, 6)).toEqual(STRAPI_BLOCKS.slice(0, 6));
  });

  test('edited text becomes Strapi nodes: marks, links, list items per line, a heading level', () => {
    expect(parseInline('a **b** *c* __d__ ~~e~~ `f` [g](https://x.test) \\*h')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'text', text: 'b', bold: true },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'c', italic: true },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'd', underline: true },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'e', strikethrough: true },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'f', code: true },
      { type: 'text', text: ' ' },
      { type: 'link', url: 'https://x.test', children: [{ type: 'text', text: 'g' }] },
      { type: 'text', text: ' *h' },
    ]);
    const [heading, list] = fromBlocks([STRAPI_BLOCKS[0], STRAPI_BLOCKS[2]]);
    expect(toBlocks([{ ...heading!, level: 3, text: 'New' }, { ...list!, format: 'unordered', text: 'x\ny' }])).toEqual([
      { type: 'heading', level: 3, children: [{ type: 'text', text: 'New' }] },
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'x' }] }, { type: 'list-item', children: [{ type: 'text', text: 'y' }] }] },
    ]);
  });
});

describe('uid slug', () => {
  test('slugs transliterate, spell & as and, split camelCase and keep only a-z, digits and single dashes', () => {
    expect(slugify('Hello World')).toBe('hello-world');
    expect(slugify('  Crème brûlée & Café!  ')).toBe('creme-brulee-and-cafe');
    expect(slugify('fooBar XMLHttpRequest')).toBe('foo-bar-xml-http-request');
    expect(slugify('Straße --- 2024')).toBe('strasse-2024');
    expect(slugify('日本')).toBe('');
  });

  test('a taken slug gets the first free numeric suffix', () => {
    expect(uniqueSlug('a', new Set())).toBe('a');
    expect(uniqueSlug('a', new Set(['a', 'a-1']))).toBe('a-2');
  });
});
