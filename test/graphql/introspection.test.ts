/**
 * The schema served at /graphql is the one Strapi 5.54.0's GraphQL plugin generates for the
 * same content types: introspection diffed against a recording of the real plugin
 * (test/fixtures/graphql/), type by type, field by field, with arguments, defaults and descriptions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, printType, type IntrospectionQuery } from 'graphql';
import { startServer, type TestServer } from '../helpers/server';
import recorded from '../fixtures/graphql/strapi-5.54.0-introspection.json';
import { gql } from './helpers';

let server: TestServer;
const strapi = lexicographicSortSchema(buildClientSchema((recorded as unknown as { data: IntrospectionQuery }).data));

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('GraphQL introspection', () => {
  it('answers the same schema as Strapi 5.54.0 for the blog fixture', async () => {
    const { status, body } = await gql(server, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(status).toBe(200);
    const ours = lexicographicSortSchema(buildClientSchema(body.data));
    // Type by type first, so a difference names the type.
    const theirs = strapi.getTypeMap();
    const mine = ours.getTypeMap();
    expect(Object.keys(mine).sort()).toEqual(Object.keys(theirs).sort());
    for (const name of Object.keys(theirs)) expect(`${name}:\n${printType(mine[name]!)}`).toBe(`${name}:\n${printType(theirs[name]!)}`);
    expect(printSchema(ours)).toBe(printSchema(strapi));
  });

  it('names a content type, its inputs, filters, enumerations, zones and collections as Strapi does', async () => {
    const { body } = await gql(
      server,
      `{
      article: __type(name: "Article") { fields { name } }
      kind: __type(name: "ENUM_ARTICLE_KIND") { enumValues { name } }
      zone: __type(name: "ArticleBlocksDynamicZone") { possibleTypes { name } }
      me: __type(name: "UsersPermissionsMe") { name }
    }`,
    );
    expect(body.data.article.fields.map((f: { name: string }) => f.name)).toContain('tags_connection');
    expect(body.data.kind.enumValues.map((v: { name: string }) => v.name)).toEqual(['news', 'guide', 'opinion']);
    expect(body.data.zone.possibleTypes.map((t: { name: string }) => t.name)).toEqual([
      'ComponentSharedQuote',
      'ComponentSharedRichText',
      'ComponentSharedMedia',
      'Error',
    ]);
    expect(body.data.me.name).toBe('UsersPermissionsMe');
  });
});
