/**
 * The API's validation errors as the admin says them (src/admin/ui/errors.ts): placed at the
 * field their path reaches (inside components and dynamic-zone items too) and said in words,
 * never in the validator's; the messages are the ones Folio's validator writes today.
 */
import { describe, expect, test } from 'bun:test';
import type { AdminAttribute, AdminComponent } from '../../src/admin/schema';
import { explain, phrase } from '../../src/admin/ui/errors';

const attr = (name: string, type: string, extra: Partial<AdminAttribute> = {}): AdminAttribute => ({ name, type, required: false, localized: false, ...extra });
const components: Record<string, AdminComponent> = {
  'shared.seo': {
    uid: 'shared.seo',
    displayName: 'Seo',
    category: 'shared',
    attributes: [attr('metaTitle', 'string', { required: true }), attr('metaDescription', 'text')],
  },
  'shared.link': { uid: 'shared.link', displayName: 'Link', category: 'shared', attributes: [attr('label', 'string'), attr('url', 'string')] },
  'shared.quote': { uid: 'shared.quote', displayName: 'Quote', category: 'shared', attributes: [attr('title', 'string'), attr('body', 'text')] },
};
const article = [
  attr('title', 'string', { required: true, maxLength: 200 }),
  attr('kind', 'enumeration', { enum: ['news', 'guide', 'opinion'] }),
  attr('views', 'integer', { min: 0 }),
  attr('publishDate', 'date'),
  attr('tags', 'relation', { target: 'api::tag.tag', multiple: true }),
  attr('seo', 'component', { target: 'shared.seo' }),
  attr('links', 'component', { target: 'shared.link', multiple: true }),
  attr('blocks', 'dynamiczone', { target: 'shared.quote,shared.link' }),
  attr('body', 'blocks'),
];
const values = {
  seo: { key: 'k1', component: 'shared.seo', values: { metaTitle: '', metaDescription: '' } },
  links: [
    { key: 'k2', component: 'shared.link', values: { label: '', url: '' } },
    { key: 'k3', component: 'shared.link', values: { label: '', url: '' } },
  ],
  blocks: [{ key: 'k4', component: 'shared.quote', values: { title: '', body: '' } }],
};
const say = (path: (string | number)[], message: string, value: unknown = null) => explain({ path, message, value }, article, values as never, components);

describe('validation errors in words', () => {
  test("a missing required field inside a component is 'required', named with what holds it in the summary", () => {
    expect(say(['seo', 'metaTitle'], 'seo.metaTitle must be a `string` type, but the final value was: `null`.')).toEqual({
      field: 'seo.metaTitle',
      text: 'Meta title is required',
      summary: 'Meta title (SEO) is required',
    });
    expect(say(['title'], 'title must be a `string` type, but the final value was: `null`.')).toEqual({
      field: 'title',
      text: 'Title is required',
      summary: 'Title is required',
    });
    expect(say(['seo'], 'seo must be defined.').text).toBe('SEO is required');
  });

  test("an enumeration's error lists its values without the validator's stray ', '", () => {
    expect(say(['kind'], 'kind must be one of the following values: news, guide, opinion, ', 'other').text).toBe('Kind must be one of: news, guide, opinion');
  });

  test('lengths, ranges, numbers, dates, counts and uniqueness read as sentences', () => {
    expect(say(['title'], 'title must be at most 200 characters', 'x').text).toBe('Title is too long: at most 200 characters');
    expect(say(['views'], 'views must be greater than or equal to 0', -1).text).toBe('Views must be 0 or more');
    expect(say(['views'], 'views must be an integer', 1.5).text).toBe('Views must be a whole number');
    expect(say(['views'], 'views must be a `number` type, but the final value was: `"x"`.', 'x').text).toBe('Views must be a number');
    expect(say(['publishDate'], 'publishDate must be a valid date (YYYY-MM-DD)', 'x').text).toBe('Publish date must be a date');
    expect(say(['tags'], 'tags field must have at least 1 items', 0).text).toBe('Tags needs at least 1 entry');
    expect(say(['title'], 'This attribute must be unique', 'x').text).toBe('Title is already used by another entry');
  });

  test('errors inside repeatable components and dynamic-zone items land at the nested field and name the item', () => {
    expect(say(['links', 1, 'url'], 'links.1.url must be at most 10 characters', 'x')).toEqual({
      field: 'links.1.url',
      text: 'URL is too long: at most 10 characters',
      summary: 'URL (Links 2) is too long: at most 10 characters',
    });
    expect(say(['blocks', 0, 'title'], 'blocks.0.title must be a `string` type, but the final value was: `null`.').summary).toBe(
      'Title (Quote, Blocks 1) is required',
    );
    expect(say(['links', 0], 'links.0 must be an object', 3).field).toBe('links');
  });

  test('an error deep inside a rich-text value shows at the rich-text field', () => {
    const e = say(['body', 0, 'children', 0, 'url'], 'body.0.children.0.url must be a `string` type, but the final value was: `3`.', 3);
    expect(e.field).toBe('body');
    expect(e.text).toBe('Body must be text');
  });

  test('no explained message keeps backticks or the validator wording', () => {
    expect(phrase('must be a `boolean` type, but the final value was: `"x"`.', 'x')).toBe('must be yes or no');
    expect(phrase('something `odd`, ', 1)).toBe('something odd');
  });
});
