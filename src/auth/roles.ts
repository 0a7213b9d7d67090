/**
 * Roles and their granted actions. `public` applies to anonymous callers,
 * `authenticated` to logged-in users by default; more roles can be created. A new role
 * gets Strapi's default users-permissions grants and no content grant.
 */
import { createDocumentId } from '../documents/document-id';
import type { Database } from '../db/database';
import { FolioError, NotFoundError, ValidationError } from '../errors';
import { ChangeCache } from '../db/cache';
import {
  deletePermission,
  deletePermissionsOfRole,
  deleteRole,
  findRoleById,
  findRoleByType,
  insertPermission,
  insertPermissionIfAbsent,
  insertRole,
  listPermissions,
  listPermissionsOfRoles,
  listRoles,
  listUsersOfRoles,
  updateRole,
  type RoleRow,
} from '../db/store/roles';
import { countUsersWithRole, moveUsersToRoleType } from '../db/store/users';
import { DEFAULT_ROLE_ACTIONS } from './actions';
import { BY_SYSTEM, NO_AUDIT, type AuditTrail } from '../audit-trail';
import type { Actor } from '../documents/write/context';

export type Role = RoleRow;

const DEFAULT_ROLES = [
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
];

/** `Content Editors` → `content-editors`. */
export const roleType = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

export class Roles {
  private granted: ChangeCache<string, Set<string>>;
  /** Where role and permission changes are recorded (the composition root sets the audit log). */
  audit: AuditTrail = NO_AUDIT;

  constructor(private db: Database) {
    this.granted = ChangeCache.settings(db);
  }

  async ensureDefaults(): Promise<void> {
    for (const role of DEFAULT_ROLES) {
      if (!(await this.find(role.type))) await this.create(role.name, role.description, role.type);
    }
  }

  list(): Promise<Role[]> {
    return listRoles(this.db);
  }

  async find(type: string): Promise<Role | undefined> {
    return findRoleByType(this.db, type);
  }

  async findById(id: number): Promise<Role | undefined> {
    return findRoleById(this.db, id);
  }

  async create(name: string, description: string | null = null, type = roleType(name), by: Actor = BY_SYSTEM): Promise<Role> {
    if (!type) throw new ValidationError('A role needs a name');
    if (await this.find(type)) throw new FolioError(400, 'ApplicationError', `A role "${type}" already exists`);
    const now = new Date().toISOString();
    const id = await insertRole(this.db, { documentId: createDocumentId(), name: name.trim(), description, type, now });
    const actions = await this.insertGrants(type, DEFAULT_ROLE_ACTIONS[type] ?? DEFAULT_ROLE_ACTIONS.authenticated!);
    await this.audit.record({ action: 'role.create', actor: by, type: 'role', details: { role: type, name: name.trim(), actions } });
    return (await this.findById(id))!;
  }

  async update(id: number, fields: { name?: string; description?: string | null }, by: Actor = BY_SYSTEM): Promise<Role> {
    const role = await this.findById(id);
    if (!role) throw new NotFoundError('Role not found');
    await updateRole(this.db, id, {
      name: fields.name?.trim() || role.name,
      description: fields.description === undefined ? role.description : fields.description,
      now: new Date().toISOString(),
    });
    const changed = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    if (changed.length) await this.audit.record({ action: 'role.update', actor: by, type: 'role', details: { role: role.type, fields: changed } });
    return (await this.findById(id))!;
  }

  /** Deletes a role; its users fall back to `authenticated`. The two built-in roles stay. */
  async delete(id: number, by: Actor = BY_SYSTEM): Promise<void> {
    const role = await this.findById(id);
    if (!role) throw new NotFoundError('Role not found');
    if (role.type === 'public' || role.type === 'authenticated') throw new FolioError(400, 'ApplicationError', 'Cannot delete public or authenticated roles');
    await this.db.transaction(async (tx) => {
      await moveUsersToRoleType(tx, id, 'authenticated');
      await deleteRole(tx, id);
    });
    await this.audit.record({ action: 'role.delete', actor: by, type: 'role', details: { role: role.type } });
  }

  async userCount(id: number): Promise<number> {
    return countUsersWithRole(this.db, id);
  }

  private async require(type: string): Promise<Role> {
    const role = await this.find(type);
    if (!role) {
      const known = (await this.list()).map((r) => r.type).join(', ');
      throw new Error(`Unknown role "${type}" (roles: ${known})`);
    }
    return role;
  }

  /** Grants actions; returns the ones that were not granted before. */
  async grant(type: string, actions: string[], by: Actor = BY_SYSTEM): Promise<string[]> {
    const added = await this.insertGrants(type, actions);
    if (added.length) await this.audit.record({ action: 'permissions.grant', actor: by, type: 'role', details: { role: type, actions: added } });
    return added;
  }

  private async insertGrants(type: string, actions: string[]): Promise<string[]> {
    const role = await this.require(type);
    const now = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      const added: string[] = [];
      for (const action of actions) {
        if (await insertPermissionIfAbsent(tx, role.id, action, now)) added.push(action);
      }
      return added;
    });
  }

  /** Revokes actions; returns the ones that were granted. */
  async revoke(type: string, actions: string[], by: Actor = BY_SYSTEM): Promise<string[]> {
    const role = await this.require(type);
    const removed = await this.db.transaction(async (tx) => {
      const removed: string[] = [];
      for (const action of actions) {
        if (await deletePermission(tx, role.id, action)) removed.push(action);
      }
      return removed;
    });
    if (removed.length) await this.audit.record({ action: 'permissions.revoke', actor: by, type: 'role', details: { role: type, actions: removed } });
    return removed;
  }

  /** Replaces a role's whole grant list in one transaction. */
  async setActions(type: string, actions: string[], by: Actor = BY_SYSTEM): Promise<void> {
    const role = await this.require(type);
    const now = new Date().toISOString();
    const wanted = new Set(actions);
    const before = await this.db.transaction(async (tx) => {
      const before = new Set((await listPermissions(tx, type)).map((p) => p.action));
      await deletePermissionsOfRole(tx, role.id);
      for (const action of wanted) await insertPermission(tx, role.id, action, now);
      return before;
    });
    const granted = [...wanted].filter((a) => !before.has(a));
    const revoked = [...before].filter((a) => !wanted.has(a));
    if (granted.length) await this.audit.record({ action: 'permissions.grant', actor: by, type: 'role', details: { role: type, actions: granted } });
    if (revoked.length) await this.audit.record({ action: 'permissions.revoke', actor: by, type: 'role', details: { role: type, actions: revoked } });
  }

  async permissions(type?: string): Promise<{ role: string; action: string }[]> {
    return listPermissions(this.db, type || undefined);
  }

  /** The actions granted to several roles in one read (GraphQL's `UsersPermissionsRole.permissions`), by role id, then action. */
  permissionsOfRoles(roleIds: number[]): Promise<{ roleId: number; action: string; createdAt: string }[]> {
    return roleIds.length ? listPermissionsOfRoles(this.db, roleIds) : Promise.resolve([]);
  }

  /** The ids of the users of several roles in one read (GraphQL's `UsersPermissionsRole.users`). */
  usersOfRoles(roleIds: number[]): Promise<{ roleId: number; userId: number }[]> {
    return roleIds.length ? listUsersOfRoles(this.db, roleIds) : Promise.resolve([]);
  }

  /** A role's granted actions; cached until the database changes, so CLI grants apply at once. */
  async actions(type: string): Promise<Set<string>> {
    return this.granted.get(type, async () => new Set((await this.permissions(type)).map((p) => p.action)));
  }
}
