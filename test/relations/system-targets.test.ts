/**
 * Relations to Strapi's own types, as real projects declare them (test/fixtures/strapi-project):
 * a product's `buyer` and `watchers` are users, `audience` a role, `manual` an upload file,
 * `reviewer` (private) and `approvers` Folio Admin's accounts (`admin::user`: stored, never read
 * through the content API, as in Strapi); the
 * project's user extension schema adds `nickname`, `favoriteColor`, the inverse `purchases` and an
 * owning `favorites` whose inverse is the product's `fans`. Writes by row id and documentId,
 * populate without a single private field, filters and sort through them, all checked against
 * the caller's `find` permission of the target (`plugin::users-permissions.user.find`, …).
 * Real servers, `qs`-built URLs and `@strapi/client`, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { strapi } from '@strapi/client';
import qs from 'qs';
import { AdminAccounts } from '../../src/admin/accounts';
import { sql } from '../../src/db/sql';
import { loadRegistry } from '../../src/registry/load.ts';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload } from '../upload/helpers';

const PROJECT = resolve(import.meta.dir, '../fixtures/strapi-project');
const PRIVATE_USER_FIELDS = ['password', 'resetPasswordToken', 'confirmationToken', 'tokenVersion', 'roleId'];

describe('relations to users, roles and upload files in the registry', () => {
  it('are relations like any other, with the user extension applied to the user model', () => {
    const registry = loadRegistry(PROJECT);
    const product = registry.contentType('api::product.product')!;
    expect(product.attributes.buyer).toMatchObject({ kind: 'relation', target: 'plugin::users-permissions.user', owner: true });
    expect(product.attributes.audience).toMatchObject({ kind: 'relation', target: 'plugin::users-permissions.role', owner: true });
    expect(product.attributes.manual).toMatchObject({ kind: 'relation', target: 'plugin::upload.file', owner: true });
    expect(product.attributes.reviewer).toMatchObject({ kind: 'relation', target: 'admin::user', owner: true, private: true });
    expect(product.attributes.approvers).toMatchObject({ kind: 'relation', target: 'admin::user', owner: true, toMany: true });
    // Upload folders are not documents in Folio: that relation alone starts and is ignored.
    expect(registry.ignored.map((i) => `${i.attribute} -> ${i.target}`)).toEqual(['folder -> plugin::upload.folder']);

    const user = registry.contentType('plugin::users-permissions.user')!;
    expect(user.file).toBe('strapi-project/src/extensions/users-permissions/content-types/user/schema.json');
    expect(Object.keys(user.attributes)).toContain('nickname');
    expect(user.attributes.favoriteColor).toMatchObject({ type: 'string', customField: 'plugin::color-picker.color' });
    // The inverse side reads the owner's link table; the user's own links get Strapi's up_users_… name.
    expect(user.attributes.purchases).toMatchObject({
      owner: false,
      linkTable: product.attributes.buyer!.kind === 'relation' ? (product.attributes.buyer as { linkTable: string }).linkTable : '',
    });
    expect(user.attributes.favorites).toMatchObject({ owner: true, linkTable: 'up_users_favorites_lnk' });
    expect(product.attributes.fans).toMatchObject({ owner: false, linkTable: 'up_users_favorites_lnk' });
    // No route of their own: /api/users belongs to the users-permissions routes.
    expect(registry.byRouteId('users')).toBeUndefined();
    expect(registry.contentTypes.map((c) => c.uid)).toEqual(['api::product.product', 'api::shop.category']);
  });
});

describe('serving relations to users, roles and upload files', () => {
  let server: TestServer;
  let ann: { id: number; documentId: string };
  let bob: { id: number; documentId: string };
  let editorRole: { id: number; documentId: string };
  let file: { id: number; documentId: string; name: string };
  const asAdmin = () => ({ authorization: `Bearer ${server.tokens.fullAccess}` });
  const get = (path: string, query: Record<string, unknown>, headers: Record<string, string> = asAdmin()) =>
    server.call('GET', `${path}?${qs.stringify(query, { encodeValuesOnly: true })}`, { headers });

  beforeAll(async () => {
    server = await startServer({ contentTypes: PROJECT });
    const register = async (username: string) =>
      (await server.call('POST', '/api/auth/local/register', { body: { username, email: `${username}@example.com`, password: 'secret123' } })).body.user;
    ann = await register('ann');
    bob = await register('bob');
    const roles = (await server.call('GET', '/api/users-permissions/roles', { headers: asAdmin() })).body.roles;
    editorRole = roles.find((r: { type: string }) => r.type === 'authenticated');
    const uploaded = await upload(server.url, { files: [{ bytes: await makeImage(4, 4), filename: 'manual.png' }], headers: asAdmin() });
    file = uploaded.body[0];
  });
  afterAll(() => server.stop());

  it('writes users, a role and a file by row id and by documentId, and populates them without a private field', async () => {
    const made = await server.call('POST', '/api/products', {
      headers: asAdmin(),
      body: {
        data: { name: 'Lamp', buyer: ann.id, watchers: { connect: [bob.documentId, { id: ann.id }] }, audience: editorRole.documentId, manual: file.id },
      },
    });
    expect(made.status).toBe(201);
    const read = await get(`/api/products/${made.body.data.documentId}`, { populate: ['buyer', 'watchers', 'audience', 'manual'] });
    expect(read.status).toBe(200);
    const data = read.body.data;
    expect(data.buyer).toMatchObject({
      id: ann.id,
      documentId: ann.documentId,
      username: 'ann',
      email: 'ann@example.com',
      nickname: null,
      blocked: false,
      confirmed: true,
    });
    expect(data.watchers.map((u: { username: string }) => u.username)).toEqual(['bob', 'ann']);
    expect(data.audience).toMatchObject({ documentId: editorRole.documentId, type: 'authenticated', name: 'Authenticated' });
    expect(data.manual).toMatchObject({ id: file.id, documentId: file.documentId, name: 'manual.png', mime: 'image/png' });
    const text = JSON.stringify(read.body);
    for (const key of PRIVATE_USER_FIELDS) expect(text).not.toContain(`"${key}"`);
    expect(text).not.toContain('$argon2');
  });

  it('filters and sorts through a relation to users, and refuses private user fields as filters', async () => {
    await server.call('POST', '/api/products', { headers: asAdmin(), body: { data: { name: 'Desk', buyer: { id: bob.id } } } });
    const names = (body: { data: { name: string }[] }) => body.data.map((d) => d.name);
    expect(names((await get('/api/products', { filters: { buyer: { username: { $eq: 'bob' } } } })).body)).toEqual(['Desk']);
    expect(names((await get('/api/products', { filters: { buyer: { id: { $notNull: true } } }, sort: ['buyer.username:desc'] })).body)).toEqual([
      'Desk',
      'Lamp',
    ]);
    expect(names((await get('/api/products', { filters: { watchers: { email: { $startsWith: 'bob@' } } } })).body)).toEqual(['Lamp']);
    expect(names((await get('/api/products', { filters: { audience: { type: 'authenticated' } } })).body)).toEqual(['Lamp']);
    for (const key of ['password', 'resetPasswordToken', 'confirmationToken']) {
      const refused = await get('/api/products', { filters: { buyer: { [key]: { $null: false } } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(`Invalid key ${key} at buyer.${key}`);
    }
  });

  it('leaves users, roles and files out for a caller without their find permission, until it is granted', async () => {
    const anonymous = await get('/api/products', { populate: ['buyer', 'audience', 'manual'], sort: 'name' }, {});
    expect(anonymous.status).toBe(200);
    for (const product of anonymous.body.data) {
      expect(product).not.toHaveProperty('buyer');
      expect(product).not.toHaveProperty('audience');
      expect(product).not.toHaveProperty('manual');
    }
    expect((await get('/api/products', { filters: { buyer: { username: 'ann' } } }, {})).status).toBe(400);

    await server.instance.roles.grant('public', ['plugin::users-permissions.user.find', 'plugin::upload.content-api.find']);
    try {
      const granted = await get('/api/products', { populate: ['buyer', 'audience', 'manual'], filters: { name: 'Lamp' } }, {});
      expect(granted.body.data[0].buyer.username).toBe('ann');
      expect(granted.body.data[0].manual.name).toBe('manual.png');
      expect(granted.body.data[0]).not.toHaveProperty('audience');
      expect((await get('/api/products', { filters: { buyer: { username: 'ann' } } }, {})).body.data.map((p: { name: string }) => p.name)).toEqual(['Lamp']);
    } finally {
      await server.instance.roles.revoke('public', ['plugin::users-permissions.user.find', 'plugin::upload.content-api.find']);
    }
  });

  it('refuses a user or role id that names nothing, changing nothing', async () => {
    const before = (await get('/api/products', {})).body.meta.pagination.total;
    const missing = await server.call('POST', '/api/products', { headers: asAdmin(), body: { data: { name: 'Ghost', buyer: 9999 } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('1 relation(s) of type plugin::users-permissions.user associated with this entity do not exist');
    const unknownDocument = await server.call('POST', '/api/products', {
      headers: asAdmin(),
      body: { data: { name: 'Ghost', audience: 'nosuchroleatall00000000' } },
    });
    expect(unknownDocument.status).toBe(400);
    expect((await get('/api/products', {})).body.meta.pagination.total).toBe(before);
  });

  it('is the inverse side of a relation the user extension owns, and reads the owning side back from products', async () => {
    const made = await server.call('POST', '/api/products', { headers: asAdmin(), body: { data: { name: 'Rug', fans: [ann.id, bob.documentId] } } });
    expect(made.status).toBe(201);
    const read = await get(`/api/products/${made.body.data.documentId}`, { populate: { fans: { fields: ['username'], sort: 'username:desc' } } });
    expect(read.body.data.fans.map((u: { username: string }) => u.username)).toEqual(['bob', 'ann']);
    expect((await get('/api/products', { filters: { fans: { username: 'ann' } } })).body.data.map((p: { name: string }) => p.name)).toEqual(['Rug']);
  });

  it('drops the links users hold to a product when the product is deleted', async () => {
    const made = await server.call('POST', '/api/products', { headers: asAdmin(), body: { data: { name: 'Stool', fans: [ann.id] } } });
    const documentId = made.body.data.documentId;
    const links = () => server.instance.db.all(sql`SELECT * FROM ${sql.id('up_users_favorites_lnk')} WHERE ${sql.id('targetDocumentId')} = ${documentId}`);
    expect(await links()).toHaveLength(1);
    expect((await server.call('DELETE', `/api/products/${documentId}`, { headers: asAdmin() })).status).toBe(204);
    expect(await links()).toEqual([]);
  });

  it('shows and writes the extension attributes on /api/users, checked like any attribute', async () => {
    const changed = await server.call('PUT', `/api/users/${ann.id}`, { headers: asAdmin(), body: { nickname: 'Annie', favoriteColor: '#00FF00' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ username: 'ann', nickname: 'Annie', favoriteColor: '#00FF00' });
    const tooLong = await server.call('PUT', `/api/users/${ann.id}`, { headers: asAdmin(), body: { nickname: 'x'.repeat(41) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.errors[0].path).toEqual(['nickname']);
    const listed = await get('/api/users', { filters: { nickname: { $eq: 'Annie' } }, fields: ['username', 'nickname'] });
    expect(listed.body).toEqual([{ id: ann.id, documentId: ann.documentId, username: 'ann', nickname: 'Annie' }]);
    const created = await server.call('POST', '/api/users', {
      headers: asAdmin(),
      body: { username: 'cat', email: 'cat@example.com', password: 'secret123', role: 'authenticated', nickname: 'Kitty' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'cat', nickname: 'Kitty', favoriteColor: null });
    expect(JSON.stringify(created.body)).not.toContain('password');
    // Populated through a product, the user carries its extension values too.
    const populated = await get('/api/products', { filters: { name: 'Lamp' }, populate: { buyer: { fields: ['nickname'] } } });
    expect(populated.body.data[0].buyer).toEqual({ id: ann.id, documentId: ann.documentId, nickname: 'Annie' });
  });

  it('answers @strapi/client as a front end uses it: a product with its buyer and fans', async () => {
    const client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
    const products = client.collection('products');
    await products.create({ name: 'Vase', buyer: bob.documentId, fans: { connect: [{ id: ann.id }] } });
    const found: any = await products.find({ filters: { name: 'Vase' }, populate: { buyer: { fields: ['username'] }, fans: { fields: ['username'] } } });
    expect(found.data[0].buyer.username).toBe('bob');
    expect(found.data[0].fans.map((u: { username: string }) => u.username)).toEqual(['ann']);
  });

  it('stores links to admin users by id and documentId, and never reads them through the content API, not even with a full-access token', async () => {
    const accounts = new AdminAccounts(server.instance.db);
    const first = await accounts.create({ email: 'chief@example.com', password: 'correct horse battery' });
    const second = await accounts.create({ email: 'second@example.com', password: 'correct horse battery', role: 'editor' });
    const [secondRow] = await server.instance.db.all<{ documentId: string }>(
      sql`SELECT "documentId" FROM ${sql.id('folio_admin_users')} WHERE "id" = ${second.id}`,
    );
    expect(secondRow!.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);

    const made = await server.call('POST', '/api/products', {
      headers: asAdmin(),
      body: { data: { name: 'Desk', reviewer: first.id, approvers: [secondRow!.documentId, { id: first.id }] } },
    });
    expect(made.status).toBe(201);
    const body = JSON.stringify(made.body);
    for (const hidden of ['reviewer', 'approvers', 'chief@example.com', 'password']) expect(body).not.toContain(hidden);
    const documentId = made.body.data.documentId;
    const stored = await server.instance.db.all<{ attribute: string; target: string }>(sql`
      SELECT 'reviewer' AS "attribute", ${sql.id('targetDocumentId')} AS "target" FROM ${sql.id('products_reviewer_lnk')} WHERE ${sql.id('sourceId')} = ${made.body.data.id}
      UNION ALL SELECT 'approvers', ${sql.id('targetDocumentId')} FROM ${sql.id('products_approvers_lnk')} WHERE ${sql.id('sourceId')} = ${made.body.data.id}`);
    const [firstRow] = await server.instance.db.all<{ documentId: string }>(
      sql`SELECT "documentId" FROM ${sql.id('folio_admin_users')} WHERE "id" = ${first.id}`,
    );
    expect(stored.filter((l) => l.attribute === 'reviewer').map((l) => l.target)).toEqual([firstRow!.documentId]);
    expect(
      stored
        .filter((l) => l.attribute === 'approvers')
        .map((l) => l.target)
        .sort(),
    ).toEqual([firstRow!.documentId, secondRow!.documentId].sort());

    // Populate leaves them out (a named one and `*` alike), for every caller; filtering through them is refused.
    for (const headers of [asAdmin(), {}]) {
      const read = await get(`/api/products/${documentId}`, { populate: ['approvers', 'buyer'] }, headers);
      expect(read.status).toBe(200);
      expect(read.body.data).not.toHaveProperty('approvers');
      const all = await get(`/api/products/${documentId}`, { populate: '*' }, headers);
      expect(all.status).toBe(200);
      expect(all.body.data).not.toHaveProperty('approvers');
      expect(JSON.stringify(all.body)).not.toContain('chief@example.com');
    }
    expect((await get('/api/products', { populate: ['reviewer'] })).status).toBe(400);
    expect((await get('/api/products', { filters: { approvers: { email: 'chief@example.com' } } })).status).toBe(400);

    // An update keeps the links it does not name; an admin id that names nothing is refused, changing nothing.
    expect((await server.call('PUT', `/api/products/${documentId}`, { headers: asAdmin(), body: { data: { name: 'Desk 2' } } })).status).toBe(200);
    const missing = await server.call('PUT', `/api/products/${documentId}`, { headers: asAdmin(), body: { data: { approvers: [9999] } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('1 relation(s) of type admin::user associated with this entity do not exist');
    const after = await server.instance.db.all(sql`SELECT * FROM ${sql.id('products_approvers_lnk')} WHERE ${sql.id('sourceId')} = ${made.body.data.id}`);
    expect(after).toHaveLength(2);
  });

  it("populates the user extension's relations on /api/users, /api/users/:id and /api/users/me, as content routes do", async () => {
    const one = await get(`/api/users/${ann.id}`, { populate: { purchases: { fields: ['name'] }, favorites: { fields: ['name'], sort: 'name:desc' } } });
    expect(one.status).toBe(200);
    expect(one.body.purchases).toEqual([{ id: expect.any(Number), documentId: expect.any(String), name: 'Lamp' }]);
    expect(one.body.favorites.map((p: { name: string }) => p.name)).toEqual(['Vase', 'Rug']);

    const listed = await get('/api/users', { filters: { username: 'ann' }, populate: ['role', 'purchases'] });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].role).toMatchObject({ type: 'authenticated' });
    expect(listed.body[0].purchases.map((p: { name: string }) => p.name)).toEqual(['Lamp']);
    // A populated product shows no private attribute (reviewer), a user no secret.
    expect(listed.body[0].purchases[0]).not.toHaveProperty('reviewer');
    for (const secret of PRIVATE_USER_FIELDS) expect(JSON.stringify(listed.body)).not.toContain(`"${secret}"`);

    const all = await get(`/api/users/${ann.id}`, { populate: '*' });
    expect(all.body.role).toMatchObject({ type: 'authenticated' });
    expect(all.body.purchases.map((p: { name: string }) => p.name)).toEqual(['Lamp']);
    expect(all.body.favorites.map((p: { name: string }) => p.name).sort()).toEqual(['Rug', 'Vase']);

    // A user's own JWT reads its relations with its role's permissions: products once Authenticated may find them.
    const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'ann', password: 'secret123' } });
    const me = () =>
      server.call('GET', `/api/users/me?${qs.stringify({ populate: ['favorites'] })}`, { headers: { authorization: `Bearer ${login.body.jwt}` } });
    expect((await me()).body).not.toHaveProperty('favorites');
    await server.instance.roles.grant('authenticated', ['api::product.product.find']);
    try {
      expect((await me()).body.favorites.map((p: { name: string }) => p.name).sort()).toEqual(['Rug', 'Vase']);
    } finally {
      await server.instance.roles.revoke('authenticated', ['api::product.product.find']);
    }

    expect((await get(`/api/users/${ann.id}`, { populate: ['nosuch'] })).status).toBe(400);
    expect((await get(`/api/users/${ann.id}`, { populate: ['password'] })).status).toBe(400);
  });

  it("leaves a user's relations out when the caller may not read their target", async () => {
    await server.instance.roles.grant('public', ['plugin::users-permissions.user.findOne']);
    await server.instance.roles.revoke('public', ['api::product.product.find']);
    try {
      const read = await get(`/api/users/${ann.id}`, { populate: ['purchases', 'role'] }, {});
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('purchases');
      // The role too, unless the caller may read roles (Strapi's output sanitizer).
      expect(read.body).not.toHaveProperty('role');
      await server.instance.roles.grant('public', ['plugin::users-permissions.role.find']);
      expect((await get(`/api/users/${ann.id}`, { populate: ['purchases', 'role'] }, {})).body.role).toMatchObject({ type: 'authenticated' });
    } finally {
      await server.instance.roles.revoke('public', ['plugin::users-permissions.role.find']);
      await server.instance.roles.grant('public', ['api::product.product.find']);
      await server.instance.roles.revoke('public', ['plugin::users-permissions.user.findOne']);
    }
  });

  it('leaves admin users out of the OpenAPI document and the generated types', async () => {
    const openapi = await server.call('GET', '/api/openapi.json', { headers: asAdmin() });
    expect(openapi.status).toBe(200);
    const product = openapi.body.components.schemas.Product;
    expect(product.properties).not.toHaveProperty('approvers');
    expect(product.properties).toHaveProperty('buyer');
    expect(openapi.body.components.schemas).not.toHaveProperty('AdminUser');
    expect(openapi.body.components.schemas.ProductInput.properties).toHaveProperty('approvers');
  });
});
