/**
 * Rows of `folio_admin_users` and `folio_admin_sessions` (migration 0009). Hashing and
 * the rules (who may log in, how long a session lives) are src/admin/accounts.ts's; this
 * reads and writes rows as it is given them.
 */
import type { Queryable } from '../database';
import { sql } from '../sql';

const USERS = sql.id('folio_admin_users');
const SESSIONS = sql.id('folio_admin_sessions');
const RESETS = sql.id('folio_admin_password_resets');

export interface AdminUserRow {
  id: number;
  email: string;
  /** The password hash; never sent anywhere. */
  password: string;
  role: string;
  blocked: number;
  /** Migration 0016; null until the admin gives one on their profile page. */
  firstname?: string | null;
  lastname?: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function countAdminUsers(db: Queryable): Promise<number> {
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${USERS}`))?.n ?? 0;
}

export const findAdminByEmail = (db: Queryable, email: string) => db.get<AdminUserRow>(sql`SELECT * FROM ${USERS} WHERE "email" = ${email}`);

export const listAdminUsers = (db: Queryable) => db.all<AdminUserRow>(sql`SELECT * FROM ${USERS} ORDER BY "id"`);

/** An admin user is also a relation target (migration 0010): a documentId, published when created. */
export function insertAdminUser(db: Queryable, row: { documentId: string; email: string; password: string; role: string; now: string }): Promise<number> {
  return db.insert(sql`INSERT INTO ${USERS} ("documentId", "email", "password", "role", "blocked", "createdAt", "updatedAt", "publishedAt")
    VALUES (${row.documentId}, ${row.email}, ${row.password}, ${row.role}, 0, ${row.now}, ${row.now}, ${row.now})`);
}

export async function insertAdminSession(db: Queryable, row: { tokenHash: string; userId: number; expiresAt: number; now: string }): Promise<void> {
  await db.run(
    sql`INSERT INTO ${SESSIONS} ("tokenHash", "userId", "expiresAt", "createdAt") VALUES (${row.tokenHash}, ${row.userId}, ${row.expiresAt}, ${row.now})`,
  );
}

/** The live session's user (not blocked), or undefined. */
export async function findSessionUser(db: Queryable, tokenHash: string, now: number): Promise<AdminUserRow | undefined> {
  return db.get<AdminUserRow>(sql`SELECT u.* FROM ${SESSIONS} s JOIN ${USERS} u ON u."id" = s."userId"
    WHERE s."tokenHash" = ${tokenHash} AND s."expiresAt" > ${now} AND u."blocked" = 0`);
}

export async function deleteAdminSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "tokenHash" = ${tokenHash}`);
}

/** Sessions past their time; called on each login so the table does not grow without end. */
export async function deleteExpiredAdminSessions(db: Queryable, now: number): Promise<void> {
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "expiresAt" <= ${now}`);
}

export const findAdminById = (db: Queryable, id: number) => db.get<AdminUserRow>(sql`SELECT * FROM ${USERS} WHERE "id" = ${id}`);

export async function countAdminsWithRole(db: Queryable, role: string): Promise<number> {
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${USERS} WHERE "role" = ${role}`))?.n ?? 0;
}

export async function setAdminRole(db: Queryable, id: number, role: string, now: string): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "role" = ${role}, "updatedAt" = ${now} WHERE "id" = ${id}`);
}

/** Deletes an admin and its sessions (so a cookie of theirs opens nothing from now on). */
export async function deleteAdminUser(db: Queryable, id: number): Promise<void> {
  await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${id}`);
  await db.run(sql`DELETE FROM ${USERS} WHERE "id" = ${id}`);
}

/** An admin's own name (the profile page). */
export async function setAdminNames(db: Queryable, id: number, names: { firstname: string | null; lastname: string | null }, now: string): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "firstname" = ${names.firstname}, "lastname" = ${names.lastname}, "updatedAt" = ${now} WHERE "id" = ${id}`);
}

/**
 * Sets an admin's password hash and ends their sessions and pending resets (a cookie or link of
 * before opens nothing); `keepTokenHash`: the one session that goes on (the admin changing it).
 */
export async function setAdminPassword(db: Queryable, id: number, hash: string, now: string, keepTokenHash: string | null = null): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "password" = ${hash}, "updatedAt" = ${now} WHERE "id" = ${id}`);
  if (keepTokenHash === null) await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${id}`);
  else await db.run(sql`DELETE FROM ${SESSIONS} WHERE "userId" = ${id} AND "tokenHash" <> ${keepTokenHash}`);
  await db.run(sql`DELETE FROM ${RESETS} WHERE "userId" = ${id}`);
}
/** Stores a reset link's token hash for an admin, in place of any earlier one; expired ones of anyone go too. */
export async function insertAdminReset(db: Queryable, row: { tokenHash: string; userId: number; expiresAt: number; now: number }): Promise<void> {
  await db.run(sql`DELETE FROM ${RESETS} WHERE "userId" = ${row.userId} OR "expiresAt" <= ${row.now}`);
  await db.run(
    sql`INSERT INTO ${RESETS} ("tokenHash", "userId", "expiresAt", "createdAt") VALUES (${row.tokenHash}, ${row.userId}, ${row.expiresAt}, ${new Date(row.now).toISOString()})`,
  );
}

/** Uses a reset link: deletes it and answers its admin's id while it is live (and the admin not blocked), in one statement. */
export async function consumeAdminReset(db: Queryable, tokenHash: string, now: number): Promise<number | undefined> {
  const row = await db.get<{ userId: number }>(sql`DELETE FROM ${RESETS} WHERE "tokenHash" = ${tokenHash} AND "expiresAt" > ${now}
    AND "userId" IN (SELECT "id" FROM ${USERS} WHERE "blocked" = 0) RETURNING "userId"`);
  return row === undefined ? undefined : Number(row.userId);
}
