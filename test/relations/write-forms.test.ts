/**
 * Relation write forms over REST, for every relation kind of the example content types:
 * shorthand, longhand, connect/disconnect/set, positions, to-one "last wins", both sides
 * of bidirectional relations, self-relations and a single type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { plain, relationSeed } from '../helpers/seed';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const { create, put, makeTags, rel, tagsOf, articlesOfTag } = relationSeed(() => server);

const article = (title: string, data: Record<string, unknown> = {}) => create('articles', { title, ...data });
const author = (name: string, data: Record<string, unknown> = {}) => create('authors', { name, ...data });
const category = (name: string) => create('categories', { name });

const rowIds = (table: string, documentId: string) => server.instance.db.all<{ id: number }>(`SELECT id FROM "${table}" WHERE "documentId" = ?`, [documentId]);

/** Link rows per source row of a document in a link table. */
async function linkCounts(linkTable: string, sourceTable: string, documentId: string): Promise<number[]> {
  const counts: number[] = [];
  for (const { id } of await rowIds(sourceTable, documentId)) {
    const row = await server.instance.db.get<{ n: number }>(`SELECT count(*) AS n FROM "${linkTable}" WHERE "sourceId" = ?`, [id]);
    counts.push(row!.n);
  }
  return counts;
}

describe('article.tags (manyToMany, owning side)', () => {
  it('sets the list to one tag when the value is a documentId string', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('shorthand', { tags: [t.alpha, t.beta] });
    await put(`articles/${a}`, { tags: t.gamma });
    expect(await tagsOf(a)).toEqual(['gamma']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['gamma']);
  });

  it('replaces the list with an array of documentIds, in the order given', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('array', { tags: [t.alpha, t.beta] });
    expect(await tagsOf(a)).toEqual(['alpha', 'beta']);
    await put(`articles/${a}`, { tags: [t.gamma, t.beta, t.alpha] });
    expect(await tagsOf(a)).toEqual(['gamma', 'beta', 'alpha']);
  });

  it('clears the list with null and with an empty array', async () => {
    const t = await makeTags('alpha', 'beta');
    const a = await article('clear', { tags: [t.alpha, t.beta] });
    await put(`articles/${a}`, { tags: null });
    expect(await tagsOf(a)).toEqual([]);
    expect(await tagsOf(a, '&status=draft')).toEqual([]);
    await put(`articles/${a}`, { tags: [t.beta] });
    await put(`articles/${a}`, { tags: [] });
    expect(await tagsOf(a)).toEqual([]);
    expect(await linkCounts('articles_tags_lnk', 'articles', a)).toEqual([0, 0]);
  });

  it('accepts longhand { documentId } objects, alone or in an array', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('longhand', { tags: { documentId: t.alpha } });
    expect(await tagsOf(a)).toEqual(['alpha']);
    await put(`articles/${a}`, { tags: [{ documentId: t.gamma }, { documentId: t.beta }] });
    expect(await tagsOf(a)).toEqual(['gamma', 'beta']);
  });

  it('takes a single target where connect, disconnect or set expect a list, as Strapi does', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('single', { tags: { connect: { documentId: t.alpha } } });
    await put(`articles/${a}`, { tags: { connect: t.beta } });
    expect(await tagsOf(a)).toEqual(['alpha', 'beta']);
    await put(`articles/${a}`, { tags: { connect: { documentId: t.gamma, position: { start: true } }, disconnect: t.alpha, options: { strict: true } } });
    expect(await tagsOf(a)).toEqual(['gamma', 'beta']);
    await put(`articles/${a}`, { tags: { set: { documentId: t.alpha } } });
    expect(await tagsOf(a)).toEqual(['alpha']);
  });

  it('combines connect and disconnect: the disconnected tag goes and the connected one is appended', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma', 'delta');
    const a = await article('patch', { tags: { connect: [t.alpha, t.beta, t.gamma] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'beta', 'gamma']);
    await put(`articles/${a}`, { tags: { connect: [{ documentId: t.delta }], disconnect: [t.beta] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'gamma', 'delta']);
    await put(`articles/${a}`, { tags: { disconnect: [{ documentId: t.alpha }] } });
    expect(await tagsOf(a)).toEqual(['gamma', 'delta']);
  });

  it('replaces the whole list with { set }, in the order given', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('set', { tags: [t.alpha, t.beta] });
    await put(`articles/${a}`, { tags: { set: [t.gamma, { documentId: t.alpha }] } });
    expect(await tagsOf(a)).toEqual(['gamma', 'alpha']);
    await put(`articles/${a}`, { tags: { set: [] } });
    expect(await tagsOf(a)).toEqual([]);
  });

  it('places connected tags with start, before and after as in the Strapi sample, then moves one with end', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma', 'delta', 'epsilon');
    const a = await article('Relations demo', { tags: { connect: [t.alpha, t.beta] } });
    const body = await put(`articles/${a}?populate[tags][fields][0]=name`, {
      tags: {
        connect: [
          { documentId: t.gamma, position: { start: true } },
          { documentId: t.delta, position: { before: t.beta } },
          { documentId: t.epsilon, position: { after: t.gamma } },
        ],
      },
    });
    expect(body.tags.map((x: any) => plain(x.name))).toEqual(['gamma', 'epsilon', 'alpha', 'delta', 'beta']);
    expect(await tagsOf(a)).toEqual(['gamma', 'epsilon', 'alpha', 'delta', 'beta']);
    await put(`articles/${a}`, { tags: { connect: [{ documentId: t.gamma, position: { end: true } }] } });
    expect(await tagsOf(a)).toEqual(['epsilon', 'alpha', 'delta', 'beta', 'gamma']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['epsilon', 'alpha', 'delta', 'beta', 'gamma']);
  });

  it('places later connect elements relative to tags connected earlier in the same request', async () => {
    const t = await makeTags('x', 'y', 'z', 'w');
    const a = await article('chain', {
      tags: {
        connect: [
          t.x,
          { documentId: t.y, position: { before: t.x } },
          { documentId: t.z, position: { after: t.y } },
          { documentId: t.w, position: { start: true } },
        ],
      },
    });
    expect(await tagsOf(a)).toEqual(['w', 'y', 'z', 'x']);
  });

  it('moves an already-connected tag when it is connected again with a position, without adding a second link', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma', 'delta');
    const a = await article('move', { tags: [t.alpha, t.beta, t.gamma, t.delta] });
    await put(`articles/${a}`, { tags: { connect: [{ documentId: t.delta, position: { after: t.alpha } }] } });
    expect(await tagsOf(a)).toEqual(['alpha', 'delta', 'beta', 'gamma']);
    await put(`articles/${a}`, {
      tags: {
        connect: [
          { documentId: t.gamma, position: { start: true } },
          { documentId: t.alpha, position: { before: t.gamma } },
        ],
      },
    });
    expect(await tagsOf(a)).toEqual(['alpha', 'gamma', 'delta', 'beta']);
    expect(await linkCounts('articles_tags_lnk', 'articles', a)).toEqual([4, 4]);
  });

  it('moves an already-connected tag to the end when it is connected again without a position', async () => {
    const t = await makeTags('alpha', 'beta', 'gamma');
    const a = await article('default end', { tags: [t.alpha, t.beta, t.gamma] });
    await put(`articles/${a}`, { tags: { connect: [t.alpha] } });
    expect(await tagsOf(a)).toEqual(['beta', 'gamma', 'alpha']);
  });

  it('gives each document of a list read its own order, on both sides', async () => {
    const t = await makeTags('p', 'q');
    await article('list one', { tags: [t.p, t.q] });
    await article('list two', { tags: [t.q, t.p] });
    await put(`tags/${t.q}`, {
      articles: {
        connect: [{ documentId: (await server.call('GET', '/api/articles?filters[title][$eq]=list two')).body.data[0].documentId, position: { start: true } }],
      },
    });
    const articles = await server.call('GET', '/api/articles?filters[title][$startsWith]=list&sort=title&populate[tags][fields][0]=name');
    expect(articles.body.data.map((a: any) => [a.title, a.tags.map((x: any) => plain(x.name))])).toEqual([
      ['list one', ['p', 'q']],
      ['list two', ['q', 'p']],
    ]);
    const tags = await server.call(
      'GET',
      `/api/tags?filters[documentId][$in][0]=${t.p}&filters[documentId][$in][1]=${t.q}&sort=id&populate[articles][fields][0]=title`,
    );
    expect(tags.body.data.map((x: any) => x.articles.map((a: any) => a.title))).toEqual([
      ['list one', 'list two'],
      ['list two', 'list one'],
    ]);
  });
});

