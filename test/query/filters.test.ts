import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
const docs: Record<string, any> = {};

const url = (path: string, params: object) => `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`;
const get = (params: object, path = '/api/articles') => server.call('GET', url(path, params));
const sorted = (...values: string[]) => [...values].sort();
const ALL = [
  'Ärger im Büro',
  'ärmel hoch',
  '100% pure',
  '1000 pure water',
  'snake_case',
  'snakeXcase',
  'Hello World',
  'hello again',
  'Guide to SQL',
  'Opinion piece',
];
const except = (...values: string[]) => sorted(...ALL.filter((t) => !values.includes(t)));

/** Titles (sorted) of the published English articles matching `filters`. */
async function titles(filters: object, path = '/api/articles', key = 'title'): Promise<string[]> {
  const response = await get({ filters }, path);
  expect(response.status).toBe(200);
  return response.body.data.map((d: any) => d[key]).sort();
}

const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);

const invalidKey = (key: string, path: string | null, message = `Invalid key ${key}`) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { key, path, source: 'query', param: 'filters' } },
});

beforeAll(async () => {
  server = await startServer();
  const tech = await post('/api/categories', { name: 'Tech', slug: 'tech', position: 1 });
  const life = await post('/api/categories', { name: 'Life', slug: 'life', position: 2 });
  await post('/api/categories', { name: 'Empty', slug: 'empty', position: 3 });
  const ada = await post('/api/authors', { name: 'Ada', email: 'ada@example.com', internalNotes: 'secret' });
  const grace = await post('/api/authors', { name: 'Grace', email: 'grace@example.com' });
  await post('/api/authors', { name: 'Linus', email: 'linus@example.com' });
  const [alpha, beta, gamma] = [
    await post('/api/tags', { name: 'alpha' }),
    await post('/api/tags', { name: 'beta' }),
    await post('/api/tags', { name: 'gamma' }),
  ];
  const rows: [string, object][] = [
    [
      'Ärger im Büro',
      {
        views: 10,
        rating: 4.5,
        featured: true,
        kind: 'news',
        publishDate: '2024-01-15',
        summary: 'trouble',
        category: tech,
        author: ada,
        tags: [alpha, beta],
        seo: { metaTitle: 'Ärger meta' },
      },
    ],
    [
      'ärmel hoch',
      {
        views: 20,
        rating: 3.25,
        featured: false,
        kind: 'guide',
        publishDate: '2024-02-01',
        summary: 'sleeves',
        category: life,
        author: grace,
        tags: [alpha],
        seo: { metaTitle: 'Sleeves' },
      },
    ],
    ['100% pure', { views: 30, featured: false, kind: 'opinion', publishDate: '2024-03-10', category: tech, tags: [] }],
    ['1000 pure water', { views: 40, rating: 2, featured: true, kind: 'news', publishDate: '2024-04-20', category: life, author: grace, tags: [gamma] }],
    ['snake_case', { views: 5, rating: 1.5, featured: false, kind: 'guide', author: ada, tags: [beta, gamma, alpha] }],
    ['snakeXcase', { views: 5, featured: false, kind: 'news' }],
    ['Hello World', { views: 0, rating: 5, featured: true, kind: 'opinion', publishDate: '2024-05-05', category: tech, author: ada }],
    ['hello again', { views: 10, rating: 4, featured: false, kind: 'news', publishDate: '2023-12-31', category: life, author: grace, tags: [beta] }],
    ['Guide to SQL', { views: 50, rating: 4.75, featured: true, kind: 'guide', publishDate: '2024-06-01', category: tech, author: ada, tags: [alpha, gamma] }],
    ['Opinion piece', { views: 60, featured: false, kind: 'opinion', publishDate: '2024-07-01' }],
  ];
  for (const [title, data] of rows) {
    const d = data as Record<string, any>;
    const relations = {
      ...(d.category ? { category: d.category.documentId } : {}),
      ...(d.author ? { author: d.author.documentId } : {}),
      ...(d.tags ? { tags: d.tags.map((t: any) => t.documentId) } : {}),
    };
    docs[title] = await post('/api/articles', { ...d, ...relations, title });
  }
  await post('/api/articles', { title: 'Secret draft', views: 99, author: ada.documentId, category: tech.documentId }, '?status=draft');
  const fr = await server.call('PUT', `/api/articles/${docs['Ärger im Büro'].documentId}?locale=fr`, { body: { data: { title: 'Colère au bureau' } } });
  if (fr.status !== 200) throw new Error(`seed fr: ${fr.status} ${JSON.stringify(fr.body)}`);
});
afterAll(() => server.stop());

