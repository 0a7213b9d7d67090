/**
 * Two installations in one process share nothing: each reads and checks documents with
 * its own schema, even when both have a content type with the same uid.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, type TestServer } from '../helpers/server';

function schemaDir(attributes: Record<string, unknown>): string {
  const dir = tempDir('folio-schema-');
  mkdirSync(dir, { recursive: true });
  const schema = {
    kind: 'collectionType',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    options: { draftAndPublish: false },
    attributes,
  };
  writeFileSync(join(dir, 'page.json'), JSON.stringify(schema));
  return dir;
}

let short: TestServer;
let long: TestServer;

beforeAll(async () => {
  short = await startServer({ contentTypes: schemaDir({ title: { type: 'string', maxLength: 5 } }) });
  // Used first, so any cache keyed by uid alone would be filled with the short schema.
  expect((await short.call('POST', '/api/pages', { body: { data: { title: 'tiny' } } })).status).toBe(201);
  expect((await short.call('GET', '/api/pages?fields[0]=title')).status).toBe(200);
  long = await startServer({
    contentTypes: schemaDir({ title: { type: 'string', maxLength: 50 }, subtitle: { type: 'string' }, flag: { type: 'boolean' } }),
  });
});

afterAll(async () => {
  await short.stop();
  await long.stop();
});

test('each installation checks values against its own schema for the same uid', async () => {
  const title = 'a title longer than five';
  expect((await short.call('POST', '/api/pages', { body: { data: { title } } })).status).toBe(400);
  expect((await long.call('POST', '/api/pages', { body: { data: { title } } })).status).toBe(201);
});

test('each installation reads back the attributes its own schema has', async () => {
  const created = await long.call('POST', '/api/pages', { body: { data: { title: 'x', subtitle: 'sub', flag: true } } });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({ title: 'x', subtitle: 'sub', flag: true });
  const listed = await long.call('GET', '/api/pages?fields[0]=title');
  expect(listed.body.data.every((d: Record<string, unknown>) => !('subtitle' in d))).toBe(true);
  const full = await long.call('GET', `/api/pages/${created.body.data.documentId}`);
  expect(full.body.data).toMatchObject({ subtitle: 'sub', flag: true });
  const shortList = await short.call('GET', '/api/pages');
  expect(shortList.body.data.every((d: Record<string, unknown>) => !('subtitle' in d))).toBe(true);
});
