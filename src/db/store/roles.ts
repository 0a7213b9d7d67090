/**
 * Rows of `folio_roles` and of the actions granted to them (`folio_permissions`). Which
 * roles exist by default and what a new one is granted is auth/roles.ts's business.
 */
import type { Queryable } from '../database';
import { SYSTEM } from '../layout';
import { sql } from '../sql';

const ROLES = sql.id(SYSTEM.roles);
const USERS = sql.id(SYSTEM.users);
const PERMISSIONS = sql.id(SYSTEM.permissions);

export interface RoleRow {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = ['id', 'documentId', 'name', 'description', 'type', 'createdAt', 'updatedAt'] as const;
const SELECT_ROLE = sql`SELECT ${sql.join(COLUMNS.map((c) => sql.id('r', c)))} FROM ${ROLES} r`;

export const listRoles = (db: Queryable) => db.all<RoleRow>(sql`${SELECT_ROLE} ORDER BY r."id"`);

export const findRoleByType = (db: Queryable, type: string) => db.get<RoleRow>(sql`${SELECT_ROLE} WHERE r."type" = ${type}`);

export const findRoleById = (db: Queryable, id: number) => db.get<RoleRow>(sql`${SELECT_ROLE} WHERE r."id" = ${id}`);

/** The role a user has, if any. */
export const findRoleOfUser = (db: Queryable, userId: number) =>
  db.get<RoleRow>(sql`${SELECT_ROLE} JOIN ${USERS} u ON u."roleId" = r."id" WHERE u."id" = ${userId}`);

/** The roles of several users in one read, each row with its user's id. */
export const findRolesOfUsers = (db: Queryable, userIds: number[]) =>
  db.all<RoleRow & { userId: number }>(
    sql`SELECT ${sql.join(COLUMNS.map((c) => sql.id('r', c)))}, u."id" AS "userId" FROM ${ROLES} r JOIN ${USERS} u ON u."roleId" = r."id" WHERE u."id" IN (${sql.list(userIds)})`,
  );

/** The id of the role of this type or with this id, if there is one. */
export async function findRoleIdByTypeOrId(db: Queryable, type: string, id: number): Promise<number | undefined> {
  return (await db.get<{ id: number }>(sql`SELECT "id" FROM ${ROLES} WHERE "type" = ${type} OR "id" = ${id}`))?.id;
}

export function insertRole(db: Queryable, role: { documentId: string; name: string; description: string | null; type: string; now: string }): Promise<number> {
  // publishedAt: a role is a relation target without draft & publish, published when made (migration 0007).
  return db.insert(sql`INSERT INTO ${ROLES} ("documentId", "name", "description", "type", "createdAt", "updatedAt", "publishedAt")
    VALUES (${role.documentId}, ${role.name}, ${role.description}, ${role.type}, ${role.now}, ${role.now}, ${role.now})`);
}

export async function updateRole(db: Queryable, id: number, set: { name: string; description: string | null; now: string }): Promise<void> {
  await db.run(sql`UPDATE ${ROLES} SET "name" = ${set.name}, "description" = ${set.description}, "updatedAt" = ${set.now} WHERE "id" = ${id}`);
}

/** Deletes a role; its grants go with it (ON DELETE CASCADE). */
export async function deleteRole(db: Queryable, id: number): Promise<void> {
  await db.run(sql`DELETE FROM ${ROLES} WHERE "id" = ${id}`);
}

/** Grants an action; false when the role held it already. */
export async function insertPermissionIfAbsent(db: Queryable, roleId: number, action: string, now: string): Promise<boolean> {
  const result = await db.run(sql`INSERT INTO ${PERMISSIONS} ("roleId", "action", "createdAt") VALUES (${roleId}, ${action}, ${now})
    ON CONFLICT ("roleId", "action") DO NOTHING`);
  return result.changes > 0;
}

/** Grants an action the role does not hold (a duplicate is an error). */
export async function insertPermission(db: Queryable, roleId: number, action: string, now: string): Promise<void> {
  await db.run(sql`INSERT INTO ${PERMISSIONS} ("roleId", "action", "createdAt") VALUES (${roleId}, ${action}, ${now})`);
}

/** Revokes an action; false when the role did not hold it. */
export async function deletePermission(db: Queryable, roleId: number, action: string): Promise<boolean> {
  return (await db.run(sql`DELETE FROM ${PERMISSIONS} WHERE "roleId" = ${roleId} AND "action" = ${action}`)).changes > 0;
}

export async function deletePermissionsOfRole(db: Queryable, roleId: number): Promise<void> {
  await db.run(sql`DELETE FROM ${PERMISSIONS} WHERE "roleId" = ${roleId}`);
}

/** The actions granted to these roles, with their role's id and when they were granted; by role id, then action. */
export function listPermissionsOfRoles(db: Queryable, roleIds: number[]): Promise<{ roleId: number; action: string; createdAt: string }[]> {
  return db.all(sql`SELECT p."roleId" AS "roleId", p."action" AS "action", p."createdAt" AS "createdAt" FROM ${PERMISSIONS} p
    WHERE p."roleId" IN (${sql.list(roleIds)}) ORDER BY p."roleId", p."action"`);
}

/** The ids of the users of these roles, with their role's id; by user id. */
export function listUsersOfRoles(db: Queryable, roleIds: number[]): Promise<{ roleId: number; userId: number }[]> {
  return db.all(sql`SELECT u."roleId" AS "roleId", u."id" AS "userId" FROM ${USERS} u WHERE u."roleId" IN (${sql.list(roleIds)}) ORDER BY u."id"`);
}

/** Granted actions by role type, of one role or of all; by role id, then action. */
export function listPermissions(db: Queryable, type?: string): Promise<{ role: string; action: string }[]> {
  const where = type === undefined ? sql.empty : sql` WHERE r."type" = ${type}`;
  return db.all(sql`SELECT r."type" AS role, p."action" AS action FROM ${PERMISSIONS} p JOIN ${ROLES} r ON r."id" = p."roleId"${where}
    ORDER BY r."id", p."action"`);
}
