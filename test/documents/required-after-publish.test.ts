/**
 * An attribute that becomes required after documents were published (docs/configuration.md "Schema
 * changes"): on a type with draft & publish, a publishing update that does not send it must
 * not start failing for documents whose published version lacks it too, while a draft that
 * was never published, or that lost a value its published version has, is still checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDir, type TestServer } from '../helpers/server';

const types = join(tempDir('folio-required-ct-'), 'content-types');
const data = tempDir('folio-required-data-');
mkdirSync(types, { recursive: true });
const writeNote = (attributes: Record<string, unknown>) =>
  writeFileSync(
    join(types, 'note.json'),
    JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: true },
      attributes,
    }),
  );

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  writeNote({ title: { type: 'string', required: true }, body: { type: 'text' } });
  server = await startServer({ contentTypes: types, dataDir: data });
  const create = async (query: string, body: object) =>
    (await server.call('POST', `/api/notes${query}`, { body: { data: body } })).body.data.documentId as string;
  ids.published = await create('', { title: 'published before the change' });
  ids.draftOnly = await create('?status=draft', { title: 'never published' });
  ids.emptied = await create('', { title: 'will lose its title in a draft' });
  expect((await server.call('PUT', `/api/notes/${ids.emptied}?status=draft`, { body: { data: { title: null } } })).status).toBe(200);
  await server.stop({ keepData: true });
  writeNote({ title: { type: 'string', required: true }, body: { type: 'text' }, subtitle: { type: 'string', required: true } });
  server = await startServer({ contentTypes: types, dataDir: data });
});
afterAll(() => server.stop());

describe('a required attribute added after publishing', () => {
  it('lets a published document be updated and republished without it', async () => {
    const res = await server.call('PUT', `/api/notes/${ids.published}`, { body: { data: { body: 'edited' } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ body: 'edited', subtitle: null });
  });

  it('still checks a draft that was never published', async () => {
    const res = await server.call('PUT', `/api/notes/${ids.draftOnly}`, { body: { data: { body: 'edited' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors.map((e: any) => e.path.join('.'))).toEqual(['subtitle']);
  });

  it('still refuses to publish a draft that lost a value its published version has', async () => {
    const res = await server.call('PUT', `/api/notes/${ids.emptied}`, { body: { data: { subtitle: 'given' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors.map((e: any) => e.path.join('.'))).toContain('title');
  });
});
