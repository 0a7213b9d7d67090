/**
 * The one guard every route family goes through: the caller's grants are read once per
 * request, and answer both "may it call this route" and "which types may populate, filters
 * and sort reach" (they were read twice before, once for each question).
 */
import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicAccess: false });
  await server.instance.roles.grant('public', ['api::article.article.find', 'api::category.category.find']);
  await server.instance.roles.grant('authenticated', ['api::article.article.find', 'api::category.category.find']);
});
afterAll(() => server.stop());

/** How many times a role's grants are read while `fn` runs. */
async function grantLookups(fn: () => Promise<void>): Promise<number> {
  const spy = spyOn(server.instance.roles, 'actions');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

const READ_ACROSS_TYPES = '/api/articles?populate[category]=true&filters[category][name][$eq]=News&sort=category.name';

describe('one permission lookup per request', () => {
  it('reads the public role grants once for a list that populates, filters and sorts through another type', async () => {
    const lookups = await grantLookups(async () => {
      const res = await server.call('GET', READ_ACROSS_TYPES);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });
    expect(lookups).toBe(1);
  });

  it("reads a user's role grants once for the same list, called with the user's JWT", async () => {
    const registered = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'guarded', email: 'guarded@example.com', password: 'Passw0rd!' },
    });
    expect(registered.status).toBe(200);
    const lookups = await grantLookups(async () => {
      const res = await server.call('GET', READ_ACROSS_TYPES, { headers: { authorization: `Bearer ${registered.body.jwt}` } });
      expect(res.status).toBe(200);
    });
    expect(lookups).toBe(1);
  });

  it('leaves out a populate through a type the caller may not read, from the same single lookup', async () => {
    const lookups = await grantLookups(async () => {
      const res = await server.call('GET', '/api/articles?populate[author]=true');
      expect(res.status).toBe(200);
      expect(res.body.data[0]).not.toHaveProperty('author');
    });
    expect(lookups).toBe(1);
  });
});
