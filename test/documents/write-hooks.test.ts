/**
 * The hook points of every write operation (documents/write/hooks.ts, context.ts), in order:
 * document middlewares around the operation, outside its transaction; lifecycle events
 * before and after each version row, inside it, with Strapi 5's firing rules; the listeners'
 * records just before the commit; after-commit work once it has committed. A throwing
 * before* rolls the whole write back with nothing recorded. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import type { WriteListener, WriteRecord } from '../../src/documents/write/context';
import type { LifecycleEvent } from '../../src/documents/write/hooks';
import { FolioError } from '../../src/errors';
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
});
afterAll(() => server.stop());
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

/** Records every lifecycle event of `uid` as "action status" (the row's status from its data or result). */
function recordLifecycles(uid: string): string[] {
  const seen: string[] = [];
  const statusOf = (e: LifecycleEvent) => {
    const row = (e.result ?? e.params.data) as { publishedAt?: string | null } | undefined;
    return row && 'publishedAt' in row ? (row.publishedAt ? 'published' : 'draft') : 'row';
  };
  removals.push(server.instance.documents.hooks.subscribe((event) => void (event.model.uid === uid && seen.push(`${event.action} ${statusOf(event)}`))));
  return seen;
}

/** A listener that records what reaches it and when (inside the transaction, or after its commit). */
function recordListener(log: string[]): WriteListener {
  return {
    open: () => ({
      wants: async () => true,
      record: (r: WriteRecord) => void log.push(`record ${r.event}`),
      beforeCommit: async () => void log.push('before commit'),
      afterCommit: () => void log.push('after commit'),
    }),
  };
}

