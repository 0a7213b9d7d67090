/**
 * Installation secrets kept in `folio_store` (PostgreSQL), so every instance sharing the
 * database signs and checks with the same keys. Generating them is auth/secrets.ts's business.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const STORE = sql.id(SYSTEM.store);

/** Stores a value unless the key has one already (the first writer wins a race). */
export async function insertSecretIfAbsent(db: Queryable, key: string, value: string): Promise<void> {
  await db.run(sql`INSERT INTO ${STORE} ("key", "value") VALUES (${key}, ${value}) ON CONFLICT ("key") DO NOTHING`);
}

export async function readSecret(db: Queryable, key: string): Promise<string | undefined> {
  return (await db.get<{ value: string }>(sql`SELECT "value" FROM ${STORE} WHERE "key" = ${key}`))?.value;
}

/** Stores a value, replacing the key's current one (`folio copy` brings the source's secrets). */
export async function writeSecret(db: Queryable, key: string, value: string): Promise<void> {
  await db.run(sql`INSERT INTO ${STORE} ("key", "value") VALUES (${key}, ${value}) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"`);
}