describe('to-one relations', () => {
  it('article.category takes a documentId string, is replaced by another one and cleared by null', async () => {
    const c1 = await category('News');
    const c2 = await category('Guides');
    const a = await article('cat', { category: c1 });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('News');
    await put(`articles/${a}`, { category: c2 });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Guides');
    expect(await rel(`categories/${c1}`, 'articles', 'title')).toEqual([]);
    await put(`articles/${a}`, { category: null });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBeNull();
    expect(await linkCounts('articles_category_lnk', 'articles', a)).toEqual([0, 0]);
  });

  it('article.category keeps only the last target of connect and of set, in one link row per version', async () => {
    const [c1, c2, c3] = [await category('One'), await category('Two'), await category('Three')];
    const a = await article('last wins', { category: { connect: [c1, c2] } });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Two');
    expect(await linkCounts('articles_category_lnk', 'articles', a)).toEqual([1, 1]);
    await put(`articles/${a}`, { category: { set: [c3, { documentId: c1 }] } });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('One');
    await put(`articles/${a}`, { category: { connect: [{ documentId: c3 }] } });
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Three');
    expect(await rel(`articles/${a}`, 'category', 'name', '&status=draft')).toBe('Three');
    expect(await linkCounts('articles_category_lnk', 'articles', a)).toEqual([1, 1]);
    expect(await rel(`categories/${c1}`, 'articles', 'title')).toEqual([]);
    expect(await rel(`categories/${c3}`, 'articles', 'title')).toEqual(['last wins']);
  });

  it('article.author is replaced by a longhand object or a connect, moves off the old author, and is cleared by disconnect', async () => {
    const [au1, au2, au3] = [await author('Ann'), await author('Bob'), await author('Cy')];
    const a = await article('authored', { author: { documentId: au1 } });
    expect(await rel(`authors/${au1}`, 'articles', 'title')).toEqual(['authored']);
    await put(`articles/${a}`, { author: { connect: [au2, au3] } });
    expect(await rel(`articles/${a}`, 'author', 'name')).toBe('Cy');
    expect(await rel(`authors/${au1}`, 'articles', 'title')).toEqual([]);
    expect(await rel(`authors/${au2}`, 'articles', 'title')).toEqual([]);
    expect(await rel(`authors/${au3}`, 'articles', 'title')).toEqual(['authored']);
    await put(`articles/${a}`, { author: { disconnect: [au3] } });
    expect(await rel(`articles/${a}`, 'author', 'name')).toBeNull();
    expect(await rel(`authors/${au3}`, 'articles', 'title')).toEqual([]);
  });

  it('author.mentor (oneToOne one-way self-relation) holds one mentor: last of connect, then set, then null', async () => {
    const [m1, m2, m3] = [await author('Mentor 1'), await author('Mentor 2'), await author('Mentor 3')];
    const me = await author('Mentee', { mentor: m1 });
    expect(await rel(`authors/${me}`, 'mentor', 'name')).toBe('Mentor 1');
    await put(`authors/${me}`, { mentor: { connect: [m2, { documentId: m3 }] } });
    expect(await rel(`authors/${me}`, 'mentor', 'name')).toBe('Mentor 3');
    expect(await linkCounts('authors_mentor_lnk', 'authors', me)).toEqual([1]);
    await put(`authors/${me}`, { mentor: { set: [m1] } });
    expect(await rel(`authors/${me}`, 'mentor', 'name')).toBe('Mentor 1');
    await put(`authors/${me}`, { mentor: null });
    expect(await rel(`authors/${me}`, 'mentor', 'name')).toBeNull();
    expect(await linkCounts('authors_mentor_lnk', 'authors', me)).toEqual([0]);
  });
});

