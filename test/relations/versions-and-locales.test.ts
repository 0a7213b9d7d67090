/**
 * Links across versions and locales: links survive publishing (also to targets published
 * later), draft-only writes, per-locale links, and deleting targets (whole documents or
 * one locale) removes exactly the links that pointed at them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { relationSeed } from '../helpers/seed';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const { create, put, tag, rel, tagsOf, articlesOfTag } = relationSeed(() => server);

const count = async (sql: string, params: (string | number)[] = []) => (await server.instance.db.get<{ n: number }>(sql, params))!.n;
const tagLinks = (where = '1 = 1', params: (string | number)[] = []) => count(`SELECT count(*) AS n FROM "articles_tags_lnk" WHERE ${where}`, params);

describe('links across draft and published versions', () => {
  it('shows a tag linked while it was only a draft as soon as the tag is published: the link was never dropped', async () => {
    const t1 = await tag('one');
    const t2 = await tag('later', '?status=draft');
    const t3 = await tag('three');
    const a = await create('articles', { title: 'early link', tags: [t1, t2, t3] });
    expect(await tagsOf(a)).toEqual(['one', 'three']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['one', 'later', 'three']);
    expect(await tagLinks('"targetDocumentId" = ?', [t2])).toBe(2);

    // Republishing the article while the tag is still a draft keeps the link too.
    await put(`articles/${a}`, { summary: 'republished' });
    expect(await tagsOf(a)).toEqual(['one', 'three']);
    expect(await tagLinks('"targetDocumentId" = ?', [t2])).toBe(2);

    await put(`tags/${t2}`, { color: '#123456' });
    expect(await tagsOf(a)).toEqual(['one', 'later', 'three']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['one', 'later', 'three']);
    expect(await articlesOfTag(t2)).toEqual(['early link']);
  });

  it('reads the same links in the same order from the draft and the published version, on both sides', async () => {
    const [x, y, z] = [await tag('x'), await tag('y'), await tag('z')];
    const a = await create('articles', { title: 'both versions', tags: [x, y] });
    await put(`articles/${a}`, { tags: { connect: [{ documentId: z, position: { before: x } }] } });
    expect(await tagsOf(a)).toEqual(['z', 'x', 'y']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['z', 'x', 'y']);
    expect(await articlesOfTag(z)).toEqual(['both versions']);
    expect(await articlesOfTag(z, '&status=draft')).toEqual(['both versions']);
    const rows = await server.instance.db.all<{ id: number }>('SELECT id FROM articles WHERE "documentId" = ?', [a]);
    expect(rows).toHaveLength(2);
    for (const { id } of rows) expect(await tagLinks('"sourceId" = ?', [id])).toBe(3);
  });

  it('changes only the draft’s links with PUT ?status=draft, and the next PUT publishes them', async () => {
    const [x, y, z] = [await tag('x'), await tag('y'), await tag('z')];
    const a = await create('articles', { title: 'draft edit', tags: [x, y] });
    await put(`articles/${a}?status=draft`, { tags: { connect: [{ documentId: z, position: { start: true } }], disconnect: [y] } });
    expect(await tagsOf(a, '&status=draft')).toEqual(['z', 'x']);
    expect(await tagsOf(a)).toEqual(['x', 'y']);
    expect(await articlesOfTag(y)).toEqual(['draft edit']);
    expect(await articlesOfTag(y, '&status=draft')).toEqual([]);
    await put(`articles/${a}`, { summary: 'now published' });
    expect(await tagsOf(a)).toEqual(['z', 'x']);
    expect(await articlesOfTag(y)).toEqual([]);
  });

  it('keeps the tag side’s order when one of its articles is republished', async () => {
    const t = await tag('ordered');
    const [a1, a2, a3] = [
      await create('articles', { title: 'o1', tags: [t] }),
      await create('articles', { title: 'o2', tags: [t] }),
      await create('articles', { title: 'o3', tags: [t] }),
    ];
    await put(`tags/${t}`, { articles: { set: [a3, a1, a2] } });
    await put(`articles/${a1}`, { summary: 'republished' });
    await put(`articles/${a3}?status=draft`, { summary: 'draft only' });
    await put(`articles/${a3}`, { summary: 'published again' });
    expect(await articlesOfTag(t)).toEqual(['o3', 'o1', 'o2']);
    expect(await articlesOfTag(t, '&status=draft')).toEqual(['o3', 'o1', 'o2']);
  });

  it('changes only what status=draft reads when tag.articles is written with ?status=draft', async () => {
    const t = await tag('inverse draft');
    const [a1, a2, a3] = [
      await create('articles', { title: 'd1', tags: [t] }),
      await create('articles', { title: 'd2', tags: [t] }),
      await create('articles', { title: 'd3' }),
    ];
    await put(`tags/${t}?status=draft`, { articles: { connect: [a3], disconnect: [a1] } });
    expect(await articlesOfTag(t, '&status=draft')).toEqual(['d2', 'd3']);
    expect(await tagsOf(a1, '&status=draft')).toEqual([]);
    expect(await tagsOf(a3, '&status=draft')).toEqual(['inverse draft']);
    // The published versions are untouched.
    expect(await tagsOf(a3)).toEqual([]);
    expect(await tagsOf(a1)).toEqual(['inverse draft']);
    expect(await articlesOfTag(t)).toEqual(['d1', 'd2']);
    await put(`tags/${t}?status=draft`, { articles: [] });
    expect(await articlesOfTag(t, '&status=draft')).toEqual([]);
    expect(await tagsOf(a2)).toEqual(['inverse draft']);
    expect(await articlesOfTag(t)).toEqual(['d1', 'd2']);
  });
});

describe('links per locale', () => {
  it('keeps separate tags and category per locale, and an fr article links the fr version of the category', async () => {
    const [t1, t2, t3] = [await tag('t1'), await tag('t2'), await tag('t3')];
    const c = await create('categories', { name: 'Category' });
    await put(`categories/${c}?locale=fr`, { name: 'Catégorie' });
    const a = await create('articles', { title: 'Hello', tags: [t1], category: c });
    await put(`articles/${a}?locale=fr`, { title: 'Bonjour', tags: [t2, t3], category: c });

    expect(await tagsOf(a)).toEqual(['t1']);
    expect(await tagsOf(a, '&locale=fr')).toEqual(['t2', 't3']);
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Category');
    expect(await rel(`articles/${a}`, 'category', 'name', '&locale=fr')).toBe('Catégorie');
    expect(await rel(`categories/${c}`, 'articles', 'title', '&locale=fr')).toEqual(['Bonjour']);
    expect(await rel(`categories/${c}`, 'articles', 'title')).toEqual(['Hello']);

    await put(`articles/${a}`, { tags: { connect: [t3] } });
    expect(await tagsOf(a)).toEqual(['t1', 't3']);
    expect(await tagsOf(a, '&locale=fr')).toEqual(['t2', 't3']);
    expect(await tagsOf(a, '&locale=fr&status=draft')).toEqual(['t2', 't3']);
    // A tag has no locale: it lists the article versions of every locale that link to it, in link order.
    expect(await articlesOfTag(t3)).toEqual(['Bonjour', 'Hello']);
    expect(await articlesOfTag(t3, '&locale=fr')).toEqual(['Bonjour', 'Hello']);

    await put(`articles/${a}?locale=fr`, { category: null });
    expect(await rel(`articles/${a}`, 'category', 'name', '&locale=fr')).toBeNull();
    expect(await rel(`articles/${a}`, 'category', 'name')).toBe('Category');
  });

  it('links the fr versions of articles when category.articles is written in fr, leaving the en versions alone', async () => {
    const c = await create('categories', { name: 'Science' });
    await put(`categories/${c}?locale=fr`, { name: 'Sciences' });
    const a = await create('articles', { title: 'Atoms' });
    await put(`articles/${a}?locale=fr`, { title: 'Atomes' });
    await put(`categories/${c}?locale=fr`, { articles: [a] });
    expect(await rel(`articles/${a}`, 'category', 'name', '&locale=fr')).toBe('Sciences');
    expect(await rel(`articles/${a}`, 'category', 'name')).toBeNull();
    expect(await rel(`categories/${c}`, 'articles', 'title', '&locale=fr')).toEqual(['Atomes']);
    expect(await rel(`categories/${c}`, 'articles', 'title')).toEqual([]);
  });

  it('starts a new locale without the links of the other locales', async () => {
    const t1 = await tag('only en');
    const a = await create('articles', { title: 'en first', tags: [t1] });
    await put(`articles/${a}?locale=fr`, { title: 'fr ensuite' });
    expect(await tagsOf(a, '&locale=fr')).toEqual([]);
    expect(await tagsOf(a)).toEqual(['only en']);
  });

  it('refuses to link an fr article to a category that has no fr version', async () => {
    const enOnly = await create('categories', { name: 'English only' });
    const a = await create('articles', { title: 'fr article' }, '?locale=fr');
    const res = await server.call('PUT', `/api/articles/${a}?locale=fr`, { body: { data: { category: enOnly } } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(enOnly);
    expect(await rel(`articles/${a}`, 'category', 'name', '&locale=fr&status=draft')).toBeNull();
  });

  it('links the version in the locale a longhand element names when the source is not localized', async () => {
    const a = await create('articles', { title: 'in english' });
    await put(`articles/${a}?locale=fr`, { title: 'en français' });
    const au = await create('authors', { name: 'Polyglot' });
    await put(`authors/${au}`, { articles: [{ documentId: a, locale: 'fr' }] });
    expect(await rel(`authors/${au}`, 'articles', 'title', '&locale=fr')).toEqual(['en français']);
    expect(await rel(`articles/${a}`, 'author', 'name', '&locale=fr')).toBe('Polyglot');
    expect(await rel(`articles/${a}`, 'author', 'name')).toBeNull();
  });
});

describe('deleting targets', () => {
  it('removes a deleted tag from every article, on both versions, and leaves the rest intact', async () => {
    const [t1, t2, t3] = [await tag('keep1'), await tag('doomed'), await tag('keep3')];
    const a = await create('articles', { title: 'A', tags: [t1, t2, t3] });
    const b = await create('articles', { title: 'B', tags: [t2] });
    const total = await tagLinks();
    expect(await tagLinks('"targetDocumentId" = ?', [t2])).toBe(4);

    expect((await server.call('DELETE', `/api/tags/${t2}`)).status).toBe(204);
    expect(await tagLinks('"targetDocumentId" = ?', [t2])).toBe(0);
    expect(await tagLinks()).toBe(total - 4);
    expect(await tagsOf(a)).toEqual(['keep1', 'keep3']);
    expect(await tagsOf(a, '&status=draft')).toEqual(['keep1', 'keep3']);
    expect(await tagsOf(b)).toEqual([]);
    expect(await articlesOfTag(t1)).toEqual(['A']);
    expect((await server.call('GET', `/api/tags/${t3}`)).status).toBe(200);
  });

  it('removes a deleted article from its tags, from other articles’ related and from the homepage, and leaves them intact', async () => {
    const t = await tag('survivor');
    const a = await create('articles', { title: 'gone', tags: [t] });
    const b = await create('articles', { title: 'stays', tags: [t] });
    const c = await create('articles', { title: 'refers', related: [a, b] });
    await put('homepage', { headline: 'Home', featuredArticles: [b, a] });
    const sources = (await server.instance.db.all<{ id: number }>('SELECT id FROM articles WHERE "documentId" = ?', [a])).map((r) => r.id);
    expect(sources).toHaveLength(2);
    const total = await tagLinks();

    expect((await server.call('DELETE', `/api/articles/${a}`)).status).toBe(204);
    expect(await tagLinks(`"sourceId" IN (${sources.join(', ')})`)).toBe(0);
    expect(await tagLinks()).toBe(total - 2);
    expect(await articlesOfTag(t)).toEqual(['stays']);
    expect(await articlesOfTag(t, '&status=draft')).toEqual(['stays']);
    expect(await tagsOf(b)).toEqual(['survivor']);
    expect(await rel(`articles/${c}`, 'related', 'title')).toEqual(['stays']);
    expect(await rel('homepage', 'featuredArticles', 'title')).toEqual(['stays']);
    expect(await count('SELECT count(*) AS n FROM "articles_related_lnk" WHERE "targetDocumentId" = ?', [a])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM "homepages_featuredArticles_lnk" WHERE "targetDocumentId" = ?', [a])).toBe(0);
  });

  it('removes only the links to the deleted locale of a localized category', async () => {
    const c = await create('categories', { name: 'Bilingual' });
    await put(`categories/${c}?locale=fr`, { name: 'Bilingue' });
    const en = await create('articles', { title: 'english', category: c });
    const fr = await create('articles', { title: 'français', category: c }, '?locale=fr');
    const links = (locale: string) =>
      count('SELECT count(*) AS n FROM "articles_category_lnk" WHERE "targetDocumentId" = ? AND "targetLocale" = ?', [c, locale]);
    expect([await links('en'), await links('fr')]).toEqual([2, 2]);

    expect((await server.call('DELETE', `/api/categories/${c}?locale=fr`)).status).toBe(204);
    expect([await links('en'), await links('fr')]).toEqual([2, 0]);
    expect(await rel(`articles/${fr}`, 'category', 'name', '&locale=fr')).toBeNull();
    expect(await rel(`articles/${en}`, 'category', 'name')).toBe('Bilingual');
    expect(await rel(`categories/${c}`, 'articles', 'title')).toEqual(['english']);
  });

  it('removes only the links to the deleted locale of an article', async () => {
    const x = await create('articles', { title: 'x en' });
    await put(`articles/${x}?locale=fr`, { title: 'x fr' });
    const r = await create('articles', { title: 'r en', related: [x] });
    await put(`articles/${r}?locale=fr`, { title: 'r fr', related: [x] });
    expect(await rel(`articles/${r}`, 'related', 'title', '&locale=fr')).toEqual(['x fr']);

    expect((await server.call('DELETE', `/api/articles/${x}?locale=fr`)).status).toBe(204);
    expect(await rel(`articles/${r}`, 'related', 'title', '&locale=fr')).toEqual([]);
    expect(await rel(`articles/${r}`, 'related', 'title')).toEqual(['x en']);
    expect(await rel(`articles/${r}`, 'related', 'title', '&status=draft')).toEqual(['x en']);
  });
});
