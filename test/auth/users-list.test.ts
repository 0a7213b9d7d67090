/**
 * `GET /api/users` reads Strapi's query parameters on the user model (its user controller:
 * fetchAll → transformParamsToQuery): filters, sort, fields, top-level start/limit and
 * page/pageSize; the answer is a bare array. `password`, `resetPasswordToken` and
 * `confirmationToken` are private: as a filter, a sort key or a field they are a 400
 * `Invalid key`, never an answer that tells something about them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
const full = () => ({ authorization: `Bearer ${server.tokens.fullAccess}` });

beforeAll(async () => {
  server = await startServer();
  for (const [username, blocked] of [
    ['carol', false],
    ['alice', true],
    ['bob', false],
    ['dave', false],
  ] as const) {
    await server.instance.users.create({ username, email: `${username}@example.com`, password: 'Passw0rd!', blocked });
  }
});
afterAll(() => server.stop());

const list = (query: Record<string, unknown>) => server.call('GET', `/api/users?${qs.stringify(query)}`, { headers: full() });
const names = (response: { body: any }) => response.body.map((u: any) => u.username);

describe('GET /api/users query parameters', () => {
  it('filters, sorts and pages users, answering a bare array', async () => {
    const sorted = await list({ sort: 'username:asc' });
    expect(sorted.status).toBe(200);
    expect(names(sorted)).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(names(await list({ filters: { blocked: { $eq: false } }, sort: ['username:desc'] }))).toEqual(['dave', 'carol', 'bob']);
    expect(names(await list({ filters: { email: { $containsi: 'ALICE' } } }))).toEqual(['alice']);
    expect(names(await list({ sort: 'username', start: 1, limit: 2 }))).toEqual(['bob', 'carol']);
    expect(names(await list({ sort: 'username', page: 2, pageSize: 3 }))).toEqual(['dave']);
  });

  it('selects fields, keeping id and documentId', async () => {
    const response = await list({ fields: ['username'], filters: { username: 'bob' } });
    expect(response.body).toEqual([{ id: expect.any(Number), documentId: expect.any(String), username: 'bob' }]);
  });

  it('refuses private fields as filters, sort keys and fields with 400 Invalid key, the password first', async () => {
    for (const key of ['password', 'resetPasswordToken', 'confirmationToken']) {
      for (const query of [
        { filters: { [key]: { $null: false } } },
        { filters: { $or: [{ username: 'bob' }, { [key]: { $startsWith: '$' } }] } },
        { sort: `${key}:asc` },
        { fields: [key] },
      ]) {
        const response = await list(query);
        expect({ key, query, status: response.status }).toEqual({ key, query, status: 400 });
        expect(response.body).toMatchObject({ data: null, error: { name: 'ValidationError', message: `Invalid key ${key}` } });
      }
    }
  });

  it('refuses unknown parameters and keys with 400', async () => {
    for (const query of [{ bogus: 1 }, { filters: { nope: 1 } }, { sort: 'nope' }, { start: 'x' }, { page: 1, limit: 2 }]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
    }
  });

  it('still populates the role when asked', async () => {
    const response = await list({ filters: { username: 'carol' }, populate: 'role' });
    expect(response.body[0].role).toMatchObject({ type: 'authenticated' });
  });
});