describe('both sides of a bidirectional relation', () => {
  it('lists an article in the tag’s articles once the tag is connected from the article, and not after disconnect', async () => {
    const t = await makeTags('shared');
    const a1 = await article('first', { tags: [t.shared] });
    const a2 = await article('second');
    await put(`articles/${a2}`, { tags: { connect: [t.shared] } });
    expect(await articlesOfTag(t.shared)).toEqual(['first', 'second']);
    expect(await articlesOfTag(t.shared, '&status=draft')).toEqual(['first', 'second']);
    await put(`articles/${a1}`, { tags: { disconnect: [t.shared] } });
    expect(await articlesOfTag(t.shared)).toEqual(['second']);
  });

  it('links the tag into each article’s tags when tag.articles is written, after the tags they already had', async () => {
    const t = await makeTags('old', 'new');
    const a1 = await article('one', { tags: [t.old] });
    const a2 = await article('two');
    await put(`tags/${t.new}`, { articles: [a1, a2] });
    expect(await tagsOf(a1)).toEqual(['old', 'new']);
    expect(await tagsOf(a1, '&status=draft')).toEqual(['old', 'new']);
    expect(await tagsOf(a2)).toEqual(['new']);
    expect(await articlesOfTag(t.new)).toEqual(['one', 'two']);
    await put(`tags/${t.new}`, { articles: null });
    expect(await tagsOf(a1)).toEqual(['old']);
    expect(await tagsOf(a2, '&status=draft')).toEqual([]);
  });

  it('keeps the tag side’s own order: positions on tag.articles read back from the tag, the articles’ tag order untouched', async () => {
    const t = await makeTags('first', 'hub');
    const [a1, a2, a3] = [await article('a1', { tags: [t.first] }), await article('a2'), await article('a3')];
    await put(`tags/${t.hub}`, {
      articles: { connect: [a1, a2, { documentId: a3, position: { before: a1 } }] },
    });
    expect(await articlesOfTag(t.hub)).toEqual(['a3', 'a1', 'a2']);
    await put(`tags/${t.hub}`, { articles: { connect: [{ documentId: a2, position: { start: true } }] } });
    expect(await articlesOfTag(t.hub)).toEqual(['a2', 'a3', 'a1']);
    await put(`tags/${t.hub}`, { articles: { connect: [{ documentId: a2, position: { after: a1 } }] } });
    expect(await articlesOfTag(t.hub)).toEqual(['a3', 'a1', 'a2']);
    expect(await articlesOfTag(t.hub, '&status=draft')).toEqual(['a3', 'a1', 'a2']);
    expect(await tagsOf(a1)).toEqual(['first', 'hub']);
    // Reordering the article side leaves the tag side's order alone.
    await put(`articles/${a1}`, { tags: [t.hub, t.first] });
    expect(await articlesOfTag(t.hub)).toEqual(['a3', 'a1', 'a2']);
    await put(`tags/${t.hub}`, { articles: { set: [a1, a3] } });
    expect(await articlesOfTag(t.hub)).toEqual(['a1', 'a3']);
    expect(await tagsOf(a2)).toEqual([]);
    expect(await tagsOf(a1)).toEqual(['hub', 'first']);
  });

  it('moves an article away from its previous author when author.articles is written', async () => {
    const [au1, au2] = [await author('Previous'), await author('Next')];
    const a1 = await article('moved', { author: au1 });
    await article('stays', { author: au1 });
    await put(`authors/${au2}`, { articles: [a1] });
    expect(await rel(`articles/${a1}`, 'author', 'name')).toBe('Next');
    expect(await rel(`articles/${a1}`, 'author', 'name', '&status=draft')).toBe('Next');
    expect(await rel(`authors/${au1}`, 'articles', 'title')).toEqual(['stays']);
    expect(await rel(`authors/${au2}`, 'articles', 'title')).toEqual(['moved']);
    expect(await linkCounts('articles_author_lnk', 'articles', a1)).toEqual([1, 1]);
  });

  it('connects articles from category.articles in order and moves them off their previous category', async () => {
    const [c1, c2] = [await category('Before'), await category('After')];
    const [a1, a2, a3] = [await article('c-a1', { category: c1 }), await article('c-a2'), await article('c-a3')];
    await put(`categories/${c2}`, { articles: { connect: [a2, { documentId: a1, position: { start: true } }, { documentId: a3, position: { after: a1 } }] } });
    expect(await rel(`categories/${c2}`, 'articles', 'title')).toEqual(['c-a1', 'c-a3', 'c-a2']);
    expect(await rel(`categories/${c1}`, 'articles', 'title')).toEqual([]);
    for (const a of [a1, a2, a3]) expect(await rel(`articles/${a}`, 'category', 'name')).toBe('After');
  });
});

