/**
 * A Strapi project's schema folder served unmodified (test/fixtures/strapi-project): Strapi's
 * layout (src/api/<api>/content-types/<name>/schema.json), custom fields stored as their
 * plugin's type, an attribute named `status` on a type without draft & publish, and a
 * relation to upload folders that starts and is ignored. Real servers, `qs`-built URLs, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { strapi } from '@strapi/client';
import qs from 'qs';
import { loadRegistry } from '../../src/registry/load.ts';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/strapi-project');

describe('a Strapi project folder', () => {
  it('is read from the project root and from its src folder alike, with uids from the folder names', () => {
    for (const dir of [PROJECT, `${PROJECT}/src`]) {
      const registry = loadRegistry(dir);
      expect(registry.contentTypes.map((c) => c.uid)).toEqual(['api::product.product', 'api::shop.category']);
      expect(registry.byRouteId('categories')?.uid).toBe('api::shop.category');
      expect(registry.components.map((c) => c.uid)).toEqual(['shared.swatch']);
      expect(registry.contentType('api::product.product')!.attributes.category).toMatchObject({ target: 'api::shop.category', owner: true });
    }
  });

  it('stores each custom field as the type its plugin registers, keeping the custom field uid', () => {
    const product = loadRegistry(PROJECT).contentType('api::product.product')!;
    expect(product.attributes.color).toMatchObject({ kind: 'scalar', type: 'string', customField: 'plugin::color-picker.color', regex: '^#[0-9A-Fa-f]{6}$' });
    expect(product.attributes.description).toMatchObject({ type: 'richtext', customField: 'plugin::ckeditor5.CKEditor' });
    expect(product.attributes.sizes).toMatchObject({ type: 'json', customField: 'plugin::multi-select.multi-select' });
    // Not in the built-in table: src/custom-fields.json names its type.
    expect(product.attributes.badge).toMatchObject({ type: 'string', customField: 'plugin::badge-maker.badge' });
    expect(product.fields.color.kind).toBe('scalar');
  });

  it('ignores only the relation to upload folders (relations to users, roles, files and admin users are real: test/relations/system-targets)', () => {
    const registry = loadRegistry(PROJECT);
    const product = registry.contentType('api::product.product')!;
    expect(product.attributes.folder).toBeUndefined();
    for (const name of ['manual', 'buyer', 'audience', 'reviewer', 'approvers']) expect(product.attributes[name]?.kind).toBe('relation');
    expect(registry.ignored.map((i) => `${i.attribute} -> ${i.target}`)).toEqual(['folder -> plugin::upload.folder']);
  });

  it('warns about an unknown schema key, naming the file and the key, and about nothing Strapi itself writes', () => {
    const keyWarnings = loadRegistry(PROJECT).warnings.filter((w) => w.includes('unknown key'));
    expect(keyWarnings).toEqual([
      'strapi-project/src/api/shop/content-types/category/schema.json (attribute "name"): unknown key "requierd" (ignored); did you mean "required"?',
    ]);
  });
});

describe('serving a Strapi project', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ contentTypes: PROJECT });
  });
  afterAll(() => server.stop());

  const list = (query: Record<string, unknown>) => server.call('GET', `/api/products?${qs.stringify(query, { encodeValuesOnly: true })}`);
  const create = (data: Record<string, unknown>) => server.call('POST', '/api/products', { body: { data } });

  it('creates, reads, updates and deletes documents with custom fields, a status attribute and components', async () => {
    const made = await create({
      name: 'Lamp',
      status: 'active',
      color: '#FFAA00',
      description: '<p>Warm <b>light</b></p>',
      sizes: ['S', 'M'],
      badge: 'new',
      swatches: [{ label: 'Amber', color: '#FFAA00' }],
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ name: 'Lamp', status: 'active', color: '#FFAA00', sizes: ['S', 'M'], badge: 'new' });
    const id = made.body.data.documentId;

    const read = await server.call('GET', `/api/products/${id}?${qs.stringify({ populate: ['swatches'] }, { encodeValuesOnly: true })}`);
    expect(read.body.data.swatches).toMatchObject([{ label: 'Amber', color: '#FFAA00' }]);
    expect(read.body.data).not.toHaveProperty('reviewer');
    expect(read.body.data).not.toHaveProperty('manual');

    const updated = await server.call('PUT', `/api/products/${id}`, { body: { data: { status: 'retired', color: '#000000' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ status: 'retired', color: '#000000', name: 'Lamp' });
    expect((await server.call('DELETE', `/api/products/${id}`)).status).toBe(204);
  });

  it('validates custom field values as their storage type', async () => {
    const wrongType = await create({ name: 'Bad', color: 12 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.name).toBe('ValidationError');
    const wrongPattern = await create({ name: 'Bad', color: 'orange' });
    expect(wrongPattern.status).toBe(400);
    const missingInComponent = await create({ name: 'Bad', swatches: [{ label: 'no colour' }] });
    expect(missingInComponent.status).toBe(400);
    expect((await list({ filters: { name: 'Bad' } })).body.data).toEqual([]);
  });

  it('filters and sorts on custom fields and on the status attribute', async () => {
    for (const [name, color, status] of [
      ['Red', '#FF0000', 'active'],
      ['Blue', '#0000FF', 'retired'],
      ['Green', '#00FF00', 'active'],
    ]) {
      expect((await create({ name, color, status, description: `<p>${name} paint</p>` })).status).toBe(201);
    }
    const names = (body: { data: { name: string }[] }) => body.data.map((d) => d.name);
    expect(names((await list({ filters: { color: { $eq: '#0000FF' } } })).body)).toEqual(['Blue']);
    expect(names((await list({ filters: { description: { $containsi: 'GREEN' } } })).body)).toEqual(['Green']);
    expect(names((await list({ filters: { status: 'active', color: { $startsWith: '#' } }, sort: ['color:asc'] })).body)).toEqual(['Green', 'Red']);
    expect(names((await list({ sort: ['status:desc', 'name:asc'], fields: ['name', 'status'] })).body)).toEqual(['Blue', 'Green', 'Red']);
    // Without draft & publish the status query parameter selects nothing, as in Strapi.
    expect(names((await list({ status: 'draft', sort: 'name' })).body)).toEqual(['Blue', 'Green', 'Red']);
  });

  it('answers a write to an ignored relation without storing or returning anything', async () => {
    const written = await create({ name: 'Chair', folder: 1 });
    expect(written.status).toBe(400);
    expect(written.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key folder' });
    expect((await list({ filters: { name: 'Chair' } })).body.data).toEqual([]);
    const populated = await list({ populate: ['folder'] });
    expect(populated.status).toBe(400);
    expect(populated.body.error.message).toContain('folder');
  });

  it('answers @strapi/client as a front end uses it: custom fields filtered and sorted like their storage type', async () => {
    const client = strapi({ baseURL: `${server.url}/api`, auth: server.tokens.fullAccess });
    const products = client.collection('products');
    await products.create({ name: 'Mug', color: '#AA0000', sizes: ['M'], status: 'active' });
    await products.create({ name: 'Cup', color: '#BB0000', sizes: ['S'], status: 'active' });
    const found: any = await products.find({ filters: { color: { $in: ['#AA0000', '#BB0000'] } }, sort: 'color:desc', fields: ['name', 'color', 'sizes'] });
    expect(found.data.map((d: { name: string; sizes: string[] }) => [d.name, d.sizes])).toEqual([
      ['Cup', ['S']],
      ['Mug', ['M']],
    ]);
  });

  it('serves the type that lives in a differently named api folder under its own route', async () => {
    const made = await server.call('POST', '/api/categories', { body: { data: { name: 'Lights', accent: '#123456' } } });
    expect(made.status).toBe(201);
    const product = await create({ name: 'Bulb', category: made.body.data.documentId });
    expect(product.status).toBe(201);
    const found = await list({ filters: { category: { accent: { $eq: '#123456' } } }, populate: { category: { fields: ['name', 'accent'] } } });
    expect(found.body.data.map((d: { name: string; category: { accent: string } }) => [d.name, d.category.accent])).toEqual([['Bulb', '#123456']]);
  });
});
