/**
 * The benchmark's content, as JSON Lines for `folio import`: 5 categories, 5 authors,
 * 10 tags, then articles that each have a category, an author, 3 tags, a seo component
 * and a two-item dynamic zone (the shape of the Strapi peer's bench.sh, plus the parts).
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';

export const CATEGORIES = 5;
export const AUTHORS = 5;
export const TAGS = 10;

/** documentIds of the imported targets, read back from the database. */
export interface Refs {
  categories: string[];
  authors: string[];
  tags: string[];
}

const lines = (items: unknown[]) => items.map((item) => JSON.stringify(item)).join('\n') + '\n';

/** Target number `i` of each kind (0-based), as the REST `data` objects both Folio's import and the Strapi peer's seed send. */
export const targetData = {
  categories: (i: number) => ({ name: `Bench category ${i}`, slug: `bench-c${i}`, position: i }),
  authors: (i: number) => ({ name: `Bench author ${i}`, email: `bench-${i}@example.com`, bio: 'Writes benchmarks.' }),
  tags: (i: number) => ({ name: `bench-t${i}`, color: '#123456' }),
};
export const TARGET_COUNTS = { categories: CATEGORIES, authors: AUTHORS, tags: TAGS };

/** Writes categories.jsonl, authors.jsonl and tags.jsonl into `dir`; returns their paths by plural API id. */
export async function writeTargets(dir: string): Promise<Record<'categories' | 'authors' | 'tags', string>> {
  const files = {
    categories: join(dir, 'categories.jsonl'),
    authors: join(dir, 'authors.jsonl'),
    tags: join(dir, 'tags.jsonl'),
  };
  for (const kind of ['categories', 'authors', 'tags'] as const) {
    await Bun.write(files[kind], lines(Array.from({ length: TARGET_COUNTS[kind] }, (_, i) => targetData[kind](i))));
  }
  return files;
}

/** The part of a Folio instance the in-process benches seed through (any checkout's: `--tree`). */
export interface SeedableInstance {
  documents: { create(type: never, data: Record<string, unknown>): Promise<{ documentId: string }> };
  registry: { contentType(uid: string): unknown };
}

/**
 * Creates the bench's targets (targetData, TARGET_COUNTS) through an instance's document
 * service, one by one in order, for the benches that run Folio in-process (write-cpu.ts,
 * pg-create-cpu.ts, pg-create-ab.ts); answers their documentIds.
 */
export async function createTargets(instance: SeedableInstance): Promise<Refs> {
  const singular = { categories: 'category', authors: 'author', tags: 'tag' } as const;
  const refs: Refs = { categories: [], authors: [], tags: [] };
  for (const kind of ['categories', 'authors', 'tags'] as const) {
    const type = instance.registry.contentType(`api::${singular[kind]}.${singular[kind]}`) as never;
    for (let i = 0; i < TARGET_COUNTS[kind]; i++) refs[kind].push((await instance.documents.create(type, targetData[kind](i))).documentId);
  }
  return refs;
}

/** The documentIds of the published targets, in creation order. */
export function readRefs(dbPath: string): Refs {
  const db = new Database(dbPath, { readonly: true });
  try {
    const ids = (table: string) =>
      (db.query(`SELECT DISTINCT documentId FROM ${table} ORDER BY id`).all() as { documentId: string }[]).map((r) => r.documentId);
    return { categories: ids('categories'), authors: ids('authors'), tags: ids('tags') };
  } finally {
    db.close();
  }
}

/** Article number `i` (0-based). `views` spreads over 0..99,999 so a sort on it is not the id order. */
export function article(i: number, refs: Refs): Record<string, unknown> {
  const t = refs.tags.length;
  return {
    title: `Bench article ${i}`,
    summary: `Summary of bench article ${i}. `.repeat(3),
    body: [{ type: 'paragraph', children: [{ type: 'text', text: `Body of article ${i}` }] }],
    kind: ['news', 'guide', 'opinion'][i % 3],
    views: (i * 7919) % 100_000,
    rating: (i % 5) + 0.5,
    featured: i % 10 === 0,
    publishDate: '2024-01-15',
    category: refs.categories[i % refs.categories.length],
    author: refs.authors[i % refs.authors.length],
    tags: [refs.tags[i % t], refs.tags[(i + 3) % t], refs.tags[(i + 6) % t]],
    seo: { metaTitle: `Bench article ${i}`, metaDescription: 'Seo description of a bench article.' },
    blocks: [
      { __component: 'shared.quote', title: 'A quote', body: `Quoted in article ${i}.` },
      { __component: 'shared.rich-text', body: `## Rich text of article ${i}` },
    ],
  };
}

/** Streams `count` articles to a JSON Lines file without holding them in memory. */
export async function writeArticles(file: string, count: number, refs: Refs): Promise<void> {
  const writer = Bun.file(file).writer({ highWaterMark: 1 << 20 });
  for (let i = 0; i < count; i++) {
    writer.write(JSON.stringify(article(i, refs)) + '\n');
    if (i % 10_000 === 9_999) await writer.flush();
  }
  await writer.end();
}
