/**
 * What a caller may read follows its role as it is now, on the very next request: a user moved
 * to a role that may not read authors stops getting `author` in populate on the same URL she
 * used before (the read plan is not kept per user across a role change), and a role that loses
 * its grant stops serving it as well. Both engines; the answer cache on and off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { seedExampleData } from '../query/example-data';

const ARTICLE = ['api::article.article.find', 'api::article.article.findOne'];
const AUTHOR = ['api::author.author.find', 'api::author.author.findOne'];
const URL = '/api/articles?populate=author&sort=title&fields[0]=title';

describe.each([
  ['with the answer cache', {}],
  ['without the answer cache', { answerCacheBytes: 0 }],
] as const)('a role change %s', (_name, config) => {
  let server: TestServer;
  let jwt: string;
  let userId: number;
  let readersId: number;
  let writersId: number;

  beforeAll(async () => {
    server = await startServer({ publicAccess: false, config });
    await seedExampleData(server);
    const { roles, users } = server.instance;
    const readers = await roles.create('Readers');
    const writers = await roles.create('Writers');
    await roles.grant(readers.type, [...ARTICLE, ...AUTHOR]);
    await roles.grant(writers.type, ARTICLE);
    readersId = readers.id;
    writersId = writers.id;
    userId = (await users.create({ username: 'ann', email: 'ann@example.com', password: 'Secret123!', role: readers.id } as never)).id;
    const login = await server.call('POST', '/api/auth/local', { body: { identifier: 'ann', password: 'Secret123!' } });
    expect(login.status).toBe(200);
    jwt = login.body.jwt;
  });
  afterAll(() => server.stop());

  const asAnn = () => server.call('GET', URL, { headers: { authorization: `Bearer ${jwt}` } });
  const admin = () => ({ authorization: `Bearer ${server.tokens.fullAccess}` });

  it('stops serving a populated relation on the same URL once the user is moved to a role that may not read it', async () => {
    const before = await asAnn();
    expect(before.status).toBe(200);
    expect(before.body.data.some((a: { author?: unknown }) => a.author)).toBe(true);
    // Asked twice, so whatever a cache keeps, it has kept.
    expect((await asAnn()).body).toEqual(before.body);

    const moved = await server.call('PUT', `/api/users/${userId}`, { body: { role: writersId }, headers: admin() });
    expect(moved.status).toBe(200);
    expect((await server.call('GET', '/api/authors', { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(403);

    const after = await asAnn();
    expect(after.status).toBe(200);
    expect(after.body.data.length).toBe(before.body.data.length);
    for (const article of after.body.data) expect(article).not.toHaveProperty('author');
  });

  it('serves it again on the same URL once she is moved back', async () => {
    expect((await server.call('PUT', `/api/users/${userId}`, { body: { role: readersId }, headers: admin() })).status).toBe(200);
    const back = await asAnn();
    expect(back.body.data.some((a: { author?: unknown }) => a.author)).toBe(true);
  });

  it('stops serving it on the same URL once her role loses the grant', async () => {
    await server.instance.roles.revoke((await server.instance.roles.findById(readersId))!.type, AUTHOR);
    const revoked = await asAnn();
    expect(revoked.status).toBe(200);
    for (const article of revoked.body.data) expect(article).not.toHaveProperty('author');
  });
});
