/**
 * Strapi 5's conditional fields (test/fixtures/public-projects/starter, in the shape of a
 * production starter's link component): an attribute with `conditions.visible` is hidden while
 * its rule, evaluated on the values beside it, is false; a hidden attribute is not required and
 * not checked, and a value sent for it is stored as sent. Every status and stored value here is
 * Strapi 5.54.0's for the same requests. Real servers, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { generateTypes } from '../../src/codegen/typescript';
import { loadRegistry } from '../../src/registry/load';
import { startServer, type TestServer } from '../helpers/server';

const PROJECT = resolve(import.meta.dir, '../fixtures/public-projects/starter');

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: PROJECT });
});
afterAll(() => server.stop());

/** A link with the label and note every case needs unless it says otherwise. */
const link = (fields: Record<string, unknown>) => ({ label: 'Docs', note: 'n', ...fields });
const page = (links: unknown[]) => server.call('POST', '/api/pages?populate=links', { body: { data: { title: 'p', links } } });
const pathsOf = (res: { body: any }) => res.body.error.details.errors.map((e: any) => e.path.map(String).join('.'));

describe('a link component whose fields show by its type', () => {
  it('accepts a link whose required url its type hides', async () => {
    const res = await page([link({ type: 'page', slug: 'home' })]);
    expect(res.status).toBe(201);
    expect(res.body.data.links[0]).toMatchObject({ type: 'page', slug: 'home', url: null, email: null, rel: null });
  });

  it('stores a hidden value as sent, unchecked: too long, not an e-mail, a number in a text field', async () => {
    const long = await page([link({ type: 'url', url: 'https://example.com', slug: 'far-too-long' })]);
    expect(long.status).toBe(201);
    expect(long.body.data.links[0].slug).toBe('far-too-long');
    const loose = await page([link({ type: 'page', slug: 'a', email: 'not-an-email', url: 123 })]);
    expect(loose.status).toBe(201);
    expect(loose.body.data.links[0]).toMatchObject({ email: 'not-an-email', url: '123' });
  });

  it('still requires and checks an attribute its condition shows', async () => {
    const missing = await page([link({ type: 'url' })]);
    expect(missing.status).toBe(400);
    expect(pathsOf(missing)).toEqual(['links.0.url']);
    const long = await page([link({ type: 'page', slug: 'far-too-long' })]);
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('links[0].slug must be at most 5 characters');
    const email = await page([link({ type: 'email' })]);
    expect(pathsOf(email)).toEqual(['links.0.email']);
  });

  it('evaluates a condition with the defaults a create applies', async () => {
    // No type: the default, url, shows url.
    expect(pathsOf(await page([link({})]))).toEqual(['links.0.url']);
    const res = await page([link({ url: 'https://example.com' })]);
    expect(res.status).toBe(201);
    expect(res.body.data.links[0]).toMatchObject({ type: 'url', url: 'https://example.com' });
  });

  it('evaluates and, or, ! and != as JSON Logic does', async () => {
    // rel shows when the type is not page and newTab is set; note when newTab is not set, or for e-mail links.
    expect(pathsOf(await page([link({ type: 'url', url: 'https://u', newTab: true })]))).toEqual(['links.0.rel']);
    expect((await page([{ label: 'l', type: 'url', url: 'https://u', newTab: true, rel: 'noopener' }])).status).toBe(201);
    expect(pathsOf(await page([{ label: 'l', type: 'url', url: 'https://u', newTab: false }]))).toEqual(['links.0.note']);
    expect(pathsOf(await page([{ label: 'l', type: 'email', email: 'a@b.co', newTab: true, rel: 'r' }]))).toEqual(['links.0.note']);
    expect((await page([link({ type: 'page', slug: 'a', newTab: true, rel: undefined })])).status).toBe(201);
  });

  it('applies to a single component as to a repeatable one', async () => {
    const res = await server.call('POST', '/api/pages?populate=cta', { body: { data: { title: 'single', cta: link({ type: 'page', slug: 'home' }) } } });
    expect(res.status).toBe(201);
    expect(res.body.data.cta).toMatchObject({ type: 'page', slug: 'home', url: null });
  });
});

