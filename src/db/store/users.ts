/**
 * Rows of `folio_users` (the users & permissions plugin's accounts). Hashing, checks and
 * who may change what live in auth/users.ts; this reads and writes rows as they are given.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql, type Sql } from '../sql';
import type { ColumnValue } from '../../registry/fields/field';

const USERS = sql.id(SYSTEM.users);
const ROLES = sql.id(SYSTEM.roles);

/** Columns a user object shows (never the password, reset code or token version). */
export const USER_PUBLIC_COLUMNS = [
  'id',
  'documentId',
  'username',
  'email',
  'provider',
  'confirmed',
  'blocked',
  'createdAt',
  'updatedAt',
  'publishedAt',
] as const;

export interface UserRow {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: number;
  blocked: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
  /** The password hash, NULL for accounts without one. */
  password: string | null;
  roleId: number | null;
  /** The type of the user's role, joined in. */
  roleType: string | null;
  tokenVersion: number;
}

// Every column: the project's user extension adds its own (auth/users.ts picks what a user object shows).
const SELECT_USER = sql`SELECT u.*, r."type" AS "roleType" FROM ${USERS} u LEFT JOIN ${ROLES} r ON r."id" = u."roleId"`;

const oneUser = (db: Queryable, where: Sql) => db.get<UserRow>(sql`${SELECT_USER} WHERE ${where}`);

export const findUserById = (db: Queryable, id: number) => oneUser(db, sql`u."id" = ${id}`);

/** The local account (provider `local`, as Strapi's login asks) whose email (stored lower-cased) or username is this. */
export const findUserByIdentifier = (db: Queryable, email: string, username: string) =>
  oneUser(db, sql`u."provider" = 'local' AND (u."email" = ${email} OR u."username" = ${username})`);

/** The account with this (lower-cased) e-mail, whatever its provider. */
export const findUserByEmail = (db: Queryable, email: string) => oneUser(db, sql`u."email" = ${email}`);

export const findUserByResetToken = (db: Queryable, tokenHash: string) => oneUser(db, sql`u."resetPasswordToken" = ${tokenHash}`);

export const findUserByConfirmationToken = (db: Queryable, tokenHash: string) => oneUser(db, sql`u."confirmationToken" = ${tokenHash}`);

/**
 * Confirms the account holding this confirmation token's hash and forgets the token, in one
 * statement: of two requests with the same link, one confirms and the other finds nothing.
 */
export async function consumeConfirmationToken(db: Queryable, tokenHash: string, now: string): Promise<number | undefined> {
  const row = await db.get<{ id: number }>(sql`UPDATE ${USERS} SET "confirmed" = 1, "confirmationToken" = NULL, "updatedAt" = ${now}
    WHERE "confirmationToken" = ${tokenHash} RETURNING "id"`);
  return row?.id;
}

/** Stores a confirmation token's hash on an account (a new one replaces the old). */
export async function setConfirmationToken(db: Queryable, id: number, tokenHash: string): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "confirmationToken" = ${tokenHash} WHERE "id" = ${id}`);
}

/**
 * Whether an account could be confused with a new registration, as Strapi's register checks:
 * the e-mail or the username used as either by another account. `provider` narrows it to
 * accounts of that provider (Strapi's first check), undefined looks at every account.
 */
export async function registrationConflict(db: Queryable, email: string, username: string, provider?: string): Promise<boolean> {
  const of = provider === undefined ? sql.empty : sql` AND "provider" = ${provider}`;
  return !!(await db.get(sql`SELECT 1 AS x FROM ${USERS}
    WHERE ("email" = ${email} OR "username" = ${email} OR "username" = ${username} OR "email" = ${username})${of}`));
}

export interface UserListQuery {
  /** A condition over the rows, aliased `t` (the query compiler's filters); empty for all. */
  where: Sql;
  /** ORDER BY keys over `t`. */
  order: Sql;
  page?: { limit: number; offset: number };
  /** Only this user (`GET /api/users/me` with its filters). */
  id?: number;
}

/** Users for `GET /api/users`: public columns only, filtered, sorted and paged by the query layer. */
export function listUsers(db: Queryable, query: UserListQuery): Promise<UserRow[]> {
  const conditions = [...(query.where.isEmpty ? [] : [query.where]), ...(query.id === undefined ? [] : [sql`t."id" = ${query.id}`])];
  const where = conditions.length
    ? sql` WHERE ${sql.join(
        conditions.map((c) => sql`(${c})`),
        ' AND ',
      )}`
    : sql.empty;
  const page = query.page ? sql` LIMIT ${query.page.limit} OFFSET ${query.page.offset}` : sql.empty;
  return db.all<UserRow>(sql`SELECT t.* FROM ${USERS} t${where} ORDER BY ${query.order}${page}`);
}

/** How many users `where` (a condition over the rows, aliased `t`; empty for all) matches. */
export async function countUsers(db: Queryable, where: Sql = sql.empty): Promise<number> {
  const condition = where.isEmpty ? sql.empty : sql` WHERE ${where}`;
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${USERS} t${condition}`))?.n ?? 0;
}

