/**
 * The OpenAPI document: valid for a real validator (swagger-parser), complete (every route
 * the app mounts is in it, so a new route without docs fails here), and true (the answers
 * of a real server validate against the schemas it gives them).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { resolve } from 'node:path';
import { createApp } from '../../src/app';
import { buildOpenApi } from '../../src/http/openapi';
import { loadRegistry } from '../../src/registry/load';
import { ALL_TYPES_CONTENT_TYPES, EXAMPLE_CONTENT_TYPES, startServer, type TestServer } from '../helpers/server';
import { removeTempDirs, runCli, tempDir } from '../helpers/spawn';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = Record<string, any>;
const NESTED = resolve(import.meta.dir, '../fixtures/nested');
const VALUES = resolve(import.meta.dir, '../fixtures/values');
const MORPH = resolve(import.meta.dir, '../fixtures/morph');

/** swagger-parser dereferences in place: give it a copy. */
const validate = (doc: unknown) => SwaggerParser.validate(structuredClone(doc) as never);

/**
 * A small JSON Schema check, enough for these answers: $ref, type, const, enum, pattern,
 * properties/required, items, anyOf/oneOf/allOf. Objects are closed: a property the schema
 * does not name is a problem, so an undocumented field in an answer fails the test.
 */
function problems(doc: Schema, schema: Schema, value: unknown, path = '$', closed = true): string[] {
  if (schema.$ref)
    return problems(
      doc,
      schema.$ref
        .replace('#/', '')
        .split('/')
        .reduce((s: Schema, k: string) => s[k], doc),
      value,
      path,
      closed,
    );
  const out: string[] = [];
  if (schema.anyOf && !schema.anyOf.some((s: Schema) => problems(doc, s, value, path, closed).length === 0)) out.push(`${path}: matches no anyOf`);
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((s: Schema) => problems(doc, s, value, path, closed).length === 0).length;
    if (matching !== 1) out.push(`${path}: matches ${matching} of oneOf`);
  }
  for (const s of schema.allOf ?? []) out.push(...problems(doc, s, value, path, false));
  if ('const' in schema && value !== schema.const) out.push(`${path}: not ${schema.const}`);
  if (schema.enum && !schema.enum.includes(value)) out.push(`${path}: ${JSON.stringify(value)} not in enum`);
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat();
  const typeOf = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types && !types.includes(typeOf) && !(typeOf === 'integer' && types.includes('number'))) return [...out, `${path}: ${typeOf} is not ${types.join('|')}`];
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern).test(value)) out.push(`${path}: does not match ${schema.pattern}`);
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => out.push(...problems(doc, schema.items, item, `${path}[${i}]`)));
  if (typeOf === 'object' && (schema.properties || schema.required)) {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) out.push(`${path}.${name}: missing`);
    for (const [name, item] of Object.entries(object)) {
      const property = schema.properties?.[name];
      if (property) out.push(...problems(doc, property, item, `${path}.${name}`));
      else if (closed && schema.additionalProperties === undefined) out.push(`${path}.${name}: not in the schema`);
    }
  }
  return out;
}

const schemaOf = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** The schema an operation gives a status's JSON answer. */
const responseSchema = (doc: Schema, path: string, method: string, status: string) =>
  doc.paths[path][method].responses[status].content['application/json'].schema;

/** `/api/articles/:documentId` and `/api/articles/{documentId}` both become `/api/articles/{}`. */
const normalise = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+|\*/g, '{}');

