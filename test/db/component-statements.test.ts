/**
 * Copying and deleting what a version owns (publish, new locales, syncing non-localized
 * parts) asks every component table, and the media-link table, in one statement, and copies
 * a table of components that own nothing else in one statement whatever its number of rows:
 * the statement count of a publish no longer grows with the tables a type could use.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Queryable } from '../../src/db/database';
import { sql } from '../../src/db/sql';
import { copyComponents, deleteOwnedParts } from '../../src/documents/components/rows';
import type { ContentType } from '../../src/registry/types';
import { startServer, type TestServer } from '../helpers/server';
import { makeImage, upload, UPLOAD_ACTIONS } from '../upload/helpers';

let server: TestServer;
let article: ContentType;
let draftId: number;
/** An owner id no version has: the copies go there, inside a transaction that is rolled back. */
const ELSEWHERE = 987_654;

beforeAll(async () => {
  server = await startServer({ quiet: true });
  article = server.instance.registry.contentType('api::article.article')!;
  const created = await server.call('POST', '/api/articles', {
    body: {
      data: {
        title: 'Owns components',
        seo: { metaTitle: 'Seo title' },
        blocks: [
          { __component: 'shared.quote', title: 'One', body: 'first' },
          { __component: 'shared.rich-text', body: 'Between' },
          { __component: 'shared.quote', title: 'Two', body: 'second' },
          { __component: 'shared.quote', title: 'Three', body: 'third' },
        ],
      },
    },
  });
  expect(created.status).toBe(201);
  const row = await server.instance.db.get<{ id: number }>(
    sql`SELECT "id" FROM "articles" WHERE "documentId" = ${created.body.data.documentId} AND "publishedAt" IS NULL`,
  );
  draftId = row!.id;
});

afterAll(async () => {
  await server.stop();
});

class Rollback extends Error {}

/** Runs `fn` in a write transaction that is always rolled back; returns what it gave. */
async function rolledBack<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await server.instance.db
    .transaction(async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result!;
}

const countOwned = (tx: Queryable, table: string, ownerId: number) =>
  tx.all<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${sql.id(table)} WHERE "__ownerId" = ${ownerId}`).then((r) => Number(r[0]!.n));

test('copying a version with three quotes, a rich text and a seo component takes one read and one statement per table of plain components', async () => {
  const { registry } = server.instance;
  const value = await rolledBack(async (tx) => {
    const start = server.instance.db.statementCount;
    await copyComponents(tx, registry, article, draftId, ELSEWHERE);
    const copying = server.instance.db.statementCount - start;
    const quotes = await countOwned(tx, 'components_shared_quotes', ELSEWHERE);
    const texts = await countOwned(tx, 'components_shared_rich_texts', ELSEWHERE);
    const seos = await countOwned(tx, 'components_shared_seos', ELSEWHERE);
    return { copying, quotes, texts, seos };
  });
  expect({ quotes: value.quotes, texts: value.texts, seos: value.seos }).toEqual({ quotes: 3, texts: 1, seos: 1 });
  // One read of all five component tables (and of media links: none); one INSERT … SELECT per
  // table that holds rows: seo (no image), quotes, rich texts.
  expect(value.copying).toBe(4);
});

test('deleting what a version owns reads its component tables once and clears only the tables that hold rows', async () => {
  const { registry } = server.instance;
  const value = await rolledBack(async (tx) => {
    const start = server.instance.db.statementCount;
    await deleteOwnedParts(tx, registry, article, [draftId]);
    const deleting = server.instance.db.statementCount - start;
    const quotes = await countOwned(tx, 'components_shared_quotes', draftId);
    const seos = await countOwned(tx, 'components_shared_seos', draftId);
    return { deleting, quotes, seos };
  });
  expect({ quotes: value.quotes, seos: value.seos }).toEqual({ quotes: 0, seos: 0 });
  // One read (rows and media links); then the seo, quote and rich-text rows; no media links to delete.
  expect(value.deleting).toBe(4);
});

test("a seo component holding an image is copied row by row with its media link, and the owner's own media links are reported", async () => {
  const { registry } = server.instance;
  await server.instance.roles.grant('public', UPLOAD_ACTIONS);
  const uploaded = await upload(server.url, { files: [{ bytes: await makeImage(4, 4), filename: 'dot.png', type: 'image/png' }] });
  expect(uploaded.status).toBe(201);
  const fileId = uploaded.body[0].id as number;
  const created = await server.call('POST', '/api/articles', {
    body: { data: { title: 'With images', cover: fileId, seo: { metaTitle: 'Seo with image', shareImage: fileId } } },
  });
  expect(created.status).toBe(201);
  const row = await server.instance.db.get<{ id: number }>(
    sql`SELECT "id" FROM "articles" WHERE "documentId" = ${created.body.data.documentId} AND "publishedAt" IS NULL`,
  );
  const value = await rolledBack(async (tx) => {
    const start = server.instance.db.statementCount;
    const ownerMedia = await copyComponents(tx, registry, article, row!.id, ELSEWHERE);
    const copying = server.instance.db.statementCount - start;
    const links = await tx.all<{ n: number }>(
      sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM "files_related_mph" m JOIN "components_shared_seos" c ON c."id" = m."relatedId"
        WHERE m."relatedType" = 'shared.seo' AND c."__ownerId" = ${ELSEWHERE}`,
    );
    return { ownerMedia, copying, links: Number(links[0]!.n) };
  });
  // One read; the seo row on its own (its new id is needed), then its media link.
  expect(value).toEqual({ ownerMedia: true, copying: 3, links: 1 });
});

test("deleting what fourteen thousand rows own stays within PostgreSQL's limit of 65,535 bound values per statement", async () => {
  const { registry } = server.instance;
  const many = Array.from({ length: 14_000 }, (_, i) => ELSEWHERE + i);
  const value = await rolledBack(async (tx) => {
    await deleteOwnedParts(tx, registry, article, many);
    return countOwned(tx, 'components_shared_quotes', draftId);
  });
  // The document's own components were not among them.
  expect(value).toBe(3);
});
