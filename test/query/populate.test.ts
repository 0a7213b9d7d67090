import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
const docs: Record<string, any> = {};
let fileId = 0;

const url = (path: string, params: object) => `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`;
const get = (path: string, params: object = {}, headers: Record<string, string> = {}) => server.call('GET', url(path, params), { headers });
const one = (title: string) => `/api/articles/${docs[title].documentId}`;
const POPULATABLE = ['cover', 'gallery', 'category', 'author', 'tags', 'related', 'seo', 'links', 'blocks', 'localizations'];

const post = (path: string, data: object, query = '') => seedCreate(server, path, data, query);

beforeAll(async () => {
  server = await startServer({ quiet: true });
  const now = new Date().toISOString();
  fileId = await server.instance.db.insert(
    'INSERT INTO files ("documentId", "name", "hash", "ext", "mime", "size", "url", "provider", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ['avatarfile00000000000001', 'ada.png', 'ada_hash', '.png', 'image/png', 1.5, '/uploads/ada.png', 'local', now, now, now],
  );
  const ada = await post('/api/authors', { name: 'Ada', email: 'ada@example.com', internalNotes: 'secret', avatar: fileId });
  const grace = await post('/api/authors', { name: 'Grace' });
  const tech = await post('/api/categories', { name: 'Tech', slug: 'tech' });
  const life = await post('/api/categories', { name: 'Life', slug: 'life' });
  const tag = async (name: string, query = '') => (docs[`#${name}`] = await post('/api/tags', { name }, query)).documentId;
  const [alpha, beta, gamma, hidden] = [await tag('alpha'), await tag('beta'), await tag('gamma'), await tag('hidden', '?status=draft')];

  docs.Plain = await post('/api/articles', { title: 'Plain' });
  docs.Rich = await post('/api/articles', {
    title: 'Rich',
    category: tech.documentId,
    author: ada.documentId,
    tags: [gamma, alpha, beta],
    related: [docs.Plain.documentId],
    seo: { metaTitle: 'Rich meta', metaDescription: 'About rich' },
    links: [
      { label: 'two', url: 'https://example.com/2' },
      { label: 'one', url: 'https://example.com/1', newTab: true },
    ],
    blocks: [
      { __component: 'shared.quote', title: 'First quote', body: 'To be' },
      { __component: 'shared.rich-text', body: '## Markdown' },
      { __component: 'shared.media', file: fileId },
      { __component: 'shared.quote', title: 'Second quote', body: 'Not to be' },
    ],
  });
  docs.Tagged = await post('/api/articles', { title: 'Tagged', tags: [alpha, hidden], category: life.documentId });
  for (let i = 1; i <= 9; i++) {
    docs[`Filler ${i}`] = await post('/api/articles', {
      title: `Filler ${i}`,
      category: (i % 2 ? tech : life).documentId,
      author: (i % 2 ? grace : ada).documentId,
      tags: [beta, gamma],
      seo: { metaTitle: `Meta ${i}` },
      links: [{ label: `l${i}`, url: 'https://example.com' }],
      blocks: [{ __component: 'shared.quote', title: `q${i}` }],
    });
  }
  for (const [path, data] of [
    [`/api/categories/${tech.documentId}`, { name: 'Technologie' }],
    [one('Rich'), { title: 'Riche', category: tech.documentId }],
  ] as const) {
    const fr = await server.call('PUT', `${path}?locale=fr`, { body: { data } });
    if (fr.status !== 200) throw new Error(`seed fr: ${fr.status} ${JSON.stringify(fr.body)}`);
  }
});
afterAll(() => server.stop());

