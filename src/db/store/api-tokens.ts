/**
 * Rows of `folio_api_tokens` and of a custom token's actions (`folio_api_token_permissions`).
 * Keys, their hashing and expiry are auth/tokens.ts's business; rows hold only the hash.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const TOKENS = sql.id(SYSTEM.apiTokens);
const TOKEN_ACTIONS = sql.id(SYSTEM.apiTokenPermissions);

export interface ApiTokenRow {
  id: number;
  name: string;
  description: string | null;
  type: 'read-only' | 'full-access' | 'custom';
  lifespan: number | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

/** Columns a token shows (never its key hash). */
const COLUMNS = sql.join(['id', 'name', 'description', 'type', 'lifespan', 'expiresAt', 'lastUsedAt', 'createdAt'].map((c) => sql.id(c)));

export const listTokens = (db: Queryable) => db.all<ApiTokenRow>(sql`SELECT ${COLUMNS} FROM ${TOKENS} ORDER BY "id"`);

export async function tokenNameExists(db: Queryable, name: string): Promise<boolean> {
  return !!(await db.get(sql`SELECT 1 AS x FROM ${TOKENS} WHERE "name" = ${name}`));
}

/** The token whose stored key hash is this, with the hash. */
export const findTokenByKeyHash = (db: Queryable, keyHash: string) =>
  db.get<ApiTokenRow & { accessKey: string }>(sql`SELECT ${COLUMNS}, "accessKey" FROM ${TOKENS} WHERE "accessKey" = ${keyHash}`);

/** A custom token's actions, sorted. */
export async function tokenActions(db: Queryable, tokenId: number): Promise<string[]> {
  const rows = await db.all<{ action: string }>(sql`SELECT "action" FROM ${TOKEN_ACTIONS} WHERE "tokenId" = ${tokenId} ORDER BY "action"`);
  return rows.map((r) => r.action);
}

export interface NewTokenRow {
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  keyHash: string;
  lifespan: number | null;
  expiresAt: string | null;
  now: string;
}

export function insertToken(db: Queryable, t: NewTokenRow): Promise<number> {
  return db.insert(sql`INSERT INTO ${TOKENS} ("documentId", "name", "description", "type", "accessKey", "lifespan", "expiresAt", "createdAt", "updatedAt")
    VALUES (${t.documentId}, ${t.name}, ${t.description}, ${t.type}, ${t.keyHash}, ${t.lifespan}, ${t.expiresAt}, ${t.now}, ${t.now})`);
}

export async function insertTokenAction(db: Queryable, tokenId: number, action: string): Promise<void> {
  await db.run(sql`INSERT INTO ${TOKEN_ACTIONS} ("tokenId", "action") VALUES (${tokenId}, ${action})`);
}

/** Deletes a token (its actions go with it, ON DELETE CASCADE); false when there was none. */
export async function deleteTokenByName(db: Queryable, name: string): Promise<boolean> {
  return (await db.run(sql`DELETE FROM ${TOKENS} WHERE "name" = ${name}`)).changes > 0;
}

/** Stores a new key hash for the named token; false when there is none. */
export async function setTokenKeyHash(db: Queryable, name: string, keyHash: string, now: string): Promise<boolean> {
  return (await db.run(sql`UPDATE ${TOKENS} SET "accessKey" = ${keyHash}, "updatedAt" = ${now} WHERE "name" = ${name}`)).changes > 0;
}

export async function setTokenLastUsed(db: Queryable, id: number, lastUsedAt: string): Promise<void> {
  await db.run(sql`UPDATE ${TOKENS} SET "lastUsedAt" = ${lastUsedAt} WHERE "id" = ${id}`);
}
