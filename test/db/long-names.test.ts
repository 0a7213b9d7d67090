/**
 * Names Folio builds from long collection and attribute names stay within PostgreSQL's 63
 * bytes (db/layout.ts fitIdentifier): a content type with a 60-character collection name, long
 * relation, morph, component and indexed attribute names starts twice with no schema change the
 * second time, every index it needs exists under a fitted name and the planner uses it; an
 * installation made by an older Folio (tables and indexes under the whole name on SQLite, under
 * PostgreSQL's cut of it there) is adopted: renamed, its rows kept, nothing made twice. Runs on
 * the engine under test (FOLIO_TEST_DATABASE_URL for PostgreSQL).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config';
import type { Database } from '../../src/db/database';
import { fitIdentifier, legacyName, MAX_IDENTIFIER_BYTES } from '../../src/db/layout';
import { desiredTables, planSchemaSync } from '../../src/db/schema-sync';
import { sql } from '../../src/db/sql';
import { openDatabase } from '../../src/instance';
import { loadRegistry } from '../../src/registry/load';
import type { Registry } from '../../src/registry/types';
import { startServer, tempDir, TEST_DATABASE_URL, type TestServer } from '../helpers/server';

const LONG_COLLECTION = 'reading_shelves_kept_for_the_longest_names_in_postgres_tests';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
};

/** A shelf whose every stored name passes 63 bytes, and a short-named note it links to. */
function contentTypes(): string {
  const dir = tempDir('folio-long-names-types-');
  dirs.push(dir);
  write(join(dir, 'shelf.json'), {
    kind: 'collectionType',
    collectionName: LONG_COLLECTION,
    info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string' },
      catalogueNumberGivenByTheLibrary: { type: 'string', unique: true },
      // Two link tables whose names share their first 63 bytes: PostgreSQL alone would make them one.
      recommendedNotesForAdults: { type: 'relation', relation: 'manyToMany', target: 'api::note.note', inversedBy: 'adultShelves' },
      recommendedNotesForChildren: { type: 'relation', relation: 'oneToMany', target: 'api::note.note' },
      attachedItemsFromAnywhere: { type: 'relation', relation: 'morphToMany' },
      bookmarks: { type: 'component', repeatable: true, component: 'shelving.bookmark-left-between-the-pages-of-long-books' },
    },
  });
  write(join(dir, 'note.json'), {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: {
      text: { type: 'string' },
      adultShelves: { type: 'relation', relation: 'manyToMany', target: 'api::shelf.shelf', mappedBy: 'recommendedNotesForAdults' },
    },
  });
  write(join(dir, 'components/shelving/bookmark-left-between-the-pages-of-long-books.json'), {
    info: { displayName: 'Bookmark' },
    attributes: { page: { type: 'integer' } },
  });
  return dir;
}

const byteLength = (name: string) => new TextEncoder().encode(name).length;

/** The DDL steps a sync would run now (notes and warnings left out). */
async function pendingChanges(db: Database, registry: Registry): Promise<string[]> {
  return (await planSchemaSync(db, registry)).filter((s) => s.sql || s.statements).map((s) => s.description);
}

async function seed(server: TestServer) {
  const note = async (text: string) => (await server.call('POST', '/api/notes', { body: { data: { text } } })).body.data.documentId;
  const [a, b, c] = [await note('a'), await note('b'), await note('c')];
  const res = await server.call('POST', '/api/shelves', {
    body: {
      data: {
        title: 'Top shelf',
        catalogueNumberGivenByTheLibrary: 'LIB-1',
        recommendedNotesForAdults: [b, a],
        recommendedNotesForChildren: [c],
        attachedItemsFromAnywhere: [{ __type: 'api::note.note', documentId: c }],
        bookmarks: [{ page: 12 }, { page: 40 }],
      },
    },
  });
  expect(res.status).toBe(201);
}

const READ = '/api/shelves?populate=*&filters[catalogueNumberGivenByTheLibrary][$eq]=LIB-1&sort=catalogueNumberGivenByTheLibrary';

