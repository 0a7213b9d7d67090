/**
 * Writing a relation to a type the caller may not read (test/fixtures/public-projects/store: a
 * signed-in shopper's cart names its user). As Strapi 5.54.0 answers it: a body naming a
 * relation whose target the caller may not `find` is a 400 "Invalid key <attribute>" whatever
 * its value, inside components and dynamic zone entries too (the path without list indices),
 * and nothing is written; filters and sorts through it are refused the same way. A caller that
 * may find users (a role granted user.find, a full-access token) writes the link. Real servers,
 * both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/public-projects/store');

let server: TestServer;
let shopper: { id: number; documentId: string };
let asShopper: Record<string, string>;
beforeAll(async () => {
  server = await startServer({ contentTypes: PROJECT, publicAccess: false });
  const crud = (uid: string) => ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `${uid}.${a}`);
  await server.instance.roles.grant('authenticated', [
    ...crud('api::cart.cart'),
    ...crud('api::product.product'),
    'api::shop-setting.shop-setting.find',
    'api::shop-setting.shop-setting.update',
  ]);
  const registered = await server.call('POST', '/api/auth/local/register', {
    body: { username: 'shopper', email: 'shopper@example.com', password: 'secret123' },
  });
  expect(registered.status).toBe(200);
  shopper = registered.body.user;
  asShopper = { authorization: `Bearer ${registered.body.jwt}` };
});
afterAll(() => server.stop());

const carts = async () =>
  (await server.call('GET', '/api/carts', { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } })).body.meta.pagination.total;
const invalidKey = (key: string, path = key) => ({
  status: 400,
  name: 'ValidationError',
  message: path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
  details: { key, path, source: 'body' },
});

describe('a relation to users written by a role that may not find users', () => {
  it('is refused whatever its value, and nothing is written', async () => {
    const before = await carts();
    for (const user of [shopper.id, shopper.documentId, { connect: [shopper.documentId] }, { set: [] }, null, []]) {
      const res = await server.call('POST', '/api/carts', { body: { data: { total: 10, user } }, headers: asShopper });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(invalidKey('user'));
    }
    expect(await carts()).toBe(before);
  });

  it('is refused inside a component and a dynamic zone entry, named by its path without indices', async () => {
    const product = await server.call('POST', '/api/products', { body: { data: { name: 'Lamp' } }, headers: asShopper });
    const line = await server.call('POST', '/api/carts', {
      body: {
        data: {
          lines: [
            { quantity: 1, product: product.body.data.documentId },
            { quantity: 2, buyer: shopper.id },
          ],
        },
      },
      headers: asShopper,
    });
    expect(line.body.error).toEqual(invalidKey('buyer', 'lines.buyer'));
    const note = await server.call('POST', '/api/carts', {
      body: {
        data: {
          extras: [
            { __component: 'shop.coupon', code: 'X' },
            { __component: 'shop.note', text: 'gift', author: null },
          ],
        },
      },
      headers: asShopper,
    });
    expect(note.body.error).toEqual(invalidKey('author', 'extras.author'));
    // The product relation inside the line is the shopper's to write.
    const ok = await server.call('POST', '/api/carts?populate[lines][populate]=product', {
      body: { data: { lines: [{ quantity: 1, product: product.body.data.documentId }] } },
      headers: asShopper,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.lines[0].product.name).toBe('Lamp');
  });

  it('is refused on update and on a single type, before the document is looked up', async () => {
    const cart = await server.call('POST', '/api/carts', { body: { data: { total: 1 } }, headers: asShopper });
    const update = await server.call('PUT', `/api/carts/${cart.body.data.documentId}`, {
      body: { data: { user: { disconnect: [shopper.id] } } },
      headers: asShopper,
    });
    expect(update.body.error).toEqual(invalidKey('user'));
    const missing = await server.call('PUT', '/api/carts/nosuchdocumentid0000000000', { body: { data: { user: shopper.id } }, headers: asShopper });
    expect(missing.body.error).toEqual(invalidKey('user'));
    const settings = await server.call('PUT', '/api/shop-setting', { body: { data: { currency: 'EUR', manager: shopper.id } }, headers: asShopper });
    expect(settings.body.error).toEqual(invalidKey('manager'));
    expect((await server.call('GET', '/api/shop-setting', { headers: asShopper })).status).toBe(404);
  });

  it('answers an unknown key first, as Strapi does', async () => {
    const res = await server.call('POST', '/api/carts', { body: { data: { user: shopper.id, bogus: 1 } }, headers: asShopper });
    expect(res.body.error).toMatchObject({ message: 'Invalid key bogus' });
  });

  it('is refused in filters and sorts', async () => {
    const filter = await server.call('GET', `/api/carts?filters[user][id]=${shopper.id}`, { headers: asShopper });
    expect(filter.status).toBe(400);
    expect(filter.body.error).toEqual({ ...invalidKey('user'), details: { key: 'user', path: 'user', source: 'query', param: 'filters' } });
    const nested = await server.call('GET', `/api/carts?filters[lines][buyer][id]=${shopper.id}`, { headers: asShopper });
    expect(nested.body.error.message).toBe('Invalid key buyer at lines.buyer');
    const sort = await server.call('GET', '/api/carts?sort=user.username', { headers: asShopper });
    expect(sort.body.error).toMatchObject({ message: 'Invalid key user', details: { param: 'sort' } });
  });
});

describe('a relation to users written by a caller that may find users', () => {
  it('is linked for a role granted user.find and for a full-access token', async () => {
    await server.instance.roles.grant('authenticated', ['plugin::users-permissions.user.find']);
    try {
      const res = await server.call('POST', '/api/carts?populate=user', { body: { data: { total: 5, user: shopper.id } }, headers: asShopper });
      expect(res.status).toBe(201);
      expect(res.body.data.user.username).toBe('shopper');
    } finally {
      await server.instance.roles.revoke('authenticated', ['plugin::users-permissions.user.find']);
    }
    const full = await server.call('POST', '/api/carts', {
      body: { data: { total: 6, user: shopper.documentId, lines: [{ quantity: 1, buyer: shopper.id }] } },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    expect(full.status).toBe(201);
  });
});

describe('a relation to users in a GraphQL mutation by a role that may not find users', () => {
  it('is left out of the write, the rest written, as Strapi 5.54.0 sanitizes it', async () => {
    const gql = async (query: string, headers: Record<string, string>) => (await server.call('POST', '/graphql', { body: { query }, headers })).body;
    const created = await gql(
      `mutation { createCart(data: { total: 7, user: "${shopper.documentId}", lines: [{ quantity: 1, buyer: "${shopper.documentId}" }] }) { documentId total lines { quantity } } }`,
      asShopper,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data.createCart).toMatchObject({ total: 7, lines: [{ quantity: 1 }] });
    const full = { authorization: `Bearer ${server.tokens.fullAccess}` };
    const read = await gql(`{ cart(documentId: "${created.data.createCart.documentId}") { total user { username } lines { buyer { username } } } }`, full);
    expect(read.data.cart).toEqual({ total: 7, user: null, lines: [{ buyer: null }] });
    // A caller that may find users links them.
    const linked = await gql(`mutation { createCart(data: { total: 8, user: "${shopper.documentId}" }) { user { username } } }`, full);
    expect(linked.data.createCart.user).toEqual({ username: 'shopper' });
  });
});