const count = async (ct: ContentType) => Number((await server.instance.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${ct.tableName}`))!.n);
const outboxCount = async () => Number((await server.instance.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM folio_outbox'))!.n);

describe('lifecycle events follow Strapi 5 firing rules', () => {
  it('fires Create for the draft and then for the published row when a create publishes, once for a draft-only create', async () => {
    const seen = recordLifecycles(tag.uid);
    await server.instance.documents.create(tag, { name: 'lifecycle one' });
    expect(seen).toEqual(['beforeCreate draft', 'afterCreate draft', 'beforeCreate published', 'afterCreate published']);
    seen.length = 0;
    await server.instance.documents.create(tag, { name: 'lifecycle two' }, { status: 'draft' });
    expect(seen).toEqual(['beforeCreate draft', 'afterCreate draft']);
  });

  it('fires Update for the draft, then Delete for the old published row and Create for the new one when an update publishes', async () => {
    const { documentId } = await server.instance.documents.create(tag, { name: 'to update' });
    const seen = recordLifecycles(tag.uid);
    await server.instance.documents.update(tag, documentId, { name: 'updated' });
    expect(seen).toEqual([
      'beforeUpdate draft',
      'afterUpdate draft',
      'beforeDelete row',
      'afterDelete published',
      'beforeCreate published',
      'afterCreate published',
    ]);
    seen.length = 0;
    await server.instance.documents.update(tag, documentId, { name: 'draft only' }, { status: 'draft' });
    expect(seen).toEqual(['beforeUpdate draft', 'afterUpdate draft']);
  });

  it('fires Delete for every row a delete removes, Delete + Create for publish and discard-draft, Delete for unpublish', async () => {
    const { documentId } = await server.instance.documents.create(tag, { name: 'actions' });
    const seen = recordLifecycles(tag.uid);
    await server.instance.documents.update(tag, documentId, { name: 'changed draft' }, { status: 'draft' });
    seen.length = 0;
    await server.instance.documents.publish(tag, documentId);
    expect(seen).toEqual(['beforeDelete row', 'afterDelete published', 'beforeCreate published', 'afterCreate published']);
    seen.length = 0;
    await server.instance.documents.update(tag, documentId, { name: 'again' }, { status: 'draft' });
    seen.length = 0;
    await server.instance.documents.discardDraft(tag, documentId);
    expect(seen).toEqual(['beforeDelete row', 'afterDelete draft', 'beforeCreate draft', 'afterCreate draft']);
    seen.length = 0;
    await server.instance.documents.unpublish(tag, documentId);
    expect(seen).toEqual(['beforeDelete row', 'afterDelete published']);
    seen.length = 0;
    await server.instance.documents.publish(tag, documentId);
    seen.length = 0;
    await server.instance.documents.delete(tag, documentId);
    expect(seen).toEqual(['beforeDelete row', 'beforeDelete row', 'afterDelete draft', 'afterDelete published']);
  });

  it('fires nothing for another type, and only the handlers of a subscriber limited to models', async () => {
    const others: string[] = [];
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [author.uid],
        beforeCreate: () => void others.push('author before'),
        afterCreate: () => void others.push('author after'),
      }),
    );
    await server.instance.documents.create(tag, { name: 'not an author' });
    expect(others).toEqual([]);
    await server.instance.documents.create(author, { name: 'An author' });
    expect(others).toEqual(['author before', 'author after']);
  });

  it("writes what a beforeCreate handler leaves in params.data, and shares state between a row's before and after", async () => {
    const states: unknown[] = [];
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [author.uid],
        beforeCreate(event) {
          event.params.data!.name = `${event.params.data!.name} (checked)`;
          event.state.started = true;
        },
        afterCreate(event) {
          states.push(event.state.started);
        },
      }),
    );
    const written = await server.instance.documents.create(author, { name: 'Ann' });
    const read = await server.call('GET', `/api/authors/${written.documentId}`);
    expect(read.body.data.name).toBe('Ann (checked)');
    expect(states).toEqual([true]);
  });
});

describe('the order of every hook point, and what a throw undoes', () => {
  it('runs middlewares outside, lifecycles inside, the listeners before the commit and after-commit work last', async () => {
    const log: string[] = [];
    removals.push(server.instance.documents.pipeline.listen(recordListener(log)));
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        beforeCreate: () => void log.push('beforeCreate'),
        afterCreate: () => void log.push('afterCreate'),
      }),
    );
    const hooks = server.instance.documents.hooks;
    const middleware = async (context: { action: string; params: Record<string, unknown> }, next: () => Promise<unknown>) => {
      if (context.action !== 'create') return next(); // reads pass through middlewares too
      log.push(`middleware in ${context.action}`);
      (context.params.data as Record<string, unknown>).name = 'renamed by middleware';
      const result = await next();
      log.push('middleware out');
      return result;
    };
    hooks.use(middleware);
    removals.push(() => hooks.unuse(middleware));
    const written = await server.instance.documents.create(tag, { name: 'ordered' }, { status: 'draft' });
    expect(log).toEqual(['middleware in create', 'beforeCreate', 'afterCreate', 'record entry.create', 'before commit', 'after commit', 'middleware out']);
    const read = await server.call('GET', `/api/tags/${written.documentId}?status=draft`);
    expect(read.body.data.name).toBe('renamed by middleware');
  });

  it('rolls the whole write back when a before handler throws: nothing stored, no event, no after-commit work, the error is the answer', async () => {
    const log: string[] = [];
    removals.push(server.instance.documents.pipeline.listen(recordListener(log)));
    const before = { tags: await count(tag), outbox: await outboxCount() };
    // The published row's beforeCreate throws: the draft already inserted goes too.
    let creates = 0;
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        beforeCreate() {
          if (++creates === 2) throw new FolioError(400, 'ApplicationError', 'Tags are closed');
        },
      }),
    );
    const refused = await server.call('POST', '/api/tags', { body: { data: { name: 'refused' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'Tags are closed' });
    expect({ tags: await count(tag), outbox: await outboxCount() }).toEqual(before);
    expect(log).not.toContain('before commit');
    expect(log).not.toContain('after commit');
  });

  it('runs a joined write in the outer transaction: its after-commit work waits for the outer commit and a throw later undoes it', async () => {
    const { pipeline } = server.instance.documents;
    const before = await count(tag);
    const order: string[] = [];
    await expect(
      pipeline.run({}, async (ctx) => {
        ctx.afterCommit(() => void order.push('after commit'));
        await server.instance.documents.create(tag, { name: 'joined' }, { within: ctx });
        order.push('inner done');
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(order).toEqual(['inner done']);
    expect(await count(tag)).toBe(before);
  });
});

describe('writes started inside an open write join it, as Strapi nested transactions do', () => {
  /** A subscriber that creates an author from a tag's afterCreate (the draft row), and refuses the published row of a tag named "… refused". */
  function authorFromTagLifecycle() {
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        async afterCreate(event) {
          const row = event.result as { name: string; publishedAt: string | null };
          if (!row.publishedAt) await server.instance.documents.create(author, { name: `made for ${row.name}` });
        },
        beforeCreate(event) {
          if (event.params.data!.publishedAt && String(event.params.data!.name).endsWith('refused')) throw new FolioError(400, 'ApplicationError', 'refused');
        },
      }),
    );
  }
  const authorsNamed = async (name: string) =>
    Number((await server.instance.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${author.tableName} WHERE name = '${name}'`))!.n);

  it("commits a lifecycle handler's write with the write that fired it (no second transaction waiting for the first)", async () => {
    authorFromTagLifecycle();
    await server.instance.documents.create(tag, { name: 'nested ok' });
    expect(await authorsNamed('made for nested ok')).toBe(1); // authors have no draft & publish: one row
  });

  it("undoes a lifecycle handler's write when the write that fired it fails later", async () => {
    authorFromTagLifecycle();
    const before = await count(tag);
    await expect(server.instance.documents.create(tag, { name: 'nested refused' })).rejects.toThrow('refused');
    expect(await authorsNamed('made for nested refused')).toBe(0);
    expect(await count(tag)).toBe(before);
  });

  it('opens a transaction of its own for a write started after the open one has committed', async () => {
    let later: Promise<unknown> | undefined;
    removals.push(
      server.instance.documents.hooks.subscribe({
        models: [tag.uid],
        afterCreate(event) {
          const row = event.result as { name: string; publishedAt: string | null };
          if (!row.publishedAt)
            later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => server.instance.documents.create(author, { name: `later for ${row.name}` }));
        },
      }),
    );
    await server.instance.documents.create(tag, { name: 'nested later' }, { status: 'draft' });
    await later;
    expect(await authorsNamed('later for nested later')).toBe(1);
  });
});