describe('a content type attribute shown by another', () => {
  it('on a type without draft & publish, is checked on the values a write sends', async () => {
    expect((await server.call('POST', '/api/offers', { body: { data: { title: 'plain' } } })).status).toBe(201);
    const coupon = await server.call('POST', '/api/offers', { body: { data: { kind: 'coupon' } } });
    expect(coupon.status).toBe(400);
    expect(pathsOf(coupon)).toEqual(['code']);
    const made = await server.call('POST', '/api/offers', { body: { data: { kind: 'coupon', code: 'X' } } });
    expect(made.status).toBe(201);
    // The update does not send kind: code is hidden on these values, and null is taken.
    const cleared = await server.call('PUT', `/api/offers/${made.body.data.documentId}`, { body: { data: { code: null } } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ kind: 'coupon', code: null });
    const none = await server.call('POST', '/api/offers', { body: { data: { title: 'none', code: 5 } } });
    expect(none.status).toBe(201);
    expect(none.body.data).toMatchObject({ kind: 'none', code: '5' });
    const shown = await server.call('PUT', `/api/offers/${none.body.data.documentId}`, { body: { data: { kind: 'coupon', code: null } } });
    expect(shown.status).toBe(400);
  });

  it('on a type with draft & publish, is checked on the whole draft it publishes', async () => {
    expect((await server.call('POST', '/api/promos', { body: { data: { kind: 'coupon' } } })).status).toBe(400);
    expect((await server.call('POST', '/api/promos?status=draft', { body: { data: { kind: 'coupon' } } })).status).toBe(201);
    const made = await server.call('POST', '/api/promos', { body: { data: { kind: 'coupon', code: 'X' } } });
    expect(made.status).toBe(201);
    // The stored draft's kind shows code: publishing it without one is refused.
    expect((await server.call('PUT', `/api/promos/${made.body.data.documentId}`, { body: { data: { code: null } } })).status).toBe(400);
    const plain = await server.call('POST', '/api/promos', { body: { data: { title: 'none' } } });
    expect(plain.status).toBe(201);
    // Its published version lacked code only because code was hidden then.
    const shown = await server.call('PUT', `/api/promos/${plain.body.data.documentId}`, { body: { data: { kind: 'coupon' } } });
    expect(shown.status).toBe(400);
    expect(pathsOf(shown)).toEqual(['code']);
  });
});

describe('the declarations folio types writes', () => {
  it('give a conditional required attribute null, which it holds while hidden', () => {
    const types = generateTypes(loadRegistry(PROJECT));
    expect(types).toContain('  url: string | null;');
    expect(types).toContain('  label: string;');
  });
});

describe('a condition Folio cannot evaluate', () => {
  it('starts with a warning naming the file, the attribute and the operator, and the attribute is always checked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-conditions-'));
    try {
      writeFileSync(
        join(dir, 'offer.json'),
        JSON.stringify({
          kind: 'collectionType',
          info: { singularName: 'offer', pluralName: 'offers' },
          attributes: {
            kind: { type: 'string' },
            code: { type: 'string', required: true, conditions: { visible: { cat: [{ var: 'kind' }, 'x'] } } },
            note: { type: 'string', conditions: { visible: { '==': [{ var: 'kind' }, 'x'] } } },
          },
        }),
      );
      const registry = loadRegistry(dir);
      const offer = registry.contentType('api::offer.offer')!;
      expect(offer.attributes.code.conditions).toBeUndefined();
      expect(offer.attributes.note.conditions).toEqual({ visible: { '==': [{ var: 'kind' }, 'x'] } });
      expect(registry.warnings).toContain(
        `${basename(dir)}/offer.json (attribute "code"): its visibility condition uses the JSON Logic operator "cat", ` +
          'which Folio does not evaluate; the attribute is checked as if it had no condition',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
