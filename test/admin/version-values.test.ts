/**
 * A kept version's content as the History dialog says it (src/admin/ui/version-values.ts):
 * values in words (Yes/No, rich text as its words, linked entries by their titles, components
 * and dynamic-zone items as their fields' lines), the linked documents whose titles to ask
 * for, and which attributes differ between two versions. Pure: run in Bun, no browser.
 */
import { describe, expect, test } from 'bun:test';
import type { AdminAttribute, AdminComponent } from '../../src/admin/schema';
import { blocksText, differences, EMPTY, linkedDocuments, valueText } from '../../src/admin/ui/version-values';

const attr = (name: string, type: string, extra: Partial<AdminAttribute> = {}): AdminAttribute => ({ name, type, required: false, localized: false, ...extra });
const components: Record<string, AdminComponent> = {
  'shared.seo': { uid: 'shared.seo', displayName: 'Seo', category: 'shared', attributes: [attr('metaTitle', 'string'), attr('image', 'media')] },
  'shared.link': {
    uid: 'shared.link',
    displayName: 'Link',
    category: 'shared',
    attributes: [attr('label', 'string'), attr('page', 'relation', { target: 'api::page.page' })],
  },
  'shared.quote': {
    uid: 'shared.quote',
    displayName: 'Quote',
    category: 'shared',
    attributes: [attr('title', 'string'), attr('author', 'relation', { target: 'api::author.author' })],
  },
};
const article = [
  attr('title', 'string'),
  attr('featured', 'boolean'),
  attr('body', 'blocks'),
  attr('gallery', 'media', { multiple: true }),
  attr('tags', 'relation', { target: 'api::tag.tag', multiple: true }),
  attr('articles', 'relation', { target: 'api::article.article', mappedBy: 'related' }),
  attr('seo', 'component', { target: 'shared.seo' }),
  attr('links', 'component', { target: 'shared.link', multiple: true }),
  attr('blocks', 'dynamiczone'),
];
const names: Record<string, string> = { t1: 'Seasons', p1: 'About us', a1: 'Ada' };
const nameOf = (l: { documentId: string }) => names[l.documentId];
const text = (name: string, value: unknown) => valueText(article.find((a) => a.name === name)!, value, components, nameOf);

describe('a version’s values in words', () => {
  test('scalars, booleans, files and empty values', () => {
    expect(text('title', 'Spring')).toBe('Spring');
    expect(text('featured', false)).toBe('No');
    expect(text('featured', true)).toBe('Yes');
    expect(text('gallery', [12, 15])).toBe('file #12, file #15');
    for (const empty of [null, undefined, '', []]) expect(text('title', empty)).toBe(EMPTY);
  });

  test('rich text is its words, a line per block, list items marked', () => {
    const blocks = [
      {
        type: 'heading',
        level: 2,
        children: [
          { type: 'text', text: 'Spring ' },
          { type: 'text', text: 'is here', bold: true },
        ],
      },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Read ' },
          { type: 'link', url: 'https://x', children: [{ type: 'text', text: 'more' }] },
        ],
      },
      {
        type: 'list',
        format: 'ordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: 'one' }] },
          { type: 'list-item', children: [{ type: 'text', text: 'two' }] },
        ],
      },
      { type: 'image', image: { name: 'a.png', alternativeText: 'A tulip' }, children: [{ type: 'text', text: '' }] },
    ];
    expect(blocksText(blocks)).toBe('Spring is here\nRead more\n1. one\n2. two\n[Image: A tulip]');
    expect(text('body', blocks)).toBe(blocksText(blocks));
  });

  test('linked entries by their titles (the id when unknown); components and zone items as their fields', () => {
    expect(text('tags', [{ documentId: 't1' }, { documentId: 'gone' }])).toBe('Seasons, an entry (gone)');
    expect(text('seo', { metaTitle: 'Spring', image: null })).toBe('Meta title: Spring');
    expect(
      text('links', [
        { label: 'About', page: { documentId: 'p1' } },
        { label: 'Blank', page: null },
      ]),
    ).toBe('1. Label: About\n   Page: About us\n2. Label: Blank');
    expect(text('blocks', [{ __component: 'shared.quote', title: 'Q', author: { documentId: 'a1' } }, { __component: 'shared.gone' }])).toBe(
      '1. Quote\n   Title: Q\n   Author: Ada\n2. shared.gone',
    );
  });

  test('the linked documents to name: relations, inside components and zone items too', () => {
    const data = {
      tags: [{ documentId: 't1' }, { documentId: 't2', locale: 'fr' }],
      links: [{ label: 'x', page: { documentId: 'p1' } }],
      blocks: [{ __component: 'shared.quote', author: { documentId: 'a1' } }],
      seo: null,
    };
    expect(linkedDocuments(article, data, components)).toEqual([
      { uid: 'api::tag.tag', documentId: 't1', locale: null },
      { uid: 'api::tag.tag', documentId: 't2', locale: 'fr' },
      { uid: 'api::page.page', documentId: 'p1', locale: null },
      { uid: 'api::author.author', documentId: 'a1', locale: null },
    ]);
  });

  test('differences: attributes whose values differ, in the type’s order; empty is empty; inverse sides are left out', () => {
    const a = { title: 'Spring', featured: false, body: null, gallery: [], tags: [{ documentId: 't1' }], seo: { metaTitle: 'S' } };
    const b = { title: 'Summer', featured: false, body: [], gallery: null, tags: [], seo: { metaTitle: 'S' }, articles: [{ documentId: 'x' }] };
    expect(differences(article, a, b).map((x) => x.name)).toEqual(['title', 'tags']);
  });
});
