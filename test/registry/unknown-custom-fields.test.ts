/**
 * A custom field whose plugin Folio does not know (test/fixtures/public-projects/example-app, in
 * the shape of Strapi's own example app: its local plugin src/plugins/mycustomfields registers
 * `color` and `map` with strapi.customFields.register). Strapi 5.54.0 starts it; so does Folio,
 * with a warning naming the file, the attribute and the custom-fields.json that would type the
 * field, and keeps the values as JSON: each is stored and returned as sent. Real servers, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/public-projects/example-app');

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: PROJECT });
});
afterAll(() => server.stop());

describe("a local plugin's custom fields", () => {
  it('start the project, each with a warning naming the file, the attribute and the mapping file', () => {
    const warnings = server.instance.registry.warnings.filter((w) => w.includes('registered by a plugin Folio does not know'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toStartWith(
      'example-app/src/api/address/content-types/address/schema.json (attribute "color"): ' +
        'custom field "plugin::mycustomfields.color" is registered by a plugin Folio does not know; its values are kept as JSON, as sent.',
    );
    expect(warnings[0]).toContain('example-app/src/custom-fields.json, e.g. { "plugin::mycustomfields.color": "string" }');
    expect(warnings[1]).toContain('(attribute "map"): custom field "plugin::mycustomfields.map"');
    const address = server.instance.registry.contentType('api::address.address')!;
    expect(address.attributes.color).toMatchObject({ kind: 'scalar', type: 'json', customField: 'plugin::mycustomfields.color' });
  });

  it('store and return each value as it was sent: a string stays a string, an object an object', async () => {
    const created = await server.call('POST', '/api/addresses', {
      body: { data: { city: 'Paris', color: '#4945ff', map: { lat: 48.85, lng: 2.35 }, notes: ['x'] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ city: 'Paris', color: '#4945ff', map: { lat: 48.85, lng: 2.35 }, notes: ['x'] });
    const id = created.body.data.documentId;
    const updated = await server.call('PUT', `/api/addresses/${id}`, { body: { data: { color: '#000000', map: null } } });
    expect(updated.status).toBe(200);
    const read = await server.call('GET', `/api/addresses/${id}?fields[0]=color&fields[1]=map`);
    expect(read.body.data).toMatchObject({ color: '#000000', map: null });
    const other = await server.call('POST', '/api/addresses', { body: { data: { city: 'Lyon', map: 'somewhere' } } });
    expect(other.status).toBe(201);
    expect(other.body.data).toMatchObject({ color: null, map: 'somewhere' });
  });

  it('are found by a text filter on their stored value', async () => {
    const found = await server.call('GET', '/api/addresses?filters[color][$containsi]=000&fields[0]=city');
    expect(found.status).toBe(200);
    expect(found.body.data.map((a: any) => a.city)).toEqual(['Paris']);
  });
});
