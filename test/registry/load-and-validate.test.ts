import { afterAll, describe, expect, it } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadRegistry } from '../../src/registry/load.ts';
import { SchemaError, type Attribute, type RelationAttribute } from '../../src/registry/types.ts';

const EXAMPLES = new URL('../../content-types', import.meta.url).pathname;
const ALL_TYPES = new URL('../fixtures/all-types', import.meta.url).pathname;

describe('loading the example content types', () => {
  const registry = loadRegistry(EXAMPLES);
  const ct = (uid: string) => registry.contentType(uid)!;
  const attr = (uid: string, name: string): Attribute => registry.get(uid)!.attributes[name];
  const rel = (uid: string, name: string) => attr(uid, name) as RelationAttribute;

  it('derives uids from singular names and sorts models by uid', () => {
    expect(registry.contentTypes.map((c) => c.uid)).toEqual([
      'api::article.article',
      'api::author.author',
      'api::category.category',
      'api::global.global',
      'api::homepage.homepage',
      'api::tag.tag',
    ]);
    expect(registry.components.map((c) => c.uid)).toEqual(['shared.link', 'shared.media', 'shared.quote', 'shared.rich-text', 'shared.seo']);
  });

  it('finds collection types by plural name and single types by singular name', () => {
    expect(registry.byRouteId('articles')?.uid).toBe('api::article.article');
    expect(registry.byRouteId('article')).toBeUndefined();
    expect(registry.byRouteId('global')?.uid).toBe('api::global.global');
    expect(registry.byRouteId('globals')).toBeUndefined();
    expect(registry.byRouteId('homepage')?.kind).toBe('singleType');
    expect(registry.get('shared.seo')?.modelType).toBe('component');
    expect(registry.contentType('shared.seo')).toBeUndefined();
    expect(registry.component('api::article.article')).toBeUndefined();
  });

  it('keeps content type metadata and table names', () => {
    const article = ct('api::article.article');
    expect(article).toMatchObject({
      modelType: 'contentType',
      kind: 'collectionType',
      singularName: 'article',
      pluralName: 'articles',
      displayName: 'Article',
      description: 'A blog post',
      draftAndPublish: true,
      localized: true,
      tableName: 'articles',
      file: 'content-types/article.json',
    });
    expect(ct('api::author.author')).toMatchObject({ draftAndPublish: false, localized: false, tableName: 'authors' });
    expect(ct('api::category.category').tableName).toBe('categories');
    expect(Object.keys(article.attributes).slice(0, 5)).toEqual(['title', 'slug', 'summary', 'body', 'kind']);
  });

  it('normalises scalar options and defaults', () => {
    expect(attr('api::article.article', 'title')).toEqual({
      name: 'title',
      kind: 'scalar',
      type: 'string',
      required: true,
      private: false,
      unique: false,
      localized: true,
      writable: true,
      maxLength: 200,
    });
    expect(attr('api::article.article', 'kind')).toMatchObject({ enum: ['news', 'guide', 'opinion'], default: 'news' });
    expect(attr('api::article.article', 'slug')).toMatchObject({ type: 'uid', targetField: 'title' });
    expect(attr('api::author.author', 'email')).toMatchObject({ type: 'email', unique: true });
    expect(attr('api::author.author', 'internalNotes')).toMatchObject({ private: true });
    expect(attr('api::article.article', 'gallery')).toMatchObject({ kind: 'media', multiple: true, allowedTypes: ['images', 'videos'] });
    expect(attr('api::article.article', 'cover')).toMatchObject({ kind: 'media', multiple: false });
    expect(attr('api::article.article', 'links')).toMatchObject({ kind: 'component', component: 'shared.link', repeatable: true });
    expect(attr('api::article.article', 'blocks')).toMatchObject({
      kind: 'dynamiczone',
      components: ['shared.quote', 'shared.rich-text', 'shared.media'],
    });
  });

  it("gives both sides of a bidirectional relation the owner's link table", () => {
    expect(rel('api::article.article', 'tags')).toMatchObject({
      relation: 'manyToMany',
      target: 'api::tag.tag',
      inversedBy: 'articles',
      toMany: true,
      owner: true,
      linkTable: 'articles_tags_lnk',
    });
    expect(rel('api::tag.tag', 'articles')).toMatchObject({
      mappedBy: 'tags',
      toMany: true,
      owner: false,
      linkTable: 'articles_tags_lnk',
      ownerAttribute: 'tags',
    });
    expect(rel('api::article.article', 'author')).toMatchObject({ toMany: false, owner: true, linkTable: 'articles_author_lnk' });
    expect(rel('api::author.author', 'articles')).toMatchObject({
      relation: 'oneToMany',
      toMany: true,
      owner: false,
      linkTable: 'articles_author_lnk',
      ownerAttribute: 'author',
    });
    expect(rel('api::category.category', 'articles').linkTable).toBe('articles_category_lnk');
  });

  it('treats relations without inversedBy or mappedBy as one-way owners', () => {
    const related = rel('api::article.article', 'related');
    expect(related).toMatchObject({ target: 'api::article.article', toMany: true, owner: true, linkTable: 'articles_related_lnk' });
    expect(related.inversedBy).toBeUndefined();
    expect(related.ownerAttribute).toBeUndefined();
    expect(rel('api::author.author', 'mentor')).toMatchObject({
      relation: 'oneToOne',
      target: 'api::author.author',
      toMany: false,
      owner: true,
      linkTable: 'authors_mentor_lnk',
    });
  });

  it('localizes attributes only in localized content types, always for relations and uids', () => {
    const localized = (uid: string, name: string) => attr(uid, name).localized;
    expect(localized('api::article.article', 'title')).toBe(true);
    expect(localized('api::article.article', 'views')).toBe(false);
    expect(localized('api::article.article', 'tags')).toBe(true);
    expect(localized('api::article.article', 'links')).toBe(false);
    // category.slug opts out in its JSON, but a uid is per-locale whenever its content type is localized.
    expect(localized('api::category.category', 'slug')).toBe(true);
    expect(localized('api::category.category', 'position')).toBe(false);
    expect(localized('api::category.category', 'articles')).toBe(true);
    expect(localized('api::homepage.homepage', 'featuredArticles')).toBe(true);
    expect(localized('api::author.author', 'name')).toBe(false);
    expect(localized('api::author.author', 'mentor')).toBe(false);
    expect(localized('api::tag.tag', 'articles')).toBe(false);
  });

  it('normalises components with category, name and unlocalized attributes', () => {
    const seo = registry.component('shared.seo')!;
    expect(seo).toMatchObject({
      modelType: 'component',
      category: 'shared',
      name: 'seo',
      displayName: 'Seo',
      tableName: 'components_shared_seos',
      file: 'content-types/components/shared/seo.json',
    });
    expect(Object.keys(seo.attributes)).toEqual(['metaTitle', 'metaDescription', 'shareImage']);
    expect(Object.values(seo.attributes).every((a) => !a.localized)).toBe(true);
    expect(registry.component('shared.rich-text')).toMatchObject({ name: 'rich-text', tableName: 'components_shared_rich_texts' });
  });
});

