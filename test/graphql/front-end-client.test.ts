/**
 * A front end's GraphQL client (graphql-request, as published on npm) against Folio, on
 * whichever engine the suite runs (SQLite, or PostgreSQL with FOLIO_TEST_DATABASE_URL): typed
 * documents with variables, fragments and aliases, a nested list, partial data beside per-row
 * errors, validation errors as the client surfaces them, GET queries, and batching refused as
 * Apollo Server (Strapi's) refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { batchRequests, ClientError, GraphQLClient, gql } from 'graphql-request';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let client: GraphQLClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  const read = ['article', 'category', 'tag'].flatMap((t) => [`api::${t}.${t}.find`, `api::${t}.${t}.findOne`]);
  await server.instance.roles.grant('public', read);
  const admin = { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } };
  const post = async (path: string, data: object) => (await server.call('POST', path, { body: { data }, ...admin })).body.data.documentId as string;
  ids.ada = await post('/api/authors', { name: 'Ada' });
  ids.tech = await post('/api/categories', { name: 'Tech', slug: 'tech' });
  ids.alpha = await post('/api/tags', { name: 'alpha' });
  ids.beta = await post('/api/tags', { name: 'beta' });
  for (let i = 0; i < 5; i++) {
    await post('/api/articles', {
      title: `Article ${i}`,
      views: i,
      category: ids.tech,
      author: ids.ada,
      tags: i % 2 ? [ids.alpha, ids.beta] : [ids.beta],
      blocks: [
        { __component: 'shared.quote', title: `q${i}` },
        { __component: 'shared.rich-text', body: `b${i}` },
      ],
    });
  }
  client = new GraphQLClient(`${server.url}/graphql`);
});
afterAll(() => server.stop());

interface ArticleList {
  articles_connection: {
    nodes: {
      documentId: string;
      title: string;
      category: { name: string } | null;
      first: { name: string }[];
      blocks: { __typename: string; title?: string; body?: string }[];
    }[];
    pageInfo: { total: number; page: number; pageSize: number; pageCount: number };
  };
}

const LIST: TypedDocumentNode<ArticleList, { filters: object; page: number }> = parse(gql`
  query List($filters: ArticleFiltersInput, $page: Int) {
    articles_connection(filters: $filters, sort: ["views:desc"], pagination: { page: $page, pageSize: 2 }) {
      nodes { ...Card first: tags(sort: "name", pagination: { limit: 1 }) { name } }
      pageInfo { total page pageSize pageCount }
    }
  }
  fragment Card on Article {
    documentId title category { name }
    blocks { __typename ... on ComponentSharedQuote { title } ... on ComponentSharedRichText { body } }
  }
`);

describe('a front end with graphql-request', () => {
  it('pages through a filtered nested list with a typed document, fragments and aliases', async () => {
    const page1 = await client.request(LIST, { filters: { views: { gte: 1 } }, page: 1 });
    expect(page1.articles_connection.pageInfo).toEqual({ total: 4, page: 1, pageSize: 2, pageCount: 2 });
    expect(page1.articles_connection.nodes.map((n) => [n.title, n.category?.name, n.first.map((t) => t.name)])).toEqual([
      ['Article 4', 'Tech', ['beta']],
      ['Article 3', 'Tech', ['alpha']],
    ]);
    expect(page1.articles_connection.nodes[0]!.blocks).toEqual([
      { __typename: 'ComponentSharedQuote', title: 'q4' },
      { __typename: 'ComponentSharedRichText', body: 'b4' },
    ]);
    const page2 = await client.request(LIST, { filters: { views: { gte: 1 } }, page: 2 });
    expect(page2.articles_connection.nodes.map((n) => n.title)).toEqual(['Article 2', 'Article 1']);
  });

  it('gets partial data beside per-row FORBIDDEN errors with errorPolicy all, and a ClientError without it', async () => {
    const query = '{ articles(sort: "title", pagination: { limit: 2 }) { title author { name } } }';
    const lenient = new GraphQLClient(`${server.url}/graphql`, { errorPolicy: 'all' });
    const { data, errors } = await lenient.rawRequest<{ articles: { title: string; author: null }[] }>(query);
    expect(data.articles).toEqual([
      { title: 'Article 0', author: null },
      { title: 'Article 1', author: null },
    ]);
    expect(errors?.map((e) => [e.path, e.extensions?.code])).toEqual([
      [['articles', 0, 'author'], 'FORBIDDEN'],
      [['articles', 1, 'author'], 'FORBIDDEN'],
    ]);
    const strict = await client.request(query).catch((e) => e);
    expect(strict).toBeInstanceOf(ClientError);
    expect((strict as ClientError).response.status).toBe(200);
  });

  it("surfaces a validation error as a ClientError with the 400 and Strapi's code", async () => {
    const error = (await client.request('{ articles { nope } }').catch((e) => e)) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.response.status).toBe(400);
    expect(error.response.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('sends queries as GET with a preflight header', async () => {
    const get = new GraphQLClient(`${server.url}/graphql`, { method: 'GET', headers: { 'apollo-require-preflight': 'true' } });
    const answer = await get.request<{ tags: { name: string }[] }>('query Tags($sort: [String]) { tags(sort: $sort) { name } }', { sort: ['name:desc'] });
    expect(answer.tags).toEqual([{ name: 'beta' }, { name: 'alpha' }]);
  });

  it('is refused a batch of operations, as Apollo Server refuses it', async () => {
    const error = (await batchRequests(`${server.url}/graphql`, [{ document: '{ tags { name } }' }, { document: '{ categories { name } }' }]).catch(
      (e) => e,
    )) as ClientError;
    expect(error).toBeInstanceOf(ClientError);
    expect(error.response.status).toBe(400);
    expect(JSON.stringify(error.response)).toContain('Operation batching disabled.');
  });
});
