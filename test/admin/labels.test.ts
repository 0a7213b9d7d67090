/** Attribute names as the words an editor reads in the admin (src/admin/ui/words.ts). */
import { describe, expect, test } from 'bun:test';
import { labelOf, words } from '../../src/admin/ui/words';

describe('attribute names as words', () => {
  test('camelCase, snake_case and kebab-case names read as a sentence-cased phrase', () => {
    expect(words('publishDate')).toBe('Publish date');
    expect(words('metaTitle')).toBe('Meta title');
    expect(words('meta_description')).toBe('Meta description');
    expect(words('share-image')).toBe('Share image');
    expect(words('aString')).toBe('A string');
    expect(words('title')).toBe('Title');
  });

  test('known acronyms are upper-cased, and capitals already there are kept', () => {
    expect(words('seo')).toBe('SEO');
    expect(words('canonicalUrl')).toBe('Canonical URL');
    expect(words('productSKU')).toBe('Product SKU');
    expect(words('HTMLContent')).toBe('HTML content');
    expect(words('id')).toBe('ID');
    expect(words('line2')).toBe('Line 2');
  });

  test("a view configuration's label wins over the words of the name", () => {
    expect(labelOf({ name: 'publishDate' })).toBe('Publish date');
    expect(labelOf({ name: 'publishDate', label: 'Goes live on' })).toBe('Goes live on');
  });
});