export async function countUsersWithRole(db: Queryable, roleId: number): Promise<number> {
  return (await db.get<{ n: number }>(sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM ${USERS} WHERE "roleId" = ${roleId}`))?.n ?? 0;
}

/** Whether an account has this username. */
export async function usernameTaken(db: Queryable, username: string): Promise<boolean> {
  return !!(await db.get(sql`SELECT 1 AS x FROM ${USERS} WHERE "username" = ${username}`));
}

/** Whether another account (not `exceptId`) has this email or this username. */
export async function emailOrUsernameTaken(db: Queryable, email: string, username: string, exceptId?: number): Promise<boolean> {
  const other = exceptId === undefined ? sql.empty : sql` AND "id" <> ${exceptId}`;
  return !!(await db.get(sql`SELECT 1 AS x FROM ${USERS} WHERE ("email" = ${email} OR "username" = ${username})${other}`));
}

export interface NewUserRow {
  documentId: string;
  username: string;
  email: string;
  provider: string;
  /** NULL for an account a provider signs in (it has no password here). */
  password: string | null;
  confirmed: number;
  blocked: number;
  roleId: number;
  /** createdAt, updatedAt and publishedAt. */
  now: string;
  /** Columns of the user extension's attributes (names from the compiled model, never from a request). */
  extra?: Record<string, ColumnValue>;
}

export function insertUser(db: Queryable, u: NewUserRow): Promise<number> {
  const extra = Object.entries(u.extra ?? {});
  const names = extra.length ? sql`, ${sql.join(extra.map(([n]) => sql.id(n)))}` : sql.empty;
  const values = extra.length ? sql`, ${sql.join(extra.map(([, v]) => sql`${v}`))}` : sql.empty;
  return db.insert(sql`INSERT INTO ${USERS} ("documentId", "username", "email", "provider", "password", "confirmed", "blocked", "roleId", "createdAt", "updatedAt", "publishedAt"${names})
    VALUES (${u.documentId}, ${u.username}, ${u.email}, ${u.provider}, ${u.password}, ${u.confirmed}, ${u.blocked}, ${u.roleId}, ${u.now}, ${u.now}, ${u.now}${values})`);
}

/** Columns an update may set; a new password hash also takes the two below along (see `passwordSet`). */
export interface UserChangesRow {
  username?: string;
  email?: string;
  password?: string;
  blocked?: number;
  confirmed?: number;
  provider?: string;
  roleId?: number;
}

const CHANGEABLE = ['username', 'email', 'password', 'blocked', 'confirmed', 'provider', 'roleId'] as const;

/**
 * Writing a password hash forgets any reset code and moves the token version on, so every
 * JWT issued before stops working (see migration 0004_token_version).
 */
const passwordSet = (hash: string) => sql`"password" = ${hash}, "resetPasswordToken" = NULL, "tokenVersion" = "tokenVersion" + 1`;

/** Sets the given columns (at least one) and `updatedAt`. */
export async function updateUser(db: Queryable, id: number, changes: UserChangesRow, now: string, extra: Record<string, ColumnValue> = {}): Promise<void> {
  // Extension columns are named by the compiled user model, never by the request.
  const sets: Sql[] = Object.entries(extra).map(([name, value]) => sql`${sql.id(name)} = ${value}`);
  // A fixed list, so only these columns can ever be named, whatever object arrives.
  for (const column of CHANGEABLE) {
    const value = changes[column];
    if (value === undefined) continue;
    sets.push(column === 'password' ? passwordSet(value as string) : sql`${sql.id(column)} = ${value}`);
  }
  if (sets.length === 0) return;
  await db.run(sql`UPDATE ${USERS} SET ${sql.join(sets)}, "updatedAt" = ${now} WHERE "id" = ${id}`);
}

/** Sets a new password hash; returns the new token version, undefined for an unknown id. */
export async function setUserPassword(db: Queryable, id: number, hash: string, now: string): Promise<number | undefined> {
  const row = await db.get<{ v: number }>(sql`UPDATE ${USERS} SET ${passwordSet(hash)}, "updatedAt" = ${now} WHERE "id" = ${id} RETURNING "tokenVersion" AS v`);
  return row === undefined ? undefined : Number(row.v);
}

/** Stores a reset code's hash on an account (a new one replaces the old). */
export async function setResetToken(db: Queryable, id: number, tokenHash: string): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "resetPasswordToken" = ${tokenHash} WHERE "id" = ${id}`);
}

export async function deleteUser(db: Queryable, id: number): Promise<void> {
  await db.run(sql`DELETE FROM ${USERS} WHERE "id" = ${id}`);
}

/** Moves the users of a role to the role of another type (before the first is deleted). */
export async function moveUsersToRoleType(db: Queryable, fromRoleId: number, type: string): Promise<void> {
  await db.run(sql`UPDATE ${USERS} SET "roleId" = (SELECT "id" FROM ${ROLES} WHERE "type" = ${type}) WHERE "roleId" = ${fromRoleId}`);
}
