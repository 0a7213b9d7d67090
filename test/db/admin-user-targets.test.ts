/**
 * Migration 0010 makes Folio Admin's accounts relation targets (`admin::user`): an installation
 * that already has admin users gives each a documentId in the shape documents have and a
 * publishedAt, so links written later can name them. Replayed on a real installation, both engines.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { AdminAccounts } from '../../src/admin/accounts';
import { migrateSystem } from '../../src/db/migrate';
import { sql } from '../../src/db/sql';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

test('admin users made before migration 0010 get a documentId and a publishedAt when it runs', async () => {
  const db = server.instance.db;
  // Back to the table as 0009 left it, with two admins in it.
  await db.exec(`DROP INDEX folio_admin_users_document;
ALTER TABLE folio_admin_users DROP COLUMN "documentId";
ALTER TABLE folio_admin_users DROP COLUMN "locale";
ALTER TABLE folio_admin_users DROP COLUMN "publishedAt";
DELETE FROM folio_migrations WHERE "name" = '0010_admin_user_targets';`);
  for (const email of ['one@example.com', 'two@example.com']) {
    await db.run(sql`INSERT INTO ${sql.id('folio_admin_users')} ("email", "password", "role", "blocked", "createdAt", "updatedAt")
      VALUES (${email}, 'x', 'super-admin', 0, '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')`);
  }

  expect(await migrateSystem(db)).toEqual(['0010_admin_user_targets']);
  const rows = await db.all<{ documentId: string; locale: string; publishedAt: string }>(
    sql`SELECT "documentId", "locale", "publishedAt" FROM ${sql.id('folio_admin_users')} ORDER BY "id"`,
  );
  expect(rows).toHaveLength(2);
  for (const row of rows) {
    expect(row.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(row).toMatchObject({ locale: '', publishedAt: '2026-01-02T03:04:05.678Z' });
  }
  expect(rows[0]!.documentId).not.toBe(rows[1]!.documentId);

  // Accounts made afterwards get theirs from the document id generator.
  const made = await new AdminAccounts(db).create({ email: 'three@example.com', password: 'correct horse battery' });
  const [row] = await db.all<{ documentId: string; publishedAt: string | null }>(
    sql`SELECT "documentId", "publishedAt" FROM ${sql.id('folio_admin_users')} WHERE "id" = ${made.id}`,
  );
  expect(row!.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
  expect(row!.publishedAt).not.toBeNull();
});