describe('filter operators', () => {
  it('$eq matches the exact value, case-sensitively', async () => {
    expect(await titles({ title: { $eq: 'Hello World' } })).toEqual(['Hello World']);
    expect(await titles({ title: { $eq: 'hello world' } })).toEqual([]);
  });
  it('$eqi matches the value ignoring case, also outside ASCII', async () => {
    expect(await titles({ title: { $eqi: 'HELLO WORLD' } })).toEqual(['Hello World']);
    expect(await titles({ title: { $eqi: 'ÄRMEL HOCH' } })).toEqual(['ärmel hoch']);
  });
  it('$ne excludes the value', async () => {
    expect(await titles({ kind: { $ne: 'news' } })).toEqual(sorted('ärmel hoch', '100% pure', 'snake_case', 'Hello World', 'Guide to SQL', 'Opinion piece'));
  });
  it('$nei excludes the value in any case', async () => {
    expect(await titles({ title: { $nei: 'HELLO WORLD' } })).toEqual(except('Hello World'));
  });
  it('$lt and $lte compare numbers', async () => {
    expect(await titles({ views: { $lt: 10 } })).toEqual(sorted('snake_case', 'snakeXcase', 'Hello World'));
    expect(await titles({ views: { $lte: 10 } })).toEqual(sorted('snake_case', 'snakeXcase', 'Hello World', 'Ärger im Büro', 'hello again'));
  });
  it('$gt and $gte compare numbers', async () => {
    expect(await titles({ views: { $gt: 40 } })).toEqual(sorted('Guide to SQL', 'Opinion piece'));
    expect(await titles({ views: { $gte: 40 } })).toEqual(sorted('1000 pure water', 'Guide to SQL', 'Opinion piece'));
  });
  it('$in matches any listed value', async () => {
    expect(await titles({ title: { $in: ['Hello World', 'snake_case', 'missing'] } })).toEqual(sorted('Hello World', 'snake_case'));
  });
  it('$notIn excludes every listed value', async () => {
    expect(await titles({ views: { $notIn: [0, 5, 10] } })).toEqual(sorted('ärmel hoch', '100% pure', '1000 pure water', 'Guide to SQL', 'Opinion piece'));
  });
  it('$contains finds a substring, case-sensitively', async () => {
    expect(await titles({ title: { $contains: 'pure' } })).toEqual(sorted('100% pure', '1000 pure water'));
    expect(await titles({ title: { $contains: 'Pure' } })).toEqual([]);
    expect(await titles({ title: { $contains: 'Är' } })).toEqual(['Ärger im Büro']);
  });
  it('$notContains excludes a substring, case-sensitively', async () => {
    expect(await titles({ title: { $notContains: 'pure' } })).toEqual(except('100% pure', '1000 pure water'));
    expect(await titles({ title: { $notContains: 'HELLO' } })).toEqual(sorted(...ALL));
  });
  it('$containsi finds a substring in any case, Ä matching ä', async () => {
    expect(await titles({ title: { $containsi: 'HELLO' } })).toEqual(sorted('Hello World', 'hello again'));
    expect(await titles({ title: { $containsi: 'ÄR' } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch'));
  });
  it('$notContainsi excludes a substring in any case', async () => {
    expect(await titles({ title: { $notContainsi: 'hELLo' } })).toEqual(except('Hello World', 'hello again'));
    expect(await titles({ title: { $notContainsi: 'är' } })).toEqual(except('Ärger im Büro', 'ärmel hoch'));
  });
  it('$null finds missing values and $null=false present ones', async () => {
    expect(await titles({ rating: { $null: true } })).toEqual(sorted('100% pure', 'snakeXcase', 'Opinion piece'));
    expect(await titles({ summary: { $null: false } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch'));
  });
  it('$notNull finds present values and $notNull=false missing ones', async () => {
    expect(await titles({ rating: { $notNull: true } })).toEqual(except('100% pure', 'snakeXcase', 'Opinion piece'));
    expect(await titles({ summary: { $notNull: false } })).toEqual(except('Ärger im Büro', 'ärmel hoch'));
  });
  it('$between includes both bounds, for numbers and dates', async () => {
    expect(await titles({ views: { $between: [10, 30] } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch', '100% pure', 'hello again'));
    expect(await titles({ publishDate: { $between: ['2024-01-15', '2024-03-10'] } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch', '100% pure'));
  });
  it('$startsWith matches a prefix, case-sensitively', async () => {
    expect(await titles({ title: { $startsWith: 'hello' } })).toEqual(['hello again']);
    expect(await titles({ title: { $startsWith: 'Hello' } })).toEqual(['Hello World']);
  });
  it('$startsWithi matches a prefix in any case', async () => {
    expect(await titles({ title: { $startsWithi: 'HELLO' } })).toEqual(sorted('Hello World', 'hello again'));
    expect(await titles({ title: { $startsWithi: 'äR' } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch'));
  });
  it('$endsWith matches a suffix, case-sensitively', async () => {
    expect(await titles({ title: { $endsWith: 'pure' } })).toEqual(['100% pure']);
    expect(await titles({ title: { $endsWith: 'PURE' } })).toEqual([]);
  });
  it('$endsWithi matches a suffix in any case, also outside ASCII', async () => {
    expect(await titles({ title: { $endsWithi: 'CASE' } })).toEqual(sorted('snake_case', 'snakeXcase'));
    expect(await titles({ title: { $endsWithi: 'BÜRO' } })).toEqual(['Ärger im Büro']);
  });
});

describe('combining conditions', () => {
  it('$or, $and and $not work at the root', async () => {
    expect(await titles({ $or: [{ views: { $gte: 50 } }, { kind: { $eq: 'opinion' } }] })).toEqual(
      sorted('Guide to SQL', 'Opinion piece', '100% pure', 'Hello World'),
    );
    expect(await titles({ $and: [{ featured: true }, { views: { $gt: 10 } }] })).toEqual(sorted('1000 pure water', 'Guide to SQL'));
    expect(await titles({ $not: { title: { $containsi: 'pure' } } })).toEqual(except('100% pure', '1000 pure water'));
  });
  it('$or, $and and $not work on one field', async () => {
    expect(await titles({ title: { $or: [{ $eq: 'Hello World' }, { $eq: 'snake_case' }] } })).toEqual(sorted('Hello World', 'snake_case'));
    expect(await titles({ views: { $and: [{ $gte: 10 }, { $lte: 20 }] } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch', 'hello again'));
    expect(await titles({ title: { $not: { $contains: 'pure' } } })).toEqual(except('100% pure', '1000 pure water'));
  });
  it('an array given to a single-value operator matches any element', async () => {
    expect(await titles({ title: { $contains: ['SQL', 'Opinion'] } })).toEqual(sorted('Guide to SQL', 'Opinion piece'));
    expect(await titles({ views: { $eq: [0, 60] } })).toEqual(sorted('Hello World', 'Opinion piece'));
  });
  it('several operators on one field must all hold', async () => {
    expect(await titles({ views: { $gte: 10, $lt: 40 } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch', '100% pure', 'hello again'));
  });
  it('a bare value means $eq and a bare list means $in', async () => {
    const bare = await server.call('GET', '/api/articles?filters[title]=Hello%20World');
    expect(bare.body.data.map((d: any) => d.title)).toEqual(['Hello World']);
    expect(await titles({ views: ['5', '60'] })).toEqual(sorted('snake_case', 'snakeXcase', 'Opinion piece'));
  });
});

describe('literal characters and type coercion', () => {
  it('treats % and _ as literal characters, not wildcards', async () => {
    expect(await titles({ title: { $contains: '0%' } })).toEqual(['100% pure']);
    expect(await titles({ title: { $startsWith: '100%' } })).toEqual(['100% pure']);
    expect(await titles({ title: { $contains: 'e_c' } })).toEqual(['snake_case']);
    expect(await titles({ title: { $eqi: 'SNAKE_CASE' } })).toEqual(['snake_case']);
    expect(await titles({ title: { $endsWithi: '_CASE' } })).toEqual(['snake_case']);
  });
  it('compares numbers and enumerations case-insensitively as their text with $eqi and $nei', async () => {
    expect(await titles({ views: { $eqi: '10' } })).toEqual(sorted('Ärger im Büro', 'hello again'));
    expect(await titles({ views: { $nei: '10' } })).toEqual(except('Ärger im Büro', 'hello again'));
    expect(await titles({ kind: { $eqi: 'GUIDE' } })).toEqual(sorted('ärmel hoch', 'snake_case', 'Guide to SQL'));
  });
  it('reads a number as its text for $contains, $notContains, $startsWith and $endsWith, on both engines', async () => {
    expect(await titles({ views: { $contains: '0' } })).toEqual(except('snake_case', 'snakeXcase'));
    expect(await titles({ views: { $notContains: '0' } })).toEqual(sorted('snake_case', 'snakeXcase'));
    expect(await titles({ views: { $startsWith: '1' } })).toEqual(sorted('Ärger im Büro', 'hello again'));
    expect(await titles({ views: { $endsWith: '5' } })).toEqual(sorted('snake_case', 'snakeXcase'));
    expect(await titles({ rating: { $contains: '.75' } })).toEqual(['Guide to SQL']);
    expect((await get({ filters: { id: { $startsWith: '1' }, featured: { $endsWith: '1' } } })).status).toBe(200);
  });
  it('accepts a list longer than qs arrayLimit (100), which arrives as an object', async () => {
    const wanted = [docs['Hello World'].documentId, docs['Opinion piece'].documentId];
    const many = [...Array.from({ length: 148 }, (_, i) => `missing${String(i).padStart(17, '0')}`), ...wanted];
    expect(await titles({ documentId: { $in: many } })).toEqual(sorted('Hello World', 'Opinion piece'));
    expect(await titles({ documentId: { $notIn: many } })).toEqual(except('Hello World', 'Opinion piece'));
  });
  it('coerces integers and decimals from strings', async () => {
    expect(await titles({ views: { $eq: '10' } })).toEqual(sorted('Ärger im Büro', 'hello again'));
    expect(await titles({ rating: { $gte: '4.5' } })).toEqual(sorted('Ärger im Büro', 'Hello World', 'Guide to SQL'));
    expect(await titles({ rating: { $eq: '4.50' } })).toEqual(['Ärger im Büro']);
  });
  it('coerces booleans from true/t/1 and false/f/0', async () => {
    const yes = sorted('Ärger im Büro', '1000 pure water', 'Hello World', 'Guide to SQL');
    for (const word of ['true', 't', '1']) expect(await titles({ featured: { $eq: word } })).toEqual(yes);
    for (const word of ['false', 'f', '0']) expect(await titles({ featured: { $eq: word } })).toEqual(except(...yes));
  });
  it('coerces dates and datetimes', async () => {
    expect(await titles({ publishDate: { $eq: '2024-01-15' } })).toEqual(['Ärger im Büro']);
    expect(await titles({ publishDate: { $lt: '2024-01-01' } })).toEqual(['hello again']);
    const createdAt = docs['Ärger im Büro'].createdAt as string;
    expect(await titles({ createdAt: { $lt: createdAt } })).toEqual([]);
    expect(await titles({ createdAt: { $gte: createdAt } })).toEqual(sorted(...ALL));
    // The same instant written with a +02:00 offset must compare as that instant, not as text.
    const shifted = new Date(Date.parse(createdAt) + 7_200_000).toISOString().replace('Z', '+02:00');
    expect(await titles({ createdAt: { $lt: shifted } })).toEqual([]);
    expect(await titles({ createdAt: { $gte: shifted } })).toEqual(sorted(...ALL));
    expect(await titles({ createdAt: { $gt: '2000-01-01' } })).toEqual(sorted(...ALL));
    expect(await titles({ updatedAt: { $gt: new Date(Date.now() + 86_400_000).toISOString() } })).toEqual([]);
  });
  it.each([
    ['views', '$eq', 'abc'],
    ['rating', '$gt', 'x'],
    ['featured', '$eq', 'yes'],
    ['publishDate', '$eq', 'not-a-date'],
    ['createdAt', '$gt', 'yesterday'],
    ['id', '$eq', 'abc'],
    ['views', '$in', ['1', 'two']],
  ])('answers 400 ValidationError when %s %s %p cannot be coerced', async (field, op, value) => {
    const response = await get({ filters: { [field]: { [op]: value } } });
    expect(response.status).toBe(400);
    expect(response.body.data).toBeNull();
    expect(response.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });
});

describe('id, documentId, relations and components', () => {
  it('filters by id and documentId', async () => {
    const a = docs['Ärger im Büro'];
    const b = docs['ärmel hoch'];
    expect(await titles({ id: { $eq: a.id } })).toEqual(['Ärger im Büro']);
    expect(await titles({ id: { $in: [a.id, b.id] } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch'));
    expect(await titles({ documentId: { $eq: b.documentId } })).toEqual(['ärmel hoch']);
  });
  it('filters through to-one relations', async () => {
    expect(await titles({ author: { name: { $eq: 'Ada' } } })).toEqual(sorted('Ärger im Büro', 'snake_case', 'Hello World', 'Guide to SQL'));
    expect(await titles({ category: { slug: { $eq: 'life' } } })).toEqual(sorted('ärmel hoch', '1000 pure water', 'hello again'));
  });
  it('filters through a to-many relation without duplicate rows, total counting documents', async () => {
    expect(await titles({ tags: { name: { $eq: 'alpha' } } })).toEqual(sorted('Ärger im Büro', 'ärmel hoch', 'snake_case', 'Guide to SQL'));
    const response = await get({ filters: { tags: { name: { $in: ['alpha', 'beta'] } } }, pagination: { pageSize: 2 } });
    expect(response.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 3, total: 5 });
    const all = await get({ filters: { tags: { name: { $in: ['alpha', 'beta'] } } } });
    const ids = all.body.data.map((d: any) => d.documentId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.body.data.map((d: any) => d.title).sort()).toEqual(sorted('Ärger im Büro', 'ärmel hoch', 'snake_case', 'hello again', 'Guide to SQL'));
  });
  it('filters from the inverse side of a relation', async () => {
    expect(await titles({ articles: { title: { $contains: 'pure' } } }, '/api/categories', 'name')).toEqual(['Life', 'Tech']);
    expect(await titles({ articles: { title: { $contains: 'SQL' } } }, '/api/categories', 'name')).toEqual(['Tech']);
    expect(await titles({ articles: { title: { $eq: 'Secret draft' } } }, '/api/authors', 'name')).toEqual([]);
  });
  it('filters two levels deep through relations', async () => {
    expect(await titles({ category: { articles: { title: { $contains: 'SQL' } } } })).toEqual(
      sorted('Ärger im Büro', '100% pure', 'Hello World', 'Guide to SQL'),
    );
  });
  it('filters through a component', async () => {
    expect(await titles({ seo: { metaTitle: { $eq: 'Sleeves' } } })).toEqual(['ärmel hoch']);
    expect(await titles({ seo: { metaTitle: { $containsi: 'ärger' } } })).toEqual(['Ärger im Büro']);
  });
  it('$null on a relation finds documents without it and $notNull the others', async () => {
    const none = sorted('100% pure', 'snakeXcase', 'Opinion piece');
    expect(await titles({ author: { $null: true } })).toEqual(none);
    expect(await titles({ author: { $notNull: true } })).toEqual(except(...none));
  });
  it('applies the locale to the filtered list', async () => {
    const fr = await get({ locale: 'fr', filters: { title: { $containsi: 'colère' } } });
    expect(fr.body.data.map((d: any) => d.title)).toEqual(['Colère au bureau']);
    expect(await titles({ title: { $containsi: 'colère' } })).toEqual([]);
  });
});

describe('rejected filters', () => {
  it('rejects an unknown attribute', async () => {
    const response = await server.call('GET', '/api/articles?filters[nope][$eq]=1');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalidKey('nope', null));
  });
  it('rejects an unknown operator, naming the field', async () => {
    const response = await get({ filters: { title: { $nope: 'x' } } });
    expect(response.body).toEqual(invalidKey('$nope', 'title', 'Invalid key $nope at title'));
  });
  it('rejects a private attribute, also behind a relation', async () => {
    const direct = await get({ filters: { internalNotes: { $eq: 'secret' } } }, '/api/authors');
    expect(direct.body).toEqual(invalidKey('internalNotes', 'internalNotes'));
    const nested = await get({ filters: { author: { internalNotes: { $eq: 'secret' } } } });
    expect(nested.body).toEqual(invalidKey('internalNotes', 'author.internalNotes', 'Invalid key internalNotes at author.internalNotes'));
  });
  it('rejects a dynamic zone', async () => {
    const response = await get({ filters: { blocks: { id: { $notNull: true } } } });
    expect(response.body).toEqual(invalidKey('blocks', 'blocks'));
  });
  it('rejects a field operator at the root and a $between without two values', async () => {
    for (const filters of [{ $eq: 'x' }, { views: { $between: [1] } }, { title: { $in: { nested: { deeper: 'x' } } } }]) {
      const response = await get({ filters });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    }
  });
  it('rejects a relation whose target the caller may not find', async () => {
    const restricted = await startServer({ publicAccess: false });
    try {
      await restricted.instance.roles.grant('public', ['api::article.article.find']);
      const allowed = await restricted.call('GET', url('/api/articles', { filters: { title: { $eq: 'x' } } }));
      expect(allowed.status).toBe(200);
      const response = await restricted.call('GET', url('/api/articles', { filters: { author: { name: { $eq: 'Ada' } } } }));
      expect(response.status).toBe(400);
      // Strapi names the attribute path of a known attribute (here the relation itself).
      expect(response.body).toEqual(invalidKey('author', 'author'));
    } finally {
      await restricted.stop();
    }
  });
});
