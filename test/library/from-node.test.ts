/**
 * One test file, two runners: `bun test test/library/from-node.test.ts` loads folio-cms's Bun
 * entry (src/index.ts, Folio in this process), `npx vitest run` (Node, vitest.config.mjs) its
 * Node entry (node/index.mjs: Folio in a child process, `documents` over HTTP). The same
 * front-end test passes under both: `url`, `token()`, `seeded`, `documents`, `stop()`.
 * Imports from 'vitest' (Bun's runner maps them to bun:test) and nothing Bun-only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startFolio, type Folio } from 'folio-cms';

const CONTENT_TYPES = fileURLToPath(new URL('./fixtures/content-types', import.meta.url));
const runner = typeof (globalThis as { Bun?: unknown }).Bun === 'undefined' ? 'node' : 'bun';

let folio: Folio;

beforeAll(async () => {
  folio = await startFolio({
    contentTypes: CONTENT_TYPES,
    database: ':memory:',
    tokens: ['full-access', 'read-only'],
    seed: {
      authors: [{ $key: 'ada', name: 'Ada Lovelace' }],
      posts: [{ $key: 'hello', title: 'Hello, world', author: '$ada' }],
    },
  });
}, 60_000);

afterAll(() => folio?.stop(), 30_000);

describe(`folio-cms under ${runner}`, () => {
  test('serves the seed over REST to each token of the tokens list, named after its type', async () => {
    const read = await fetch(`${folio.url}/api/posts?populate=author`, { headers: { Authorization: `Bearer ${folio.token('read-only')}` } });
    expect(read.status).toBe(200);
    const body = (await read.json()) as { data: { documentId: string; title: string; author: { name: string } }[] };
    expect(body.data.map((p) => [p.documentId, p.title, p.author.name])).toEqual([[folio.seeded.hello, 'Hello, world', 'Ada Lovelace']]);
    const write = await fetch(`${folio.url}/api/posts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${folio.token('read-only')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Not allowed' } }),
    });
    expect(write.status).toBe(403);
    expect(() => folio.token('0')).toThrow('no token named "0" (tokens: full-access, read-only)');
  });

  test('documents creates, updates, publishes, reads and deletes as the routes do', async () => {
    const posts = folio.contentType('posts');
    const draft = await folio.documents.create(posts, { title: 'A draft', author: folio.seeded.ada }, { status: 'draft' });
    expect(draft.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(draft.status).toBe('draft');
    expect(await folio.documents.findOne(posts, draft.documentId, await folio.readQuery(posts, {}))).toBeNull();

    const updated = await folio.documents.update(posts, draft.documentId, { body: 'Now with a body' }, { status: 'draft' });
    expect(updated?.documentId).toBe(draft.documentId);
    const published = await folio.documents.publish(posts, draft.documentId);
    expect(published?.documentId).toBe(draft.documentId);

    const found = await folio.documents.findMany(posts, await folio.readQuery(posts, { filters: { title: { $eq: 'A draft' } }, populate: ['author'] }));
    expect(found.data.map((p) => [p.documentId, p.body, (p.author as { name: string }).name])).toEqual([[draft.documentId, 'Now with a body', 'Ada Lovelace']]);
    expect(found.pagination).toMatchObject({ page: 1, total: 1 });
    expect(await folio.documents.findOne(posts, 'nothere0000000000000000', await folio.readQuery(posts, {}))).toBeNull();

    expect(await folio.documents.delete(posts, draft.documentId)).toBeGreaterThan(0);
    expect((await folio.documents.findMany(posts, await folio.readQuery(posts, {}))).data.map((p) => p.title)).toEqual(['Hello, world']);
  });

  test('a tokens option that is neither { name: type } nor a list of types is an error naming it', async () => {
    await expect(startFolio({ contentTypes: CONTENT_TYPES, database: ':memory:', tokens: ['full-access', 'root'] as never })).rejects.toThrow(
      'startFolio: tokens[1] must be a token type (read-only, full-access, custom), got "root"',
    );
    await expect(startFolio({ contentTypes: CONTENT_TYPES, database: ':memory:', tokens: ['read-only', 'read-only'] })).rejects.toThrow(
      'startFolio: tokens lists "read-only" twice',
    );
    await expect(startFolio({ contentTypes: CONTENT_TYPES, database: ':memory:', tokens: 'full-access' as never })).rejects.toThrow(
      'startFolio: tokens must be { name: type } or a list of token types, got "full-access"',
    );
  }, 60_000);
});
