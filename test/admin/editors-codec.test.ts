/**
 * The rich-text editor's codec and the uid slug, without a browser: Strapi blocks JSON read into
 * the editor's ProseMirror document and written back unchanged is the same JSON; edited blocks
 * come out as Strapi nodes; slugs follow @sindresorhus/slugify's defaults, as Strapi's uid
 * generation does.
 */
import { describe, expect, test } from 'bun:test';
import { Fragment, Slice } from 'prosemirror-model';
import { blocksSchema, readBlocks, writeBlocks } from '../../src/admin/ui/fields/blocks-codec';
import { slugify, uniqueSlug } from '../../src/admin/slug';

const STRAPI_BLOCKS = [
  { type: 'heading', level: 2, children: [{ type: 'text', text: 'Title' }] },
  {
    type: 'paragraph',
    children: [
      { type: 'text', text: 'Plain ' },
      { type: 'text', text: 'bold', bold: true },
      { type: 'text', text: ' and ' },
      { type: 'link', url: 'https://example.com/a(b)', children: [{ type: 'text', text: 'a *link*', italic: true }] },
    ],
  },
  {
    type: 'list',
    format: 'ordered',
    children: [
      { type: 'list-item', children: [{ type: 'text', text: 'one' }] },
      { type: 'list', format: 'ordered', indentLevel: 1, children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }] },
    ],
  },
  { type: 'quote', children: [{ type: 'text', text: 'snake_case ~ [x]' }] },
  { type: 'code', language: 'ts', children: [{ type: 'text', text: 'const a = `b`;\n' }] },
  { type: 'image', image: { name: 'p.png', url: '/uploads/p.png', alternativeText: 'A p', width: 1, height: 1 }, children: [{ type: 'text', text: '' }] },
  { type: 'some-plugin-block', data: { x: 1 } },
];

describe('blocks codec (Strapi blocks ⇄ the rich-text editor)', () => {
  test('blocks read and written back without an edit are the very same JSON, unknown blocks and attributes included', () => {
    const { doc, originals } = readBlocks(structuredClone(STRAPI_BLOCKS));
    expect(writeBlocks(doc, originals)).toEqual(STRAPI_BLOCKS);
    // The very objects: key order and all.
    const again = readBlocks(STRAPI_BLOCKS);
    expect(writeBlocks(again.doc, again.originals)[1]).toBe(STRAPI_BLOCKS[1]);
  });

  test('what the editor writes for a block it understands equals Strapi’s node: marks, links, nested lists, code, images', () => {
    const { doc } = readBlocks(structuredClone(STRAPI_BLOCKS));
    // Written fresh (no originals): the editor's own writing of each node.
    const fresh = writeBlocks(doc, new Map());
    // As Slate normalises it, a link is never the last child: an empty text follows it.
    expect(fresh[1]).toEqual({ ...STRAPI_BLOCKS[1], children: [...(STRAPI_BLOCKS[1] as { children: object[] }).children, { type: 'text', text: '' }] });
    expect([fresh[0], ...fresh.slice(2, 6)]).toEqual([STRAPI_BLOCKS[0], ...STRAPI_BLOCKS.slice(2, 6)]);
    expect(writeBlocks(doc, new Map())[6]).toEqual(STRAPI_BLOCKS[6]);
  });

  test('an edited block is written as Strapi writes it, and the blocks around it stay the originals', () => {
    const blocks = structuredClone(STRAPI_BLOCKS);
    const { doc, originals } = readBlocks(blocks);
    // Change the heading's level and text, as the editor's transactions would.
    const heading = doc.firstChild!;
    const edited = doc.replace(0, heading.nodeSize, new Slice(Fragment.from(blocksSchema.nodes.heading.create({ level: 3 }, blocksSchema.text('New'))), 0, 0));
    const out = writeBlocks(edited, originals);
    expect(out[0]).toEqual({ type: 'heading', level: 3, children: [{ type: 'text', text: 'New' }] });
    for (let i = 1; i < blocks.length; i++) expect(out[i]).toBe(blocks[i]);
  });

  test('marks, a link over two texts, and empty content come out as Strapi nodes', () => {
    const s = blocksSchema;
    const link = s.marks.link.create({ href: 'https://x.test' });
    const paragraph = s.nodes.paragraph.create(null, [
      s.text('a '),
      s.text('b', [s.marks.bold.create()]),
      s.text('c', [link, s.marks.italic.create()]),
      s.text('d', [link]),
      s.text(' e', [s.marks.underline.create(), s.marks.strikethrough.create(), s.marks.code.create()]),
    ]);
    const doc = s.nodes.doc.create(null, [paragraph, s.nodes.quote.create(), s.nodes.code_block.create({ language: 'js' })]);
    expect(writeBlocks(doc, new Map())).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'a ' },
          { type: 'text', text: 'b', bold: true },
          {
            type: 'link',
            url: 'https://x.test',
            children: [
              { type: 'text', text: 'c', italic: true },
              { type: 'text', text: 'd' },
            ],
          },
          { type: 'text', text: ' e', underline: true, strikethrough: true, code: true },
        ],
      },
      { type: 'quote', children: [{ type: 'text', text: '' }] },
      { type: 'code', language: 'js', children: [{ type: 'text', text: '' }] },
    ]);
  });

  test('an empty editor is no blocks, and no value reads as one empty paragraph', () => {
    const { doc, originals } = readBlocks(null);
    expect(doc.childCount).toBe(1);
    expect(writeBlocks(doc, originals)).toEqual([]);
  });

  test('every document read from blocks is valid for the schema', () => {
    expect(() => readBlocks(structuredClone(STRAPI_BLOCKS)).doc.check()).not.toThrow();
    expect(() => readBlocks([{ type: 'list', format: 'unordered', children: [{ type: 'list', children: [] }] }]).doc.check()).not.toThrow();
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
