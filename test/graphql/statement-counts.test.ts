/**
 * Batched resolution: a nested GraphQL list reads each attribute of a level together for all
 * rows (one populate read per attribute and level, as REST populate), so the statements a query
 * costs do not grow with the rows it answers, on SQLite and PostgreSQL alike. Strapi's plugin
 * issues statements per row here. Strapi's own fields that are not populate (users' roles,
 * roles' permissions and users) are read a level at a time too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { onPostgres, seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;

const NESTED = `query List($n: Int) { articles(pagination: { limit: $n }, sort: "title") {
  documentId title
  category { name articles { title } }
  author { name mentor { name } }
  tags { name }
  blocks { __typename ... on ComponentSharedQuote { title } ... on ComponentSharedRichText { body } }
} }`;

async function statementsOf(limit: number): Promise<{ statements: number; rows: number }> {
  // Warmed twice, as below: what a first request loads once is not the query's cost.
  for (let i = 0; i < 2; i++) expect((await gql(server, NESTED, { n: limit })).status).toBe(200);
  const before = server.instance.db.statementCount;
  const { body } = await gql(server, NESTED, { n: limit });
  expect(body.errors).toBeUndefined();
  return { statements: server.instance.db.statementCount - before, rows: body.data.articles.length };
}

beforeAll(async () => {
  // REST's answer cache off: the comparison below counts what REST populate reads.
  server = await startServer({ config: { answerCacheBytes: 0 }, quiet: true });
  const post = (path: string, data: object) => seedCreate(server, path, data);
  const mentor = await post('/api/authors', { name: 'Mentor' });
  const authors = [];
  for (let i = 0; i < 3; i++) authors.push((await post('/api/authors', { name: `Author ${i}`, mentor: mentor.documentId })).documentId);
  const categories = [];
  for (let i = 0; i < 3; i++) categories.push((await post('/api/categories', { name: `Cat ${i}`, slug: `cat-${i}` })).documentId);
  const tags = [];
  for (let i = 0; i < 5; i++) tags.push((await post('/api/tags', { name: `tag ${i}` })).documentId);
  for (let i = 0; i < 25; i++) {
    await post('/api/articles', {
      title: `Article ${String(i).padStart(2, '0')}`,
      category: categories[i % 3],
      author: authors[i % 3],
      tags: [tags[i % 5], tags[(i + 1) % 5]],
      blocks: [
        { __component: 'shared.quote', title: `q${i}` },
        { __component: 'shared.rich-text', body: `b${i}` },
      ],
    });
  }
}, 60_000);
afterAll(() => server.stop());

const USERS = `{ usersPermissionsUsers(sort: "username") { username role { name } }
  usersPermissionsRoles(sort: "name") { name permissions(pagination: { limit: 100 }) { action role { type } } users { username role { type } } } }`;

async function userStatements(): Promise<{ statements: number; users: number }> {
  const headers = { authorization: `Bearer ${server.tokens.fullAccess}` };
  // Warmed twice: the first request after a write also notes the token's use and reloads caches.
  for (let i = 0; i < 2; i++) expect((await gql(server, USERS, undefined, headers)).status).toBe(200);
  const before = server.instance.db.statementCount;
  const { body } = await gql(server, USERS, undefined, headers);
  expect(body.errors).toBeUndefined();
  return { statements: server.instance.db.statementCount - before, users: body.data.usersPermissionsUsers.length };
}

describe('GraphQL statement counts', () => {
  it('reads 25 articles with category, author, tags and a two-kind zone in as many statements as 2 articles', async () => {
    const small = await statementsOf(2);
    const large = await statementsOf(25);
    expect(small.rows).toBe(2);
    expect(large.rows).toBe(25);
    expect(large.statements).toBe(small.statements);
  });

  it('runs at most one statement per attribute and level on either engine, as REST populate does', async () => {
    const { statements } = await statementsOf(25);
    const zoneKinds = (server.instance.registry.contentType('api::article.article')!.attributes.blocks as { components: string[] }).components.length;
    // The grants' settings version and the page; level 1: category, author, tags and each kind of
    // the zone (its items of every kind keep their order); level 2: category.articles, author.mentor.
    const perAttribute = 2 + (3 + zoneKinds) + 2;
    expect(statements).toBeLessThanOrEqual(perAttribute);
    // SQLite reads the attributes of one level of one parent list as a single UNION ALL.
    if (!onPostgres) expect(statements).toBeLessThanOrEqual(2 + 1 + 2);
    const rest =
      '/api/articles?pagination[limit]=25&sort=title&populate[category][populate]=articles&populate[author][populate]=mentor&populate[tags]=true&populate[blocks]=true&pagination[withCount]=false';
    expect((await server.call('GET', rest)).status).toBe(200);
    const before = server.instance.db.statementCount;
    expect((await server.call('GET', rest)).status).toBe(200);
    const restStatements = server.instance.db.statementCount - before;
    // PostgreSQL sends a level's reads together: one per attribute and level (a zone: one per component kind).
    expect(statements).toBeLessThanOrEqual(restStatements);
  });

  it("reads users' roles and roles' permissions and users a level at a time, whatever the number of users", async () => {
    const register = (i: number) =>
      server.call('POST', '/api/auth/local/register', { body: { username: `user${i}`, email: `user${i}@example.com`, password: 'Secret123!' } });
    expect((await register(0)).status).toBe(200);
    const one = await userStatements();
    for (let i = 1; i < 6; i++) expect((await register(i)).status).toBe(200);
    const six = await userStatements();
    expect([one.users, six.users]).toEqual([1, 6]);
    expect(six.statements).toBe(one.statements);
  });
});
