/**
 * Strapi's own types (upload files, users, roles, admin users) are written only through their
 * own services, never through the generic content routes: an editor cannot create a file row
 * with a `javascript:` URL or point a real file's URL elsewhere through the content manager,
 * and the document service itself refuses such writes from any caller.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../helpers/server';
import { AdminAccounts } from '../../src/admin/accounts';
import { FILE_UID } from '../../src/registry/file-model';
import { ADMIN_USER_UID, ROLE_UID, USER_UID } from '../../src/registry/system-models';

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

describe('system types and the content manager', () => {
  let server: TestServer;
  let headers: Record<string, string>;
  let file: { id: number; documentId: string; url: string };

  beforeAll(async () => {
    server = await startServer();
    await new AdminAccounts(server.instance.db).create({ email: 'editor@example.com', password: 'correct horse', role: 'editor' } as never, {});
    const response = await fetch(`${server.url}/admin/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'editor@example.com', password: 'correct horse' }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { csrfToken: string } };
    headers = { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken, origin: server.url };
    const form = new FormData();
    form.append('files', new File([PNG], 'dot.png', { type: 'image/png' }));
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect(uploaded.status).toBe(201);
    file = ((await uploaded.json()) as (typeof file)[])[0]!;
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  const path = (uid: string, rest = '') => `/admin/api/content/${encodeURIComponent(uid)}${rest}`;

  test('an editor cannot create, change or delete files, users, roles or admin users through the content routes', async () => {
    for (const uid of [FILE_UID, USER_UID, ROLE_UID, ADMIN_USER_UID]) {
      const created = await server.call('POST', path(uid), {
        body: { data: { url: 'javascript:alert(1)', mime: 'text/html', name: 'x', username: 'x', email: 'x@example.com' } },
        headers,
      });
      expect({ uid, status: created.status }).toEqual({ uid, status: 404 });
      expect(created.body.error.name).toBe('NotFoundError');
      expect((await server.call('GET', path(uid), { headers })).status).toBe(404);
    }
    const changed = await server.call('PUT', path(FILE_UID, `/${file.documentId}`), { body: { data: { url: 'https://evil.example/x.js' } }, headers });
    expect(changed.status).toBe(404);
    expect((await server.call('DELETE', path(FILE_UID, `/${file.documentId}`), { headers })).status).toBe(404);
    expect((await server.call('POST', path(FILE_UID, '/actions/bulk-delete'), { body: { documentIds: [file.documentId] }, headers })).status).toBe(404);
    const files = (await server.call('GET', '/api/upload/files', { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } })).body as {
      url: string;
    }[];
    expect(files.map((f) => f.url)).toEqual([file.url]);
  });

  test('the schema the content manager lists holds no system type', async () => {
    const schema = await server.call('GET', '/admin/api/schema', { headers });
    const uids = schema.body.data.contentTypes.map((ct: { uid: string }) => ct.uid);
    for (const uid of [FILE_UID, USER_UID, ROLE_UID, ADMIN_USER_UID]) expect(uids).not.toContain(uid);
  });

  test('the document service refuses to write a system type, whoever calls it', async () => {
    const { documents, registry } = server.instance;
    for (const uid of [FILE_UID, USER_UID, ROLE_UID]) {
      const ct = registry.contentType(uid)!;
      await expect(documents.create(ct, { url: 'javascript:alert(1)', name: 'x' })).rejects.toThrow(/written through its own service/);
      await expect(documents.update(ct, file.documentId, { url: 'https://evil.example/x.js' })).rejects.toThrow(/written through its own service/);
      await expect(documents.delete(ct, file.documentId)).rejects.toThrow(/written through its own service/);
    }
    const files = (await server.call('GET', '/api/upload/files', { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } })).body as {
      url: string;
    }[];
    expect(files.map((f) => f.url)).toEqual([file.url]);
  });
});
