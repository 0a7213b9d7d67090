/**
 * Ordering stress: thousands of positioned connects (and moves of linked items) on one
 * list keep exactly the order a plain array model predicts, and the fractional keys in
 * the link table stay short and distinct.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { ContentType } from '../../src/registry/types';
// mulberry32: a small seeded generator, so a failure can be replayed.
import { mulberry32 as random } from '../helpers/fuzz-query';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let articleType: ContentType;
let tagType: ContentType;
beforeAll(async () => {
  server = await startServer();
  articleType = server.instance.registry.contentType('api::article.article')!;
  tagType = server.instance.registry.contentType('api::tag.tag')!;
});
afterAll(() => server.stop());

type Position = { start: true } | { end: true } | { before: string } | { after: string };
type Element = string | { documentId: string; position: Position };

/** Applies one connect element to the model the way the spec says: remove, then place. */
function applyConnect(model: string[], id: string, position: Position): string[] {
  const without = model.filter((x) => x !== id);
  let index: number;
  if ('start' in position) index = 0;
  else if ('end' in position) index = without.length;
  else {
    const anchor = 'before' in position ? position.before : position.after;
    const at = without.indexOf(anchor);
    if (at < 0) throw new Error(`model: anchor ${anchor} not linked`);
    index = 'before' in position ? at : at + 1;
  }
  without.splice(index, 0, id);
  return without;
}

async function readOrder(path: string, attr: string, field: string): Promise<string[]> {
  const res = await server.call('GET', `/api/${path}?status=draft&populate[${attr}][fields][0]=${field}`);
  expect(res.status).toBe(200);
  return res.body.data[attr].map((x: any) => x[field]);
}

async function longestKey(table: string, column: string): Promise<number> {
  return (await server.instance.db.get<{ n: number }>(`SELECT max(length("${column}")) AS n FROM "${table}"`))!.n;
}

