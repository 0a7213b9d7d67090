/**
 * Both engines run statements made by the SQL builder: placeholders rendered for the
 * engine, parameters bound in order, inserts returning their id.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Database } from '../../src/db/database';
import { sql } from '../../src/db/sql';
import { openDatabase } from '../../src/instance';
import { resolveConfig } from '../../src/config';
import { createDatabase, dropDatabases } from '../helpers/postgres';
import { TEST_DATABASE_URL, tempDir } from '../helpers/server';

let db: Database;
let url: string | undefined;

beforeAll(async () => {
  const dataDir = tempDir();
  url = TEST_DATABASE_URL ? await createDatabase(TEST_DATABASE_URL, 'folio_builder') : `sqlite:${join(dataDir, 'b.db')}`;
  db = openDatabase(resolveConfig({ data: dataDir, database: url }));
  await db.exec(`CREATE TABLE items ("id" ${db.dialect.idColumn}, "name" TEXT NOT NULL, "rank" INTEGER)`);
});

afterAll(async () => {
  db.close();
  if (TEST_DATABASE_URL && url) await dropDatabases(TEST_DATABASE_URL, [url]);
});

test('inserts return the new id and bind every value where it was written', async () => {
  const items = sql.id('items');
  const first = await db.insert(sql`INSERT INTO ${items} (${sql.id('name')}, ${sql.id('rank')}) VALUES (${'alpha'}, ${2})`);
  const second = await db.transaction((tx) => tx.insert(sql`INSERT INTO ${items} ("name", "rank") VALUES (${'beta'}, ${1})`));
  expect(second).toBeGreaterThan(first);
  const where = sql.and([sql`"rank" >= ${1}`, sql`"name" IN (${sql.list(['alpha', 'beta', 'gamma'])})`]);
  const rows = await db.all<{ name: string }>(sql`SELECT "name" FROM ${items} WHERE ${where} ORDER BY "rank" DESC`);
  expect(rows.map((r) => r.name)).toEqual(['alpha', 'beta']);
});

test('a subquery with its own parameters binds them in its own place, on both engines', async () => {
  const inner = sql`(SELECT MAX("rank") FROM "items" WHERE "name" <> ${'nobody'})`;
  const row = await db.get<{ name: string }>(sql`SELECT "name" FROM "items" WHERE "rank" = ${inner} AND "name" LIKE ${'a%'}`);
  expect(row?.name).toBe('alpha');
  const changed = await db.run(sql`UPDATE "items" SET "rank" = ${5} WHERE "name" = ${'beta'}`);
  expect(changed.changes).toBe(1);
});
