/**
 * A generated query reads the scalars its selection shows (graphql-js's default resolver reads
 * nothing else of a row), at the root and at every populated level, and answers the same: fields
 * asked of one relation through several fragments are all read, and once an extension resolves
 * a field, rows are read whole again (its resolver may read any field of its parent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { seedCreate, startServer, type TestServer } from '../helpers/server';
import { gql } from './helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ config: { answerCacheBytes: 0 }, quiet: true });
  const category = await seedCreate(server, '/api/categories', { name: 'Cat', slug: 'cat' });
  const author = await seedCreate(server, '/api/authors', { name: 'Ada', email: 'ada@example.com', bio: 'Bio of Ada' });
  for (let i = 0; i < 3; i++) {
    await seedCreate(server, '/api/articles', {
      title: `Article ${i}`,
      summary: `Summary ${i}`,
      views: i,
      category: category.documentId,
      author: author.documentId,
      blocks: [{ __component: 'shared.quote', title: `q${i}`, body: `quoted ${i}` }],
    });
  }
}, 60_000);
afterAll(() => server.stop());

/** The text of every statement `run` sends, with what it answered. */
async function statementsOf<T>(run: () => Promise<T>): Promise<{ texts: string[]; result: T }> {
  const db = server.instance.db as unknown as { all: (statement: unknown, params?: unknown[]) => Promise<unknown> };
  const original = db.all;
  const texts: string[] = [];
  db.all = function (this: unknown, statement: unknown, params?: unknown[]) {
    texts.push(typeof statement === 'string' ? statement : (statement as { compile(p: string): { text: string } }).compile('question').text);
    return original.call(this, statement, params);
  };
  try {
    return { texts, result: await run() };
  } finally {
    db.all = original;
  }
}

const QUERY = `{ articles(sort: "title") {
  title
  category { name }
  author { name }
  ... on Article { author { bio } }
  blocks { ... on ComponentSharedQuote { title } }
} }`;

describe('the columns a GraphQL query reads', () => {
  it('selects only the scalars the selection shows, at the root and in every populated relation and component', async () => {
    const { texts, result } = await statementsOf(() => gql(server, QUERY));
    expect(result.body.errors).toBeUndefined();
    const all = texts.join('\n');
    // Shown nowhere: not read.
    for (const column of ['"summary"', '"views"', '"slug"', '"email"', '"body"']) expect(all).not.toContain(column);
    for (const column of ['"title"', '"name"', '"bio"']) expect(all).toContain(column);
    expect(result.body.data.articles).toEqual(
      [0, 1, 2].map((i) => ({
        title: `Article ${i}`,
        category: { name: 'Cat' },
        author: { name: 'Ada', bio: 'Bio of Ada' },
        blocks: [{ title: `q${i}` }],
      })),
    );
  });

  it('reads whole rows once an extension resolves a field, which may read any field of its parent', async () => {
    server.instance.graphql.extension.use(() => ({
      typeDefs: 'extend type Article { teaser: String }',
      resolvers: {
        Article: {
          teaser: (parent: unknown) => {
            const { title, summary } = parent as { title: string; summary: string };
            return `${title}: ${summary}`;
          },
        },
      },
    }));
    const { texts, result } = await statementsOf(() => gql(server, '{ articles(sort: "title") { teaser author { name } } }'));
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.articles.map((a: { teaser: string }) => a.teaser)).toEqual([
      'Article 0: Summary 0',
      'Article 1: Summary 1',
      'Article 2: Summary 2',
    ]);
    expect(texts.join('\n')).toContain('"email"');
  });
});