describe('self-relations and single types', () => {
  it('article.related (oneToMany one-way self-relation) accepts set, positioned connect, disconnect and null', async () => {
    const [r1, r2, r3] = [await article('r1'), await article('r2'), await article('r3')];
    const a = await article('hub', { related: [r2, r1] });
    expect(await rel(`articles/${a}`, 'related', 'title')).toEqual(['r2', 'r1']);
    await put(`articles/${a}`, { related: { connect: [{ documentId: r3, position: { before: r1 } }], disconnect: [r2] } });
    expect(await rel(`articles/${a}`, 'related', 'title')).toEqual(['r3', 'r1']);
    await put(`articles/${a}`, { related: { connect: [{ documentId: a, position: { start: true } }] } });
    expect(await rel(`articles/${a}`, 'related', 'title')).toEqual(['hub', 'r3', 'r1']);
    expect(await rel(`articles/${r1}`, 'related', 'title')).toEqual([]);
    await put(`articles/${a}`, { related: null });
    expect(await rel(`articles/${a}`, 'related', 'title', '&status=draft')).toEqual([]);
  });

  it('homepage.featuredArticles (single type) accepts set, positioned connect, disconnect and null', async () => {
    const [f1, f2, f3] = [await article('f1'), await article('f2'), await article('f3')];
    await put('homepage', { headline: 'Welcome', featuredArticles: [f2, f1] });
    expect(await rel('homepage', 'featuredArticles', 'title')).toEqual(['f2', 'f1']);
    await put('homepage', {
      featuredArticles: {
        connect: [
          { documentId: f3, position: { after: f2 } },
          { documentId: f1, position: { start: true } },
        ],
      },
    });
    expect(await rel('homepage', 'featuredArticles', 'title')).toEqual(['f1', 'f2', 'f3']);
    await put('homepage?status=draft', { featuredArticles: { disconnect: [f2] } });
    expect(await rel('homepage', 'featuredArticles', 'title', '&status=draft')).toEqual(['f1', 'f3']);
    expect(await rel('homepage', 'featuredArticles', 'title')).toEqual(['f1', 'f2', 'f3']);
    await put('homepage', { featuredArticles: null });
    expect(await rel('homepage', 'featuredArticles', 'title')).toEqual([]);
  });
});
