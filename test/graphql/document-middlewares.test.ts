/**
 * GraphQL's root queries read through the document service as Strapi's resolvers do, so a
 * project's document middlewares and read lifecycles see them (test/fixtures/projects/
 * graphql-reads-js): a middleware that hides a slug and marks titles changes what `articles`,
 * `articles_connection` (its pageInfo counted through the same middleware) and `article` answer,
 * with Strapi's params (status, filters, sort, start/limit from the pagination, locale);
 * answers of hooked reads are never kept, and nested fields are still answered. Every answer
 * and recorded params below are what Strapi 5.54.0 with its GraphQL plugin gave for the same
 * src/ and the same requests. The project's GraphQL extension reads the caller from
 * `context.state.user` and guards a query with a project policy (`global::is-signed-in`), as
 * on Strapi. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('graphql-reads-js') });
  const category = await server.call('POST', '/api/categories', { body: { data: { name: 'Cat', slug: 'cat' } } });
  expect(category.status).toBe(201);
  for (const slug of ['alpha', 'hidden', 'gamma']) {
    const created = await server.call('POST', '/api/articles', {
      body: { data: { title: slug.toUpperCase(), slug, category: category.body.data.documentId } },
    });
    expect(created.status).toBe(201);
    ids[slug] = created.body.data.documentId;
  }
  await log();
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

/** A GraphQL request as a front end sends it: anonymous, or with a user's JWT. */
async function raw(query: string, jwt?: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await server.call('POST', '/graphql', { body: { query, variables } });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

/** What the middleware and the lifecycle recorded since the last look. */
async function log(): Promise<any[]> {
  return (await server.call('GET', '/api/middleware-log')).body.seen;
}

describe('GraphQL root queries through the document middlewares', () => {
  test("a list query answers what the middleware makes of it, nested relations included, with Strapi's params", async () => {
    const data = await gql('{ articles(sort: "slug:asc", pagination: { page: 1, pageSize: 10 }) { title slug category { name } } }');
    expect(data.articles).toEqual([
      { title: 'ALPHA (listed)', slug: 'alpha', category: { name: 'Cat' } },
      { title: 'GAMMA (listed)', slug: 'gamma', category: { name: 'Cat' } },
    ]);
    expect(await log()).toEqual([{ action: 'findMany', params: { status: 'published', sort: ['slug:asc'], start: 0, limit: 10 } }]);
  });

  test('a connection counts through the middleware too: pageInfo leaves out what it hides', async () => {
    const data = await gql(
      'query ($filters: ArticleFiltersInput) { articles_connection(filters: $filters, pagination: { start: 0, limit: 1 }) { nodes { slug } pageInfo { total page pageSize pageCount } } }',
      {
        filters: { slug: { in: ['alpha', 'hidden'] } },
      },
    );
    expect(data.articles_connection).toEqual({ nodes: [{ slug: 'alpha' }], pageInfo: { total: 1, page: 1, pageSize: 1, pageCount: 1 } });
    const seen = await log();
    expect(seen.map((s) => s.action)).toEqual(['findMany', 'count']);
    expect(seen[0].params).toEqual({ status: 'published', filters: { slug: { $in: ['alpha', 'hidden'] } }, start: 0, limit: 1 });
    // Strapi's pagination resolver counts with the list's params, start and limit included.
    expect(seen[1].params).toEqual(seen[0].params);
  });

  test('one document is read through findOne with its documentId, status and locale', async () => {
    const data = await gql('query ($id: ID!) { article(documentId: $id, status: DRAFT, locale: "en") { title } }', { id: ids.gamma });
    expect(data.article).toEqual({ title: 'GAMMA (one)' });
    expect(await log()).toEqual([{ action: 'findOne', params: { status: 'draft', locale: 'en', documentId: ids.gamma } }]);
  });

  test('a hooked read is answered afresh each time: no kept answer skips the middleware', async () => {
    const query = '{ articles { slug } }';
    await gql(query);
    await gql(query);
    expect((await log()).filter((s) => s.action === 'findMany')).toHaveLength(2);
  });

  test('a read lifecycle of a single type fires for its GraphQL query', async () => {
    await server.call('PUT', '/api/global', { body: { data: { siteName: 'Site' } } });
    await log();
    const data = await gql('{ global { siteName } }');
    expect(data.global).toEqual({ siteName: 'Site' });
    expect(await log()).toEqual([{ lifecycle: 'beforeFindOne', model: 'api::global.global' }]);
  });
});

describe('project code around GraphQL resolvers', () => {
  test('a resolver reads the caller from context.state, and resolversConfig names a project policy that reads state.user', async () => {
    await server.instance.roles.grant('public', ['api::tag.tag.find']);
    await server.instance.roles.grant('authenticated', ['api::tag.tag.find']);
    expect(await raw('{ whoami }')).toEqual({ status: 200, body: { data: { whoami: 'nobody' } } });
    expect(await raw('{ tags { name } }')).toEqual({
      status: 200,
      body: {
        errors: [
          {
            message: 'Policy Failed',
            path: ['tags'],
            extensions: { code: 'FORBIDDEN', error: { name: 'PolicyError', message: 'Policy Failed', details: {} } },
          },
        ],
        data: null,
      },
    });
    const registered = await fetch(`${server.url}/api/auth/local/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ann', email: 'ann@example.com', password: 'Passw0rd!' }),
    });
    const { jwt } = (await registered.json()) as { jwt: string };
    expect(await raw('{ whoami }', jwt)).toEqual({ status: 200, body: { data: { whoami: 'ann' } } });
    expect(await raw('{ tags { name } }', jwt)).toEqual({ status: 200, body: { data: { tags: [] } } });
  });
});
