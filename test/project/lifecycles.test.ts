/**
 * A project's lifecycles.js (test/fixtures/projects/lifecycles-js) fires as on Strapi 5.54.0:
 * the same REST requests were sent to a copy of the Strapi peer running the same src/, and the
 * events below are what it recorded (Strapi also fires FindOne/FindMany events for its own
 * look-ups inside a write; Folio fires read events for reads a caller asked for, so write steps
 * are compared without them). A write from inside a handler joins the request's write: it
 * commits with it, and a later throw (an ApplicationError: a 400) undoes both. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('lifecycles-js') });
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

/** The events recorded since the last look, and how many category rows exist. */
async function recorded(withReads = false): Promise<{ events: string[]; categories: number }> {
  const { body } = await server.call('GET', '/api/lifecycle-log');
  return { ...body, events: withReads ? body.events : body.events.filter((e: string) => !/Find|Count/.test(e)) };
}

describe('a lifecycles.js file, as Strapi fires it', () => {
  let documentId: string;
  test('a REST create that publishes: Create for the draft, then for the published row', async () => {
    await recorded();
    const created = await server.call('POST', '/api/tags', { body: { data: { name: 'life one' } } });
    expect(created.status).toBe(201);
    documentId = created.body.data.documentId;
    expect((await recorded()).events).toEqual(['beforeCreate draft', 'afterCreate draft', 'beforeCreate published', 'afterCreate published']);
  });

  test('a REST update that publishes: Update for the draft, Delete for the old published row, Create for the new one', async () => {
    await server.call('PUT', `/api/tags/${documentId}`, { body: { data: { name: 'life two' } } });
    expect((await recorded()).events).toEqual([
      'beforeUpdate draft',
      'afterUpdate draft',
      'beforeDelete -',
      'afterDelete published',
      'beforeCreate published',
      'afterCreate published',
    ]);
    await server.call('PUT', `/api/tags/${documentId}?status=draft`, { body: { data: { name: 'life three' } } });
    expect((await recorded()).events).toEqual(['beforeUpdate draft', 'afterUpdate draft']);
  });

  test('REST reads: FindMany then Count for a list, FindOne for one document', async () => {
    await server.call('GET', '/api/tags?filters[name][$startsWith]=life');
    expect((await recorded(true)).events).toEqual(['beforeFindMany -', 'afterFindMany -', 'beforeCount -', 'afterCount -']);
    await server.call('GET', `/api/tags/${documentId}`);
    expect((await recorded(true)).events).toEqual(['beforeFindOne -', 'afterFindOne published']);
  });

  test('a REST delete: every before, then every after', async () => {
    expect((await server.call('DELETE', `/api/tags/${documentId}`)).status).toBe(204);
    expect((await recorded()).events).toEqual(['beforeDelete -', 'beforeDelete -', 'afterDelete draft', 'afterDelete published']);
  });

  test('a write inside afterCreate commits with the create; a later throw answers its error and undoes both', async () => {
    const before = (await recorded()).categories;
    expect((await server.call('POST', '/api/tags', { body: { data: { name: 'nested ok' } } })).status).toBe(201);
    const after = await recorded();
    expect(after.events).toEqual(['beforeCreate draft', 'afterCreate draft', 'beforeCreate published', 'afterCreate published']);
    expect(after.categories).toBe(before + 1);
    const refused = await server.call('POST', '/api/tags', { body: { data: { name: 'nested refused' } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Tags are closed', details: {} } });
    const undone = await recorded();
    expect(undone.events).toEqual(['beforeCreate draft', 'afterCreate draft', 'beforeCreate published']);
    expect(undone.categories).toBe(before + 1);
    expect((await server.call('GET', '/api/tags?filters[name]=nested%20refused&status=draft')).body.data).toEqual([]);
  });
});
