/**
 * Strapi 4's entity service and `strapi.query(uid)`, which Strapi 5 keeps and code moved from
 * Strapi 4 calls (test/fixtures/projects/entity-service-js: a controller making each call on
 * tags, a draft & publish type; another on the users type, as an `updateMe` would). The requests below were sent to Strapi 5.54.0 running the same
 * src/ and its answers recorded, masked (ids, documentIds, publication times), in
 * test/fixtures/projects/entity-service-answers.json; Folio must answer each the same. Both engines.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import answers from '../fixtures/projects/entity-service-answers.json';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('entity-service-js') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

/** An anonymous request (the routes are auth: false), its status and parsed body ('' when empty). */
async function call(method: string, path: string, body?: unknown): Promise<[number, any]> {
  const res = await fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  try {
    return [res.status, JSON.parse(text)];
  } catch {
    return [res.status, text];
  }
}

const mask = (value: unknown) =>
  JSON.parse(
    JSON.stringify(value, (key, v) => (key === 'documentId' ? 'DOC' : key === 'id' ? 'ID' : key === 'publishedAt' && typeof v === 'string' ? 'TIME' : v)),
  );

test("each entity service call answers as on Strapi 5.54.0: create (published unless publishedAt is null), findMany, findOne by row id, update keeping the row's status, findPage, count beside strapi.query, delete, a single type", async () => {
  const ours: [string, number, unknown][] = [];
  const log = (label: string, [status, body]: [number, unknown]) => ours.push([label, status, mask(body)]);
  const published = await call('POST', '/api/es/tags', { data: { name: 'es-b' } });
  log('create published', published);
  const draft = await call('POST', '/api/es/tags', { data: { name: 'es-a', publishedAt: null } });
  log('create draft', draft);
  const third = await call('POST', '/api/es/tags', { data: { name: 'es-c' } });
  log('create c', third);
  log('list', await call('GET', '/api/es/tags'));
  log('list published', await call('GET', '/api/es/tags?status=published'));
  log('one', await call('GET', `/api/es/tags/${published[1].id}`));
  log('one missing', await call('GET', '/api/es/tags/999999'));
  log('update draft row', await call('PUT', `/api/es/tags/${draft[1].id}`, { data: { name: 'es-a2' } }));
  log('update published row', await call('PUT', `/api/es/tags/${published[1].id}`, { data: { name: 'es-b2' } }));
  log('list after', await call('GET', '/api/es/tags'));
  log('page', await call('GET', '/api/es/page'));
  log('count', await call('GET', '/api/es/count'));
  log('delete', await call('DELETE', `/api/es/tags/${third[1].id}`));
  log('delete missing', await call('DELETE', '/api/es/tags/999999'));
  log('count after', await call('GET', '/api/es/count'));
  log('global', await call('GET', '/api/es/global'));
  const recorded = answers.entityService;
  for (let i = 0; i < recorded.length; i++) expect(ours[i]).toEqual(recorded[i] as never);
  expect(ours).toHaveLength(recorded.length);
});

test("the users type through strapi.db.query, strapi.query, the entity service and strapi.documents answers as on Strapi 5.54.0: the role populated, select, updates, the count, delete (through Folio's user service)", async () => {
  const [status, body] = await call('GET', '/api/ux');
  expect(status).toBe(200);
  expect(body).toEqual(answers.users);
  // The password stays hashed and out of every answer.
  expect(JSON.stringify(body)).not.toContain('Passw0rd');
});