describe('populate forms', () => {
  it('populates nothing by default: no relation, media, component or dynamic zone key', async () => {
    for (const response of [await get(one('Rich')), await get('/api/articles')]) {
      const doc = Array.isArray(response.body.data) ? response.body.data[0] : response.body.data;
      for (const name of POPULATABLE) expect(doc).not.toHaveProperty(name);
    }
  });
  it('populates everything one level deep with *, leaving out private fields', async () => {
    const doc = (await server.call('GET', `${one('Rich')}?populate=*`)).body.data;
    for (const name of POPULATABLE) expect(doc).toHaveProperty(name);
    expect(doc.cover).toBeNull();
    expect(doc.gallery).toEqual([]);
    expect(doc.category).toMatchObject({ name: 'Tech', slug: 'tech' });
    expect(doc.author).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
    for (const hidden of ['internalNotes', 'avatar', 'articles', 'mentor']) expect(doc.author).not.toHaveProperty(hidden);
    expect(doc.category).not.toHaveProperty('articles');
    expect(doc.seo).not.toHaveProperty('shareImage');
    expect(doc.related.map((r: any) => r.title)).toEqual(['Plain']);
    expect(doc.localizations.map((l: any) => [l.title, l.locale])).toEqual([['Riche', 'fr']]);
    expect(JSON.stringify(doc)).not.toContain('secret');
  });
  it('populates a comma list and an array of attribute names', async () => {
    const list = (await server.call('GET', `${one('Rich')}?populate=author,tags`)).body.data;
    expect(POPULATABLE.filter((n) => n in list)).toEqual(['author', 'tags']);
    expect(list.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha', 'beta']);
    const array = (await get(one('Rich'), { populate: ['author'] })).body.data;
    expect(POPULATABLE.filter((n) => n in array)).toEqual(['author']);
    expect(array.author.name).toBe('Ada');
  });
  it('populates dotted paths, through media and the inverse side', async () => {
    const avatar = (await server.call('GET', `${one('Rich')}?populate=author.avatar`)).body.data;
    expect(avatar.author.avatar).toMatchObject({ id: fileId, name: 'ada.png', url: '/uploads/ada.png', mime: 'image/png' });
    const inverse = (await server.call('GET', `${one('Rich')}?populate=category.articles`)).body.data;
    expect(inverse.category.articles.map((a: any) => a.title)).toEqual(['Rich', ...[1, 3, 5, 7, 9].map((i) => `Filler ${i}`)]);
  });
  it('populates with the object form: true, fields, filters and sort', async () => {
    expect((await get(one('Rich'), { populate: { author: true } })).body.data.author.name).toBe('Ada');
    const picked = (await get(one('Rich'), { populate: { author: { fields: ['name'] } } })).body.data;
    expect(picked.author).toEqual({ id: expect.any(Number), documentId: expect.any(String), name: 'Ada' });
    const filtered = (await get(one('Rich'), { populate: { tags: { filters: { name: { $ne: 'beta' } } } } })).body.data;
    expect(filtered.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha']);
    const ordered = (await get(one('Rich'), { populate: { tags: { sort: ['name:desc'], fields: ['name'] } } })).body.data;
    expect(ordered.tags.map((t: any) => t.name)).toEqual(['gamma', 'beta', 'alpha']);
  });
  it('populates nested relations two levels deep', async () => {
    const params = {
      populate: { author: { fields: ['name'], populate: { articles: { fields: ['title'], sort: ['title:asc'], populate: { tags: { fields: ['name'] } } } } } },
    };
    const doc = (await get(one('Rich'), params)).body.data;
    const rich = doc.author.articles.find((a: any) => a.title === 'Rich');
    expect(doc.author.articles.map((a: any) => a.title)).toEqual(['Filler 2', 'Filler 4', 'Filler 6', 'Filler 8', 'Rich']);
    expect(rich.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha', 'beta']);
    expect(Object.keys(rich.tags[0]).sort()).toEqual(['documentId', 'id', 'name']);
  });
  it('answers { count } for populate[tags][count]=true', async () => {
    const doc = (await get(one('Rich'), { populate: { tags: { count: true } } })).body.data;
    expect(doc.tags).toEqual({ count: 3 });
    const list = await get('/api/articles', { filters: { title: ['Rich', 'Plain'] }, sort: 'title', populate: { tags: { count: 'true' } } });
    expect(list.body.data.map((d: any) => d.tags)).toEqual([{ count: 0 }, { count: 3 }]);
  });
  it('populates a dynamic zone with on fragments, leaving out other components', async () => {
    const doc = (await get(one('Rich'), { populate: { blocks: { on: { 'shared.quote': { fields: ['title'] } } } } })).body.data;
    expect(doc.blocks).toEqual([
      { id: expect.any(Number), __component: 'shared.quote', title: 'First quote' },
      { id: expect.any(Number), __component: 'shared.quote', title: 'Second quote' },
    ]);
  });
  it('populates a dynamic zone with populate=*, including the media inside its components', async () => {
    const doc = (await get(one('Rich'), { populate: { blocks: { populate: '*' } } })).body.data;
    expect(doc.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.rich-text', 'shared.media', 'shared.quote']);
    expect(doc.blocks[2].file).toMatchObject({ id: fileId, url: '/uploads/ada.png' });
  });
  it('populates a dynamic zone given populate[zone]=* like populate[zone][populate]=*, one level into its components', async () => {
    const star = await get(one('Rich'), { populate: { blocks: '*' } });
    expect(star.status).toBe(200);
    expect(star.body).toEqual((await get(one('Rich'), { populate: { blocks: { populate: '*' } } })).body);
    expect(star.body.data.blocks[2]).toEqual({ id: expect.any(Number), __component: 'shared.media', file: expect.objectContaining({ id: fileId }) });
    const list = await get('/api/articles', { populate: { blocks: '*' }, fields: ['title'], sort: 'id' });
    expect(list.status).toBe(200);
    expect(list.body.data.find((d: any) => d.title === 'Rich').blocks).toHaveLength(4);
  });
});

describe('populated shapes', () => {
  it('gives a to-one relation as an object or null and a to-many as an array in link order', async () => {
    const [plain, rich] = (await get('/api/articles', { filters: { title: ['Rich', 'Plain'] }, sort: 'title', populate: ['author', 'tags', 'related'] })).body
      .data;
    expect(plain.author).toBeNull();
    expect(plain.tags).toEqual([]);
    expect(rich.author).toMatchObject({ id: expect.any(Number), documentId: expect.any(String), name: 'Ada' });
    expect(rich.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha', 'beta']);
  });
  it('gives a component as an object with id, a repeatable component as an array and dynamic zone items with __component', async () => {
    const [plain, rich] = (await get('/api/articles', { filters: { title: ['Rich', 'Plain'] }, sort: 'title', populate: ['seo', 'links', 'blocks'] })).body
      .data;
    expect(plain).toMatchObject({ seo: null, links: [], blocks: [] });
    expect(rich.seo).toEqual({ id: expect.any(Number), metaTitle: 'Rich meta', metaDescription: 'About rich' });
    expect(rich.links).toEqual([
      { id: expect.any(Number), label: 'two', url: 'https://example.com/2', newTab: false },
      { id: expect.any(Number), label: 'one', url: 'https://example.com/1', newTab: true },
    ]);
    expect(rich.blocks[0]).toEqual({ id: expect.any(Number), __component: 'shared.quote', title: 'First quote', body: 'To be' });
    expect(rich.blocks[1]).toEqual({ id: expect.any(Number), __component: 'shared.rich-text', body: '## Markdown' });
  });
  it('applies the request status to populated targets', async () => {
    const published = (await get(one('Tagged'), { populate: ['tags'] })).body.data;
    expect(published.tags.map((t: any) => t.name)).toEqual(['alpha']);
    const draft = (await get(one('Tagged'), { status: 'draft', populate: ['tags'] })).body.data;
    expect(draft.tags.map((t: any) => t.name)).toEqual(['alpha', 'hidden']);
    expect(draft.tags.every((t: any) => t.publishedAt === null)).toBe(true);
    const inverse = (await get(`/api/tags/${docs['#alpha'].documentId}`, { populate: { articles: { fields: ['title'], sort: ['title'] } } })).body.data;
    expect(inverse.articles.map((a: any) => a.title)).toEqual(['Rich', 'Tagged']);
  });
  it('applies the request locale to populated localized targets', async () => {
    const fr = (await get(one('Rich'), { locale: 'fr', populate: { category: { fields: ['name', 'locale'] } } })).body.data;
    expect(fr).toMatchObject({ title: 'Riche', category: { name: 'Technologie', locale: 'fr' } });
    const en = (await get(one('Rich'), { populate: { category: { fields: ['name', 'locale'] } } })).body.data;
    expect(en.category).toMatchObject({ name: 'Tech', locale: 'en' });
  });
});

describe('populate permissions', () => {
  it('leaves out a relation whose target the caller may not find, named or through *, and answers the rest', async () => {
    const restricted = await startServer({ publicAccess: false });
    try {
      await restricted.instance.roles.grant('public', ['api::article.article.find', 'api::article.article.findOne']);
      const auth = { authorization: `Bearer ${restricted.tokens.fullAccess}` };
      const author = await restricted.call('POST', '/api/authors', { body: { data: { name: 'Ada' } }, headers: auth });
      const created = await restricted.call('POST', '/api/articles', {
        body: { data: { title: 'A', author: author.body.data.documentId, seo: { metaTitle: 'm' } } },
        headers: auth,
      });
      expect(created.status).toBe(201);

      for (const populate of [['author', 'seo'], { author: { fields: ['name'] }, seo: true }]) {
        const named = await restricted.call('GET', url('/api/articles', { populate }));
        expect(named.status).toBe(200);
        expect(named.body.data[0]).not.toHaveProperty('author');
        expect(named.body.data[0].seo).toMatchObject({ metaTitle: 'm' });
      }

      const star = await restricted.call('GET', '/api/articles?populate=*');
      expect(star.status).toBe(200);
      const doc = star.body.data[0];
      for (const hidden of ['author', 'category', 'tags']) expect(doc).not.toHaveProperty(hidden);
      expect(doc.seo).toMatchObject({ metaTitle: 'm' });
      expect(doc.related).toEqual([]);
    } finally {
      await restricted.stop();
    }
  });
});

describe('populate performance', () => {
  it('runs the same number of SQL statements for a page of 1 and a page of 10 with populate=*', async () => {
    // Each call spells the same sort differently: a URL asked before is answered from the
    // answer cache (http/answer-cache.ts) without building anything.
    const count = async (pageSize: number, sort: string) => {
      const before = server.instance.db.statementCount;
      const response = await server.call('GET', `/api/articles?populate=*&pagination[pageSize]=${pageSize}&${sort}`);
      const after = server.instance.db.statementCount;
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(pageSize);
      return after - before;
    };
    await count(10, 'sort=id'); // warm any per-process cache before measuring
    const small = await count(1, 'sort=id:asc');
    const large = await count(10, 'sort[0]=id:asc');
    // The page and at least one populate read (SQLite reads a level's attributes in one statement).
    expect(small).toBeGreaterThanOrEqual(2);
    expect(large).toBe(small);
  });

  it('reads each document its own relations, components and media when one populate query is asked of several documents in turn', async () => {
    // One query text is one plan, and its populate levels keep their statements: each document
    // after the first is read through statements kept from another's parents.
    const query = { populate: { category: true, author: { populate: ['avatar'] }, tags: true, seo: true, links: true, blocks: { populate: '*' } } };
    const read = async (title: string) => (await get(one(title), query)).body.data;
    const rich = await read('Rich');
    const tagged = await read('Tagged');
    const filler = await read('Filler 3');
    const plain = await read('Plain');
    expect(rich.tags.map((t: any) => t.name)).toEqual(['gamma', 'alpha', 'beta']);
    expect(rich.author.avatar.name).toBe('ada.png');
    expect(rich.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.rich-text', 'shared.media', 'shared.quote']);
    expect(tagged.tags.map((t: any) => t.name)).toEqual(['alpha']);
    expect(tagged.category.name).toBe('Life');
    expect(tagged.author).toBeNull();
    expect(tagged.blocks).toEqual([]);
    expect(filler.category.name).toBe('Tech');
    expect(filler.author.name).toBe('Grace');
    expect(filler.author.avatar).toBeNull();
    expect(filler.seo.metaTitle).toBe('Meta 3');
    expect(filler.links.map((l: any) => l.label)).toEqual(['l3']);
    expect(filler.blocks).toEqual([expect.objectContaining({ __component: 'shared.quote', title: 'q3' })]);
    expect([plain.category, plain.author, plain.seo, plain.tags, plain.links, plain.blocks]).toEqual([null, null, null, [], [], []]);
    // The same again in another order: each answer is the one it was.
    expect(await read('Plain')).toEqual(plain);
    expect(await read('Filler 3')).toEqual(filler);
    expect(await read('Rich')).toEqual(rich);
  });

  it('reads each document its own relation when a query populating one relation is asked of several documents in turn', async () => {
    // A level of one read keeps its statement too: each document after the first binds its own id into it.
    const query = { populate: { category: true } };
    const read = async (title: string) => (await get(one(title), query)).body.data.category?.name ?? null;
    expect([await read('Rich'), await read('Tagged'), await read('Plain'), await read('Filler 3')]).toEqual(['Tech', 'Life', null, 'Tech']);
    expect([await read('Tagged'), await read('Rich'), await read('Plain')]).toEqual(['Life', 'Tech', null]);
  });

  it('answers each query its own fields of a populated relation when queries with different fields are asked in turn', async () => {
    // Readers of a `fields` list are kept with that list (a kept plan's): another list is another reader.
    const category = async (fields: string[]) => (await get(one('Rich'), { fields: ['title'], populate: { category: { fields } } })).body.data.category;
    for (let i = 0; i < 2; i++) {
      expect(Object.keys(await category(['name']))).toEqual(['id', 'documentId', 'name']);
      expect(Object.keys(await category(['slug']))).toEqual(['id', 'documentId', 'slug']);
      expect(Object.keys(await category(['name', 'slug']))).toEqual(['id', 'documentId', 'name', 'slug']);
    }
  });
});

describe('v4 response format', () => {
  const V4 = { 'Strapi-Response-Format': 'v4' };
  it('wraps one document in attributes, relations in data, and leaves components flat', async () => {
    const params = { fields: ['title'], populate: { category: { fields: ['name'] }, tags: { fields: ['name'] }, author: { fields: ['name'] }, seo: true } };
    const response = await get(one('Rich'), params, V4);
    const rich = docs.Rich;
    expect(response.body).toEqual({
      data: {
        id: rich.id,
        documentId: rich.documentId,
        attributes: {
          title: 'Rich',
          category: { data: { id: expect.any(Number), documentId: expect.any(String), attributes: { name: 'Tech' } } },
          author: { data: { id: expect.any(Number), documentId: expect.any(String), attributes: { name: 'Ada' } } },
          tags: { data: ['gamma', 'alpha', 'beta'].map((name) => ({ id: expect.any(Number), documentId: docs[`#${name}`].documentId, attributes: { name } })) },
          seo: { id: expect.any(Number), metaTitle: 'Rich meta', metaDescription: 'About rich' },
        },
      },
      meta: {},
    });
    const plain = await get(one('Plain'), { fields: ['title'], populate: ['author', 'links'] }, V4);
    expect(plain.body.data.attributes).toEqual({ title: 'Plain', author: { data: null }, links: [] });
  });
  it('gives a populated count as an entry of its own, { data: { attributes: { count } } }, as Strapi 5.54.0 does', async () => {
    const doc = (await get(one('Rich'), { fields: ['title'], populate: { tags: { count: true }, author: { count: true } } }, V4)).body.data;
    expect(doc.attributes).toEqual({ title: 'Rich', tags: { data: { attributes: { count: 3 } } }, author: { data: { attributes: { count: 1 } } } });
    const list = await get(
      '/api/articles',
      { fields: ['title'], filters: { title: ['Rich', 'Plain'] }, sort: 'title', populate: { tags: { count: 'true' } } },
      V4,
    );
    expect(list.body.data.map((d: any) => d.attributes.tags)).toEqual([{ data: { attributes: { count: 0 } } }, { data: { attributes: { count: 3 } } }]);
  });
  it('wraps every document of a list and keeps the pagination meta', async () => {
    const response = await get(
      '/api/articles',
      { fields: ['title'], sort: 'id', pagination: { pageSize: 2 }, populate: { blocks: true, author: { fields: ['name'] } } },
      V4,
    );
    expect(response.body.meta).toEqual({ pagination: { page: 1, pageSize: 2, pageCount: 6, total: 12 } });
    expect(response.body.data).toEqual([
      { id: docs.Plain.id, documentId: docs.Plain.documentId, attributes: { title: 'Plain', blocks: [], author: { data: null } } },
      {
        id: docs.Rich.id,
        documentId: docs.Rich.documentId,
        attributes: {
          title: 'Rich',
          blocks: expect.arrayContaining([{ id: expect.any(Number), __component: 'shared.quote', title: 'First quote', body: 'To be' }]),
          author: { data: { id: expect.any(Number), documentId: expect.any(String), attributes: { name: 'Ada' } } },
        },
      },
    ]);
  });
});