describe('the all-types fixture', () => {
  it('loads an attribute of every type', () => {
    const registry = loadRegistry(ALL_TYPES);
    const showcase = registry.byRouteId('showcases')!;
    expect(showcase).toMatchObject({ uid: 'api::showcase.showcase', draftAndPublish: false, localized: false });
    const byKind = (a: Attribute) => (a.kind === 'scalar' ? a.type : a.kind === 'relation' ? a.relation : a.kind);
    expect(new Set(Object.values(showcase.attributes).map(byKind))).toEqual(
      new Set([
        'string',
        'text',
        'richtext',
        'blocks',
        'email',
        'password',
        'uid',
        'enumeration',
        'integer',
        'biginteger',
        'float',
        'decimal',
        'boolean',
        'date',
        'time',
        'datetime',
        'timestamp',
        'json',
        'media',
        'oneToOne',
        'oneToMany',
        'manyToOne',
        'manyToMany',
        'component',
        'dynamiczone',
      ]),
    );
    expect(showcase.attributes.aMultipleMedia).toMatchObject({ kind: 'media', multiple: true });
    expect(showcase.attributes.aSingleMedia).toMatchObject({ kind: 'media', multiple: false });
    expect(showcase.attributes.aRepeatableComponent).toMatchObject({ repeatable: true });
    expect(showcase.attributes.aComponent).toMatchObject({ repeatable: false });
    expect(registry.components.map((c) => c.uid)).toEqual(['parts.card', 'parts.note']);
    expect(Object.values(showcase.attributes).some((a) => a.localized)).toBe(false);
  });
});

