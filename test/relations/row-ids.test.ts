/**
 * Relation targets named by row id, as Strapi 5 accepts them beside documentIds (its own
 * templates' seed data uses them): shorthand numbers and digit strings, `{ id }`, connect /
 * set / disconnect, position anchors, and mixed forms. A row id names one version row: the
 * link goes to that row's document. An unknown id is a 400 that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { strapi } from '@strapi/client';
import qs from 'qs';
import { relationSeed } from '../helpers/seed';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const { create, put, makeTags, rel, tagsOf, articlesOfTag } = relationSeed(() => server);

/** The row id a client sees for a document (the version a plain read answers). */
async function idOf(type: string, documentId: string, query: Record<string, string> = {}): Promise<number> {
  const res = await server.call('GET', `/api/${type}/${documentId}?${qs.stringify(query)}`);
  expect(res.status).toBe(200);
  return res.body.data.id;
}

/** Tags by name → { documentId, id }. */
async function tagRows(...names: string[]) {
  const docs = await makeTags(...names);
  const out: Record<string, { doc: string; id: number }> = {};
  for (const name of names) out[name] = { doc: docs[name]!, id: await idOf('tags', docs[name]!) };
  return out;
}

const article = (title: string, data: Record<string, unknown> = {}) => create('articles', { title, ...data });

