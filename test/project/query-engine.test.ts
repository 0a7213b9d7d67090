/**
 * `strapi.db.query(uid)` answers as Strapi 5.54.0's query engine does (the same calls were run
 * on a copy of the Strapi peer; ids and times aside, the answers below are Strapi's): rows of
 * every status, `where` with Strapi's operators, `select` without `id`, `orderBy`, `limit`,
 * `offset`, `populate`, counts, and row writes with the query engine's lifecycle events
 * (Update / UpdateMany / Delete / DeleteMany, once per call for the many forms). Both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { LifecycleEvent } from '../../src/documents/write/hooks';
import { copyProject } from '../helpers/project';
import { startServer, type TestServer } from '../helpers/server';
import { removeTempDirs } from '../helpers/spawn';

let server: TestServer;
let strapi: any;
beforeAll(async () => {
  server = await startServer({ contentTypes: copyProject('blog-js') });
  strapi = server.instance.project!.strapi;
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

describe('strapi.db.query reads rows', () => {
  test('of every status, with select (no id unless named), where, orderBy, limit and offset, as Strapi answers', async () => {
    const q = strapi.db.query('api::tag.tag');
    await q.deleteMany({});
    await strapi.documents('api::tag.tag').create({ data: { name: 'qa', color: '#111111' }, status: 'published' });
    await strapi.documents('api::tag.tag').create({ data: { name: 'qb' } });
    expect(await q.findMany({ select: ['name', 'publishedAt'], orderBy: { id: 'asc' } })).toEqual([
      { name: 'qa', publishedAt: null },
      { name: 'qa', publishedAt: expect.any(String) },
      { name: 'qb', publishedAt: null },
    ]);
    expect(await q.count()).toBe(3);
    expect(await q.count({ where: { publishedAt: { $notNull: true } } })).toBe(1);
    expect(await q.findOne({ where: { name: 'qa', publishedAt: { $null: true } }, select: ['name'] })).toEqual({ name: 'qa' });
    expect(await q.findOne({ where: { name: 'qb' } })).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      name: 'qb',
      color: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: null,
      locale: null,
    });
    expect(await q.findMany({ where: { name: { $startsWith: 'q' } }, orderBy: [{ name: 'desc' }], limit: 2, offset: 1, select: ['name'] })).toEqual([
      { name: 'qa' },
      { name: 'qa' },
    ]);
    expect(await q.findOne({ where: { name: 'nope' } })).toBeNull();
  });

  test('populate reaches, from each row, the versions of its own status', async () => {
    const tag = await strapi.documents('api::tag.tag').create({ data: { name: 'linked' }, status: 'published' });
    await strapi.documents('api::article.article').create({ data: { title: 'Populated', tags: [tag.documentId] }, status: 'published' });
    await strapi.documents('api::tag.tag').update({ documentId: tag.documentId, data: { name: 'linked (draft)' } });
    const rows = await strapi.db.query('api::article.article').findMany({
      where: { title: 'Populated' },
      select: ['title', 'publishedAt'],
      populate: { tags: { select: ['name'] } },
      orderBy: 'id',
    });
    expect(rows.map((r: any) => [r.publishedAt === null ? 'draft' : 'published', r.tags.map((t: any) => t.name)])).toEqual([
      ['draft', ['linked (draft)']],
      ['published', ['linked']],
    ]);
  });
});

describe('strapi.db.query writes rows', () => {
  test('update, updateMany, create, createMany, delete and deleteMany answer as Strapi, firing its lifecycle events', async () => {
    const q = strapi.db.query('api::tag.tag');
    await q.deleteMany({});
    await strapi.documents('api::tag.tag').create({ data: { name: 'qa' }, status: 'published' });
    await strapi.documents('api::tag.tag').create({ data: { name: 'qb' } });
    const events: string[] = [];
    const off = strapi.db.lifecycles.subscribe({
      models: ['api::tag.tag'],
      ...Object.fromEntries(
        ['Create', 'Update', 'Delete', 'CreateMany', 'UpdateMany', 'DeleteMany']
          .flatMap((a) => [`before${a}`, `after${a}`])
          .map((name) => [name, (e: LifecycleEvent) => void events.push(e.action)]),
      ),
    });
    try {
      expect(await q.update({ where: { name: 'qb' }, data: { color: '#222222' }, select: ['name', 'color'] })).toEqual({ name: 'qb', color: '#222222' });
      expect(await q.update({ where: { name: 'nope' }, data: { color: '#222222' } })).toBeNull();
      expect(events.splice(0)).toEqual(['beforeUpdate', 'afterUpdate', 'beforeUpdate']);
      expect(await q.updateMany({ where: { name: 'qa' }, data: { color: '#333333' } })).toEqual({ count: 2 });
      expect(events.splice(0)).toEqual(['beforeUpdateMany', 'afterUpdateMany']);
      expect(await q.findMany({ select: ['name', 'color'], orderBy: 'id' })).toEqual([
        { name: 'qa', color: '#333333' },
        { name: 'qa', color: '#333333' },
        { name: 'qb', color: '#222222' },
      ]);
      expect(await q.create({ data: { name: 'qc', publishedAt: null }, select: ['name', 'publishedAt'] })).toEqual({ name: 'qc', publishedAt: null });
      expect(events.splice(0)).toEqual(['beforeCreate', 'afterCreate']);
      const many = await q.createMany({ data: [{ name: 'qd' }, { name: 'qe' }] });
      expect(many).toEqual({ count: 2, ids: [expect.any(Number), expect.any(Number)] });
      events.length = 0;
      expect(await q.delete({ where: { name: 'qc' }, select: ['name'] })).toEqual({ id: expect.any(Number), name: 'qc' });
      expect(events.splice(0)).toEqual(['beforeDelete', 'afterDelete']);
      expect(await q.deleteMany({ where: { name: { $in: ['qd', 'qe'] } } })).toEqual({ count: 2 });
      expect(events.splice(0)).toEqual(['beforeDeleteMany', 'afterDeleteMany']);
      expect(await q.findMany({ select: ['name'], orderBy: 'name' })).toEqual([{ name: 'qa' }, { name: 'qa' }, { name: 'qb' }]);
    } finally {
      off();
    }
  });

  test('a published row changes alone: its draft keeps its values, and the REST API shows the change', async () => {
    const q = strapi.db.query('api::tag.tag');
    const tag = await strapi.documents('api::tag.tag').create({ data: { name: 'row only' }, status: 'published' });
    await q.update({ where: { documentId: tag.documentId, publishedAt: { $notNull: true } }, data: { color: '#444444' } });
    const published = await server.call('GET', `/api/tags/${tag.documentId}`);
    expect(published.body.data.color).toBe('#444444');
    expect((await q.findOne({ where: { documentId: tag.documentId, publishedAt: null }, select: ['color'] })).color).toBeNull();
  });

  test('a bad where is refused with a 400 error, and nothing is written', async () => {
    const q = strapi.db.query('api::tag.tag');
    const before = await q.count();
    await expect(q.deleteMany({ where: { nope: 1 } })).rejects.toMatchObject({ status: 400 });
    await expect(q.update({ where: {}, data: { color: '#000000' } })).rejects.toThrow('Update requires a where parameter');
    expect(await q.count()).toBe(before);
  });

  test('inside a lifecycle handler, reads see the open write and writes join it', async () => {
    const seen: unknown[] = [];
    const off = strapi.db.lifecycles.subscribe({
      models: ['api::tag.tag'],
      async afterCreate(event: LifecycleEvent) {
        const row = event.result as { id: number; name: string; publishedAt: string | null };
        if (row.publishedAt || !row.name.startsWith('inside')) return;
        seen.push((await strapi.db.query('api::tag.tag').findOne({ where: { id: row.id }, select: ['name'] }))?.name);
        await strapi.db.query('api::tag.tag').update({ where: { id: row.id }, data: { color: '#555555' } });
      },
    });
    try {
      const tag = await strapi.documents('api::tag.tag').create({ data: { name: 'inside' } });
      expect(seen).toEqual(['inside']);
      expect((await strapi.db.query('api::tag.tag').findOne({ where: { documentId: tag.documentId }, select: ['color'] })).color).toBe('#555555');
    } finally {
      off();
    }
  });
});
