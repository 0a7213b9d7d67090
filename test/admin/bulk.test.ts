/**
 * The list view's bulk actions, /admin/api/content/:uid/actions/bulk-{delete,publish,unpublish}:
 * one transaction (all or none), a missing document is a 404 naming it, the events the single
 * actions record, CSRF and roles as for every admin write, and a bounded list. Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { renewLease } from '../../src/db/store/realtime';
import { startServer, type TestServer } from '../helpers/server';

const ARTICLE = `/admin/api/content/${encodeURIComponent('api::article.article')}`;
const AUTHOR = `/admin/api/content/${encodeURIComponent('api::author.author')}`;

describe('admin bulk actions', () => {
  let server: TestServer;
  let headers: Record<string, string>;
  const accounts = () => new AdminAccounts(server.instance.db);

  async function login(email: string) {
    const response = await fetch(`${server.url}/admin/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse' }),
    });
    const { data } = (await response.json()) as { data: { csrfToken: string } };
    return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, 'x-folio-csrf': data.csrfToken };
  }

  beforeAll(async () => {
    server = await startServer();
    await accounts().create({ email: 'root@example.com', password: 'correct horse' }, { first: true });
    headers = await login('root@example.com');
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  const call = (method: string, path: string, body?: unknown, as = headers) => server.call(method, path, { body, headers: as });
  const draft = async (title: string | null) =>
    (await call('POST', ARTICLE, { data: title === null ? { summary: 'no title' } : { title } })).body.data.documentId as string;
  const publicTitles = async () => ((await server.call('GET', '/api/articles?sort=title')).body.data as { title: string }[]).map((a) => a.title);
  const draftCount = async () => (await call('GET', ARTICLE)).body.meta.pagination.total as number;
  const outbox = async () => (await server.instance.db.all<{ event: string }>('SELECT "event" FROM folio_outbox ORDER BY "id"')).map((r) => r.event);

  test('bulk publish publishes every document in one go and records the events the single publish records', async () => {
    // The realtime lease makes every write record its events (as a subscribed webhook would).
    await renewLease(server.instance.db, Date.now() + 600_000);
    const ids = [await draft('Bulk A'), await draft('Bulk B'), await draft('Bulk C')];
    const before = (await outbox()).length;
    const done = await call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: ids });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ count: 3 });
    expect(await publicTitles()).toEqual(['Bulk A', 'Bulk B', 'Bulk C']);
    expect((await outbox()).slice(before)).toEqual(['entry.publish', 'entry.publish', 'entry.publish']);
    const badges = (await call('GET', ARTICLE)).body.meta.status as Record<string, string>;
    for (const id of ids) expect(badges[`${id}:en`]).toBe('published');

    const off = await call('POST', `${ARTICLE}/actions/bulk-unpublish`, { documentIds: ids.slice(0, 2), locale: 'en' });
    expect(off.status).toBe(200);
    expect(await publicTitles()).toEqual(['Bulk C']);
    expect((await outbox()).slice(-2)).toEqual(['entry.unpublish', 'entry.unpublish']);
    await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: ids });
  });

  test('a bulk publish with one draft that cannot be published publishes none of them, naming that draft', async () => {
    const good = [await draft('Good 1'), await draft('Good 2')];
    const bad = await draft(null);
    const refused = await call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: [...good, bad] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ data: null, error: { name: 'ValidationError', details: { documentId: bad } } });
    expect(refused.body.error.message).toContain(bad);
    expect(await publicTitles()).toEqual([]);
    await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: [...good, bad] });
  });

  test('a bulk action naming a document that does not exist is a 404 naming it, and deletes or publishes nothing', async () => {
    const ids = [await draft('Keep 1'), await draft('Keep 2')];
    const count = await draftCount();
    const gone = await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: [...ids, 'nosuchdocument0000000000'] });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
    expect(gone.body.error.message).toContain('nosuchdocument0000000000');
    expect(await draftCount()).toBe(count);
    const publish = await call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: [ids[0], 'nosuchdocument0000000000'] });
    expect(publish.status).toBe(404);
    expect(await publicTitles()).toEqual([]);
    // In a locale the documents do not have: nothing to delete there, so nothing is deleted anywhere.
    await server.call('POST', '/api/i18n/locales', { body: { code: 'fr', name: 'French' }, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect((await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: ids, locale: 'fr' })).status).toBe(404);
    const deleted = await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: ids });
    expect(deleted.body.data).toEqual({ count: 2 });
    expect(await draftCount()).toBe(count - 2);
  });

  test('bad bulk bodies are 400 envelopes and change nothing: not a list, empty, over 100, wrong locale, unknown action', async () => {
    const id = await draft('Stays');
    const count = await draftCount();
    const tooMany = Array.from({ length: 101 }, (_, i) => `doc${i}`);
    for (const body of [
      {},
      { documentIds: 'x' },
      { documentIds: [] },
      { documentIds: [1] },
      { documentIds: [id, 'a\u0000b'] },
      { documentIds: tooMany },
      { documentIds: [id], locale: 5 },
      { documentIds: [id], locale: 'not a locale' },
    ]) {
      const response = await call('POST', `${ARTICLE}/actions/bulk-delete`, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    }
    expect((await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: tooMany })).body.error.message).toContain('At most 100');
    expect((await call('POST', `${ARTICLE}/actions/bulk-archive`, { documentIds: [id] })).status).toBe(404);
    // Authors have no draft & publish: publishing them is refused, deleting them is not.
    const author = (await call('POST', AUTHOR, { data: { name: 'Bulk Author' } })).body.data.documentId;
    expect((await call('POST', `${AUTHOR}/actions/bulk-publish`, { documentIds: [author] })).status).toBe(400);
    expect((await call('POST', `${AUTHOR}/actions/bulk-delete`, { documentIds: [author] })).status).toBe(200);
    expect(await draftCount()).toBe(count);
  });

  test('two bulk actions over the same documents named in opposite orders both finish, one after the other', async () => {
    const ids = [await draft('Race 1'), await draft('Race 2'), await draft('Race 3')];
    const [a, b] = await Promise.all([
      call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: ids }),
      call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: [...ids].reverse() }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await publicTitles()).toEqual(['Race 1', 'Race 2', 'Race 3']);
    expect((await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: ids })).body.data).toEqual({ count: 3 });
    expect(await publicTitles()).toEqual([]);
  });

  test('bulk actions need the session CSRF token and a content role; an Editor may, without a session nobody may', async () => {
    const id = await draft('Guarded');
    const { cookie } = headers;
    expect((await call('POST', `${ARTICLE}/actions/bulk-delete`, { documentIds: [id] }, { cookie } as Record<string, string>)).status).toBe(403);
    expect((await server.call('POST', `${ARTICLE}/actions/bulk-delete`, { body: { documentIds: [id] } })).status).toBe(401);
    expect((await call('GET', `${ARTICLE}/${id}`)).status).toBe(200);
    await accounts().create({ email: 'editor@example.com', password: 'correct horse', role: 'editor' });
    const editor = await login('editor@example.com');
    expect((await call('POST', `${ARTICLE}/actions/bulk-publish`, { documentIds: [id] }, editor)).status).toBe(200);
    expect(await publicTitles()).toEqual(['Guarded']);
  });
});
