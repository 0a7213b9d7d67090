/**
 * A project Strapi starts although an inverse side points at nothing (test/fixtures/public-projects/food-guide,
 * in the shape of Strapi's foodadvisor demo): the users-permissions extension declares `articles`
 * with `mappedBy: "author"` while the article has no `author`, and a category declares
 * `restaurants` with `mappedBy: "category"` while the restaurant has no `category`. Strapi 5.54.0
 * starts, never populates such a side (named, with options, or through `*`), accepts a value
 * written to it and links nothing; Folio does the same, and answers a filter or sort through it
 * with a 400 where Strapi answers a 500. Real servers, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/public-projects/food-guide');

let server: TestServer;
let full: Record<string, string>;
beforeAll(async () => {
  server = await startServer({ contentTypes: PROJECT });
  full = { authorization: `Bearer ${server.tokens.fullAccess}` };
});
afterAll(() => server.stop());

describe('a dangling mappedBy in the users-permissions extension', () => {
  it('starts the project, with a warning naming the file and the attribute', () => {
    expect(server.instance.registry.warnings).toContain(
      'food-guide/src/extensions/users-permissions/content-types/user/schema.json (attribute "articles"): mappedBy "author": ' +
        'api::article.article (food-guide/src/api/article/content-types/article/schema.json) has no attribute "author", so this side has no links to read. ' +
        'It is left out as Strapi leaves it out: never populated, a value written to it is ignored, filters and sorts cannot use it',
    );
    const user = server.instance.registry.contentType('plugin::users-permissions.user')!;
    expect(user.attributes.articles).toBeUndefined();
    expect(user.attributes.reviews).toMatchObject({ kind: 'relation', owner: false, linkTable: 'reviews_author_lnk' });
  });

  it('never populates the dangling side, by name, with options or through *, and populates the side that exists', async () => {
    const registered = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'alice', email: 'alice@example.com', password: 'secret123' },
    });
    expect(registered.status).toBe(200);
    // A relation to users may only be written by a caller that may find users (Strapi's rule): the full-access token.
    const review = await server.call('POST', '/api/reviews', { body: { data: { content: 'good', author: registered.body.user.id } }, headers: full });
    expect(review.status).toBe(201);

    for (const query of ['populate=articles', 'populate[articles][fields][0]=title', 'populate[articles][populate][category]=true']) {
      const users = await server.call('GET', `/api/users?${query}`, { headers: full });
      expect(users.status).toBe(200);
      expect(users.body[0].username).toBe('alice');
      expect('articles' in users.body[0]).toBe(false);
    }
    const all = await server.call('GET', '/api/users?populate=*', { headers: full });
    expect(all.status).toBe(200);
    expect(all.body[0].reviews.map((r: any) => r.content)).toEqual(['good']);
    expect('articles' in all.body[0]).toBe(false);
    const me = await server.call('GET', '/api/users/me?populate=articles', { headers: { authorization: `Bearer ${registered.body.jwt}` } });
    expect(me.status).toBe(200);
    expect('articles' in me.body).toBe(false);
  });

  it('refuses a filter or a sort through the dangling side with a 400, not a 500', async () => {
    const filter = await server.call('GET', '/api/users?filters[articles][title]=x', { headers: full });
    expect(filter.status).toBe(400);
    expect(filter.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key articles' });
    const sort = await server.call('GET', '/api/users?sort=articles.title', { headers: full });
    expect(sort.status).toBe(400);
  });
});

describe('a dangling mappedBy on a content type', () => {
  it('accepts a value for it, links nothing and never populates it', async () => {
    const restaurant = await server.call('POST', '/api/restaurants', { body: { data: { name: 'Chez Folio' } } });
    expect(restaurant.status).toBe(201);
    const created = await server.call('POST', '/api/categories?populate=*', {
      body: { data: { name: 'French', restaurants: [restaurant.body.data.documentId] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'French', articles: [] });
    expect('restaurants' in created.body.data).toBe(false);
    const updated = await server.call('PUT', `/api/categories/${created.body.data.documentId}`, {
      body: { data: { restaurants: { connect: [restaurant.body.data.documentId] } } },
    });
    expect(updated.status).toBe(200);
    const read = await server.call('GET', `/api/categories/${created.body.data.documentId}?populate[restaurants][fields][0]=name&populate[articles]=true`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ name: 'French', articles: [] });
    expect('restaurants' in read.body.data).toBe(false);
  });

  it('refuses filters and sorts through it, and populates the inverse sides that have an owner', async () => {
    expect((await server.call('GET', '/api/categories?filters[restaurants][name]=x')).status).toBe(400);
    expect((await server.call('GET', '/api/categories?sort=restaurants.name')).status).toBe(400);
    const restaurant = await server.call('POST', '/api/restaurants', { body: { data: { name: 'Le Bistrot' } } });
    await server.call('POST', '/api/reviews', { body: { data: { content: 'fine', restaurant: restaurant.body.data.documentId } } });
    const read = await server.call('GET', `/api/restaurants/${restaurant.body.data.documentId}?populate=reviews`);
    expect(read.body.data.reviews.map((r: any) => r.content)).toEqual(['fine']);
  });
});