describe('the OpenAPI document', () => {
  let server: TestServer;
  let doc: Schema;

  beforeAll(async () => {
    server = await startServer();
    const answer = await server.call('GET', '/api/openapi.json');
    expect(answer.status).toBe(200);
    doc = answer.body;
  });
  afterAll(async () => {
    await server.stop();
    removeTempDirs();
  });

  it('served at /api/openapi.json passes swagger-parser validation for the example content types', async () => {
    await validate(doc);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('is valid for every attribute kind (all-types), nested components, values and polymorphic relations', async () => {
    for (const dir of [ALL_TYPES_CONTENT_TYPES, NESTED, VALUES, MORPH]) await validate(buildOpenApi(loadRegistry(dir)));
    const morph = (buildOpenApi(loadRegistry(MORPH)) as Schema).components.schemas;
    expect(morph.Comment.properties.mentions).toEqual({ type: 'array', items: schemaOf('MorphTarget') });
    expect(morph.CommentInput.properties.subject).toEqual(schemaOf('MorphInput'));
    const showcase = buildOpenApi(loadRegistry(ALL_TYPES_CONTENT_TYPES)) as Schema;
    const properties = showcase.components.schemas.Showcase.properties;
    expect(properties.anEnumeration).toEqual({ type: ['string', 'null'], enum: ['alpha', 'beta', 'gamma', null] });
    expect(properties.aSingleMedia).toEqual({ anyOf: [schemaOf('UploadFile'), { type: 'null' }] });
    expect(properties.aManyToMany).toEqual({ type: 'array', items: schemaOf('Showcase') });
    expect(properties.aRepeatableComponent).toEqual({ type: 'array', items: schemaOf('PartsCard') });
    expect(properties.aPassword).toBeUndefined();
    expect(properties.aDynamicZone.items.discriminator).toEqual({
      propertyName: '__component',
      mapping: { 'parts.card': '#/components/schemas/PartsCardEntry', 'parts.note': '#/components/schemas/PartsNoteEntry' },
    });
  });

  it('lists every route the app mounts, with its method', () => {
    // Another app on the same instance: the routes exactly as the server mounted them.
    const { registry } = server.instance;
    // Document actions are mounted on every type, but on a type without draft & publish they only answer 400: left out.
    const actionWithoutDraftAndPublish = (path: string) => path.includes('/actions/') && registry.byRouteId(path.split('/')[2]!)?.draftAndPublish === false;
    const mounted = createApp(server.instance)
      .routes // ALL routes answer 405 for the other methods; /admin is the admin UI's own surface (session auth), not this API.
      .filter((route) => route.method !== 'ALL' && !route.path.startsWith('/admin') && !actionWithoutDraftAndPublish(route.path))
      .map((route) => `${route.method.toLowerCase()} ${normalise(route.path)}`);
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${normalise(path)}`)),
    );
    expect(mounted.length).toBeGreaterThan(60);
    expect(mounted.filter((route) => !documented.has(route))).toEqual([]);
    for (const route of [
      'get /api/realtime',
      'post /api/upload',
      'get /api/users/me',
      'post /api/auth/local',
      'post /api/articles/{}/actions/discard-draft',
      'post /api/homepage/actions/publish',
    ]) {
      expect(documented.has(route)).toBe(true);
    }
    expect(doc.paths['/api/realtime'].get.responses['200'].content['text/event-stream']).toBeDefined();
    expect(doc.paths['/api/authors/{documentId}/actions/publish']).toBeUndefined();
  });

  it('gives every operation the error envelope on 400, 401, 403, 404, 405, 413, 429 and 500, and lists the query parameters of a list', () => {
    const list = doc.paths['/api/articles'].get;
    for (const status of ['400', '401', '403', '404', '405', '413', '429', '500']) {
      const response = doc.components.responses[list.responses[status].$ref.split('/').pop()];
      expect(response.content['application/json'].schema).toEqual(schemaOf('Error'));
    }
    expect(list.parameters.map((p: Schema) => p.name).sort()).toEqual(
      [
        '_q',
        'fields',
        'filters',
        'locale',
        'pagination[limit]',
        'pagination[page]',
        'pagination[pageSize]',
        'pagination[start]',
        'pagination[withCount]',
        'populate',
        'sort',
        'status',
      ].sort(),
    );
    for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
      for (const [method, op] of Object.entries(item)) {
        expect({ path, method, has500: '500' in op.responses, described: Object.values(op.responses).every((r: any) => r.$ref || r.description) }).toEqual({
          path,
          method,
          has500: true,
          described: true,
        });
      }
    }
  });

  it('describes what a real server answers: a populated list, a document, a zone entry, locales and an error', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('files', new File([png], 'dot.png', { type: 'image/png' }));
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect(uploaded.status).toBe(201);
    const files = (await uploaded.json()) as { id: number }[];
    expect(problems(doc, responseSchema(doc, '/api/upload', 'post', '201'), files)).toEqual([]);
    const tag = await server.call('POST', '/api/tags', { body: { data: { name: 'news' } } });
    const created = await server.call('POST', '/api/articles?status=published', {
      body: {
        data: {
          title: 'Hello',
          kind: 'guide',
          body: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi', bold: true }] }],
          meta: { a: [1] },
          cover: files[0].id,
          gallery: [files[0].id],
          tags: [tag.body.data.documentId],
          seo: { metaTitle: 'm', shareImage: files[0].id },
          links: [{ label: 'l', url: 'https://example.com' }],
          blocks: [
            { __component: 'shared.quote', title: 'q' },
            { __component: 'shared.media', file: files[0].id },
          ],
        },
      },
    });
    expect(created.status).toBe(201);
    expect(problems(doc, responseSchema(doc, '/api/articles', 'post', '201'), created.body)).toEqual([]);

    const list = await server.call('GET', '/api/articles?populate=*');
    expect(list.body.data[0].blocks).toHaveLength(2);
    expect(problems(doc, responseSchema(doc, '/api/articles', 'get', '200'), list.body)).toEqual([]);
    const byOffset = await server.call('GET', '/api/articles?pagination[start]=0&pagination[limit]=1');
    expect(problems(doc, responseSchema(doc, '/api/articles', 'get', '200'), byOffset.body)).toEqual([]);

    const deep = '?populate[seo][populate]=*&populate[blocks][populate]=*&populate[tags][populate]=*&populate[cover]=true&populate[localizations]=true';
    const one = await server.call('GET', `/api/articles/${created.body.data.documentId}${deep}`);
    expect(one.body.data.blocks[1].file.id).toBe(files[0].id);
    expect(problems(doc, responseSchema(doc, '/api/articles/{documentId}', 'get', '200'), one.body)).toEqual([]);

    const locales = await server.call('GET', '/api/i18n/locales');
    expect(problems(doc, responseSchema(doc, '/api/i18n/locales', 'get', '200'), locales.body)).toEqual([]);
    const error = await server.call('GET', '/api/articles?bogus=1');
    expect(error.status).toBe(400);
    expect(problems(doc, schemaOf('Error'), error.body)).toEqual([]);

    // The check has teeth: an undocumented field, a wrong zone entry and a wrong enumeration value all fail.
    const article = one.body.data;
    expect(problems(doc, schemaOf('Article'), { ...article, surprise: 1 })).toEqual(['$.surprise: not in the schema']);
    expect(problems(doc, schemaOf('Article'), { ...article, blocks: [{ id: 1, __component: 'shared.nope' }] }).length).toBeGreaterThan(0);
    expect(problems(doc, schemaOf('Article'), { ...article, kind: 'rumour' }).length).toBeGreaterThan(0);
  });

  it('is written by `folio openapi`, to stdout or to the file --out names', async () => {
    const out = join(tempDir('folio-openapi-'), 'docs', 'openapi.json');
    const written = runCli(['openapi', '--out', out], { contentTypes: ALL_TYPES_CONTENT_TYPES, data: null });
    expect(written.code).toBe(0);
    const fromFile = JSON.parse(readFileSync(out, 'utf8'));
    await validate(fromFile);
    expect(fromFile).toEqual(JSON.parse(JSON.stringify(buildOpenApi(loadRegistry(ALL_TYPES_CONTENT_TYPES)))));
    const printed = runCli(['openapi'], { contentTypes: EXAMPLE_CONTENT_TYPES, data: null });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(doc);
    expect(runCli(['openapi', 'extra'], { data: null }).code).toBe(2);
  });
});
