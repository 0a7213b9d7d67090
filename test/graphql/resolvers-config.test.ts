/**
 * Extensions' `resolversConfig` as Strapi 5.54.0 applies it (checked on the peer with the same
 * extension): `auth: false`, `auth.scope`, named and inline policies with their config
 * (Strapi's PolicyError), middlewares, and an extension's root field without `auth`, which
 * only a full-access token may call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;
let jwt = '';

const forbidden = (path: string, name = 'ForbiddenError', message = 'Forbidden access') => ({
  message,
  path: [path],
  extensions: { code: 'FORBIDDEN', error: { name, message, details: {} } },
});

beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  await server.instance.roles.grant('public', ['api::tag.tag.find', 'api::article.article.find', 'plugin::users-permissions.auth.register']);
  await server.instance.roles.grant('authenticated', ['api::tag.tag.find']);
  const admin = { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } };
  for (const [path, data] of [
    ['/api/tags', { name: 'alpha' }],
    ['/api/authors', { name: 'Ada' }],
    ['/api/categories', { name: 'Tech', slug: 'tech' }],
  ] as const) {
    expect((await server.call('POST', path, { body: { data }, ...admin })).status).toBe(201);
  }
  const registered = await server.call('POST', '/api/auth/local/register', {
    body: { username: 'reader', email: 'reader@example.com', password: 'Reader123!' },
  });
  jwt = registered.body.jwt;
  const { extension } = server.instance.graphql;
  const policies: Record<string, (ctx: any, config: any) => unknown> = {
    'global::deny': () => false,
    'global::not-no': (ctx, config) => ctx.args.name !== (config?.refuse ?? 'no'),
  };
  extension.findPolicy = (name) => policies[name];
  extension.use({
    typeDefs:
      'extend type Query { hello: String, open: String, scoped: String, refused: String, withArgs(name: String): String, wrapped: String, inline: String }',
    resolvers: {
      Query: {
        hello: () => 'hi',
        open: () => 'open',
        scoped: () => 'scoped',
        refused: () => 'never',
        withArgs: (_p, args) => `hello ${String(args.name)}`,
        wrapped: () => 'inner',
        inline: () => 'inline',
      },
    },
    resolversConfig: {
      'Query.open': { auth: false },
      'Query.scoped': { auth: { scope: ['api::tag.tag.find'] } },
      'Query.refused': { auth: false, policies: ['global::deny'] },
      'Query.withArgs': { auth: false, policies: ['global::not-no', { name: 'global::not-no', config: { refuse: 'nope' } }] },
      'Query.wrapped': { auth: false, middlewares: [async (next, parent, args, context, info) => `mw(${String(await next(parent, args, context, info))})`] },
      'Query.inline': { auth: false, policies: [(ctx) => (ctx as { is(t: string): boolean }).is('graphql')] },
      'Query.authors': { auth: false },
      'Query.tags': { policies: ['global::deny'] },
      'Query.categories': { auth: { scope: ['api::tag.tag.find'] } },
    },
  });
});
afterAll(() => server.stop());

describe('GraphQL resolversConfig', () => {
  it('lets only a full-access token call an extension root field without auth', async () => {
    expect((await gql(server, '{ hello }')).body).toEqual({ errors: [forbidden('hello')], data: { hello: null } });
    expect((await gql(server, '{ hello }', undefined, { authorization: `Bearer ${jwt}` })).body).toEqual({
      errors: [forbidden('hello')],
      data: { hello: null },
    });
    expect((await gql(server, '{ hello }', undefined, { authorization: `Bearer ${server.tokens.readOnly}` })).body.errors).toEqual([forbidden('hello')]);
    expect((await gql(server, '{ hello }', undefined, { authorization: `Bearer ${server.tokens.fullAccess}` })).body).toEqual({ data: { hello: 'hi' } });
  });

  it("opens a field with auth: false and asks for the scope instead of the field's own action", async () => {
    expect((await gql(server, '{ open scoped }')).body).toEqual({ data: { open: 'open', scoped: 'scoped' } });
    expect((await gql(server, '{ authors { name } categories { name } }')).body).toEqual({
      data: { authors: [{ name: 'Ada' }], categories: [{ name: 'Tech' }] },
    });
  });

  it("runs named policies with their config and inline ones, refusing with Strapi's PolicyError", async () => {
    const failed = (path: string) => forbidden(path, 'PolicyError', 'Policy Failed');
    expect((await gql(server, '{ refused }')).body).toEqual({ errors: [failed('refused')], data: { refused: null } });
    expect((await gql(server, '{ withArgs(name: "x") inline }')).body).toEqual({ data: { withArgs: 'hello x', inline: 'inline' } });
    expect((await gql(server, '{ withArgs(name: "no") }')).body.errors).toEqual([failed('withArgs')]);
    expect((await gql(server, '{ withArgs(name: "nope") }')).body.errors).toEqual([failed('withArgs')]);
    expect((await gql(server, '{ tags { name } }')).body).toEqual({ errors: [failed('tags')], data: null });
  });

  it('runs middlewares around the resolver', async () => {
    expect((await gql(server, '{ wrapped }')).body).toEqual({ data: { wrapped: 'mw(inner)' } });
  });

  it("keeps a generated field's own action when an extension replaces its resolver", async () => {
    server.instance.graphql.extension.use({ resolvers: { Query: { articles: () => [{ documentId: 'x', title: 'replaced' }] } } });
    expect((await gql(server, '{ articles { title } }')).body).toEqual({ data: { articles: [{ title: 'replaced' }] } });
    await server.instance.roles.revoke('public', ['api::article.article.find']);
    expect((await gql(server, '{ articles { title } }')).body).toEqual({ errors: [forbidden('articles')], data: null });
  });
});
