/**
 * What content history and the audit log (both on by default) cost a write, in statements: the
 * same writes on an installation with both and on one without (FOLIO_HISTORY_DAYS=0,
 * FOLIO_AUDIT_DAYS=0), counted by the database. A version's content is read one level at a
 * time (SQLite: one UNION ALL per level; PostgreSQL: a level's statements sent together),
 * and a create, one or a batch, reads only the tables it wrote and does not know (its links
 * and flat components it does). Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { ContentType } from '../../src/registry/types';
import { onPostgres, startServer, type TestServer } from '../helpers/server';

const ARTICLE = 'api::article.article';

/** An installation and an article body linking a category and three tags, with a component and a zone item. */
interface Side {
  server: TestServer;
  ct: ContentType;
  data: Record<string, unknown>;
}

async function side(config: Parameters<typeof startServer>[0]): Promise<Side> {
  const server = await startServer(config);
  // Background work polls the database too (webhook deliveries, the release scheduler): not while counting.
  server.instance.deliverer.stop();
  server.instance.releaseScheduler.stop();
  const category = (await server.call('POST', '/api/categories', { body: { data: { name: 'Counted', slug: 'counted' } } })).body.data.documentId;
  const tags: string[] = [];
  for (const name of ['t1', 't2', 't3']) tags.push((await server.call('POST', '/api/tags', { body: { data: { name } } })).body.data.documentId);
  const data = { title: 'Counted', summary: 'Body', category, tags, seo: { metaTitle: 'm' }, blocks: [{ __component: 'shared.quote', title: 'q' }] };
  return { server, ct: server.instance.registry.contentType(ARTICLE)!, data };
}

async function cost(s: Side, write: () => Promise<unknown>): Promise<number> {
  const before = s.server.instance.db.statementCount;
  await write();
  return s.server.instance.db.statementCount - before;
}

describe('what history and the audit log cost a write', () => {
  let on: Side;
  let off: Side;
  beforeAll(async () => {
    on = await side({});
    off = await side({ config: { historyDays: 0, auditDays: 0 } });
    // One write each first: caches (settings, locales, statements) warm on both sides.
    await on.server.instance.documents.create(on.ct, on.data);
    await off.server.instance.documents.create(off.ct, off.data);
  }, 60_000);
  afterAll(async () => {
    await on?.server.stop();
    await off?.server.stop();
  }, 30_000);

  const extra = async (write: (s: Side) => Promise<unknown>) => (await cost(on, () => write(on))) - (await cost(off, () => write(off)));

  it('costs an update of an article with relations, a component and a zone item a few statements: one read per level of its content', async () => {
    const update = async (s: Side) => {
      const created = await s.server.instance.documents.create(s.ct, s.data);
      return cost(s, () => s.server.instance.documents.update(s.ct, created.documentId, { title: 'Changed' }));
    };
    const added = (await update(on)) - (await update(off));
    // The version; its parts (SQLite: one union; PostgreSQL: media, 4 relation tables, 5 component
    // tables of 3 fields, sent together); the component rows' own media; the version kept
    // before; the history row; the audit rows.
    expect(added).toBeLessThanOrEqual(onPostgres ? 15 : 6);
  });

  it('costs a create with relations, a component and a zone item its history row and audit rows only: its components own only their columns, taken from its input', async () => {
    // Its links are the rows it inserted, its component rows (seo, a quote: flat) its input's
    // (documents/write/inserted.ts knownParts); the history row; the audit rows.
    const added = await extra((s) => s.server.instance.documents.create(s.ct, s.data));
    expect(added).toBe(2);
  });

  it('costs a create with relations and no components its history row and audit rows only: its links are the rows it inserted', async () => {
    // What the bench's create sends: a category and tags, nothing else to read.
    const added = await extra((s) => s.server.instance.documents.create(s.ct, { title: 'Links only', category: s.data.category, tags: s.data.tags }));
    expect(added).toBe(2);
  });

  it('costs a batch of 200 creates two inserts: nothing it wrote is read back', async () => {
    const added = await extra((s) =>
      s.server.instance.documents.createMany(
        s.ct,
        Array.from({ length: 200 }, (_, i) => ({ ...s.data, title: `Batch ${i}` })),
      ),
    );
    // 200 history rows and 400 audit rows (a create and a publish each) in one insert each; their
    // links are the rows the batch inserted and their component rows (flat) the input's
    // (documents/write/inserted.ts knownParts).
    expect(added).toBe(2);
  });
});
