/**
 * Content history (src/history/): every document write records the document's content after
 * the write, its status, the actor (threaded through every caller: REST as a user, a token
 * or the public role, GraphQL, the admin, the CLI, project code) and the attributes that
 * changed; `folio history list|restore` and /admin/api/history read and restore them. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { ALL_TYPES_CONTENT_TYPES, startServer, type TestServer } from '../helpers/server';
import { killSpawned, spawnCli } from '../helpers/spawn';
import { makeImage } from '../upload/helpers';

const ARTICLES = '/api/articles';

/** `folio …` in a child process on the server's own installation. */
async function folio(server: TestServer, args: string[]) {
  const config = server.instance.config;
  return spawnCli(args, { data: server.dataDir, contentTypes: config.contentTypesDir, database: config.databaseUrl });
}

/** Logs an admin in; the headers a write sends. */
async function adminHeaders(server: TestServer, email: string) {
  await new AdminAccounts(server.instance.db).create({ email, password: 'correct horse', role: 'editor' });
  const response = await fetch(`${server.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse' }),
  });
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const { data } = (await response.json()) as { data: { csrfToken: string } };
  return { cookie, 'x-folio-csrf': data.csrfToken, origin: server.url };
}

const versionsOf = async (server: TestServer, uid: string, documentId: string, locale?: string) =>
  server.instance.history.list(server.instance.registry.contentType(uid)!, documentId, { locale });

afterEach(killSpawned);

describe('who wrote it: the actor of every caller', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.instance.roles.grant('authenticated', ['api::article.article.create', 'api::article.article.update', 'api::article.article.publish']);
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  it('records a REST write by a user under their username, by an API token under its name, by the public role as public', async () => {
    const registered = await server.call('POST', '/api/auth/local/register', {
      body: { username: 'writer-ann', email: 'ann@example.com', password: 'secret password' },
    });
    expect(registered.status).toBe(200);
    const byUser = await server.call('POST', ARTICLES, { body: { data: { title: 'By a user' } }, headers: { authorization: `Bearer ${registered.body.jwt}` } });
    expect(byUser.status).toBe(201);
    const byToken = await server.call('POST', ARTICLES, {
      body: { data: { title: 'By a token' } },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    const byPublic = await server.call('POST', ARTICLES, { body: { data: { title: 'By the public' } } });

    const [user] = await versionsOf(server, 'api::article.article', byUser.body.data.documentId);
    expect(user!.actor).toEqual({ kind: 'user', name: 'writer-ann' });
    expect((await versionsOf(server, 'api::article.article', byToken.body.data.documentId))[0]!.actor).toEqual({ kind: 'token', name: 'test-full' });
    expect((await versionsOf(server, 'api::article.article', byPublic.body.data.documentId))[0]!.actor).toEqual({ kind: 'public', name: null });
  });

  it('records a publish action and a GraphQL mutation under the caller too', async () => {
    const created = await server.call('POST', `${ARTICLES}?status=draft`, { body: { data: { title: 'Draft first' } } });
    const id = created.body.data.documentId;
    const published = await server.call('POST', `${ARTICLES}/${id}/actions/publish`, { headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    expect(published.status).toBe(200);
    const versions = await versionsOf(server, 'api::article.article', id);
    expect(versions.map((v) => [v.event, v.status, v.actor.kind])).toEqual([
      ['entry.publish', 'published', 'token'],
      ['entry.create', 'draft', 'public'],
    ]);

    const mutation = await server.call('POST', '/graphql', {
      body: { query: 'mutation { createArticle(data: { title: "By GraphQL" }) { documentId } }' },
      headers: { authorization: `Bearer ${server.tokens.fullAccess}` },
    });
    expect(mutation.body.errors).toBeUndefined();
    expect((await versionsOf(server, 'api::article.article', mutation.body.data.createArticle.documentId))[0]!.actor).toEqual({
      kind: 'token',
      name: 'test-full',
    });
  });

  it('records an admin write under the admin email, a CLI import as cli, a write from code as system', async () => {
    const headers = await adminHeaders(server, 'editor@example.com');
    const created = await server.call('POST', `/admin/api/content/${encodeURIComponent('api::article.article')}`, {
      body: { data: { title: 'By the admin' } },
      headers,
    });
    expect(created.status).toBe(201);
    expect((await versionsOf(server, 'api::article.article', created.body.data.documentId))[0]!.actor).toEqual({ kind: 'admin', name: 'editor@example.com' });

    const file = `${server.dataDir}/import.jsonl`;
    await Bun.write(file, `${JSON.stringify({ title: 'Imported one' })}\n${JSON.stringify({ title: 'Imported two' })}\n`);
    const run = await folio(server, ['import', file, '--type', 'api::article.article']);
    expect(run.code).toBe(0);
    const ct = server.instance.registry.contentType('api::article.article')!;
    const imported = await server.call('GET', `${ARTICLES}?filters[title][$startsWith]=Imported&fields[0]=title`);
    expect(imported.body.data).toHaveLength(2);
    for (const doc of imported.body.data) expect((await server.instance.history.list(ct, doc.documentId))[0]!.actor).toEqual({ kind: 'cli', name: null });

    const written = await server.instance.documents.create(ct, { title: 'From code' });
    expect((await versionsOf(server, ct.uid, written.documentId))[0]!.actor).toEqual({ kind: 'system', name: null });
  }, 30_000);
});

describe('what a version holds', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  it('keeps the content after each write with its status and the attributes that changed, per locale', async () => {
    const created = await server.call('POST', `${ARTICLES}?status=draft`, { body: { data: { title: 'First', summary: 'One' } } });
    const id = created.body.data.documentId;
    await server.call('PUT', `${ARTICLES}/${id}?status=draft`, { body: { data: { summary: 'Two' } } });
    const token = { authorization: `Bearer ${server.tokens.fullAccess}` };
    expect((await server.call('POST', `${ARTICLES}/${id}/actions/publish`, { headers: token })).status).toBe(200);
    await server.call('PUT', `${ARTICLES}/${id}?status=draft`, { body: { data: { title: 'Second' } } });
    await server.call('PUT', `${ARTICLES}/${id}?status=draft&locale=fr`, { body: { data: { title: 'Premier' } } });
    expect((await server.call('POST', `${ARTICLES}/${id}/actions/discard-draft`, { headers: token })).status).toBe(200);
    expect((await server.call('POST', `${ARTICLES}/${id}/actions/unpublish`, { headers: token })).status).toBe(200);

    const en = await versionsOf(server, 'api::article.article', id, 'en');
    expect(en.map((v) => [v.event, v.status, v.changed])).toEqual([
      ['entry.unpublish', 'draft', []],
      ['entry.draft-discard', 'published', ['title']],
      ['entry.update', 'modified', ['title']],
      ['entry.publish', 'published', []],
      ['entry.update', 'draft', ['summary']],
      ['entry.create', 'draft', ['title', 'summary', 'kind', 'views', 'featured']],
    ]);
    expect(en[2]!.data).toMatchObject({ title: 'Second', summary: 'Two', tags: [], seo: null, links: [], cover: null, gallery: [] });
    const fr = await versionsOf(server, 'api::article.article', id, 'fr');
    expect(fr.map((v) => [v.event, v.locale, v.data.title])).toEqual([['entry.create', 'fr', 'Premier']]);
    expect((await versionsOf(server, 'api::article.article', id)).length).toBe(7);
  });

  it('keeps private attributes (shown to the CLI and the admin, never by the content API) and never a password', async () => {
    const created = await server.call('POST', '/api/authors', { body: { data: { name: 'Ann', internalNotes: 'pays late' } } });
    expect(created.body.data.internalNotes).toBeUndefined();
    const [version] = await versionsOf(server, 'api::author.author', created.body.data.documentId);
    expect(version!.data.internalNotes).toBe('pays late');
    const listed = await folio(server, ['history', 'list', 'authors', created.body.data.documentId, '--json']);
    expect(listed.code).toBe(0);
    const json = JSON.parse(listed.stdout);
    expect(json).toHaveLength(1);
    expect(Object.keys(json[0]).sort()).toEqual(['actor', 'changed', 'createdAt', 'data', 'id', 'locale', 'status']);
    expect(json[0]).toMatchObject({
      status: 'published',
      locale: '',
      actor: { kind: 'public', name: null },
      data: { name: 'Ann', internalNotes: 'pays late' },
    });
    const text = await folio(server, ['history', 'list', 'api::author.author', created.body.data.documentId]);
    expect(text.stdout).toMatch(new RegExp(`^${json[0].id}\\t\\S+\\t-\\tpublished\\tpublic\\tname,internalNotes$`, 'm'));

    const withPassword = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
    try {
      const showcase = await withPassword.call('POST', '/api/showcases', { body: { data: { aString: 'x', aPassword: 'hunter2 secret' } } });
      expect(showcase.status).toBe(201);
      const [kept] = await versionsOf(withPassword, 'api::showcase.showcase', showcase.body.data.documentId);
      expect('aPassword' in kept!.data).toBe(false);
      const rows = await withPassword.instance.db.all<{ data: string }>('SELECT "data" FROM folio_history');
      for (const row of rows) expect(row.data).not.toContain('hunter2');
    } finally {
      await withPassword.stop();
    }
  }, 30_000);

  it('records nothing for a write that rolls back, and nothing with FOLIO_HISTORY_DAYS=0', async () => {
    const before = (await server.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_history'))!.n;
    const refused = await server.call('POST', ARTICLES, { body: { data: { summary: 'no title' } } });
    expect(refused.status).toBe(400);
    const ct = server.instance.registry.contentType('api::article.article')!;
    const remove = server.instance.documents.hooks.subscribe({
      afterCreate: () => {
        throw new Error('no');
      },
    });
    await expect(server.instance.documents.create(ct, { title: 'Rolled back' })).rejects.toThrow('no');
    remove();
    expect(Number((await server.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_history'))!.n)).toBe(Number(before));

    const off = await startServer({ config: { historyDays: 0 } });
    try {
      await off.call('POST', ARTICLES, { body: { data: { title: 'Not kept' } } });
      expect(Number((await off.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_history'))!.n)).toBe(0);
    } finally {
      await off.stop();
    }
  }, 30_000);

  it('costs a write a fixed number of statements, however many documents it writes (an import batch)', async () => {
    const cat = (await server.call('POST', '/api/categories', { body: { data: { name: 'Counted', slug: 'counted' } } })).body.data.documentId;
    const tags = [];
    for (const name of ['c1', 'c2', 'c3']) tags.push((await server.call('POST', '/api/tags', { body: { data: { name } } })).body.data.documentId);
    const data = { title: 'Counted', category: cat, tags, seo: { metaTitle: 'm' }, blocks: [{ __component: 'shared.quote', title: 'q' }] };
    const ct = server.instance.registry.contentType('api::article.article')!;
    const { db } = server.instance;
    // Background work polls the database too (webhook deliveries, the release scheduler): not while counting.
    const quiet = (s: TestServer) => (s.instance.deliverer.stop(), s.instance.releaseScheduler.stop());
    quiet(server);
    const cost = async (write: () => Promise<unknown>) => {
      const before = db.statementCount;
      await write();
      return db.statementCount - before;
    };
    await server.instance.documents.create(ct, data);
    const one = await cost(() => server.instance.documents.create(ct, data));
    const batch = await cost(() =>
      server.instance.documents.createMany(
        ct,
        Array.from({ length: 200 }, (_, i) => ({ ...data, title: `Batch ${i}` })),
      ),
    );
    server.instance.start();
    const off = await startServer({ config: { historyDays: 0 } });
    quiet(off);
    try {
      const offCt = off.instance.registry.contentType('api::article.article')!;
      const offCat = (await off.call('POST', '/api/categories', { body: { data: { name: 'Counted', slug: 'counted' } } })).body.data.documentId;
      const offTags = [];
      for (const name of ['c1', 'c2', 'c3']) offTags.push((await off.call('POST', '/api/tags', { body: { data: { name } } })).body.data.documentId);
      const offData = { ...data, category: offCat, tags: offTags };
      await off.instance.documents.create(offCt, offData);
      const offCost = async (write: () => Promise<unknown>) => {
        const before = off.instance.db.statementCount;
        await write();
        return off.instance.db.statementCount - before;
      };
      const plainOne = await offCost(() => off.instance.documents.create(offCt, offData));
      const plainBatch = await offCost(() =>
        off.instance.documents.createMany(
          offCt,
          Array.from({ length: 200 }, (_, i) => ({ ...offData, title: `Batch ${i}` })),
        ),
      );
      // Versions, media, four relation tables, three component fields (a zone of three tables), the insert.
      expect(one - plainOne).toBeLessThanOrEqual(14);
      expect(batch - plainBatch).toBeLessThanOrEqual(14);
    } finally {
      await off.stop();
    }
  }, 30_000);

  it('forgets versions older than FOLIO_HISTORY_DAYS', async () => {
    const created = await server.call('POST', ARTICLES, { body: { data: { title: 'Old one' } } });
    const id = created.body.data.documentId;
    await server.call('PUT', `${ARTICLES}/${id}`, { body: { data: { title: 'Newer' } } });
    const [newest, oldest] = await versionsOf(server, 'api::article.article', id);
    await server.instance.db.run(`UPDATE folio_history SET "createdAt" = '2000-01-01T00:00:00.000Z' WHERE "id" = ${oldest!.id}`);
    expect(await server.instance.history.prune()).toBeGreaterThanOrEqual(1);
    expect((await versionsOf(server, 'api::article.article', id)).map((v) => v.id)).toEqual([newest!.id]);
  });
});

describe('restoring a version', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ contentTypes: ALL_TYPES_CONTENT_TYPES });
  }, 30_000);
  afterAll(() => server.stop(), 30_000);

  const SHOWCASES = '/api/showcases';
  const everything =
    'populate[aOneToOne]=true&populate[aManyToMany]=true&populate[aComponent]=true&populate[aRepeatableComponent]=true&populate[aDynamicZone]=true&populate[aSingleMedia]=true&populate[aMultipleMedia]=true';

  async function upload(name: string) {
    const form = new FormData();
    form.append('files', new File([await makeImage(4, 4)], name, { type: 'image/png' }));
    const response = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${server.tokens.fullAccess}` } });
    return ((await response.json()) as { id: number }[])[0]!.id;
  }

  it('writes every attribute type back as it was (CLI), as a new version by the restorer', async () => {
    const targetA = (await server.call('POST', SHOWCASES, { body: { data: { aString: 'target a' } } })).body.data.documentId;
    const targetB = (await server.call('POST', SHOWCASES, { body: { data: { aString: 'target b' } } })).body.data.documentId;
    const image = await upload('one.gif');
    const original = {
      aString: 'original',
      aText: 'text',
      aRichText: '# rich',
      anEmail: 'a@example.com',
      anEnumeration: 'beta',
      anInteger: 7,
      aBigInteger: '9007199254740993',
      aFloat: 1.5,
      aDecimal: 2.25,
      aBoolean: true,
      aDate: '2024-02-03',
      aTime: '10:11:12.000',
      aDateTime: '2024-02-03T10:11:12.000Z',
      aJson: { nested: [1, 'two'] },
      aBlocks: [{ type: 'paragraph', children: [{ type: 'text', text: 'hello' }] }],
      aOneToOne: targetA,
      aManyToMany: [targetA, targetB],
      aSingleMedia: image,
      aMultipleMedia: [image],
      aComponent: { label: 'card', count: 1 },
      aRepeatableComponent: [
        { label: 'r1', count: 2 },
        { label: 'r2', count: 3 },
      ],
      aDynamicZone: [
        { __component: 'parts.note', body: 'note' },
        { __component: 'parts.card', label: 'zone card', count: 4 },
      ],
    };
    const created = await server.call('POST', SHOWCASES, { body: { data: original } });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;
    const before = (await server.call('GET', `${SHOWCASES}/${id}?${everything}`)).body.data;
    await server.call('PUT', `${SHOWCASES}/${id}`, {
      body: {
        data: {
          aString: 'changed',
          anInteger: 8,
          aManyToMany: [targetB],
          aOneToOne: null,
          aSingleMedia: null,
          aComponent: null,
          aRepeatableComponent: [],
          aDynamicZone: [],
        },
      },
    });
    const [, first] = await versionsOf(server, 'api::showcase.showcase', id);
    const run = await folio(server, ['history', 'restore', String(first!.id)]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`restored version ${first!.id} of api::showcase.showcase "${id}"`);
    const after = (await server.call('GET', `${SHOWCASES}/${id}?${everything}`)).body.data;
    const comparable = (doc: Record<string, any>) => {
      const { updatedAt, publishedAt, aComponent, aRepeatableComponent, aDynamicZone, ...rest } = doc;
      const strip = (c: Record<string, unknown> | null) => c && Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'id'));
      return { ...rest, aComponent: strip(aComponent), aRepeatableComponent: aRepeatableComponent.map(strip), aDynamicZone: aDynamicZone.map(strip) };
    };
    expect(comparable(after)).toEqual(comparable(before));
    const [restored] = await versionsOf(server, 'api::showcase.showcase', id);
    expect(restored).toMatchObject({ event: 'entry.update', actor: { kind: 'cli', name: null } });
  }, 30_000);

  it('leaves out relations to documents that no longer exist and says so (admin API)', async () => {
    const gone = (await server.call('POST', SHOWCASES, { body: { data: { aString: 'will go' } } })).body.data.documentId;
    const stays = (await server.call('POST', SHOWCASES, { body: { data: { aString: 'stays' } } })).body.data.documentId;
    const doc = (await server.call('POST', SHOWCASES, { body: { data: { aString: 'linked', aManyToMany: [gone, stays], aOneToOne: gone } } })).body.data
      .documentId;
    await server.call('PUT', `${SHOWCASES}/${doc}`, { body: { data: { aString: 'unlinked', aManyToMany: [] } } });
    expect((await server.call('DELETE', `${SHOWCASES}/${gone}`)).status).toBe(204);
    const headers = await adminHeaders(server, 'restorer@example.com');
    const list = await server.call('GET', `/admin/api/history/${encodeURIComponent('api::showcase.showcase')}/${doc}`, { headers });
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ hasMore: false });
    const first = list.body.data[1];
    expect(first.data).toMatchObject({ aString: 'linked', aManyToMany: [{ documentId: gone }, { documentId: stays }] });
    const one = await server.call('GET', `/admin/api/history/versions/${first.id}`, { headers });
    expect(one.body.data).toEqual(first);

    const restored = await server.call('POST', `/admin/api/history/versions/${first.id}/restore`, { headers });
    expect(restored.status).toBe(200);
    expect(restored.body.data.leftOut).toEqual([
      { path: 'aOneToOne', reason: `api::showcase.showcase document "${gone}" no longer exists` },
      { path: 'aManyToMany[0]', reason: `api::showcase.showcase document "${gone}" no longer exists` },
    ]);
    expect(restored.body.data.document).toEqual({ documentId: doc, locale: '', status: 'published' });
    const now = (await server.call('GET', `${SHOWCASES}/${doc}?populate[aManyToMany]=true&populate[aOneToOne]=true`)).body.data;
    expect(now.aString).toBe('linked');
    expect(now.aOneToOne).toBeNull();
    expect(now.aManyToMany.map((t: { documentId: string }) => t.documentId)).toEqual([stays]);
    const latest = await versionsOf(server, 'api::showcase.showcase', doc);
    expect(latest[0]!.actor).toEqual({ kind: 'admin', name: 'restorer@example.com' });

    expect((await server.call('GET', '/admin/api/history/versions/999999', { headers })).status).toBe(404);
    expect((await server.call('POST', '/admin/api/history/versions/abc/restore', { headers })).status).toBe(404);
    expect((await server.call('GET', `/admin/api/history/${encodeURIComponent('api::showcase.showcase')}/${doc}?limit=0`, { headers })).status).toBe(400);
    expect((await server.call('GET', `/admin/api/history/${encodeURIComponent('api::showcase.showcase')}/${doc}`)).status).toBe(401);
    const missing = await folio(server, ['history', 'restore', '999999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No history version 999999');
    expect((await folio(server, ['history', 'list', 'nothings', doc])).code).toBe(2);
  }, 30_000);

  it('restores a draft and publishes nothing on a draft & publish type', async () => {
    const plain = await startServer();
    try {
      const created = await plain.call('POST', ARTICLES, { body: { data: { title: 'Published title' } } });
      const id = created.body.data.documentId;
      await plain.call('PUT', `${ARTICLES}/${id}`, { body: { data: { title: 'Second title' } } });
      const versions = await versionsOf(plain, 'api::article.article', id, 'en');
      await plain.instance.history.restore(versions[1]!.id, { kind: 'cli' });
      expect((await plain.call('GET', `${ARTICLES}/${id}`)).body.data.title).toBe('Second title');
      expect((await plain.call('GET', `${ARTICLES}/${id}?status=draft`)).body.data.title).toBe('Published title');
      expect((await versionsOf(plain, 'api::article.article', id, 'en'))[0]!.status).toBe('modified');
    } finally {
      await plain.stop();
    }
  }, 30_000);
});