/** What a client reads of the shelf (the shape the two starts must agree on). */
async function shelf(server: TestServer) {
  const res = await server.call('GET', READ);
  expect(res.status).toBe(200);
  const [s] = res.body.data;
  return {
    title: s.title,
    adults: s.recommendedNotesForAdults.map((n: any) => n.text),
    children: s.recommendedNotesForChildren.map((n: any) => n.text),
    attached: s.attachedItemsFromAnywhere.map((n: any) => [n.__type, n.text]),
    bookmarks: s.bookmarks.map((b: any) => b.page),
  };
}

const EXPECTED = { title: 'Top shelf', adults: ['b', 'a'], children: ['c'], attached: [['api::note.note', 'c']], bookmarks: [12, 40] };

/** The query plan's text for a statement, the planner told to avoid reading whole tables where it can. */
async function plan(db: Database, text: string): Promise<string> {
  if (db.dialect.name === 'sqlite') {
    return (await db.all<{ detail: string }>(sql.raw(`EXPLAIN QUERY PLAN ${text}`))).map((r) => r.detail).join('\n');
  }
  return db.transaction(async (tx) => {
    await tx.run(sql`SET LOCAL enable_seqscan = off`);
    await tx.run(sql`SET LOCAL enable_bitmapscan = off`);
    return (await tx.all<{ 'QUERY PLAN': string }>(sql.raw(`EXPLAIN ${text}`))).map((r) => r['QUERY PLAN']).join('\n');
  });
}

async function start(dataDir: string, types: string) {
  return startServer({ dataDir, contentTypes: types });
}

