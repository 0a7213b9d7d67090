/**
 * GraphQL mutations with Strapi's semantics (create, update, delete; relation inputs as lists
 * of documentIds that replace the relation; single types), and the users-permissions
 * mutations and `me`, through a real client library (graphql-request) as front ends use it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { GraphQLClient, ClientError } from 'graphql-request';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;
let client: GraphQLClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  client = new GraphQLClient(`${server.url}/graphql`);
  for (const name of ['alpha', 'beta', 'gamma']) ids[name] = (await seedCreate(server, '/api/tags', { name })).documentId;
  ids.ada = (await seedCreate(server, '/api/authors', { name: 'Ada' })).documentId;
  await server.instance.roles.grant('public', ['plugin::users-permissions.auth.callback', 'plugin::users-permissions.auth.register']);
});
afterAll(() => server.stop());

describe('GraphQL content mutations', () => {
  it('creates a document with relations, components and a zone, and answers it with the selection', async () => {
    const data: any = await client.request(
      `mutation($data: ArticleInput!) {
      createArticle(data: $data) { documentId title kind publishedAt author { name } tags { name } seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { title } } }
    }`,
      {
        data: {
          title: 'Created',
          kind: 'opinion',
          author: ids.ada,
          tags: [ids.gamma, ids.alpha],
          seo: { metaTitle: 'S' },
          blocks: [{ __typename: 'ComponentSharedQuote', title: 'Q' }],
        },
      },
    );
    const created = data.createArticle;
    expect(created).toMatchObject({
      title: 'Created',
      kind: 'opinion',
      author: { name: 'Ada' },
      tags: [{ name: 'gamma' }, { name: 'alpha' }],
      seo: { metaTitle: 'S' },
      blocks: [{ __typename: 'ComponentSharedQuote', title: 'Q' }],
    });
    expect(created.publishedAt).not.toBeNull();
    ids.created = created.documentId;
    const rest = await server.call('GET', `/api/articles/${ids.created}?populate=tags`);
    expect(rest.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['gamma', 'alpha']);
  });

  it('creates only a draft with status: DRAFT', async () => {
    const data: any = await client.request('mutation { createArticle(status: DRAFT, data: { title: "Draft" }) { documentId publishedAt } }');
    expect(data.createArticle.publishedAt).toBeNull();
    expect((await server.call('GET', `/api/articles/${data.createArticle.documentId}`)).status).toBe(404);
  });

  it('updates: a relation list replaces the relation, [] clears it; an unknown documentId answers null', async () => {
    const data: any = await client.request(
      `mutation($id: ID!) { updateArticle(documentId: $id, data: { title: "Updated", tags: ["${ids.beta}"] }) { title tags { name } } }`,
      { id: ids.created },
    );
    expect(data.updateArticle).toEqual({ title: 'Updated', tags: [{ name: 'beta' }] });
    const cleared: any = await client.request(
      `mutation($id: ID!) { updateArticle(documentId: $id, data: { tags: [], author: null }) { tags { name } author { name } } }`,
      { id: ids.created },
    );
    expect(cleared.updateArticle).toEqual({ tags: [], author: null });
    const missing: any = await client.request('mutation { updateArticle(documentId: "nope", data: { title: "x" }) { title } }');
    expect(missing).toEqual({ updateArticle: null });
  });

  it('refuses connect/disconnect objects in a relation input as a 400 validation error', async () => {
    const { status, body } = await gql(
      server,
      `mutation { updateArticle(documentId: "${ids.created}", data: { tags: { connect: ["${ids.alpha}"] } }) { title } }`,
    );
    expect(status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors[0].message).toContain('ID cannot represent a non-string and non-integer value');
  });

  it('reports an invalid input as BAD_USER_INPUT with every failing attribute, as REST does', async () => {
    const { status, body } = await gql(server, 'mutation { createArticle(data: { views: -1 }) { title } }');
    expect(status).toBe(200);
    expect(body.data).toEqual({ createArticle: null });
    expect(body.errors[0].message).toBe('2 errors occurred');
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0].extensions.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([['title'], ['views']]);
  });

  it('takes zone items named by __typename and refuses one naming no component with a 400', async () => {
    const { status, body } = await gql(
      server,
      'mutation { createArticle(data: { title: "Z", blocks: [{ __component: "shared.quote", title: "Q" }] }) { title } }',
    );
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain('Component not found. expected one of: ComponentSharedQuote, ComponentSharedRichText, ComponentSharedMedia');
    expect(body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await server.call('GET', '/api/articles?filters[title]=Z')).body.data).toEqual([]);
  });

  it('deletes, echoing the documentId even when it names nothing', async () => {
    const data: any = await client.request(
      `mutation { a: deleteArticle(documentId: "${ids.created}") { documentId } b: deleteArticle(documentId: "nope") { documentId } }`,
    );
    expect(data).toEqual({ a: { documentId: ids.created }, b: { documentId: 'nope' } });
    expect((await server.call('GET', `/api/articles/${ids.created}`)).status).toBe(404);
  });

  it('updates (creating) and deletes a single type', async () => {
    const data: any = await client.request('mutation { updateGlobal(data: { siteName: "Site" }) { siteName } }');
    expect(data.updateGlobal).toEqual({ siteName: 'Site' });
    expect((await server.call('GET', '/api/global')).body.data.siteName).toBe('Site');
    await client.request('mutation { deleteGlobal { documentId } }');
    expect((await server.call('GET', '/api/global')).status).toBe(404);
  });

  it("updates and deletes a file with the upload plugin's mutations, under its actions", async () => {
    const now = new Date().toISOString();
    const id = await server.instance.db.insert(
      'INSERT INTO files ("documentId", "name", "hash", "ext", "mime", "size", "url", "provider", "createdAt", "updatedAt", "publishedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ['gqlmutationfile000000001', 'pic.png', 'pic_hash', '.png', 'image/png', 1.5, '/uploads/pic_hash.png', 'local', now, now, now],
    );
    const update = `mutation($id: ID!) { updateUploadFile(id: $id, info: { alternativeText: "alt", caption: null }) { name alternativeText caption } }`;
    const refused = await gql(server, update, { id: String(id) });
    expect(refused.body).toMatchObject({ data: null, errors: [{ path: ['updateUploadFile'], extensions: { code: 'FORBIDDEN' } }] });
    await server.instance.roles.grant('public', ['plugin::upload.content-api.upload', 'plugin::upload.content-api.destroy']);
    expect((await gql(server, update, { id: String(id) })).body).toEqual({
      data: { updateUploadFile: { name: 'pic.png', alternativeText: 'alt', caption: null } },
    });
    const missing = await gql(server, update, { id: '999999' });
    expect(missing.body.errors[0]).toMatchObject({
      message: 'Entity not found',
      extensions: { code: 'STRAPI_NOT_FOUND_ERROR', error: { name: 'NotFoundError' } },
    });
    const deleted = await gql(server, 'mutation($id: ID!) { deleteUploadFile(id: $id) { name alternativeText } again: deleteUploadFile(id: $id) { name } }', {
      id: String(id),
    });
    expect(deleted.body).toEqual({ data: { deleteUploadFile: { name: 'pic.png', alternativeText: 'alt' }, again: null } });
    expect((await server.call('GET', `/api/upload/files/${id}`, { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } })).status).toBe(404);
  });

  it('refuses a mutation the caller may not run with FORBIDDEN, writing nothing', async () => {
    const readOnly = new GraphQLClient(`${server.url}/graphql`, { headers: { authorization: `Bearer ${server.tokens.readOnly}` } });
    const error = await readOnly.request('mutation { createTag(data: { name: "no" }) { name } }').catch((e) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await server.call('GET', '/api/tags?filters[name]=no')).body.data).toEqual([]);
  });
});

describe('GraphQL users-permissions', () => {
  it('registers, logs in, answers me with the role, and changes the password', async () => {
    const registered: any = await client.request(
      'mutation { register(input: { username: "gql", email: "gql@example.com", password: "secret123" }) { jwt user { username email role { name } } } }',
    );
    expect(registered.register.user).toEqual({ username: 'gql', email: 'gql@example.com', role: null });
    const login: any = await client.request('mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { id documentId username } } }', {
      input: { identifier: 'gql@example.com', password: 'secret123' },
    });
    expect(login.login.jwt).toEqual(expect.any(String));
    const user = new GraphQLClient(`${server.url}/graphql`, { headers: { authorization: `Bearer ${login.login.jwt}` } });
    const me: any = await user.request('{ me { username email confirmed blocked role { name type } } }');
    expect(me.me).toEqual({
      username: 'gql',
      email: 'gql@example.com',
      confirmed: expect.any(Boolean),
      blocked: false,
      role: { name: 'Authenticated', type: 'authenticated' },
    });
    const changed: any = await user.request(
      'mutation { changePassword(currentPassword: "secret123", password: "secret456", passwordConfirmation: "secret456") { jwt } }',
    );
    expect(changed.changePassword.jwt).toEqual(expect.any(String));
    const old = await gql(server, '{ me { username } }', undefined, { authorization: `Bearer ${login.login.jwt}` });
    expect(old.status).toBe(401);
  });

  it('answers a wrong password as BAD_USER_INPUT and me without a user as FORBIDDEN', async () => {
    const { body } = await gql(server, 'mutation { login(input: { identifier: "gql", password: "wrong" }) { jwt } }');
    expect(body.errors[0]).toMatchObject({ message: 'Invalid identifier or password', extensions: { code: 'BAD_USER_INPUT' } });
    const me = await gql(server, '{ me { username } }');
    expect(me.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
