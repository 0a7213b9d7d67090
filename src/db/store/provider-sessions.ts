/**
 * Rows of `folio_provider_sessions` (migration 0018): provider sign-ins in progress, by the
 * hash of their cookie's key. What they hold and how long they live is
 * auth/providers/connect.ts's business; times are milliseconds.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const TABLE = sql.id(SYSTEM.providerSessions);

export interface ProviderSessionRow {
  keyHash: string;
  provider: string;
  state: string | null;
  callback: string | null;
  response: string | null;
  expiresAt: number;
}

/** Starts a sign-in (and forgets expired ones, so the table holds live rows only). */
export async function insertProviderSession(db: Queryable, row: ProviderSessionRow, now: number): Promise<void> {
  await db.run(sql`DELETE FROM ${TABLE} WHERE "expiresAt" <= ${now}`);
  await db.run(sql`INSERT INTO ${TABLE} ("keyHash", "provider", "state", "callback", "response", "expiresAt")
    VALUES (${row.keyHash}, ${row.provider}, ${row.state}, ${row.callback}, ${row.response}, ${row.expiresAt})`);
}

export async function findProviderSession(db: Queryable, keyHash: string, now: number): Promise<ProviderSessionRow | undefined> {
  const row = await db.get<ProviderSessionRow>(sql`SELECT * FROM ${TABLE} WHERE "keyHash" = ${keyHash} AND "expiresAt" > ${now}`);
  return row && { ...row, expiresAt: Number(row.expiresAt) };
}

/** Sets what a sign-in holds after the provider called back: its tokens (or none, after an error); the state is spent. */
export async function completeProviderSession(db: Queryable, keyHash: string, response: string | null, expiresAt: number): Promise<void> {
  await db.run(sql`UPDATE ${TABLE} SET "state" = NULL, "callback" = NULL, "response" = ${response}, "expiresAt" = ${expiresAt} WHERE "keyHash" = ${keyHash}`);
}

export async function deleteProviderSession(db: Queryable, keyHash: string): Promise<void> {
  await db.run(sql`DELETE FROM ${TABLE} WHERE "keyHash" = ${keyHash}`);
}
