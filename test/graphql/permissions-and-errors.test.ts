/**
 * Permissions and Strapi's three error transports over GraphQL: per-row FORBIDDEN for a
 * relation the caller may not read, `data: null` for a forbidden root, BAD_USER_INPUT for a
 * filter through it; HTTP 400 for parse, validation and variable errors; the REST envelope for
 * bad credentials and bad JSON; Apollo's CSRF rule for GET; 405 for a GET mutation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;
const FORBIDDEN = { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } };

beforeAll(async () => {
  server = await startServer();
  const post = (path: string, data: object) => seedCreate(server, path, data);
  const ada = await post('/api/authors', { name: 'Ada' });
  await post('/api/articles', { title: 'A', author: ada.documentId });
  await post('/api/articles', { title: 'B' });
  await server.instance.roles.revoke('public', ['api::author.author.find', 'api::tag.tag.find']);
});
afterAll(() => server.stop());

describe('GraphQL permissions', () => {
  it('answers the rest of the data with one FORBIDDEN per row for a relation the caller may not read', async () => {
    const { status, body } = await gql(server, '{ articles(sort: "title") { title author { name } } }');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      articles: [
        { title: 'A', author: null },
        { title: 'B', author: null },
      ],
    });
    expect(body.errors).toEqual([
      { message: 'Forbidden access', path: ['articles', 0, 'author'], extensions: FORBIDDEN },
      { message: 'Forbidden access', path: ['articles', 1, 'author'], extensions: FORBIDDEN },
    ]);
  });

  it('answers data: null for a forbidden root, and BAD_USER_INPUT for a filter through a forbidden relation', async () => {
    const root = await gql(server, '{ articles { title } tags { name } }');
    expect(root.status).toBe(200);
    expect(root.body).toEqual({ errors: [{ message: 'Forbidden access', path: ['tags'], extensions: FORBIDDEN }], data: null });
    const filter = await gql(server, '{ articles(filters: { author: { name: { eq: "Ada" } } }) { title } }');
    expect(filter.status).toBe(200);
    expect(filter.body.data).toBeNull();
    expect(filter.body.errors[0]).toMatchObject({
      message: 'Invalid key author',
      path: ['articles'],
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Invalid key author' } },
    });
  });

  it('lets API tokens read what their type allows', async () => {
    const full = await gql(server, '{ articles(sort: "title") { title author { name } } }', undefined, { authorization: `Bearer ${server.tokens.fullAccess}` });
    expect(full.body).toEqual({
      data: {
        articles: [
          { title: 'A', author: { name: 'Ada' } },
          { title: 'B', author: null },
        ],
      },
    });
    const readOnly = await gql(server, '{ tags { name } }', undefined, { authorization: `Bearer ${server.tokens.readOnly}` });
    expect(readOnly.body).toEqual({ data: { tags: [] } });
  });
});

describe('GraphQL error transports', () => {
  it('answers HTTP 400 without data for parse, validation and variable errors', async () => {
    const parse = await gql(server, '{ articles { title ');
    expect(parse.status).toBe(400);
    expect(parse.body).toEqual({
      errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 20 }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
    });
    const validation = await gql(server, '{ articles { nope } }');
    expect(validation.status).toBe(400);
    expect(validation.body).toEqual({
      errors: [
        { message: 'Cannot query field "nope" on type "Article".', locations: [{ line: 1, column: 14 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
      ],
    });
    const locale = await gql(server, '{ articles(locale: "xx") { title } }');
    expect(locale.status).toBe(400);
    expect(locale.body.errors[0].message).toBe('Expected value of type "I18NLocaleCode", found "xx"; Unknown locale supplied');
    const variable = await gql(server, 'query($a: Int) { articles(pagination: { limit: $a }) { title } }', { a: 'x' });
    expect(variable.status).toBe(400);
    expect(variable.body).toEqual({
      errors: [
        {
          message: 'Variable "$a" got invalid value "x"; Int cannot represent non-integer value: "x"',
          locations: [{ line: 1, column: 7 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });
    const unknown = await gql(server, '{ articles { title } }', undefined);
    expect(unknown.status).toBe(200);
  });

  it('answers a pagination error on HTTP 200 with STRAPI_PAGINATION_ERROR', async () => {
    const { status, body } = await gql(server, '{ articles(pagination: { page: 1, start: 2 }) { title } }');
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [
        {
          message: 'Cannot use both page & offset pagination in the same query',
          path: ['articles'],
          extensions: {
            code: 'STRAPI_PAGINATION_ERROR',
            error: { name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} },
          },
        },
      ],
      data: null,
    });
  });

  it('answers bad credentials and malformed JSON with the REST envelope', async () => {
    const token = await gql(server, '{ articles { title } }', undefined, { authorization: 'Bearer nope' });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    const response = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.name).toBe('SyntaxError');
  });

  it('runs GET queries only when preflighted, and refuses GET mutations with 405', async () => {
    const url = `${server.url}/graphql?query=${encodeURIComponent('{ articles(sort: "title") { title } }')}`;
    const simple = await fetch(url);
    expect(simple.status).toBe(400);
    expect(((await simple.json()) as any).errors[0].message).toContain('Cross-Site Request Forgery');
    const preflighted = await fetch(url, { headers: { 'apollo-require-preflight': 'true' } });
    expect(preflighted.status).toBe(200);
    expect(await preflighted.json()).toEqual({ data: { articles: [{ title: 'A' }, { title: 'B' }] } });
    const mutation = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { deleteTag(documentId: "x") { documentId } }')}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(mutation.status).toBe(405);
    expect(mutation.headers.get('allow')).toBe('POST');
    expect(await mutation.json()).toEqual({
      errors: [{ message: 'GET requests only support query operations, not mutation operations', extensions: { code: 'BAD_REQUEST' } }],
    });
    const other = await fetch(`${server.url}/graphql`, { method: 'PUT' });
    expect(other.status).toBe(405);
  });
});
