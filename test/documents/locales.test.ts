/**
 * i18n over REST with the example content types (spec §3; sample locale-fr.json,
 * single-type.json): per-locale lists, creating a locale version by PUT, syncing the
 * non-localized attributes, deleting one or all locales.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const RICH = {
  title: 'Rich article',
  summary: 'With components',
  body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello blocks' }] }],
  kind: 'guide',
  views: 5,
  rating: 4.5,
  featured: true,
  publishDate: '2024-05-01',
  meta: { readingTime: 3, keywords: ['a', 'b'] },
  seo: { metaTitle: 'Rich', metaDescription: 'Rich SEO' },
  links: [
    { label: 'Docs', url: 'https://example.com/docs' },
    { label: 'Repo', url: 'https://example.com/repo', newTab: true },
  ],
  blocks: [{ __component: 'shared.quote', title: 'Quote', body: 'To be' }],
};
const SHARED = { kind: 'guide', views: 5, rating: 4.5, featured: true, publishDate: '2024-05-01', meta: { readingTime: 3, keywords: ['a', 'b'] } };

async function createArticle(data: Record<string, unknown>, query = '') {
  const created = await server.call('POST', `/api/articles${query}`, { body: { data } });
  expect(created.status).toBe(201);
  return created.body.data;
}

async function versionsOf(documentId: string) {
  const listed = await server.call('GET', `/api/articles?locale=*&filters[documentId][$eq]=${documentId}&fields[0]=title&fields[1]=locale&sort=locale:asc`);
  expect(listed.status).toBe(200);
  return listed.body;
}

describe('creating and listing per locale', () => {
  it('creates in the locale given by ?locale=fr', async () => {
    const created = await createArticle({ title: 'Créé en français' }, '?locale=fr');
    expect(created).toMatchObject({ title: 'Créé en français', locale: 'fr', kind: 'news', views: 0, featured: false });
    expect((await server.call('GET', `/api/articles/${created.documentId}?locale=fr`)).status).toBe(200);
    expect((await server.call('GET', `/api/articles/${created.documentId}`)).status).toBe(404);
  });

  it('ignores a locale key in the body and creates in the default locale', async () => {
    const created = await createArticle({ title: 'locale in body is ignored', locale: 'fr' });
    expect(created.locale).toBe('en');
    expect((await server.call('GET', `/api/articles/${created.documentId}?locale=fr`)).status).toBe(404);
  });

  it('lists the default locale without ?locale, only fr with ?locale=fr, and both with ?locale=*', async () => {
    const en = await createArticle({ title: 'Listed in en' });
    const fr = await createArticle({ title: 'Listé en fr' }, '?locale=fr');
    const ids = (body: any) => body.data.map((a: any) => a.documentId);

    const byDefault = (await server.call('GET', '/api/articles?pagination[pageSize]=100&fields[0]=locale')).body;
    expect(byDefault.data.every((a: any) => a.locale === 'en')).toBe(true);
    expect(ids(byDefault)).toContain(en.documentId);
    expect(ids(byDefault)).not.toContain(fr.documentId);

    const inFr = (await server.call('GET', '/api/articles?locale=fr&pagination[pageSize]=100&fields[0]=locale')).body;
    expect(inFr.data.every((a: any) => a.locale === 'fr')).toBe(true);
    expect(ids(inFr)).toContain(fr.documentId);
    expect(ids(inFr)).not.toContain(en.documentId);

    const all = (await server.call('GET', '/api/articles?locale=*&pagination[pageSize]=100&fields[0]=locale')).body;
    expect(all.meta.pagination.total).toBe(byDefault.meta.pagination.total + inFr.meta.pagination.total);
    expect(ids(all)).toEqual(expect.arrayContaining([en.documentId, fr.documentId]));
  });

  it('lists nothing for a locale that does not exist, with 200 and total 0', async () => {
    await createArticle({ title: 'Something to not find' });
    const listed = await server.call('GET', '/api/articles?locale=de&fields[0]=title');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('refuses to write in a locale that does not exist with a 400 and writes nothing', async () => {
    const posted = await server.call('POST', '/api/articles?locale=de', { body: { data: { title: 'Hallo' } } });
    expect(posted.status).toBe(400);
    expect(posted.body.data).toBeNull();
    expect(posted.body.error.status).toBe(400);

    const existing = await createArticle({ title: 'Only en' });
    const put = await server.call('PUT', `/api/articles/${existing.documentId}?locale=de`, { body: { data: { title: 'Hallo' } } });
    expect(put.status).toBe(400);
    expect((await versionsOf(existing.documentId)).meta.pagination.total).toBe(1);
    const rows = await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "articles" WHERE "locale" = ?', ['de']);
    expect(rows?.n).toBe(0);
  });
});

describe('creating a locale version with PUT', () => {
  let documentId: string;
  let fr: any;

  beforeAll(async () => {
    documentId = (await createArticle(RICH)).documentId;
    const put = await server.call('PUT', `/api/articles/${documentId}?locale=fr&populate[seo]=true&populate[links]=true&populate[blocks]=true`, {
      body: { data: { title: 'Article riche', summary: 'Avec composants', seo: { metaTitle: 'Riche' } } },
    });
    expect(put.status).toBe(200);
    fr = put.body.data;
  });

  it('creates the fr version with the same documentId and answers it published', async () => {
    expect(fr.documentId).toBe(documentId);
    expect(fr.locale).toBe('fr');
    expect(fr.publishedAt).toEqual(expect.any(String));
    const found = await server.call('GET', `/api/articles/${documentId}?locale=fr`);
    expect(found.status).toBe(200);
    expect(found.body.data.title).toBe('Article riche');
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr&status=draft`)).body.data.title).toBe('Article riche');
  });

  it('copies the non-localized attributes, including the links component, from the existing locale', async () => {
    expect(fr).toMatchObject(SHARED);
    expect(fr.links).toEqual([
      { id: expect.any(Number), label: 'Docs', url: 'https://example.com/docs', newTab: false },
      { id: expect.any(Number), label: 'Repo', url: 'https://example.com/repo', newTab: true },
    ]);
  });

  it('takes the localized attributes from the body only, leaving the others empty', async () => {
    expect(fr).toMatchObject({ title: 'Article riche', summary: 'Avec composants', slug: null, body: null });
    expect(fr.seo).toEqual({ id: expect.any(Number), metaTitle: 'Riche', metaDescription: null });
    expect(fr.blocks).toEqual([]);
    const en = await server.call('GET', `/api/articles/${documentId}?populate[seo]=true`);
    expect(en.body.data).toMatchObject({ title: 'Rich article', summary: 'With components', locale: 'en' });
    expect(en.body.data.seo).toMatchObject({ metaTitle: 'Rich', metaDescription: 'Rich SEO' });
  });

  it('lists both versions with ?locale=* and a total of 2', async () => {
    const body = await versionsOf(documentId);
    expect(body.meta.pagination.total).toBe(2);
    expect(body.data.map((a: any) => [a.locale, a.title])).toEqual([
      ['en', 'Rich article'],
      ['fr', 'Article riche'],
    ]);
  });

  it('populates localizations with the other locale only', async () => {
    const en = await server.call(
      'GET',
      `/api/articles/${documentId}?fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][fields][1]=locale`,
    );
    expect(en.body.data.localizations).toEqual([{ id: fr.id, documentId, title: 'Article riche', locale: 'fr' }]);
    const inFr = await server.call('GET', `/api/articles/${documentId}?locale=fr&fields[0]=title&populate[localizations][fields][0]=title`);
    expect(inFr.body.data.localizations).toEqual([{ id: expect.any(Number), documentId, title: 'Rich article' }]);
    // A count asked for localizations is not one: Strapi 5.54.0 answers the other locales themselves.
    const counted = await server.call(
      'GET',
      `/api/articles/${documentId}?fields[0]=title&populate[localizations][fields][0]=title&populate[localizations][count]=true`,
    );
    expect(counted.body.data.localizations).toEqual([{ id: fr.id, documentId, title: 'Article riche' }]);
  });

  it('propagates a non-localized attribute written in en to fr, in the draft and the published version', async () => {
    const links = [{ label: 'New', url: 'https://example.com/new' }];
    const put = await server.call('PUT', `/api/articles/${documentId}`, { body: { data: { views: 42, meta: { readingTime: 9 }, links } } });
    expect(put.status).toBe(200);
    for (const status of ['published', 'draft']) {
      const found = await server.call('GET', `/api/articles/${documentId}?locale=fr&status=${status}&populate[links]=true`);
      expect(found.body.data).toMatchObject({ views: 42, meta: { readingTime: 9 }, title: 'Article riche' });
      expect(found.body.data.links).toEqual([{ id: expect.any(Number), label: 'New', url: 'https://example.com/new', newTab: false }]);
    }
  });

  it('propagates a non-localized attribute written in fr back to en', async () => {
    await server.call('PUT', `/api/articles/${documentId}?locale=fr`, { body: { data: { featured: false, kind: 'opinion' } } });
    const en = await server.call('GET', `/api/articles/${documentId}`);
    expect(en.body.data).toMatchObject({ featured: false, kind: 'opinion', title: 'Rich article' });
  });

  it('does not propagate a localized attribute to the other locale', async () => {
    await server.call('PUT', `/api/articles/${documentId}`, { body: { data: { title: 'Renamed in en' } } });
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr`)).body.data.title).toBe('Article riche');
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr&status=draft`)).body.data.title).toBe('Article riche');
  });
});

describe('deleting locale versions', () => {
  async function twoLocales() {
    const en = await createArticle({ title: 'To delete', views: 1 });
    const put = await server.call('PUT', `/api/articles/${en.documentId}?locale=fr`, { body: { data: { title: 'À supprimer' } } });
    expect(put.status).toBe(200);
    return en.documentId as string;
  }

  it('removes only the fr version with DELETE ?locale=fr', async () => {
    const documentId = await twoLocales();
    expect((await server.call('DELETE', `/api/articles/${documentId}?locale=fr`)).status).toBe(204);
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr`)).status).toBe(404);
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr&status=draft`)).status).toBe(404);
    expect((await server.call('GET', `/api/articles/${documentId}`)).body.data.title).toBe('To delete');
    expect((await versionsOf(documentId)).meta.pagination.total).toBe(1);
  });

  it('removes only the default locale with a DELETE without locale', async () => {
    const documentId = await twoLocales();
    expect((await server.call('DELETE', `/api/articles/${documentId}`)).status).toBe(204);
    expect((await server.call('GET', `/api/articles/${documentId}`)).status).toBe(404);
    expect((await server.call('GET', `/api/articles/${documentId}?locale=fr`)).body.data.title).toBe('À supprimer');
  });

  it('removes every locale, drafts included, with DELETE ?locale=*', async () => {
    const documentId = await twoLocales();
    expect((await server.call('DELETE', `/api/articles/${documentId}?locale=*`)).status).toBe(204);
    for (const query of ['', '?status=draft', '?locale=fr', '?locale=fr&status=draft']) {
      expect((await server.call('GET', `/api/articles/${documentId}${query}`)).status).toBe(404);
    }
    const rows = await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "articles" WHERE "documentId" = ?', [documentId]);
    expect(rows?.n).toBe(0);
  });
});

describe('types without i18n', () => {
  it('ignore ?locale on every route and never answer a locale key', async () => {
    const created = await server.call('POST', '/api/authors?locale=fr', { body: { data: { name: 'Ada', email: 'ada@example.com' } } });
    expect(created.status).toBe(201);
    expect(created.body.data).not.toHaveProperty('locale');
    const id = created.body.data.documentId;

    for (const query of ['', '?locale=fr', '?locale=de']) {
      const found = await server.call('GET', `/api/authors/${id}${query}`);
      expect(found.status).toBe(200);
      expect(found.body.data).not.toHaveProperty('locale');
    }
    const listed = await server.call('GET', '/api/authors?locale=fr');
    expect(listed.body.data.map((a: any) => a.documentId)).toContain(id);
    expect(listed.body.data[0]).not.toHaveProperty('locale');

    const updated = await server.call('PUT', `/api/authors/${id}?locale=fr`, { body: { data: { bio: 'Mathematician' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ documentId: id, bio: 'Mathematician' });
    expect((await server.call('GET', '/api/authors?pagination[pageSize]=100')).body.data.filter((a: any) => a.documentId === id)).toHaveLength(1);
  });
});

describe('single type with locales', () => {
  it('creates the fr version of the homepage with the same documentId, and DELETE without locale removes only en', async () => {
    const en = await server.call('PUT', '/api/homepage', { body: { data: { headline: 'Welcome' } } });
    expect(en.status).toBe(200);
    expect(en.body.data.locale).toBe('en');

    const fr = await server.call('PUT', '/api/homepage?locale=fr', { body: { data: { headline: 'Bienvenue' } } });
    expect(fr.status).toBe(200);
    expect(fr.body.data).toMatchObject({ documentId: en.body.data.documentId, headline: 'Bienvenue', intro: null, locale: 'fr' });
    expect((await server.call('GET', '/api/homepage')).body.data.headline).toBe('Welcome');

    const deleted = await server.call('DELETE', '/api/homepage');
    expect(deleted.status).toBe(204);
    expect((await server.call('GET', '/api/homepage')).status).toBe(404);
    const stillFr = await server.call('GET', '/api/homepage?locale=fr&fields[0]=headline');
    expect(stillFr.status).toBe(200);
    expect(stillFr.body.data).toEqual({ id: fr.body.data.id, documentId: en.body.data.documentId, headline: 'Bienvenue' });
  });
});
