/**
 * Roles and their granted actions. `public` applies to anonymous callers,
 * `authenticated` to logged-in users by default; more roles can be created. A new role
 * gets Strapi's default users-permissions grants and no content grant.
 */
import { createId } from '@paralleldrive/cuid2';
import type { Database } from '../db/database';
import { FolioError, NotFoundError, ValidationError } from '../errors';
import { ChangeCache } from '../db/cache';
import { DEFAULT_ROLE_ACTIONS } from './actions';

export interface Role {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  createdAt: string;
  updatedAt: string;
}

const DEFAULT_ROLES = [
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
];

const COLUMNS = '"id", "documentId", "name", "description", "type", "createdAt", "updatedAt"';

/** `Content Editors` → `content-editors`. */
export const roleType = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

export class Roles {
  private granted: ChangeCache<string, Set<string>>;

  constructor(private db: Database) {
    this.granted = new ChangeCache(db);
  }

  async ensureDefaults(): Promise<void> {
    for (const role of DEFAULT_ROLES) {
      if (!(await this.find(role.type))) await this.create(role.name, role.description, role.type);
    }
  }

  list(): Promise<Role[]> {
    return this.db.all<Role>(`SELECT ${COLUMNS} FROM folio_roles ORDER BY "id"`);
  }

  async find(type: string): Promise<Role | undefined> {
    return this.db.get<Role>(`SELECT ${COLUMNS} FROM folio_roles WHERE "type" = ?`, [type]);
  }

  async findById(id: number): Promise<Role | undefined> {
    return this.db.get<Role>(`SELECT ${COLUMNS} FROM folio_roles WHERE "id" = ?`, [id]);
  }

  async create(name: string, description: string | null = null, type = roleType(name)): Promise<Role> {
    if (!type) throw new ValidationError('A role needs a name');
    if (await this.find(type)) throw new FolioError(400, 'ApplicationError', `A role "${type}" already exists`);
    const now = new Date().toISOString();
    const id = await this.db.insert(
      'INSERT INTO folio_roles ("documentId", "name", "description", "type", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
      [createId(), name.trim(), description, type, now, now],
    );
    await this.grant(type, DEFAULT_ROLE_ACTIONS[type] ?? DEFAULT_ROLE_ACTIONS.authenticated!);
    return (await this.findById(id))!;
  }

  async update(id: number, fields: { name?: string; description?: string | null }): Promise<Role> {
    const role = await this.findById(id);
    if (!role) throw new NotFoundError('Role not found');
    await this.db.run('UPDATE folio_roles SET "name" = ?, "description" = ?, "updatedAt" = ? WHERE "id" = ?', [
      fields.name?.trim() || role.name,
      fields.description === undefined ? role.description : fields.description,
      new Date().toISOString(),
      id,
    ]);
    return (await this.findById(id))!;
  }

  /** Deletes a role; its users fall back to `authenticated`. The two built-in roles stay. */
  async delete(id: number): Promise<void> {
    const role = await this.findById(id);
    if (!role) throw new NotFoundError('Role not found');
    if (role.type === 'public' || role.type === 'authenticated') throw new FolioError(400, 'ApplicationError', 'Cannot delete public or authenticated roles');
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE folio_users SET "roleId" = (SELECT "id" FROM folio_roles WHERE "type" = \'authenticated\') WHERE "roleId" = ?', [id]);
      await tx.run('DELETE FROM folio_roles WHERE "id" = ?', [id]);
    });
  }

  async userCount(id: number): Promise<number> {
    return (await this.db.get<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM folio_users WHERE "roleId" = ?', [id]))?.n ?? 0;
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
  async grant(type: string, actions: string[]): Promise<string[]> {
    const role = await this.require(type);
    const now = new Date().toISOString();
    return this.db.transaction(async (tx) => {
      const added: string[] = [];
      for (const action of actions) {
        const result = await tx.run(
          'INSERT INTO folio_permissions ("roleId", "action", "createdAt") VALUES (?, ?, ?) ON CONFLICT ("roleId", "action") DO NOTHING',
          [role.id, action, now],
        );
        if (result.changes) added.push(action);
      }
      return added;
    });
  }

  /** Revokes actions; returns the ones that were granted. */
  async revoke(type: string, actions: string[]): Promise<string[]> {
    const role = await this.require(type);
    return this.db.transaction(async (tx) => {
      const removed: string[] = [];
      for (const action of actions) {
        const result = await tx.run('DELETE FROM folio_permissions WHERE "roleId" = ? AND "action" = ?', [role.id, action]);
        if (result.changes) removed.push(action);
      }
      return removed;
    });
  }

  /** Replaces a role's whole grant list in one transaction. */
  async setActions(type: string, actions: string[]): Promise<void> {
    const role = await this.require(type);
    const now = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM folio_permissions WHERE "roleId" = ?', [role.id]);
      for (const action of new Set(actions)) {
        await tx.run('INSERT INTO folio_permissions ("roleId", "action", "createdAt") VALUES (?, ?, ?)', [role.id, action, now]);
      }
    });
  }

  async permissions(type?: string): Promise<{ role: string; action: string }[]> {
    const where = type ? ' WHERE r."type" = ?' : '';
    return this.db.all(
      `SELECT r."type" AS role, p."action" AS action FROM folio_permissions p JOIN folio_roles r ON r."id" = p."roleId"${where} ORDER BY r."id", p."action"`,
      type ? [type] : [],
    );
  }

  /** A role's granted actions; cached until the database changes, so CLI grants apply at once. */
  async actions(type: string): Promise<Set<string>> {
    return this.granted.get(type, async () => new Set((await this.permissions(type)).map((p) => p.action)));
  }

  async allows(type: string, action: string): Promise<boolean> {
    return (await this.actions(type)).has(action);
  }
}
