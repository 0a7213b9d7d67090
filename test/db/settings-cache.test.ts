/**
 * Grants and the default locale are cached until a settings write (migration 0005's version,
 * kept by triggers), not until any commit: content writes leave the cache alone, while a
 * grant or a locale written by another process or another Database object applies to the
 * very next request, on both engines.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { openInstance, type Instance } from '../../src/instance';
import { runCli } from '../helpers/spawn';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.stop();
});

/** The CLI against the server's own installation (its data dir, and its database on PostgreSQL). */
function cli(args: string[]) {
  const { dataDir, databaseUrl } = server.instance.config;
  const run = runCli(args, { data: dataDir, ...(databaseUrl ? { database: databaseUrl } : {}) });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
}

/** A second installation object on the same database, as another instance would hold. */
async function otherInstance(): Promise<Instance> {
  return openInstance(server.instance.config);
}

test('content writes leave the cached grants in place: the request after a create reuses them instead of reading them again', async () => {
  const before = await server.instance.roles.actions('public');
  expect(before.has('api::article.article.create')).toBe(true);
  const created = await server.call('POST', '/api/articles', { body: { data: { title: 'Cached grants' } } });
  expect(created.status).toBe(201);
  await server.call('PUT', `/api/articles/${created.body.data.documentId}`, { body: { data: { summary: 'edited' } } });
  // The very same set: not re-read after the two content commits.
  expect(await server.instance.roles.actions('public')).toBe(before);
});

test('a grant revoked through the CLI while the server runs applies to the next request, right after content writes', async () => {
  expect((await server.call('GET', '/api/tags')).status).toBe(200);
  expect((await server.call('POST', '/api/tags', { body: { data: { name: 'before-revoke' } } })).status).toBe(201);
  expect((await server.call('GET', '/api/tags')).status).toBe(200);
  cli(['permissions', 'revoke', 'public', 'api::tag.tag.find']);
  const refused = await server.call('GET', '/api/tags');
  expect(refused.status).toBe(403);
  expect(refused.body.data).toBeNull();
  cli(['permissions', 'grant', 'public', 'api::tag.tag.find']);
  expect((await server.call('GET', '/api/tags')).status).toBe(200);
});

test('a default locale changed through another Database object applies to the next write that names no locale', async () => {
  const first = await server.call('POST', '/api/articles', { body: { data: { title: 'In the default locale' } } });
  expect(first.body.data.locale).toBe('en');
  const other = await otherInstance();
  try {
    await other.locales.setDefault('fr');
    const second = await server.call('POST', '/api/articles', { body: { data: { title: 'Now in French' } } });
    expect(second.status).toBe(201);
    expect(second.body.data.locale).toBe('fr');
    await other.locales.setDefault('en');
    const third = await server.call('POST', '/api/articles', { body: { data: { title: 'Back in English' } } });
    expect(third.body.data.locale).toBe('en');
  } finally {
    other.close();
  }
});