// A minimal valid folder; each broken case overrides one file. `null` removes a file.
type Files = Record<string, unknown>;
const seo = { info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } };
const tag = {
  kind: 'collectionType',
  info: { singularName: 'tag', pluralName: 'tags' },
  attributes: { name: { type: 'string' }, posts: { type: 'relation', relation: 'manyToMany', target: 'api::post.post', mappedBy: 'tags' } },
};
const postAttributes = {
  title: { type: 'string' },
  slug: { type: 'uid', targetField: 'title' },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'posts' },
  seo: { type: 'component', component: 'shared.seo' },
};
const post = (attributes: Files = {}, top: Files = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'post', pluralName: 'posts' },
  attributes: { ...postAttributes, ...attributes },
  ...top,
});
const tagWith = (posts: unknown) => ({ ...tag, attributes: { ...tag.attributes, posts } });
const tagPlus = (attributes: Files) => ({ ...tag, attributes: { ...tag.attributes, ...attributes } });
const seoWith = (attributes: Files) => ({ ...seo, attributes: { ...seo.attributes, ...attributes } });

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function writeSchemas(overrides: Files): string {
  const root = mkdtempSync(join(tmpdir(), 'folio-registry-'));
  roots.push(root);
  const dir = join(root, 'content-types');
  const files: Files = { 'post.json': post(), 'tag.json': tag, 'components/shared/seo.json': seo, ...overrides };
  mkdirSync(dir);
  for (const [path, body] of Object.entries(files)) {
    if (body === null) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  }
  return dir;
}