describe('generated names within 63 bytes', () => {
  test('every table and index of a long-named content type gets a distinct name of at most 63 bytes; names that fit are kept as they are', () => {
    const registry = loadRegistry(contentTypes());
    const db = {
      dialect: { name: 'postgres', textType: 'TEXT', idColumn: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY', orderKeyType: 'DOUBLE PRECISION' },
    } as unknown as Database;
    const tables = desiredTables(db, registry);
    const names = tables.flatMap((t) => [t.name, ...t.indexes.map((i) => i.name)]);
    expect(names.filter((n) => byteLength(n) > MAX_IDENTIFIER_BYTES)).toEqual([]);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    // Short names are untouched (existing installations keep theirs); the 60-character table too.
    expect(names).toContain('notes_version_uq');
    expect(names).toContain(LONG_COLLECTION);
    expect(fitIdentifier('articles_tags_lnk')).toBe('articles_tags_lnk');
    // A fitted name starts readable and says where it came from.
    const link = tables.find((t) => t.name.startsWith(`${LONG_COLLECTION}_recommendedNotesForA`.slice(0, 54)) && t.name !== LONG_COLLECTION)!;
    expect(link.name).toMatch(/^reading_shelves_.*_[0-9a-f]{8}$/);
    expect(legacyName(link.name, 'sqlite')).toMatch(/_lnk$/);
    expect(byteLength(legacyName(link.name, 'postgres')!)).toBe(MAX_IDENTIFIER_BYTES);
    // A name cut inside a multi-byte character keeps the character whole.
    expect(byteLength(fitIdentifier(`${'é'.repeat(40)}_idx`))).toBeLessThanOrEqual(MAX_IDENTIFIER_BYTES);
  });

  test('a content type with a 60-character collection name and long attribute names starts twice with no schema change the second time, its indexes present and used', async () => {
    const types = contentTypes();
    const dataDir = tempDir('folio-long-names-');
    dirs.push(dataDir);
    const first = await start(dataDir, types);
    try {
      await seed(first);
      expect(await shelf(first)).toEqual(EXPECTED);
      expect(await pendingChanges(first.instance.db, first.instance.registry)).toEqual([]);
    } finally {
      await first.stop({ keepData: true });
    }
    const second = await start(dataDir, types);
    try {
      const { db, registry } = second.instance;
      expect(await pendingChanges(db, registry)).toEqual([]);
      expect(await shelf(second)).toEqual(EXPECTED);
      const existing = await db.schema();
      for (const table of desiredTables(db, registry)) {
        expect(existing.columns.has(table.name.toLowerCase())).toBe(true);
        for (const index of table.indexes)
          expect({ table: table.name, index: index.name, exists: existing.indexes.has(index.name.toLowerCase()) }).toEqual({
            table: table.name,
            index: index.name,
            exists: true,
          });
      }
      // The planner reads through the fitted names: the sort index of the long attribute, a link table's source index.
      const sortIndex = fitIdentifier(`${LONG_COLLECTION}_catalogueNumberGivenByTheLibrary_idx`);
      const q = (name: string) => sql.id(name).toString();
      expect(
        await plan(
          db,
          `SELECT ${q('id')} FROM ${q(LONG_COLLECTION)} WHERE ${q('locale')} = 'en' AND ${q('publishedAt')} IS NOT NULL ORDER BY ${q('catalogueNumberGivenByTheLibrary')} LIMIT 5`,
        ),
      ).toContain(sortIndex);
      const link = registry.contentType('api::shelf.shelf')!.attributes.recommendedNotesForAdults as { linkTable: string };
      expect(await plan(db, `SELECT ${q('targetDocumentId')} FROM ${q(link.linkTable)} WHERE ${q('sourceId')} = 1 ORDER BY ${q('position')}`)).toContain(
        fitIdentifier(`${link.linkTable}_source_idx`),
      );
    } finally {
      await second.stop();
    }
  }, 120_000);

  test('an installation an older Folio made under the long names (cut by PostgreSQL) is adopted at start: renamed, rows kept, nothing made twice', async () => {
    const types = contentTypes();
    const dataDir = tempDir('folio-long-names-legacy-');
    dirs.push(dataDir);
    const first = await start(dataDir, types);
    const engine = first.instance.db.dialect.name;
    const legacy: string[] = [];
    try {
      await seed(first);
      // Lay the installation out as the older Folio did: every fitted table and index under its old
      // name. On PostgreSQL an old name several objects were cut to never existed (the older Folio
      // failed to start: a table over 63 bytes cuts to the same name as its indexes).
      const { db, registry } = first.instance;
      const tables = desiredTables(db, registry);
      const olds = tables
        .flatMap((t) => [t.name, ...t.indexes.map((i) => i.name)])
        .map((n) => legacyName(n, engine))
        .filter(Boolean);
      const once = (name: string | undefined): name is string => !!name && olds.filter((o) => o === name).length === 1;
      const statements: string[] = [];
      for (const table of tables) {
        for (const index of table.indexes) {
          const old = legacyName(index.name, engine);
          if (!once(old)) continue;
          legacy.push(old);
          statements.push(`DROP INDEX ${sql.id(index.name)}`, index.sql.replace(sql.id(index.name).toString(), sql.id(old).toString()));
        }
        const old = legacyName(table.name, engine);
        if (once(old)) {
          legacy.push(old);
          statements.push(`ALTER TABLE ${sql.id(table.name)} RENAME TO ${sql.id(old)}`);
        }
      }
      expect(legacy.length).toBeGreaterThan(5);
      await db.transaction(async (tx) => {
        for (const statement of statements) await tx.exec(statement);
      });
    } finally {
      await first.stop({ keepData: true });
    }

    // What the next start plans: renames (indexes remade on SQLite), no table made anew.
    const config = resolveConfig({ data: dataDir, contentTypes: types });
    const db = openDatabase(TEST_DATABASE_URL ? { ...config, databaseUrl: await Bun.file(join(dataDir, 'test-database-url')).text() } : config);
    try {
      const steps = await pendingChanges(db, loadRegistry(types));
      expect(steps.filter((s) => s.startsWith('create table'))).toEqual([]);
      // SQLite: the link, morph and component tables; PostgreSQL: the long-named table's cut index names.
      expect(steps.filter((s) => s.startsWith(engine === 'sqlite' ? 'rename table' : 'rename index')).length).toBeGreaterThanOrEqual(3);
    } finally {
      db.close();
    }

    const second = await start(dataDir, types);
    try {
      expect(await shelf(second)).toEqual(EXPECTED);
      const { db: live, registry } = second.instance;
      expect(await pendingChanges(live, registry)).toEqual([]);
      const existing = await live.schema();
      const left = legacy.filter((name) => existing.columns.has(name.toLowerCase()) || existing.indexes.has(name.toLowerCase()));
      expect(left).toEqual([]);
      // Writes go on through the adopted tables.
      const more = await second.call('POST', '/api/shelves', {
        body: { data: { title: 'Second', catalogueNumberGivenByTheLibrary: 'LIB-2', bookmarks: [{ page: 1 }] } },
      });
      expect(more.status).toBe(201);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