describe('ordering stress', () => {
  it('keeps the model’s exact order over 10,000 random positioned connects on one article’s tags, with short distinct keys', async () => {
    const seed = 20240604;
    const rnd = random(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
    const docs = server.instance.documents;

    const tags: string[] = [];
    const nameOf = new Map<string, string>();
    for (let i = 0; i < 50; i++) {
      const name = `tag-${String(i).padStart(2, '0')}`;
      const created = await docs.create(tagType, { name });
      tags.push(created.documentId);
      nameOf.set(created.documentId, name);
    }
    const article = (await docs.create(articleType, { title: 'stress' }, { status: 'draft' })).documentId;

    let model: string[] = [];
    let connects = 0;
    let batches = 0;
    let moves = 0;
    while (connects < 10_000) {
      const size = Math.min(1 + Math.floor(rnd() * 16), 10_000 - connects);
      const used = new Set<string>();
      const disconnect: string[] = [];
      // Now and then drop a few links, so new items keep arriving as well as moves.
      if (model.length > 10 && rnd() < 0.3) {
        for (let k = 0; k < 3; k++) {
          const victim = pick(model.filter((x) => !used.has(x)));
          used.add(victim);
          disconnect.push(victim);
        }
        model = model.filter((x) => !disconnect.includes(x));
      }
      const connect: Element[] = [];
      for (let k = 0; k < size; k++) {
        const id = pick(tags.filter((x) => !used.has(x)));
        used.add(id);
        if (model.includes(id)) moves++;
        const anchors = model.filter((x) => x !== id);
        const roll = rnd();
        let position: Position;
        if (roll < 0.15) position = { start: true };
        else if (roll < 0.3 || anchors.length === 0) position = { end: true };
        else if (roll < 0.65) position = { before: pick(anchors) };
        else position = { after: pick(anchors) };
        // A bare documentId means { end: true }.
        connect.push('end' in position && rnd() < 0.5 ? id : { documentId: id, position });
        model = applyConnect(model, id, position);
      }
      const written = await docs.update(articleType, article, { tags: { connect, ...(disconnect.length ? { disconnect } : {}) } }, { status: 'draft' });
      expect(written).not.toBeNull();
      connects += size;
      batches++;
      // Checked after every batch (over HTTP, status=draft): the read order is the model's.
      const order = await readOrder(`articles/${article}`, 'tags', 'name');
      const expected = model.map((id) => nameOf.get(id)!);
      if (JSON.stringify(order) !== JSON.stringify(expected)) {
        throw new Error(`seed ${seed}, batch ${batches}, after ${connects} connects:\n got ${order.join(',')}\nwant ${expected.join(',')}`);
      }
    }
    expect(moves).toBeGreaterThan(5_000);
    expect(await readOrder(`articles/${article}`, 'tags', 'name')).toEqual(model.map((id) => nameOf.get(id)!));

    const links = await server.instance.db.get<{ n: number }>('SELECT count(*) AS n FROM "articles_tags_lnk"');
    expect(links!.n).toBe(model.length);
    expect(await longestKey('articles_tags_lnk', 'position')).toBeLessThan(40);
    const shared = await server.instance.db.all(
      'SELECT "sourceId", "position", count(*) AS n FROM "articles_tags_lnk" GROUP BY "sourceId", "position" HAVING count(*) > 1',
    );
    expect(shared).toEqual([]);
  }, 60_000);

  it('keeps the exact order over 2,000 random positioned connects on the inverse side (tag.articles)', async () => {
    const seed = 7;
    const rnd = random(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
    const docs = server.instance.documents;
    const hub = (await docs.create(tagType, { name: 'hub' }, { status: 'draft' })).documentId;
    const articles: string[] = [];
    const titleOf = new Map<string, string>();
    for (let i = 0; i < 30; i++) {
      const created = await docs.create(articleType, { title: `art-${i}` }, { status: 'draft' });
      articles.push(created.documentId);
      titleOf.set(created.documentId, `art-${i}`);
    }
    let model: string[] = [];
    for (let done = 0; done < 2_000; ) {
      const size = Math.min(1 + Math.floor(rnd() * 8), 2_000 - done);
      const used = new Set<string>();
      const connect: Element[] = [];
      for (let k = 0; k < size; k++) {
        const id = pick(articles.filter((x) => !used.has(x)));
        used.add(id);
        const anchors = model.filter((x) => x !== id);
        const roll = rnd();
        let position: Position;
        if (roll < 0.2) position = { start: true };
        else if (roll < 0.4 || anchors.length === 0) position = { end: true };
        else if (roll < 0.7) position = { before: pick(anchors) };
        else position = { after: pick(anchors) };
        connect.push({ documentId: id, position });
        model = applyConnect(model, id, position);
      }
      await docs.update(tagType, hub, { articles: { connect } }, { status: 'draft' });
      done += size;
      const order = await readOrder(`tags/${hub}`, 'articles', 'title');
      expect({ seed, done, order }).toEqual({ seed, done, order: model.map((id) => titleOf.get(id)!) });
    }
    expect(await longestKey('articles_tags_lnk', 'inversePosition')).toBeLessThan(40);
  }, 60_000);

  it('keeps the exact order after 1,000 insertions at the same spot', async () => {
    const docs = server.instance.documents;
    const names = ['edge-a', 'edge-b', ...Array.from({ length: 20 }, (_, i) => `mover-${i}`)];
    const ids: string[] = [];
    for (const name of names) ids.push((await docs.create(tagType, { name })).documentId);
    const [a, b, ...movers] = ids;
    const article = (await docs.create(articleType, { title: 'same spot', tags: [a, b] }, { status: 'draft' })).documentId;
    let model = [a!, b!];
    for (let i = 0; i < 1_000; i++) {
      const id = movers[i % movers.length]!;
      // Always right after edge-a: every new key squeezes into the same, shrinking gap.
      await docs.update(articleType, article, { tags: { connect: [{ documentId: id, position: { after: a! } }] } }, { status: 'draft' });
      model = applyConnect(model, id, { after: a! });
    }
    const nameOf = new Map(ids.map((id, i) => [id, names[i]!]));
    expect(await readOrder(`articles/${article}`, 'tags', 'name')).toEqual(model.map((id) => nameOf.get(id)!));
  }, 60_000);
});
