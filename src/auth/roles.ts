/**
 * Roles and their granted actions. `public` applies to anonymous callers,
 * `authenticated` to logged-in users; both exist on a new database with no grants.
 */
import { createId } from '@paralleldrive/cuid2';
import type { Database } from '../db/database';

export interface Role {
  id: number;
  name: string;
  type: string;
  description: string | null;
}

const DEFAULT_ROLES = [
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.' },
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.' },
];

export class Roles {
  constructor(private db: Database) {}

  async ensureDefaults(): Promise<void> {
    const now = new Date().toISOString();
    for (const role of DEFAULT_ROLES) {
      const exists = await this.db.get('SELECT 1 AS x FROM folio_roles WHERE "type" = ?', [role.type]);
      if (exists) continue;
      await this.db.run(
        'INSERT INTO folio_roles ("documentId", "name", "description", "type", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)',
        [createId(), role.name, role.description, role.type, now, now],
      );
    }
  }

  list(): Promise<Role[]> {
    return this.db.all<Role>('SELECT "id", "name", "type", "description" FROM folio_roles ORDER BY "id"');
  }

  async find(type: string): Promise<Role | undefined> {
    return this.db.get<Role>('SELECT "id", "name", "type", "description" FROM folio_roles WHERE "type" = ?', [type]);
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

  async permissions(type?: string): Promise<{ role: string; action: string }[]> {
    const where = type ? ' WHERE r."type" = ?' : '';
    return this.db.all(
      `SELECT r."type" AS role, p."action" AS action FROM folio_permissions p JOIN folio_roles r ON r."id" = p."roleId"${where} ORDER BY r."id", p."action"`,
      type ? [type] : [],
    );
  }

  /** Whether a role holds an action; read on every request so CLI changes apply at once. */
  async allows(type: string, action: string): Promise<boolean> {
    return !!(await this.db.get(
      'SELECT 1 AS x FROM folio_permissions p JOIN folio_roles r ON r."id" = p."roleId" WHERE r."type" = ? AND p."action" = ?',
      [type, action],
    ));
  }
}