describe('schema validation', () => {
  it('accepts the minimal valid folder and defaults table names from the API ids', () => {
    const registry = loadRegistry(writeSchemas({ 'components/page-parts/rich-text.json': seo }));
    expect(registry.contentType('api::post.post')!.tableName).toBe('posts');
    expect(registry.component('page-parts.rich-text')!.tableName).toBe('components_page_parts_rich_texts');
    expect(registry.component('shared.seo')!.displayName).toBe('Seo');
  });

  it('accepts an attribute named status on a type without draft & publish, and in components', () => {
    const registry = loadRegistry(
      writeSchemas({
        'post.json': post({ status: { type: 'enumeration', enum: ['open', 'closed'] } }),
        'components/shared/seo.json': seoWith({ status: { type: 'string' } }),
      }),
    );
    expect(registry.contentType('api::post.post')!.attributes.status).toMatchObject({ kind: 'scalar', type: 'enumeration' });
    expect(registry.component('shared.seo')!.attributes.status).toMatchObject({ type: 'string' });
  });

  it('reads custom-fields.json as the mapping of custom fields, never as a content type', () => {
    const registry = loadRegistry(
      writeSchemas({
        'custom-fields.json': { 'plugin::nope.tint': 'integer' },
        'post.json': post({ tint: { type: 'customField', customField: 'plugin::nope.tint', max: 9 } }),
      }),
    );
    expect(registry.contentTypes.map((c) => c.uid)).toEqual(['api::post.post', 'api::tag.tag']);
    expect(registry.contentType('api::post.post')!.attributes.tint).toMatchObject({ type: 'integer', max: 9, customField: 'plugin::nope.tint' });
  });

  it('keeps a custom field no plugin table or mapping names as JSON, with a warning naming the mapping file that would type it', () => {
    const registry = loadRegistry(writeSchemas({ 'post.json': post({ tint: { type: 'customField', customField: 'plugin::nope.tint' } }) }));
    expect(registry.contentType('api::post.post')!.attributes.tint).toMatchObject({ kind: 'scalar', type: 'json', customField: 'plugin::nope.tint' });
    const warning = registry.warnings.find((w) => w.includes('plugin::nope.tint'))!;
    expect(warning).toContain('content-types/post.json (attribute "tint"): custom field "plugin::nope.tint" is registered by a plugin Folio does not know');
    expect(warning).toContain('content-types/custom-fields.json, e.g. { "plugin::nope.tint": "string" }');
  });

  it('leaves out a mappedBy side whose owning side does not name it in inversedBy, with a warning naming the file and attribute', () => {
    const registry = loadRegistry(writeSchemas({ 'post.json': post({ tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' } }) }));
    expect(registry.contentType('api::tag.tag')!.attributes.posts).toBeUndefined();
    expect(registry.contentType('api::tag.tag')!.fields.posts).toBeUndefined();
    expect(registry.contentType('api::post.post')!.attributes.tags).toMatchObject({ owner: true, linkTable: 'posts_tags_lnk' });
    expect(registry.ignored).toContainEqual({
      uid: 'api::tag.tag',
      file: 'content-types/tag.json',
      attribute: 'posts',
      target: 'api::post.post',
      dangling: true,
    });
    expect(
      registry.warnings.find((w) =>
        w.startsWith(
          'content-types/tag.json (attribute "posts"): mappedBy "tags": ' +
            'api::post.post attribute "tags" (content-types/post.json) has no inversedBy, not "posts"',
        ),
      ),
    ).toBeDefined();
  });

  it('warns about unknown top-level and attribute keys without refusing the schema', () => {
    const registry = loadRegistry(writeSchemas({ 'post.json': post({ subtitle: { type: 'string', maxLenght: 5 } }, { attribtes: {} }) }));
    expect(registry.warnings).toEqual([
      'content-types/post.json: unknown key "attribtes" (ignored); did you mean "attributes"?',
      'content-types/post.json (attribute "subtitle"): unknown key "maxLenght" (ignored); did you mean "maxLength"?',
    ]);
    expect(registry.contentType('api::post.post')!.attributes.subtitle).not.toHaveProperty('maxLength');
  });

  it('accepts one-way relations inside components', () => {
    const files = { 'components/shared/seo.json': seoWith({ post: { type: 'relation', relation: 'manyToOne', target: 'api::post.post' } }) };
    const a = loadRegistry(writeSchemas(files)).component('shared.seo')!.attributes.post;
    expect(a).toMatchObject({ kind: 'relation', owner: true, linkTable: 'components_shared_seos_post_lnk', localized: false });
  });

  const P = 'content-types/post.json';
  const T = 'content-types/tag.json';
  const S = 'content-types/components/shared/seo.json';
  const noKind = post();
  delete (noKind as Files).kind;
  const cases: [string, Files, string, string | undefined, ...string[]][] = [
    ['rejects a file that is not valid JSON', { 'post.json': '{ "kind": ' }, P, undefined, 'is not valid JSON: '],
    ['rejects a file whose top level is not an object', { 'post.json': '[]' }, P, undefined, 'top level', 'array'],
    [
      'rejects a kind other than collectionType or singleType',
      { 'post.json': post({}, { kind: 'component' }) },
      P,
      undefined,
      '"kind" must be "collectionType" or "singleType", got "component"',
    ],
    [
      'rejects a content type without info.singularName',
      { 'post.json': post({}, { info: { pluralName: 'posts' } }) },
      P,
      undefined,
      'missing "info.singularName"',
    ],
    [
      'rejects a content type without info.pluralName',
      { 'post.json': post({}, { info: { singularName: 'post' } }) },
      P,
      undefined,
      'missing "info.pluralName"',
    ],
    [
      'rejects API ids that are not kebab-case',
      { 'post.json': post({}, { info: { singularName: 'blogPost', pluralName: 'blog-posts' } }) },
      P,
      undefined,
      '"blogPost" must be kebab-case',
    ],
    [
      'rejects a singularName equal to the pluralName',
      { 'post.json': post({}, { info: { singularName: 'post', pluralName: 'post' } }) },
      P,
      undefined,
      'both "post"',
    ],
    [
      'rejects two content types with the same singularName',
      { 'zz.json': post({}, { info: { singularName: 'post', pluralName: 'more-posts' }, collectionName: 'zz' }) },
      'content-types/zz.json',
      undefined,
      'API id "post" is already used by content-types/post.json',
    ],
    [
      "rejects a pluralName equal to another type's singularName",
      { 'zz.json': { ...tag, info: { singularName: 'zz', pluralName: 'post' }, attributes: {} } },
      'content-types/zz.json',
      undefined,
      'API id "post" is already used by content-types/post.json',
    ],
    [
      'rejects two models that share a table name',
      { 'tag.json': { ...tag, collectionName: 'posts' } },
      T,
      undefined,
      'table name "posts" is also used by api::post.post (content-types/post.json)',
    ],
    ['rejects a content type without attributes', { 'post.json': post({}, { attributes: undefined }) }, P, undefined, 'missing "attributes"'],
    ['rejects attributes that are not an object', { 'post.json': post({}, { attributes: [] }) }, P, undefined, '"attributes" must be an object'],
    [
      'rejects attribute names with characters other than letters, digits and underscores',
      { 'post.json': post({ 'sub-title': { type: 'string' } }) },
      P,
      'sub-title',
      'letters, digits and underscores',
    ],
    ['rejects reserved attribute names', { 'post.json': post({ documentId: { type: 'string' } }) }, P, 'documentId', 'reserved'],
    ['rejects an attribute without a type', { 'post.json': post({ subtitle: { required: true } }) }, P, 'subtitle', 'missing "type"'],
    ['rejects an unknown attribute type', { 'post.json': post({ subtitle: { type: 'strng' } }) }, P, 'subtitle', 'unknown type "strng"', 'string, text'],
    ['rejects an enumeration without values', { 'post.json': post({ mood: { type: 'enumeration', enum: [] } }) }, P, 'mood', 'non-empty "enum"'],
    [
      'rejects an enumeration whose values are not strings',
      { 'post.json': post({ mood: { type: 'enumeration', enum: [1, 2] } }) },
      P,
      'mood',
      'array of strings',
    ],
    ['rejects a min that is not a number', { 'post.json': post({ views: { type: 'integer', min: '5' } }) }, P, 'views', '"min" must be a number'],
    [
      'rejects a maxLength that is not a number',
      { 'post.json': post({ subtitle: { type: 'string', maxLength: 'long' } }) },
      P,
      'subtitle',
      '"maxLength" must be a non-negative integer',
    ],
    [
      'rejects a min greater than max',
      { 'post.json': post({ views: { type: 'integer', min: 10, max: 5 } }) },
      P,
      'views',
      '"min" (10) is greater than "max" (5)',
    ],
    [
      'rejects a minLength greater than maxLength',
      { 'post.json': post({ subtitle: { type: 'string', minLength: 9, maxLength: 3 } }) },
      P,
      'subtitle',
      '"minLength" (9) is greater than "maxLength" (3)',
    ],
    ['rejects a regex that does not compile', { 'post.json': post({ color: { type: 'string', regex: '[a-' } }) }, P, 'color', 'does not compile'],
    [
      'rejects an enumeration default outside the enum',
      { 'post.json': post({ mood: { type: 'enumeration', enum: ['a', 'b'], default: 'c' } }) },
      P,
      'mood',
      '"c" is not one of the enum values: a, b',
    ],
    ['rejects a boolean default that is not a boolean', { 'post.json': post({ pinned: { type: 'boolean', default: 'yes' } }) }, P, 'pinned', 'true or false'],
    ['rejects an integer default that is not a whole number', { 'post.json': post({ views: { type: 'integer', default: 1.5 } }) }, P, 'views', 'whole number'],
    [
      'rejects a uid targetField that names no attribute',
      { 'post.json': post({ slug: { type: 'uid', targetField: 'titel' } }) },
      P,
      'slug',
      '"titel" is not an attribute',
      'string/text attributes of this model: title',
    ],
    [
      'rejects a uid targetField that is not a string or text attribute',
      { 'post.json': post({ views: { type: 'integer' }, slug: { type: 'uid', targetField: 'views' } }) },
      P,
      'slug',
      'must be a string or text attribute',
    ],
    [
      'rejects a media attribute whose multiple is not a boolean',
      { 'post.json': post({ cover: { type: 'media', multiple: 'yes' } }) },
      P,
      'cover',
      '"multiple" must be true or false',
    ],
    [
      'rejects an unknown relation kind',
      { 'post.json': post({ next: { type: 'relation', relation: 'oneWay', target: 'api::post.post' } }) },
      P,
      'next',
      'must be one of oneToOne, oneToMany, manyToOne, manyToMany',
    ],
    [
      'rejects a morphMany relation without a target',
      { 'post.json': post({ notes: { type: 'relation', relation: 'morphMany', morphBy: 'related' } }) },
      P,
      'notes',
      'morphMany relation needs "target"',
    ],
    [
      'rejects a relation to a content type that does not exist',
      { 'post.json': post({ tags: { type: 'relation', relation: 'manyToMany', target: 'api::tagz.tagz' } }), 'tag.json': tagWith(undefined) },
      P,
      'tags',
      'relation target "api::tagz.tagz" does not exist; known content types: api::post.post, api::tag.tag',
    ],
    [
      'rejects a relation with both inversedBy and mappedBy',
      { 'post.json': post({ tags: { ...postAttributes.tags, mappedBy: 'posts' } }) },
      P,
      'tags',
      'both "inversedBy" and "mappedBy"',
    ],
    [
      'rejects inversedBy naming an attribute the target does not have',
      { 'post.json': post({ tags: { ...postAttributes.tags, inversedBy: 'postz' } }) },
      P,
      'tags',
      'api::tag.tag (content-types/tag.json) has no attribute "postz"',
    ],
    [
      'rejects inversedBy naming a target attribute that is not a relation',
      { 'post.json': post({ tags: { ...postAttributes.tags, inversedBy: 'name' } }) },
      P,
      'tags',
      'api::tag.tag attribute "name" (content-types/tag.json) is a string, not a relation',
    ],
    [
      'rejects a relation whose inverse side does not point back',
      { 'tag.json': tagWith({ type: 'relation', relation: 'manyToMany', target: 'api::post.post' }) },
      P,
      'tags',
      'api::tag.tag attribute "posts" (content-types/tag.json) does not point back to api::post.post attribute "tags"',
    ],
    [
      'rejects bidirectional relations whose kinds do not match',
      { 'tag.json': tagWith({ ...tag.attributes.posts, relation: 'manyToOne' }) },
      P,
      'tags',
      'this side is manyToMany, so api::tag.tag attribute "posts" (content-types/tag.json) must be manyToMany, but it is manyToOne',
    ],
    [
      'rejects a morphMany side without morphBy',
      { 'tag.json': tagPlus({ notes: { type: 'relation', relation: 'morphMany', target: 'api::post.post' } }) },
      T,
      'notes',
      'needs "morphBy"',
    ],
    [
      'rejects a morphMany side whose morphBy is not a morphTo attribute',
      { 'tag.json': tagPlus({ notes: { type: 'relation', relation: 'morphMany', target: 'api::post.post', morphBy: 'title' } }) },
      T,
      'notes',
      'morphBy "title": api::post.post (content-types/post.json) has no morphToOne/morphToMany attribute of that name',
    ],
    [
      'rejects a component attribute naming a component that does not exist',
      { 'post.json': post({ seo: { type: 'component', component: 'shared.seoo' } }) },
      P,
      'seo',
      'component "shared.seoo" does not exist; known components: shared.seo',
    ],
    [
      'rejects a component attribute whose repeatable is not a boolean',
      { 'post.json': post({ seo: { type: 'component', component: 'shared.seo', repeatable: 1 } }) },
      P,
      'seo',
      '"repeatable" must be true or false',
    ],
    [
      'rejects a dynamic zone without components',
      { 'post.json': post({ body: { type: 'dynamiczone', components: [] } }) },
      P,
      'body',
      'non-empty "components" array',
    ],
    [
      'rejects a dynamic zone listing a component that does not exist',
      { 'post.json': post({ body: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote'] } }) },
      P,
      'body',
      '"shared.quote" does not exist',
    ],
    [
      'rejects a dynamic zone inside a component',
      { 'components/shared/seo.json': seoWith({ body: { type: 'dynamiczone', components: ['shared.seo'] } }) },
      S,
      'body',
      'components cannot contain dynamic zones',
    ],
    [
      'rejects a component that contains itself',
      { 'components/shared/seo.json': seoWith({ child: { type: 'component', component: 'shared.seo' } }) },
      S,
      'child',
      'cycle (shared.seo -> shared.seo)',
    ],
    [
      'rejects components that contain each other indirectly',
      {
        'components/shared/seo.json': seoWith({ card: { type: 'component', component: 'shared.card' } }),
        'components/shared/card.json': seoWith({ seo: { type: 'component', component: 'shared.seo', repeatable: true } }),
      },
      S,
      'card',
      'cycle (shared.card -> shared.seo -> shared.card)',
    ],
    ['rejects a customField attribute without its uid', { 'post.json': post({ tint: { type: 'customField' } }) }, P, 'tint', 'needs "customField"'],
    [
      'rejects a custom-fields.json entry whose type is not a storage type',
      { 'custom-fields.json': { 'plugin::nope.tint': 'colour' } },
      'content-types/custom-fields.json',
      undefined,
      'maps to "colour"',
    ],
    [
      'rejects an attribute named status on a type with draft & publish',
      { 'post.json': post({ status: { type: 'string' } }, { options: { draftAndPublish: true } }) },
      P,
      'status',
      'reserved on types with draft & publish',
    ],
    [
      'rejects a folder without any content type',
      { 'post.json': null, 'tag.json': null },
      'content-types',
      undefined,
      'holds no content type',
      'api/<name>/content-types/<name>/schema.json',
    ],
    [
      'rejects a Strapi project without any content type',
      { 'post.json': null, 'tag.json': null, 'api/shop/routes/shop.txt': 'x' },
      'content-types',
      undefined,
      'holds a Strapi project but no content type',
    ],
    [
      'rejects bidirectional relations inside components',
      { 'components/shared/seo.json': seoWith({ post: { type: 'relation', relation: 'manyToOne', target: 'api::post.post', inversedBy: 'seos' } }) },
      S,
      'post',
      'relations in components must be one-way',
    ],
  ];
  it('reads polymorphic relations: the morphTo side owns a link table the morphMany side reads', () => {
    const registry = loadRegistry(
      writeSchemas({
        'post.json': post({ related: { type: 'relation', relation: 'morphToMany' } }),
        'tag.json': tagPlus({ notes: { type: 'relation', relation: 'morphMany', target: 'api::post.post', morphBy: 'related' } }),
      }),
    );
    const related = registry.contentType('api::post.post')!.attributes.related;
    expect(related).toMatchObject({ kind: 'morph', relation: 'morphToMany', owner: true, toMany: true, linkTable: 'posts_related_mph' });
    expect(registry.contentType('api::tag.tag')!.attributes.notes).toMatchObject({ kind: 'morph', owner: false, linkTable: 'posts_related_mph' });
    expect(registry.warnings.filter((w) => w.includes('polymorphic'))).toEqual([]);
  });

  it('sets a polymorphic relation in a component aside with a warning naming the file and attribute', () => {
    const registry = loadRegistry(writeSchemas({ 'components/shared/seo.json': seoWith({ about: { type: 'relation', relation: 'morphToOne' } }) }));
    expect(registry.component('shared.seo')!.attributes.about).toBeUndefined();
    expect(registry.warnings).toContain(
      'content-types/components/shared/seo.json (attribute "about"): polymorphic relation morphToOne ' +
        'outside a content type is ignored: Folio does not store it yet, accepts no value for it and never returns it',
    );
  });

  it('reads a content type without a kind as a collection type, as Strapi does', () => {
    const registry = loadRegistry(writeSchemas({ 'post.json': noKind }));
    expect(registry.contentType('api::post.post')!.kind).toBe('collectionType');
    expect(registry.byRouteId('posts')?.uid).toBe('api::post.post');
  });

  for (const [name, overrides, file, attribute, ...fragments] of cases) {
    it(name, () => {
      let error: unknown;
      try {
        loadRegistry(writeSchemas(overrides));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SchemaError);
      const e = error as SchemaError;
      expect({ file: e.file, attribute: e.attribute }).toEqual({ file, attribute });
      expect(e.message.startsWith(`${file}${attribute ? ` (attribute "${attribute}")` : ''}: `)).toBe(true);
      for (const fragment of fragments) expect(e.message).toContain(fragment);
    });
  }
});
