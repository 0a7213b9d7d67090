/**
 * The plugin's settings (FOLIO_GRAPHQL_CONFIG: depthLimit, defaultLimit, maxLimit, endpoint,
 * introspection, landing page, shadowCRUD), the IDE page, and the extension interface project
 * code will use (shadowCRUD(uid).disable()…, use({ typeDefs, resolvers })).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphqlSettings, readGraphqlConfig } from '../../src/graphql/settings';
import { seedCreate, startServer, type TestServer } from '../helpers/server';

let server: TestServer;
const call = async (query: string, path = '/gql') => {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { status: response.status, body: (await response.json()) as any };
};

beforeAll(async () => {
  const graphql = graphqlSettings({
    endpoint: '/gql',
    depthLimit: 7,
    defaultLimit: 2,
    maxLimit: 3,
    landingPage: false,
    apolloServer: { introspection: false },
  });
  server = await startServer({ config: { graphql } });
  for (let i = 0; i < 5; i++) await seedCreate(server, '/api/tags', { name: `t${i}` });
});
afterAll(() => server.stop());

describe('FOLIO_GRAPHQL_CONFIG', () => {
  it('reads JSON text or a file, with Strapi defaults, and refuses unknown keys', () => {
    expect(readGraphqlConfig(undefined)).toEqual({
      endpoint: '/graphql',
      shadowCRUD: true,
      depthLimit: undefined,
      defaultLimit: 10,
      maxLimit: -1,
      landingPage: true,
      introspection: true,
    });
    expect(readGraphqlConfig(undefined, 'production')).toMatchObject({ landingPage: false, introspection: false });
    expect(readGraphqlConfig('{"depthLimit": 10, "apolloServer": {"introspection": true}}', 'production')).toMatchObject({
      depthLimit: 10,
      introspection: true,
    });
    const file = join(mkdtempSync(join(tmpdir(), 'folio-gql-')), 'graphql.json');
    writeFileSync(file, JSON.stringify({ maxLimit: 50, endpoint: '/api-gql' }));
    expect(readGraphqlConfig(file)).toMatchObject({ maxLimit: 50, endpoint: '/api-gql' });
    expect(() => readGraphqlConfig('{"depthlimit": 3}')).toThrow('unknown key depthlimit');
    expect(() => readGraphqlConfig('{"maxLimit": "many"}')).toThrow('maxLimit');
    expect(() => readGraphqlConfig('nope.json')).toThrow('neither JSON text nor a file');
  });
});

describe('GraphQL settings', () => {
  it('serves at the configured endpoint only', async () => {
    expect((await call('{ tags { name } }')).status).toBe(200);
    expect((await call('{ tags { name } }', '/graphql')).status).toBe(404);
  });

  it('applies defaultLimit and maxLimit (limit -1 gives maxLimit), nested lists too', async () => {
    expect((await call('{ tags { name } }')).body.data.tags).toHaveLength(2);
    expect((await call('{ tags(pagination: { limit: 10 }) { name } }')).body.data.tags).toHaveLength(3);
    expect((await call('{ tags(pagination: { limit: -1 }) { name } }')).body.data.tags).toHaveLength(3);
    expect((await call('{ tags(pagination: { pageSize: 10 }) { name } }')).body.data.tags).toHaveLength(3);
  });

  it('counts depth from 0 as Strapi: with depthLimit 7, 7 nested object fields and their leaf pass, 8 fail with a 400', async () => {
    // `levels` object fields, tags → articles → tags …, around a leaf (as checked on Strapi with depthLimit 10: 10 pass, 11 fail).
    const nest = (levels: number) => {
      let query = 'documentId';
      for (let level = levels; level >= 1; level--) query = level % 2 === 1 ? `tags { ${query} }` : `articles { ${query} }`;
      return `{ ${query} }`;
    };
    const ok = await call(nest(7));
    expect(ok.body.errors).toBeUndefined();
    expect(ok.status).toBe(200);
    const deep = await call(nest(8));
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({ message: "'' exceeds maximum operation depth of 7", extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });

  it('refuses introspection when it is off, and shows no IDE without the landing page', async () => {
    const { status, body } = await call('{ __schema { types { name } } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain('introspection');
    const page = await fetch(`${server.url}/gql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).not.toContain('text/html');
  });
});

describe('GraphQL extensions', () => {
  it('disables a type, a field, or queries through shadowCRUD, and adds typeDefs and resolvers', async () => {
    const { extension } = server.instance.graphql;
    extension.shadowCRUD('api::author.author').disable();
    extension.shadowCRUD('api::tag.tag').field('color').disable();
    extension.shadowCRUD('api::category.category').disableQueries();
    extension.use(() => ({
      typeDefs: 'type Hello { greeting: String! } extend type Query { hello(name: String!): Hello }',
      resolvers: { Query: { hello: (_parent: unknown, args: Record<string, unknown>) => ({ greeting: `Hello ${String(args.name)}` }) } },
      // As in Strapi, an extension's root field without `auth` is for full-access tokens only.
      resolversConfig: { 'Query.hello': { auth: false } },
    }));
    expect((await call('{ hello(name: "Folio") { greeting } }')).body).toEqual({ data: { hello: { greeting: 'Hello Folio' } } });
    expect((await call('{ authors { name } }')).status).toBe(400);
    expect((await call('{ articles { author { name } } }')).body.errors[0].message).toContain('Cannot query field "author"');
    expect((await call('{ tags { color } }')).body.errors[0].message).toContain('Cannot query field "color"');
    expect((await call('{ categories { name } }')).status).toBe(400);
    expect((await call('mutation { createCategory(data: { name: "ok" }) { name } }')).status).toBe(200);
    expect(server.instance.graphql.sdl()).toContain('type Hello');
  });
});