describe('relations by row id', () => {
  it('links a to-one target given as a number, a digit string or { id }', async () => {
    const news = await create('categories', { name: 'News' });
    const ann = await create('authors', { name: 'Ann' });
    const a = await article('by id', { category: await idOf('categories', news), author: { id: await idOf('authors', ann) } });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('News');
    expect(await rel(`articles/${a}`, 'author', 'name')).toBe('Ann');
    expect(await rel(`articles/${a}`, 'author', 'name', '&status=draft')).toBe('Ann');
    const sport = await create('categories', { name: 'Sport' });
    await put(`articles/${a}`, { category: String(await idOf('categories', sport)) });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Sport');
  });

  it('connects, sets and disconnects by id, and places by an anchor id', async () => {
    const t = await tagRows('alpha', 'beta', 'gamma', 'delta');
    const a = await article('ops', { tags: { connect: [t.alpha!.id, { id: t.beta!.id }] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'beta']);
    await put(`articles/${a}`, { tags: { connect: [{ id: t.gamma!.id, position: { before: t.beta!.id } }] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'gamma', 'beta']);
    await put(`articles/${a}`, { tags: { connect: [{ documentId: t.delta!.doc, position: { after: t.alpha!.id } }] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'delta', 'gamma', 'beta']);
    await put(`articles/${a}`, { tags: { disconnect: [t.gamma!.id, { id: t.alpha!.id }] } });
    expect(await tagsOf(a)).toEqual(['delta', 'beta']);
    await put(`articles/${a}`, { tags: { set: [{ id: t.gamma!.id }, t.alpha!.id] } });
    expect(await tagsOf(a)).toEqual(['gamma', 'alpha']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['gamma', 'alpha']);
  });

  it('takes ids and documentIds side by side in one write', async () => {
    const t = await tagRows('alpha', 'beta', 'gamma', 'delta');
    const a = await article('mixed', { tags: [t.alpha!.id, t.beta!.doc, { id: t.gamma!.id }, { documentId: t.delta!.doc }] });
    expect(await tagsOf(a)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    await put(`articles/${a}`, { tags: { connect: [{ id: t.alpha!.id, position: { end: true } }], disconnect: [t.beta!.doc, t.gamma!.id] } });
    expect(await tagsOf(a)).toEqual(['delta', 'alpha']);
  });

  it('treats the draft and the published row of a document as the same target', async () => {
    const t = await tagRows('alpha');
    const draftRow = await idOf('tags', t.alpha!.doc, { status: 'draft' });
    expect(draftRow).not.toBe(t.alpha!.id);
    const a = await article('either row', { tags: [draftRow] });
    expect(await tagsOf(a)).toEqual(['alpha']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['alpha']);
    // Connecting the other row of the same document is the same link: a duplicate.
    const twice = await server.call('PUT', `/api/articles/${a}`, { body: { data: { tags: { connect: [draftRow, t.alpha!.id] } } } });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toContain(t.alpha!.doc);
  });

  it('writes the inverse side by id (tag.articles)', async () => {
    const t = await tagRows('alpha');
    const a = await article('one');
    const b = await article('two');
    await put(`tags/${t.alpha!.doc}`, { articles: { connect: [await idOf('articles', b), { id: await idOf('articles', a), position: { start: true } }] } });
    expect(await articlesOfTag(t.alpha!.doc)).toEqual(['one', 'two']);
    expect(await tagsOf(a)).toEqual(['alpha']);
    await put(`tags/${t.alpha!.doc}`, { articles: { disconnect: [await idOf('articles', a)] } });
    expect(await articlesOfTag(t.alpha!.doc)).toEqual(['two']);
  });

  it('links the version of the row: a source without i18n reaches the row locale', async () => {
    const a = await article('english');
    await put(`articles/${a}?locale=fr`, { title: 'français' });
    const fr = await idOf('articles', a, { locale: 'fr' });
    const t = await tagRows('alpha');
    await put(`tags/${t.alpha!.doc}`, { articles: [fr] });
    expect(await articlesOfTag(t.alpha!.doc, '&locale=fr')).toEqual(['français']);
    expect(await tagsOf(a, '&locale=fr')).toEqual(['alpha']);
    expect(await tagsOf(a)).toEqual([]);
  });

  it('accepts ids from @strapi/client, as a seed script sends them', async () => {
    const client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
    const t = await tagRows('alpha', 'beta');
    const news = await create('categories', { name: 'Client news' });
    const made: any = await client
      .collection('articles')
      .create({ title: 'seeded', category: await idOf('categories', news), tags: [t.beta!.id, t.alpha!.id] });
    expect(await tagsOf(made.data.documentId)).toEqual(['beta', 'alpha']);
    expect(await rel(`articles/${made.data.documentId}`, 'category', 'name')).toBe('Client news');
  });
});

describe('unknown or contradictory ids', () => {
  const NO_ROW = 987654;

  /** Every row of the tables a relation write could touch. */
  async function dump() {
    const out: Record<string, unknown[]> = {};
    for (const table of ['articles', 'tags', 'categories', 'authors', 'articles_tags_lnk', 'articles_category_lnk', 'articles_author_lnk']) {
      out[table] = await server.instance.db.all(`SELECT * FROM "${table}" ORDER BY id`);
    }
    return out;
  }

  async function rejected(method: 'POST' | 'PUT', path: string, data: Record<string, unknown>, message: string) {
    const before = await dump();
    const res = await server.call(method, `/api/${path}`, { body: { data } });
    expect({ status: res.status, name: res.body.error?.name, data: res.body.data }).toEqual({ status: 400, name: 'ValidationError', data: null });
    expect(res.body.error.message).toContain(message);
    expect(await dump()).toEqual(before);
  }

  it('answers 400 for an id that names no row, in every form, and changes nothing', async () => {
    const t = await tagRows('alpha', 'beta');
    const a = await article('kept', { tags: [t.alpha!.doc] });
    const unknown = 'relation(s) of type api::tag.tag associated with this entity do not exist';
    for (const tags of [
      NO_ROW,
      [t.beta!.id, NO_ROW],
      { connect: [NO_ROW] },
      { connect: [{ id: NO_ROW }] },
      { set: [{ id: NO_ROW }] },
      { disconnect: [NO_ROW] },
      String(NO_ROW),
    ]) {
      await rejected('PUT', `articles/${a}`, { title: 'changed', tags }, unknown);
    }
    await rejected('PUT', `articles/${a}`, { title: 'changed', tags: { connect: [{ id: t.beta!.id, position: { before: NO_ROW } }] } }, unknown);
    await rejected('PUT', `articles/${a}`, { title: 'changed', category: NO_ROW }, 'api::category.category');
    await rejected('POST', 'articles', { title: 'new', author: { id: NO_ROW } }, 'api::author.author');
    await rejected('PUT', `tags/${t.alpha!.doc}`, { articles: { connect: [NO_ROW] } }, 'api::article.article');
    expect(await tagsOf(a)).toEqual(['alpha']);
  });

  it('counts every unknown id of a type in one message', async () => {
    const a = await article('count');
    const res = await server.call('PUT', `/api/articles/${a}`, { body: { data: { tags: [NO_ROW, NO_ROW + 1] } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('2 relation(s) of type api::tag.tag associated with this entity do not exist');
  });

  it('refuses an id and a documentId of different documents in one element', async () => {
    const t = await tagRows('alpha', 'beta');
    const a = await article('contradiction');
    await rejected('PUT', `articles/${a}`, { tags: [{ id: t.alpha!.id, documentId: t.beta!.doc }] }, t.beta!.doc);
    await put(`articles/${a}`, { tags: [{ id: t.alpha!.id, documentId: t.alpha!.doc }] });
    expect(await tagsOf(a)).toEqual(['alpha']);
  });

  it('refuses ids that are not non-negative integers', async () => {
    const a = await article('malformed ids');
    for (const tags of [-1, 1.5, [{ id: 'x' }], [{ id: null }], { connect: [{ id: -2 }] }, { connect: [{ documentId: 'x', position: { before: 2.5 } }] }]) {
      await rejected('PUT', `articles/${a}`, { tags }, 'Invalid relation');
    }
  });
});

describe('ids inside components', () => {
  it('maps ids in single and repeatable components, nested, in one write', async () => {
    const nested = await startServer({ contentTypes: resolve(import.meta.dir, '../fixtures/nested') });
    try {
      const writer = async (name: string) => (await nested.call('POST', '/api/writers', { body: { data: { name } } })).body.data;
      const [ann, bob, cy] = [await writer('Ann'), await writer('Bob'), await writer('Cy')];
      const seo = {
        metaTitle: 't',
        meta: { label: 'm', related: ann.id },
        alternates: [
          { label: 'a', related: { id: bob.id } },
          { label: 'b', related: cy.documentId },
        ],
      };
      const page = await nested.call('POST', '/api/pages', { body: { data: { title: 'p', writer: { id: cy.id }, seo } } });
      expect(page.status).toBe(201);
      const query = qs.stringify({ populate: { writer: true, seo: { populate: { meta: { populate: ['related'] }, alternates: { populate: ['related'] } } } } });
      const read = (await nested.call('GET', `/api/pages/${page.body.data.documentId}?${query}`)).body.data;
      expect(read.writer.name).toBe('Cy');
      expect(read.seo.meta.related.name).toBe('Ann');
      expect(read.seo.alternates.map((x: any) => x.related.name)).toEqual(['Bob', 'Cy']);
      const bad = await nested.call('POST', '/api/pages', { body: { data: { title: 'q', seo: { alternates: [{ related: 987654 }] } } } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.path).toEqual(['seo', 'alternates', 0, 'related']);
    } finally {
      await nested.stop();
    }
  });
});
