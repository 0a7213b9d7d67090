/**
 * The benchmark's example data set, written straight through the document service (fast
 * on both engines): 5 categories, 5 authors (each mentored by the one before), 10 tags and
 * 100 published articles, each with a category, an author, 3 tags, a `seo` component and a
 * two-item dynamic zone. The request-limit tests measure the worst query shapes against it.
 */
import type { TestServer } from '../helpers/server';

export const EXAMPLE = { categories: 5, authors: 5, tags: 10, articles: 100 } as const;

export async function seedExampleData(server: TestServer): Promise<void> {
  const { documents, registry } = server.instance;
  const type = (uid: string) => registry.contentType(uid)!;
  const create = async (uid: string, data: Record<string, unknown>) => (await documents.create(type(uid), data)).documentId;
  const categories: string[] = [];
  const authors: string[] = [];
  const tags: string[] = [];
  for (let i = 0; i < EXAMPLE.categories; i++) categories.push(await create('api::category.category', { name: `Category ${i}`, slug: `category-${i}` }));
  for (let i = 0; i < EXAMPLE.authors; i++) {
    authors.push(await create('api::author.author', { name: `Author ${i}`, email: `author${i}@example.com`, ...(i ? { mentor: authors[i - 1] } : {}) }));
  }
  for (let i = 0; i < EXAMPLE.tags; i++) tags.push(await create('api::tag.tag', { name: `tag ${i}` }));
  const articles = Array.from({ length: EXAMPLE.articles }, (_, i) => ({
    title: `Article ${String(i).padStart(3, '0')}`,
    summary: `Summary of article ${i}`,
    views: (i * 37) % 101,
    category: categories[i % EXAMPLE.categories],
    author: authors[i % EXAMPLE.authors],
    tags: [tags[i % 10], tags[(i + 3) % 10], tags[(i + 7) % 10]],
    seo: { metaTitle: `Meta ${i}` },
    blocks: [
      { __component: 'shared.quote', title: `Quote ${i}`, body: 'To be' },
      { __component: 'shared.rich-text', body: `## Part ${i}` },
    ],
  }));
  await documents.createMany(type('api::article.article'), articles);
}
