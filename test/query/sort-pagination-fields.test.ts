import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;

const url = (path: string, params: object) => `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`;
const get = (params: object, path = '/api/articles') => server.call('GET', url(path, params));
const raw = (query: string, path = '/api/articles') => server.call('GET', `${path}?${query}`);
const titlesOf = (response: { body: any }) => response.body.data.map((d: any) => d.title);

const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);

const invalidKey = (key: string, path: string | null, param: string, message = `Invalid key ${key}`) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { key, path, source: 'query', param } },
});

// Created in this order, so ids do not follow the alphabet; views have ties.
const SEED: [string, number, ('ada' | 'grace')?, string?][] = [
  ['Mango', 10],
  ['Banana', 10, 'ada', 'Alpha'],
  ['Kiwi', 5],
  ['Apple', 30, 'grace', 'Zeta'],
  ['Fig', 10],
  ['Lemon', 60, 'grace'],
  ['Cherry', 10, 'ada'],
  ['Date', 50],
  ['Nectarine', 0],
  ['Grape', 40, 'ada'],
  ['Honeydew', 20],
  ['Elderberry', 20, 'grace', 'Mu'],
];
const ALPHABETICAL = SEED.map(([t]) => t).sort();
const BY_VIEWS_ASC = ['Nectarine', 'Kiwi', 'Mango', 'Banana', 'Fig', 'Cherry', 'Honeydew', 'Elderberry', 'Apple', 'Grape', 'Date', 'Lemon'];
const BY_VIEWS_DESC_THEN_TITLE = ['Lemon', 'Date', 'Grape', 'Apple', 'Elderberry', 'Honeydew', 'Banana', 'Cherry', 'Fig', 'Mango', 'Kiwi', 'Nectarine'];

beforeAll(async () => {
  server = await startServer();
  const authors = {
    ada: await post('/api/authors', { name: 'Ada', internalNotes: 'secret' }),
    grace: await post('/api/authors', { name: 'Grace' }),
  };
  for (const [title, views, author, metaTitle] of SEED) {
    await post('/api/articles', { title, views, ...(author ? { author: authors[author].documentId } : {}), ...(metaTitle ? { seo: { metaTitle } } : {}) });
  }
  await post('/api/articles', { title: 'Secret draft', views: 99 }, '?status=draft');
  const banana = (await get({ filters: { title: 'Banana' } })).body.data[0];
  const fr = await server.call('PUT', `/api/articles/${banana.documentId}?locale=fr`, { body: { data: { title: 'Banane' } } });
  if (fr.status !== 200) throw new Error(`seed fr: ${fr.status} ${JSON.stringify(fr.body)}`);
});
afterAll(() => server.stop());

