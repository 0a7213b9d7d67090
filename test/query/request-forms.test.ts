/**
 * Request forms real front ends send: Strapi's `rest.strictParams` both ways (unknown top-level
 * parameters a 400 by default, ignored with FOLIO_STRICT_PARAMS=false), `filters[locale]`
 * choosing the locale instead of the default one, `locale` values that are no language tag,
 * and `_q` search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { strapi } from '@strapi/client';
import qs from 'qs';
import { resolveConfig } from '../../src/config';
import { startServer, type TestServer } from '../helpers/server';

let strict: TestServer;
let lax: TestServer;
let about: string;

const url = (path: string, params: object) => `${path}?${qs.stringify(params, { encodeValuesOnly: true })}`;

async function seed(server: TestServer): Promise<string> {
  const en = await server.call('POST', '/api/articles', { body: { data: { title: 'About us', slug: 'about' } } });
  expect(en.status).toBe(201);
  const id = en.body.data.documentId as string;
  const fr = await server.call('PUT', `/api/articles/${id}?locale=fr`, { body: { data: { title: 'À propos', slug: 'a-propos' } } });
  expect(fr.status).toBe(200);
  expect((await server.call('POST', '/api/articles', { body: { data: { title: 'Contact', slug: 'contact' } } })).status).toBe(201);
  return id;
}

beforeAll(async () => {
  strict = await startServer();
  lax = await startServer({ config: { strictParams: false } });
  about = await seed(strict);
  await seed(lax);
});
afterAll(async () => {
  await strict.stop();
  await lax.stop();
});

const invalidKey = (key: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: `Invalid key ${key}`, details: { key, path: null, source: 'query', param: key } },
});

describe('strictParams (FOLIO_STRICT_PARAMS)', () => {
  it('is on unless FOLIO_STRICT_PARAMS says false, and refuses a value that is not a boolean', () => {
    const before = process.env.FOLIO_STRICT_PARAMS;
    try {
      delete process.env.FOLIO_STRICT_PARAMS;
      expect(resolveConfig().strictParams).toBe(true);
      process.env.FOLIO_STRICT_PARAMS = 'false';
      expect(resolveConfig().strictParams).toBe(false);
      process.env.FOLIO_STRICT_PARAMS = 'maybe';
      expect(() => resolveConfig()).toThrow('FOLIO_STRICT_PARAMS must be true or false');
    } finally {
      if (before === undefined) delete process.env.FOLIO_STRICT_PARAMS;
      else process.env.FOLIO_STRICT_PARAMS = before;
    }
  });

  it('by default refuses a cache buster with 400 Invalid key on reads and writes, changing nothing', async () => {
    expect((await strict.call('GET', '/api/articles?v=2&_=1700000000')).body).toEqual(invalidKey('v'));
    expect((await strict.call('GET', `/api/articles/${about}?_=1700000000`)).body).toEqual(invalidKey('_'));
    const created = await strict.call('POST', '/api/articles?_=1', { body: { data: { title: 'Nope' } } });
    expect(created.body).toEqual(invalidKey('_'));
    const updated = await strict.call('PUT', `/api/articles/${about}?_=1`, { body: { data: { title: 'Changed' } } });
    expect(updated.body).toEqual(invalidKey('_'));
    expect((await strict.call('DELETE', `/api/articles/${about}?_=1`)).body).toEqual(invalidKey('_'));
    const list = await strict.call('GET', '/api/articles?sort=title&fields[0]=title');
    expect(list.body.data.map((d: any) => d.title)).toEqual(['About us', 'Contact']);
  });

  it('when off, answers reads with unknown top-level parameters as if they were not there', async () => {
    const plain = await lax.call('GET', '/api/articles?sort=title');
    const busted = await lax.call('GET', '/api/articles?sort=title&v=2&_=1700000000&utm_source=mail&x[y]=1');
    expect(busted.status).toBe(200);
    expect(busted.body).toEqual(plain.body);
    const id = plain.body.data[0].documentId;
    const one = await lax.call('GET', `/api/articles/${id}?_=1700000000&populate=seo`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ documentId: id, title: 'About us', seo: null });
    // Ignored means unread: even text no column could hold.
    expect((await lax.call('GET', '/api/articles?_=%00')).status).toBe(200);
  });

  it('when off, answers writes with unknown top-level parameters, and ignores read-only ones there', async () => {
    const created = await lax.call('POST', '/api/articles?_=1&filters[nope]=1', { body: { data: { title: 'Busted' } } });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;
    const updated = await lax.call('PUT', `/api/articles/${id}?v=2&fields[0]=title`, { body: { data: { title: 'Busted again' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ id: updated.body.data.id, documentId: id, title: 'Busted again' });
    expect((await lax.call('DELETE', `/api/articles/${id}?_=1`)).status).toBe(204);
    expect((await lax.call('GET', `/api/articles/${id}`)).status).toBe(404);
  });

  it('when off, still validates the known parameters exactly as when on', async () => {
    for (const params of [
      { filters: { nope: 1 } },
      { pagination: { page: 'x' } },
      { sort: 'title:up' },
      { fields: ['seo'] },
      { populate: 'title' },
      { status: 'live' },
      { locale: 'not a tag' },
    ]) {
      const strictAnswer = await strict.call('GET', url('/api/articles', params));
      const laxAnswer = await lax.call('GET', url('/api/articles', { ...params, _: 1700000000 }));
      expect({ params, status: laxAnswer.status, body: laxAnswer.body }).toEqual({ params, status: 400, body: strictAnswer.body });
    }
    const write = await lax.call('POST', '/api/articles?_=1&status=live', { body: { data: { title: 'Nope' } } });
    expect(write.status).toBe(400);
    expect((await lax.call('GET', url('/api/articles', { filters: { title: 'Nope' } }))).body.data).toEqual([]);
  });
});

describe('filters[locale] without a locale parameter', () => {
  const titles = async (params: object, server = strict) => {
    const response = await server.call('GET', url('/api/articles', { ...params, sort: 'title', fields: ['title', 'locale'] }));
    expect(response.status).toBe(200);
    return response.body.data.map((d: any) => `${d.title} (${d.locale})`);
  };

  it('reads the versions of that locale, in the shorthand and $eq forms (a page looked up by slug and locale)', async () => {
    expect(await titles({ filters: { slug: 'a-propos' } })).toEqual([]);
    expect(await titles({ filters: { slug: 'a-propos', locale: 'fr' } })).toEqual(['À propos (fr)']);
    expect(await titles({ filters: { slug: { $eq: 'a-propos' }, locale: { $eq: 'fr' } } })).toEqual(['À propos (fr)']);
    expect(await titles({ filters: { locale: 'fr' } }, lax)).toEqual(['À propos (fr)']);
  });

  it('reads every locale it names with $in or $ne, and counts what it reads', async () => {
    const response = await strict.call('GET', url('/api/articles', { filters: { locale: { $in: ['en', 'fr'] } }, sort: 'title', fields: ['title'] }));
    expect(response.body.data.map((d: any) => d.title)).toEqual(['About us', 'Contact', 'À propos']);
    expect(response.body.meta.pagination.total).toBe(3);
    expect(await titles({ filters: { locale: { $ne: 'en' } } })).toEqual(['À propos (fr)']);
  });

  it('also counts inside a top-level $and, but not inside $or (the default locale still applies there)', async () => {
    expect(await titles({ filters: { $and: [{ locale: 'fr' }, { slug: 'a-propos' }] } })).toEqual(['À propos (fr)']);
    expect(await titles({ filters: { $or: [{ locale: 'fr' }, { slug: 'about' }] } })).toEqual(['About us (en)']);
  });

  it('is one more condition when a locale parameter is given too', async () => {
    expect(await titles({ locale: 'fr', filters: { locale: 'fr' } })).toEqual(['À propos (fr)']);
    expect(await titles({ locale: 'en', filters: { locale: 'fr' } })).toEqual([]);
  });

  it('finds one document in that locale', async () => {
    const response = await strict.call('GET', url(`/api/articles/${about}`, { filters: { locale: 'fr' } }));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ documentId: about, title: 'À propos', locale: 'fr' });
  });

  it('works from @strapi/client', async () => {
    const client = strapi({ baseURL: `${strict.url}/api` });
    const found = await client.collection('articles').find({ filters: { slug: { $eq: 'a-propos' }, locale: { $eq: 'fr' } } });
    expect(found.data.map((d: any) => d.title)).toEqual(['À propos']);
  });
});

describe('the locale parameter', () => {
  const tooLong = `en-${['abcdefgh', 'abcdefgh', 'abcdefgh', 'abcdefgh'].join('-')}`;

  it('takes language tags and *', async () => {
    for (const locale of ['en', 'fr', 'pt-BR', 'zh-Hans-CN', 'es-419', '*', 'en-abcdefgh-abcdefgh-abcdefgh-abcd']) {
      const response = await strict.call('GET', url('/api/articles', { locale }));
      expect({ locale, status: response.status }).toEqual({ locale, status: 200 });
    }
  });

  it('refuses a value that is not a language tag, or is over-long, with a 400 on reads', async () => {
    for (const locale of ['not a tag', '<script>', 'e', '../../etc', 'en--US', tooLong, 'x'.repeat(5000)]) {
      const response = await strict.call('GET', url('/api/articles', { locale }));
      expect({ locale: locale.slice(0, 40), status: response.status, name: response.body.error?.name }).toEqual({
        locale: locale.slice(0, 40),
        status: 400,
        name: 'ValidationError',
      });
      expect(response.body.error.message.length).toBeLessThan(200);
      expect((await strict.call('GET', url(`/api/articles/${about}`, { locale }))).status).toBe(400);
    }
  });

  it('refuses the same on writes, which then change nothing', async () => {
    const before = (await strict.call('GET', '/api/articles?locale=*&pagination[pageSize]=100')).body.meta.pagination.total;
    expect((await strict.call('POST', url('/api/articles', { locale: '<b>' }), { body: { data: { title: 'Nope' } } })).status).toBe(400);
    expect((await strict.call('PUT', url(`/api/articles/${about}`, { locale: tooLong }), { body: { data: { title: 'Nope' } } })).status).toBe(400);
    expect((await strict.call('DELETE', url(`/api/articles/${about}`, { locale: 'f r' }))).status).toBe(400);
    const after = await strict.call('GET', '/api/articles?locale=*&pagination[pageSize]=100&fields[0]=title');
    expect(after.body.meta.pagination.total).toBe(before);
    expect(after.body.data.map((d: any) => d.title)).not.toContain('Nope');
  });

  it('keeps answering pagination[page]=0 as page 1', async () => {
    const response = await strict.call('GET', '/api/articles?pagination[page]=0&pagination[pageSize]=1&sort=title');
    expect(response.status).toBe(200);
    expect(response.body.meta.pagination).toMatchObject({ page: 1, pageSize: 1 });
    expect(response.body.data[0].title).toBe('About us');
  });
});

describe('_q search', () => {
  const found = async (params: object, path = '/api/articles') => {
    const field = path === '/api/authors' ? 'name' : 'title';
    const response = await strict.call('GET', url(path, { ...params, fields: [field] }));
    expect(response.status).toBe(200);
    return response.body.data.map((d: any) => d[field]);
  };

  beforeAll(async () => {
    await strict.call('POST', '/api/articles', { body: { data: { title: 'Numbers', summary: 'Counted, not contacted', views: 4242 } } });
    await strict.call('POST', '/api/authors', { body: { data: { name: 'Ada', email: 'ada@example.com', internalNotes: 'classified' } } });
  });

  it('finds a case-insensitive substring of any text attribute, in the locale asked for', async () => {
    expect(await found({ _q: 'ABOUT', sort: 'title' })).toEqual(['About us']);
    expect(await found({ _q: 'conta', sort: 'title' })).toEqual(['Contact', 'Numbers']);
    expect(await found({ _q: 'propos' })).toEqual([]);
    expect(await found({ _q: 'propos', locale: 'fr' })).toEqual(['À propos']);
  });

  it('combines with filters, sort and pagination, and counts what it finds', async () => {
    const response = await strict.call(
      'GET',
      url('/api/articles', { _q: 'o', filters: { title: { $ne: 'Numbers' } }, sort: 'title:desc', pagination: { pageSize: 1 } }),
    );
    expect(response.body.data.map((d: any) => d.title)).toEqual(['Contact']);
    expect(response.body.meta.pagination).toMatchObject({ total: 2, pageCount: 2 });
  });

  it('reads its text literally (no wildcards), searches numbers when it is one, and never private attributes', async () => {
    expect(await found({ _q: '%' })).toEqual([]);
    expect(await found({ _q: '_' })).toEqual([]);
    expect(await found({ _q: '4242' })).toEqual(['Numbers']);
    expect(await found({ _q: 'ada' }, '/api/authors')).toEqual(['Ada']);
    expect(await found({ _q: 'classified' }, '/api/authors')).toEqual([]);
  });

  it('refuses a value that is not text', async () => {
    const response = await strict.call('GET', '/api/articles?_q[a]=1');
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe('ValidationError');
  });
});
