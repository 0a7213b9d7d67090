/**
 * Reads through the hook points, as Strapi 5's document service takes them
 * (documents/read/hooked.ts): document middlewares see REST reads once one is registered (and
 * may change their params: the answer is planned from what they leave, never a plan or an
 * answer kept from before), read lifecycles fire where Strapi fires them (a list: FindMany
 * then Count; one document: FindOne), with the query engine's params, which a before* handler
 * may change; the document service reads drafts by default and every match without a limit;
 * a read inside a lifecycle handler sees what its write did. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import type { DocumentMiddleware, LifecycleEvent } from '../../src/documents/write/hooks';
import type { ContentType } from '../../src/registry/types';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let tag: ContentType;
let author: ContentType;
const removals: (() => void)[] = [];

beforeAll(async () => {
  server = await startServer();
  tag = server.instance.registry.contentType('api::tag.tag')!;
  author = server.instance.registry.contentType('api::author.author')!;
  for (const name of ['alpha', 'beta', 'gamma']) await server.instance.documents.create(tag, { name });
  await server.instance.documents.create(tag, { name: 'draft only' }, { status: 'draft' });
});
afterAll(() => server.stop());
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

function use(middleware: DocumentMiddleware) {
  server.instance.documents.hooks.use(middleware);
  removals.push(() => server.instance.documents.hooks.unuse(middleware));
}

const names = (body: { data: { name: string }[] }) => body.data.map((t) => t.name).sort();

describe('document middlewares on REST reads', () => {
  it('see a list as findMany then count, and the answer follows the params they leave, not a plan or answer kept from before', async () => {
    expect(names((await server.call('GET', '/api/tags')).body)).toEqual(['alpha', 'beta', 'gamma']);
    const seen: string[] = [];
    use(async (context, next) => {
      if (context.uid !== tag.uid) return next();
      seen.push(`${context.action} ${context.params.status}`);
      context.params.filters = { ...((context.params.filters as object) ?? {}), name: { $ne: 'beta' } };
      return next();
    });
    const list = await server.call('GET', '/api/tags');
    expect(list.status).toBe(200);
    expect(names(list.body)).toEqual(['alpha', 'gamma']);
    expect(list.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
    expect(seen).toEqual(['findMany published', 'count published']);
  });

  it('see one document as findOne with its documentId, and may replace what it answers', async () => {
    const [first] = (await server.call('GET', '/api/tags?sort=name')).body.data;
    use(async (context, next) => {
      if (context.action !== 'findOne') return next();
      expect(context.params.documentId).toBe(first.documentId);
      const found = (await next()) as Record<string, unknown>;
      return { ...found, name: `${found.name} (seen)` };
    });
    const one = await server.call('GET', `/api/tags/${first.documentId}`);
    expect(one.body.data.name).toBe('alpha (seen)');
  });

  it('leave the route as it was once taken back', async () => {
    const middleware: DocumentMiddleware = async () => [];
    server.instance.documents.hooks.use(middleware);
    expect((await server.call('GET', '/api/tags')).body.data).toEqual([]);
    server.instance.documents.hooks.unuse(middleware);
    expect(names((await server.call('GET', '/api/tags')).body)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('still refuse a bad query with a 400 before anything runs', async () => {
    use(async (_, next) => next());
    expect((await server.call('GET', '/api/tags?status=nope')).status).toBe(400);
    expect((await server.call('GET', '/api/tags?filters[nope]=1')).status).toBe(400);
  });
});

describe('read lifecycles', () => {
  function record(uid: string) {
    const seen: string[] = [];
    const params: LifecycleEvent['params'][] = [];
    const handler = (event: LifecycleEvent) => {
      if (event.model.uid !== uid) return;
      seen.push(event.action);
      if (event.action.startsWith('before')) params.push(JSON.parse(JSON.stringify(event.params)));
    };
    const names = ['beforeFindMany', 'afterFindMany', 'beforeFindOne', 'afterFindOne', 'beforeCount', 'afterCount', 'beforeCreate'] as const;
    removals.push(server.instance.documents.hooks.subscribe({ models: [uid], ...Object.fromEntries(names.map((n) => [n, handler])) }));
    return { seen, params };
  }

  it("fire FindMany then Count for a REST list and FindOne for one document, with Strapi's query params", async () => {
    const { seen, params } = record(tag.uid);
    const list = await server.call('GET', '/api/tags?filters[name][$startsWith]=a&fields[0]=name&sort=name:desc&pagination[pageSize]=2');
    expect(names(list.body)).toEqual(['alpha']);
    expect(seen).toEqual(['beforeFindMany', 'afterFindMany', 'beforeCount', 'afterCount']);
    expect(params[0]).toEqual({
      where: { publishedAt: { $notNull: true }, name: { $startsWith: 'a' } },
      select: ['id', 'documentId', 'name'],
      orderBy: [{ name: 'desc' }],
      limit: 2,
    });
    seen.length = 0;
    await server.call('GET', `/api/tags/${list.body.data[0].documentId}`);
    expect(seen).toEqual(['beforeFindOne', 'afterFindOne']);
    expect(params.at(-1)!.where).toEqual({ publishedAt: { $notNull: true }, documentId: list.body.data[0].documentId });
  });

  it('read with the where a beforeFindMany handler leaves, and hand the rows to afterFindMany', async () => {
    const results: unknown[] = [];
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        beforeFindMany(event) {
          event.params.where = { ...event.params.where, name: { $in: ['beta', 'gamma'] } };
        },
        afterFindMany(event) {
          results.push((event.result as { name: string }[]).map((t) => t.name).sort());
        },
      }),
    );
    expect(names((await server.call('GET', '/api/tags')).body)).toEqual(['beta', 'gamma']);
    expect(results).toEqual([['beta', 'gamma']]);
  });

  it('do not slow down reads of a type nobody listens to, nor fire for it', async () => {
    const { seen } = record(tag.uid);
    await server.call('GET', '/api/authors');
    expect(seen).toEqual([]);
    expect(server.instance.documents.hooks.readsHooked(author)).toBe(false);
  });
});

describe("the document service's reads", () => {
  it('read drafts unless told, and every match without a limit', async () => {
    const { reads } = server.instance.documents;
    expect((await reads.findMany(tag)).map((t) => t.name).sort()).toEqual(['alpha', 'beta', 'draft only', 'gamma']);
    expect(await reads.count(tag, { status: 'published' })).toBe(3);
    expect((await reads.findFirst(tag, { filters: { name: 'beta' }, status: 'published' }))!.publishedAt).not.toBeNull();
    await server.instance.documents.createMany(
      author,
      Array.from({ length: 1_205 }, (_, i) => ({ name: `Author ${i}` })),
    );
    expect((await reads.findMany(author)).length).toBe(1_205);
    expect((await reads.findMany(author, { start: 1_200 })).length).toBe(5);
    expect((await reads.findMany(author, { limit: 1_001, sort: 'id:desc' })).length).toBe(1_001);
    expect((await reads.findMany(author, { page: 3, pageSize: 10 })).length).toBe(10);
  });

  it('read what the open write did from inside its lifecycle handlers', async () => {
    let seenInside: unknown;
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        async afterCreate(event) {
          const row = event.result as { documentId: string; publishedAt: string | null };
          if (!row.publishedAt) seenInside = (await server.instance.documents.reads.findOne(tag, { documentId: row.documentId }))?.name;
        },
      }),
    );
    await server.instance.documents.create(tag, { name: 'read inside' }, { status: 'draft' });
    expect(seenInside).toBe('read inside');
  });
});
