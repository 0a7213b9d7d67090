/**
 * A TypeScript project runs from its sources: config/*.ts with `export default`, src/index.ts
 * with `import type { Core }` and a project-relative import, a document middleware registered
 * in register (strapi.documents.use) that REST writes and project writes pass through, a core
 * router with `only`, and a custom route.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('blog-ts') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

test('config/*.ts sets the REST limits and the bootstrap write passed the document middleware of register', async () => {
  const list = await server.call('GET', '/api/categories');
  expect(list.status).toBe(200);
  expect(list.body.meta.pagination).toEqual({ page: 1, pageSize: 10, pageCount: 1, total: 1 });
  expect(list.body.data.map((c: { name: string; slug: string }) => [c.name, c.slug])).toEqual([['Type Script', 'type-script']]);
  expect((await server.call('GET', '/api/categories?pagination[pageSize]=100')).body.meta.pagination.pageSize).toBe(40);
});

test('a REST read goes through the document middleware path and a router with only: find, findOne serves nothing else', async () => {
  const [first] = (await server.call('GET', '/api/categories')).body.data;
  expect((await server.call('GET', `/api/categories/${first.documentId}`)).body.data.name).toBe('Type Script');
  expect((await server.call('POST', '/api/categories', { body: { data: { name: 'x' } } })).status).toBe(404);
  expect((await server.call('DELETE', `/api/categories/${first.documentId}`)).status).toBe(404);
});

test('a custom route of a .ts routes file answers through its .ts controller', async () => {
  const count = await server.call('GET', '/api/categories-count');
  expect(count.status).toBe(200);
  expect(count.body).toEqual({ total: 1 });
});