describe('sort', () => {
  it('sorts by one field ascending by default, and descending in any letter case', async () => {
    expect(titlesOf(await raw('sort=title'))).toEqual(ALPHABETICAL);
    expect(titlesOf(await raw('sort=title:asc'))).toEqual(ALPHABETICAL);
    expect(titlesOf(await raw('sort=title:desc'))).toEqual([...ALPHABETICAL].reverse());
    expect(titlesOf(await raw('sort=title:DESC'))).toEqual([...ALPHABETICAL].reverse());
  });
  it('sorts by a comma list of fields', async () => {
    expect(titlesOf(await raw('sort=views:desc,title'))).toEqual(BY_VIEWS_DESC_THEN_TITLE);
  });
  it('sorts by an array of strings and by an array of objects', async () => {
    expect(titlesOf(await get({ sort: ['views:desc', 'title:asc'] }))).toEqual(BY_VIEWS_DESC_THEN_TITLE);
    expect(titlesOf(await get({ sort: [{ views: 'desc' }, { title: 'asc' }] }))).toEqual(BY_VIEWS_DESC_THEN_TITLE);
    expect(titlesOf(await get({ sort: [{ title: 'desc' }] }))).toEqual([...ALPHABETICAL].reverse());
  });
  it('sorts by an object of field and order', async () => {
    expect(titlesOf(await get({ sort: { title: 'desc' } }))).toEqual([...ALPHABETICAL].reverse());
  });
  it('breaks ties by id, in both directions, so pages are stable', async () => {
    expect(titlesOf(await raw('sort=views'))).toEqual(BY_VIEWS_ASC);
    const desc = titlesOf(await raw('sort=views:desc'));
    expect(desc).toEqual(['Lemon', 'Date', 'Grape', 'Apple', 'Honeydew', 'Elderberry', 'Mango', 'Banana', 'Fig', 'Cherry', 'Kiwi', 'Nectarine']);
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(...titlesOf(await get({ sort: 'views:desc', pagination: { page, pageSize: 4 } })));
    expect(pages).toEqual(desc);
  });
  it('sorts through a to-one relation, in string and object form', async () => {
    const filters = { author: { $notNull: true } };
    expect(titlesOf(await get({ sort: 'author.name:asc', filters }))).toEqual(['Banana', 'Cherry', 'Grape', 'Apple', 'Lemon', 'Elderberry']);
    expect(titlesOf(await get({ sort: { author: { name: 'desc' } }, filters }))).toEqual(['Apple', 'Lemon', 'Elderberry', 'Banana', 'Cherry', 'Grape']);
  });
  it('sorts through a component', async () => {
    const filters = { seo: { metaTitle: { $notNull: true } } };
    expect(titlesOf(await get({ sort: 'seo.metaTitle', filters }))).toEqual(['Banana', 'Elderberry', 'Apple']);
    expect(titlesOf(await get({ sort: 'seo.metaTitle:desc', filters }))).toEqual(['Apple', 'Elderberry', 'Banana']);
  });
  it('rejects an order other than asc or desc', async () => {
    for (const response of [await raw('sort=title:up'), await get({ sort: { title: 'up' } })]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} },
      });
    }
  });
  it('rejects an unknown field, also behind a relation', async () => {
    expect((await raw('sort=nope:asc')).body).toEqual(invalidKey('nope', null, 'sort'));
    expect((await raw('sort=author.nope')).body).toEqual(invalidKey('nope', 'author', 'sort', 'Invalid key nope at author'));
  });
  it('rejects sorting by a private field', async () => {
    expect((await raw('sort=internalNotes', '/api/authors')).body).toEqual(invalidKey('internalNotes', 'internalNotes', 'sort'));
    expect((await raw('sort=author.internalNotes')).body).toEqual(
      invalidKey('internalNotes', 'author.internalNotes', 'sort', 'Invalid key internalNotes at author.internalNotes'),
    );
  });
  it('rejects sorting by a dynamic zone, a whole component or a relation', async () => {
    for (const sort of ['blocks', 'seo', 'author']) {
      const response = await raw(`sort=${sort}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: 'ValidationError', message: `Invalid key ${sort}`, details: { key: sort, param: 'sort' } });
    }
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 25 with page-mode meta', async () => {
    const response = await raw('sort=id');
    expect(response.body.data).toHaveLength(12);
    expect(response.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 12 } });
  });
  it('pages with page and pageSize', async () => {
    const response = await get({ sort: 'title', pagination: { page: 2, pageSize: 5 } });
    expect(titlesOf(response)).toEqual(ALPHABETICAL.slice(5, 10));
    expect(response.body.meta.pagination).toEqual({ page: 2, pageSize: 5, pageCount: 3, total: 12 });
  });
  it('pages with start and limit, answering offset-mode meta', async () => {
    const response = await get({ sort: 'title', pagination: { start: 2, limit: 3 } });
    expect(titlesOf(response)).toEqual(ALPHABETICAL.slice(2, 5));
    expect(response.body.meta.pagination).toEqual({ start: 2, limit: 3, total: 12 });
  });
  it('omits total and pageCount with withCount=false', async () => {
    expect((await get({ pagination: { pageSize: 5, withCount: false } })).body.meta.pagination).toEqual({ page: 1, pageSize: 5 });
    expect((await get({ pagination: { start: 0, limit: 5, withCount: 'f' } })).body.meta.pagination).toEqual({ start: 0, limit: 5 });
    expect((await get({ pagination: { pageSize: 5, withCount: 'true' } })).body.meta.pagination).toEqual({ page: 1, pageSize: 5, pageCount: 3, total: 12 });
  });
  it('clamps pageSize above the maximum to 100 and pageSize 0 to 1', async () => {
    const big = await get({ pagination: { pageSize: 500 } });
    expect(big.body.data).toHaveLength(12);
    expect(big.body.meta.pagination).toEqual({ page: 1, pageSize: 100, pageCount: 1, total: 12 });
    const zero = await get({ pagination: { pageSize: 0 } });
    expect(zero.body.data).toHaveLength(1);
    expect(zero.body.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 12, total: 12 });
  });
  it('clamps limit 0 to 1 and a negative start to 0, and reads limit -1 as the maximum', async () => {
    const zero = await get({ pagination: { limit: 0 } });
    expect(zero.body.data).toHaveLength(1);
    expect(zero.body.meta.pagination).toEqual({ start: 0, limit: 1, total: 12 });
    const all = await get({ pagination: { start: 0, limit: -1 } });
    expect(all.body.data).toHaveLength(12);
    expect(all.body.meta.pagination).toEqual({ start: 0, limit: 100, total: 12 });
    const negative = await get({ pagination: { start: -5, limit: 2 }, sort: 'title' });
    expect(titlesOf(negative)).toEqual(ALPHABETICAL.slice(0, 2));
    expect(negative.body.meta.pagination).toEqual({ start: 0, limit: 2, total: 12 });
  });
  it('answers an empty page with the real pageCount beyond the end', async () => {
    const response = await get({ pagination: { page: 99, pageSize: 5 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], meta: { pagination: { page: 99, pageSize: 5, pageCount: 3, total: 12 } } });
  });
  it('rejects mixing page and offset pagination with a PaginationError', async () => {
    for (const pagination of [
      { page: 1, start: 0 },
      { page: 1, limit: 2 },
      { pageSize: 2, start: 1 },
    ]) {
      const response = await get({ pagination });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        data: null,
        error: { status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} },
      });
    }
  });
  it('rejects non-numeric page, pageSize, start and limit', async () => {
    for (const pagination of [{ page: 'abc' }, { pageSize: 'ten' }, { start: 'x' }, { limit: '2x' }]) {
      const response = await get({ pagination });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
      expect(response.body.error.status).toBe(400);
    }
  });
  it('rejects a withCount that is not a boolean word', async () => {
    const response = await get({ pagination: { withCount: 'maybe' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid withCount parameter. Expected "t","1","true","false","0","f"' });
  });
});

describe('pagination edge values', () => {
  const envelope = (name: string, message: string) => ({ data: null, error: { status: 400, name, message, details: {} } });
  const notInteger = (key: string, value: string) => envelope('ValidationError', `Invalid parameter at '${key}'. Expected an integer, received: ${value}`);
  const unsafe = (key: string, value: string) => envelope('PaginationError', `Invalid '${key}' parameter. Expected a safe integer, received: ${value}`);
  const HUGE = '99999999999999999999';

  it('answers every invalid pagination value with its exact 400 envelope, never a 500', async () => {
    const cases: [string, object][] = [
      ['pagination[page]=-1', envelope('PaginationError', "Invalid 'page' parameter. Expected an integer >= 0, received: -1")],
      ['pagination[page]=abc', notInteger('page', 'abc')],
      ['pagination[page]=1.5', notInteger('page', '1.5')],
      ['pagination[page]=1e400', notInteger('page', '1e400')],
      ['pagination[pageSize]=abc', notInteger('pageSize', 'abc')],
      ['pagination[start]=-x', notInteger('start', '-x')],
      ['pagination[limit]=abc', notInteger('limit', 'abc')],
      ['pagination[page]=1&pagination[start]=0', envelope('PaginationError', 'Cannot use both page & offset pagination in the same query')],
      ['pagination[withCount]=maybe', envelope('ValidationError', 'Invalid withCount parameter. Expected "t","1","true","false","0","f"')],
      [`pagination[page]=${HUGE}`, unsafe('page', HUGE)],
      [`pagination[page]=-${HUGE}`, unsafe('page', `-${HUGE}`)],
      [`pagination[pageSize]=${HUGE}`, unsafe('pageSize', HUGE)],
      [`pagination[start]=${HUGE}`, unsafe('start', HUGE)],
      [`pagination[limit]=${HUGE}`, unsafe('limit', HUGE)],
      ['pagination[start]=1000000001', envelope('PaginationError', "Invalid 'start' parameter. Expected an integer <= 1000000000, received: 1000000001")],
      [
        'pagination[page]=40000002',
        envelope('PaginationError', "Invalid 'page' parameter. Expected a page that starts within the first 1000000000 entries, received: 40000002"),
      ],
    ];
    for (const [query, expected] of cases) {
      const response = await raw(query);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body: expected });
    }
  });
  it('reads page 0 as page 1', async () => {
    const zero = await get({ sort: 'title', pagination: { page: 0, pageSize: 5 } });
    expect(zero.status).toBe(200);
    expect(titlesOf(zero)).toEqual(ALPHABETICAL.slice(0, 5));
    expect(zero.body.meta).toEqual({ pagination: { page: 1, pageSize: 5, pageCount: 3, total: 12 } });
    expect((await raw('pagination[page]=0')).body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 12 } });
  });
  it('answers the edge values of page, pageSize, limit and offset with their exact meta', async () => {
    const cases: [string, object, number][] = [
      ['pagination[page]=0&pagination[pageSize]=5', { page: 1, pageSize: 5, pageCount: 3, total: 12 }, 5],
      ['pagination[pageSize]=0', { page: 1, pageSize: 1, pageCount: 12, total: 12 }, 1],
      ['pagination[pageSize]=101', { page: 1, pageSize: 100, pageCount: 1, total: 12 }, 12],
      ['pagination[limit]=-1', { start: 0, limit: 100, total: 12 }, 12],
      ['pagination[start]=1000000000&pagination[limit]=2', { start: 1000000000, limit: 2, total: 12 }, 0],
      ['pagination[page]=40000001', { page: 40000001, pageSize: 25, pageCount: 1, total: 12 }, 0],
    ];
    for (const [query, pagination, count] of cases) {
      const response = await raw(query);
      expect({ query, status: response.status, meta: response.body.meta, count: response.body.data?.length }).toEqual({
        query,
        status: 200,
        meta: { pagination },
        count,
      });
    }
  });
});

describe('fields', () => {
  const keys = (doc: object) => Object.keys(doc).sort();
  it('selects a comma list, always adding id and documentId', async () => {
    const response = await raw('fields=title,slug&sort=title');
    expect(keys(response.body.data[0])).toEqual(['documentId', 'id', 'slug', 'title']);
    expect(response.body.data[0].title).toBe('Apple');
  });
  it('selects an array of fields, on lists and on one document', async () => {
    const list = await get({ fields: ['title'], sort: 'title' });
    expect(list.body.data[0]).toEqual({ id: expect.any(Number), documentId: expect.any(String), title: 'Apple' });
    const one = await get({ fields: ['views', 'title'] }, `/api/articles/${list.body.data[0].documentId}`);
    expect(keys(one.body.data)).toEqual(['documentId', 'id', 'title', 'views']);
  });
  it('selects every scalar field with *, and no relation, component or media', async () => {
    const doc = (await raw('fields=*&sort=title')).body.data[0];
    for (const name of [
      'title',
      'slug',
      'summary',
      'body',
      'kind',
      'views',
      'rating',
      'featured',
      'publishDate',
      'meta',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]) {
      expect(doc).toHaveProperty(name);
    }
    for (const name of ['author', 'category', 'tags', 'seo', 'blocks', 'cover', 'gallery']) expect(doc).not.toHaveProperty(name);
  });
  it('rejects non-scalar, unknown and private fields', async () => {
    for (const field of ['author', 'seo', 'blocks', 'cover', 'nope']) {
      const response = await get({ fields: [field] });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        name: 'ValidationError',
        message: `Invalid key ${field}`,
        details: { key: field, source: 'query', param: 'fields' },
      });
    }
    // A private attribute is named with its own path, as Strapi 5.54.0 names it.
    const hidden = await raw('fields=name,internalNotes', '/api/authors');
    expect(hidden.status).toBe(400);
    expect(hidden.body.error.details).toEqual({ key: 'internalNotes', path: 'internalNotes', source: 'query', param: 'fields' });
  });
  it('selects fields inside populate', async () => {
    const response = await get({ fields: ['title'], filters: { title: 'Banana' }, populate: { author: { fields: ['name'] } } });
    expect(response.body.data[0]).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      title: 'Banana',
      author: { id: expect.any(Number), documentId: expect.any(String), name: 'Ada' },
    });
    // A private attribute inside populate: Strapi 5.54.0's 400, key and path of the attribute, param populate.
    for (const fields of [['internalNotes'], ['name', 'internalNotes'], 'name,internalNotes']) {
      const hidden = await get({ populate: { author: { fields } } });
      expect(hidden.status).toBe(400);
      expect(hidden.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key internalNotes',
        details: { key: 'internalNotes', path: 'internalNotes', source: 'query', param: 'populate' },
      });
    }
    for (const options of [{ filters: { internalNotes: 'x' } }, { sort: 'internalNotes' }, { fields: ['nope'] }]) {
      const refused = await get({ populate: { author: options } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.param).toBe('populate');
    }
  });
});

describe('status and locale on lists', () => {
  it('lists only published versions by default and only drafts with status=draft', async () => {
    const published = await raw('fields=title,publishedAt&pagination[pageSize]=100');
    expect(published.body.meta.pagination.total).toBe(12);
    expect(published.body.data.every((d: any) => d.publishedAt !== null)).toBe(true);
    const drafts = await get({ status: 'draft', fields: ['title', 'publishedAt'] });
    expect(drafts.body.meta.pagination.total).toBe(13);
    expect(drafts.body.data.every((d: any) => d.publishedAt === null)).toBe(true);
    expect(titlesOf(drafts)).toContain('Secret draft');
    expect(titlesOf(published)).not.toContain('Secret draft');
  });
  it('lists one locale with locale=fr and every locale with locale=*', async () => {
    const fr = await get({ locale: 'fr' });
    expect(fr.body.data.map((d: any) => [d.title, d.locale])).toEqual([['Banane', 'fr']]);
    expect(fr.body.meta.pagination.total).toBe(1);
    const all = await get({ locale: '*', pagination: { pageSize: 100 } });
    expect(all.body.meta.pagination.total).toBe(13);
    expect(new Set(all.body.data.map((d: any) => d.locale))).toEqual(new Set(['en', 'fr']));
    const frDraft = await get({ locale: 'fr', status: 'draft' });
    expect(frDraft.body.data.map((d: any) => [d.title, d.publishedAt])).toEqual([['Banane', null]]);
  });
});
