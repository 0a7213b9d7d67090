/**
 * `GET /api/upload/files` with the query parameters Strapi's upload plugin reads
 * (transformParamsToQuery): top-level `start`/`limit` and `page`/`pageSize`, `sort`,
 * `filters`; the answer stays a bare array without pagination meta.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import qs from 'qs';
import { startServer, type TestServer } from '../helpers/server';
import { upload, UPLOAD_ACTIONS } from './helpers';

let server: TestServer;
let ids: number[];

beforeAll(async () => {
  server = await startServer();
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'].map((filename) => ({ bytes: filename, filename, type: 'text/plain' }));
  expect((await upload(server.url, { files })).status).toBe(201);
  ids = (await server.call('GET', '/api/upload/files?sort=id:asc')).body.map((f: any) => f.id);
  expect(ids).toHaveLength(5);
});
afterAll(() => server.stop());

const list = (query: Record<string, unknown>) => server.call('GET', `/api/upload/files?${qs.stringify(query)}`);

describe('GET /api/upload/files pagination and filters at the top level', () => {
  it('pages with start and limit, as a bare array', async () => {
    const page = await list({ start: 1, limit: 2, sort: 'id:asc' });
    expect(page.status).toBe(200);
    expect(Array.isArray(page.body)).toBe(true);
    expect(page.body.map((f: any) => f.id)).toEqual(ids.slice(1, 3));
    expect((await list({ limit: -1, sort: 'id:asc' })).body.map((f: any) => f.id)).toEqual(ids);
  });

  it('pages with page and pageSize, page 0 reading as page 1', async () => {
    expect((await list({ page: 2, pageSize: 2, sort: 'id:asc' })).body.map((f: any) => f.id)).toEqual(ids.slice(2, 4));
    expect((await list({ page: 0, pageSize: 2, sort: 'id:asc' })).body.map((f: any) => f.id)).toEqual(ids.slice(0, 2));
  });

  it('combines sort and filters with top-level pagination', async () => {
    const query = { filters: { name: { $in: ['b.txt', 'c.txt', 'd.txt'] } }, sort: ['name:desc'], start: 0, limit: 2 };
    expect((await list(query)).body.map((f: any) => f.name)).toEqual(['d.txt', 'c.txt']);
  });

  it('refuses page and offset pagination together, and pagination[...] beside a top-level form, with a 400 PaginationError', async () => {
    for (const query of [
      { page: 1, limit: 2 },
      { start: 0, pageSize: 2 },
      { pagination: { page: 1 }, limit: 2 },
    ]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'PaginationError' } });
    }
  });

  it('refuses pagination values that are not integers with a 400', async () => {
    for (const query of [{ start: 'x' }, { limit: '1.5' }, { page: -1 }, { pageSize: 'all' }]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body.data).toBeNull();
    }
  });
});
