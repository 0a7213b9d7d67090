/**
 * Every request asks its settings caches (grants, roles, locales) whether a settings write
 * happened, so the settings version is read several times per request. Callers asking in
 * the same turn of the event loop share one read (PostgreSQL: one statement for a burst of
 * requests instead of one per cache per request; SQLite: one data_version pragma), and that
 * read is made after they asked: a grant committed by another instance is seen at once. The
 * answer serves the rest of the turn it arrived in (a request asking its caches one after the
 * other), unless this instance itself writes, or the request began after the read was sent
 * (db/read-horizon.ts).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { atRequestStart } from '../../src/db/read-horizon';
import { openInstance, type Instance } from '../../src/instance';
import { startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

let server: TestServer;
let other: Instance;

beforeAll(async () => {
  server = await startServer({ quiet: true });
  // Another instance on the same database (its own connections, its own caches).
  other = await openInstance(server.instance.config);
});

afterAll(async () => {
  other?.close();
  await server?.stop();
});

test('twenty callers asking for the settings version in one turn share one read and get one answer', async () => {
  const db = server.instance.db;
  await db.settingsVersion();
  const before = db.statementCount;
  const versions = await Promise.all(Array.from({ length: 20 }, () => db.settingsVersion()));
  expect(new Set(versions).size).toBe(1);
  // PostgreSQL: the one shared read; SQLite: none or one (data_version is kept for the turn).
  expect(db.statementCount - before).toBeLessThanOrEqual(1);
});

test('a settings write committed by another instance is seen by the next ask, even right after a shared read', async () => {
  const db = server.instance.db;
  const first = await db.settingsVersion();
  await other.roles.grant('authenticated', ['api::tag.tag.find']);
  // SQLite runs synchronously underneath: another connection's commit is seen from the next turn on (db/sqlite.ts).
  if (db.dialect.name === 'sqlite') await new Promise((resolve) => setImmediate(resolve));
  const [next, again] = await Promise.all([db.settingsVersion(), db.settingsVersion()]);
  // A random new version (migration 0005), so only "different" is certain.
  expect(next).not.toBe(first);
  expect(again).toBe(next);
  // And the server applies it to the next request: the new grant is in the role's actions.
  expect((await server.instance.roles.actions('authenticated')).has('api::tag.tag.find')).toBe(true);
});

test('a caller asking again in the turn the answer arrived in reuses it without a statement', async () => {
  const db = server.instance.db;
  const first = await db.settingsVersion();
  const before = db.statementCount;
  expect(await db.settingsVersion()).toBe(first);
  expect(await db.settingsVersion()).toBe(first);
  expect(db.statementCount - before).toBe(0);
});

test("this instance's own settings write is seen by the very next ask, in the same turn", async () => {
  const db = server.instance.db;
  const first = await db.settingsVersion();
  await server.instance.roles.grant('authenticated', ['api::tag.tag.findOne']);
  expect(await db.settingsVersion()).not.toBe(first);
});

test('a request that began after a shared read was sent reads again: a write acknowledged before the request is never hidden by it', async () => {
  const db = server.instance.db;
  const first = await db.changeMarker();
  // Outside any request, the rest of the turn shares the read…
  let before = db.statementCount;
  expect(await db.changeMarker()).toBe(first);
  expect(db.statementCount - before).toBe(0);
  // …but a request that began after it was sent reads once more (the read may have left before
  // another instance's commit that was acknowledged before the request was sent), then shares its own.
  before = db.statementCount;
  await atRequestStart(async () => {
    await db.changeMarker();
    await db.settingsVersion();
    await db.changeMarker();
  });
  expect(db.statementCount - before).toBe(1);
});
