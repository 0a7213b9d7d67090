/**
 * GraphQL answers kept as REST's reads are (query/answer-cache.ts): a query of generated
 * content fields asked again by a caller with the same grants, with nothing committed since,
 * is answered from the kept bytes; a write, other grants, other variables, a schema change,
 * an answer with errors, `me`, or a schema an extension resolves are never answered so.
 * Parsed and validated documents are kept per query text and forgotten when the schema changes;
 * root fields' read plans are kept as REST's are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { onPostgres, seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;

const LIST = 'query($n: Int) { tags(sort: "name", pagination: { limit: $n }) { name articles { title } } }';

let executed = 0;

/** One more request of `query`: its answer, the statements it ran, and whether the service ran it (not a kept answer). */
async function statementsOf(query: string, variables?: object, headers: Record<string, string> = {}) {
  const before = server.instance.db.statementCount;
  const runs = executed;
  const { status, body } = await gql(server, query, variables, headers);
  return { statements: server.instance.db.statementCount - before, status, body, built: executed > runs };
}

beforeAll(async () => {
  server = await startServer();
  for (const name of ['alpha', 'beta']) await seedCreate(server, '/api/tags', { name });
  const { graphql } = server.instance;
  const execute = graphql.execute.bind(graphql);
  graphql.execute = (request, caller) => {
    executed++;
    return execute(request, caller);
  };
});
afterAll(() => server.stop());

describe('GraphQL answers kept until the next commit', () => {
  it.skipIf(onPostgres)('answers a repeated content query from the kept bytes, and builds it again after a write', async () => {
    const first = await statementsOf(LIST, { n: 10 });
    expect(first.body).toEqual({
      data: {
        tags: [
          { name: 'alpha', articles: [] },
          { name: 'beta', articles: [] },
        ],
      },
    });
    const again = await statementsOf(LIST, { n: 10 });
    expect(again.body).toEqual(first.body);
    expect([first.built, again.built]).toEqual([true, false]);
    // Only the engine's commit check (PRAGMA data_version) and the grants' settings version.
    expect(again.statements).toBeLessThan(first.statements);
    expect(again.statements).toBeLessThanOrEqual(2);
    await seedCreate(server, '/api/tags', { name: 'gamma' });
    const after = await statementsOf(LIST, { n: 10 });
    expect(after.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('keeps answers apart by variables and by grants', async () => {
    expect((await gql(server, LIST, { n: 1 })).body.data.tags).toHaveLength(1);
    const two = await statementsOf(LIST, { n: 2 });
    expect(two.body.data.tags).toHaveLength(2);
    expect(two.built).toBe(true);
    await server.instance.roles.revoke('public', ['api::article.article.find']);
    const forbidden = await gql(server, LIST, { n: 1 });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const token = await statementsOf(LIST, { n: 1 }, { authorization: `Bearer ${server.tokens.readOnly}` });
    expect(token.body).toEqual({ data: { tags: [{ name: 'alpha', articles: [] }] } });
    expect(token.built).toBe(true);
    await server.instance.roles.grant('public', ['api::article.article.find']);
  });

  it('never keeps an answer with errors, nor me', async () => {
    await server.instance.roles.revoke('public', ['api::article.article.find']);
    await gql(server, LIST, { n: 3 });
    const again = await statementsOf(LIST, { n: 3 });
    expect(again.body.errors.length).toBeGreaterThanOrEqual(2);
    expect(again.body.errors).toHaveLength(again.body.data.tags.length);
    expect(again.built).toBe(true);
    await server.instance.roles.grant('public', ['api::article.article.find']);
    const register = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'cached', email: 'cached@example.com', password: 'Secret123!' },
    });
    const headers = { authorization: `Bearer ${register.body.jwt}` };
    await gql(server, '{ me { username } }', undefined, headers);
    const me = await statementsOf('{ me { username } }', undefined, headers);
    expect(me.body).toEqual({ data: { me: { username: 'cached' } } });
    expect(me.built).toBe(true);
  });

  it("reuses a root field's read plan for the same operation, variables and grants, as REST reuses its plans", async () => {
    const caches = server.instance.caches;
    const original = caches.plan.bind(caches);
    let built = 0;
    caches.plan = (grants, uid, key, build) => original(grants, uid, key, () => (built++, build()));
    try {
      const query = 'query($n: Int) { a: tags(pagination: { limit: $n }) { name } b: tags(sort: "name:desc") { name } }';
      const ask = async (n: number, headers: Record<string, string> = {}) => {
        const before = built;
        const { body } = await gql(server, query, { n }, headers);
        expect(body.errors).toBeUndefined();
        return built - before;
      };
      expect(await ask(1)).toBe(2);
      // A write: the kept answer is gone, the plans stay (only a settings write forgets them).
      await seedCreate(server, '/api/tags', { name: `plan-${Date.now()}` });
      expect(await ask(1)).toBe(0);
      expect(await ask(2)).toBe(2);
      expect(await ask(1, { authorization: `Bearer ${server.tokens.readOnly}` })).toBe(2);
    } finally {
      caches.plan = original;
    }
  });

  it('forgets kept documents and answers when an extension changes the schema', async () => {
    const query = '{ tags(sort: "name") { name color } }';
    expect((await gql(server, query)).status).toBe(200);
    expect((await gql(server, query)).status).toBe(200);
    server.instance.graphql.extension.shadowCRUD('api::tag.tag').field('color').disable();
    const refused = await gql(server, query);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toContain('Cannot query field "color" on type "Tag"');
  });

  it('keeps nothing once an extension resolves a field', async () => {
    server.instance.graphql.extension.use({ resolvers: { Tag: { name: (parent: unknown) => `#${(parent as { name: string }).name}` } } });
    const query = '{ tags(sort: "name") { name } }';
    expect((await gql(server, query)).body.data.tags[0]).toEqual({ name: '#alpha' });
    const again = await statementsOf(query);
    expect(again.body.data.tags[0]).toEqual({ name: '#alpha' });
    expect(again.built).toBe(true);
  });
});
