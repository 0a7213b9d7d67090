/**
 * `populate` on the users API (/api/users, /api/users/:id, /api/users/me). `role` is the
 * users-permissions plugin's own link (a column of the users table, not an attribute of the
 * model), answered as before; everything else names relations of the project's user extension
 * (`purchases`, `favorites`, …), populated by the very code that populates documents, with the
 * caller's read permissions (a type it may not read is left out, as on content routes).
 */
import type { Queryable } from '../db/database';
import { checkResponseSize, populateRows } from '../query/populate';
import type { Row } from '../query/row-reader';
import { parsePopulate } from '../query/populate-params';
import type { CanRead } from '../query/types';
import { USER_UID } from '../registry/system-models';
import type { Registry } from '../registry/types';
import { isObject } from '../json';

/** Whether `populate` asks for the role, and what it asks besides. */
export function splitRole(raw: unknown): { role: boolean; rest: unknown } {
  if (raw === undefined || raw === null || raw === '') return { role: false, rest: undefined };
  if (raw === '*') return { role: true, rest: '*' };
  if (typeof raw === 'string') {
    const names = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const rest = names.filter((n) => n !== 'role' && !n.startsWith('role.'));
    return { role: rest.length < names.length, rest: rest.length ? rest.join(',') : undefined };
  }
  if (Array.isArray(raw)) {
    const rest = raw.filter((n) => !(typeof n === 'string' && (n === 'role' || n.startsWith('role.'))));
    return { role: rest.length < raw.length, rest: rest.length ? rest : undefined };
  }
  if (isObject(raw)) {
    const { role, ...rest } = raw as Record<string, unknown>;
    const wanted = role !== undefined && role !== false && role !== 'false';
    return { role: wanted, rest: Object.keys(rest).length ? rest : undefined };
  }
  // Anything else is checked (and refused) by parsePopulate, as on content routes.
  return { role: false, rest: raw };
}

/**
 * Populates the extension's relations of `users` in place (one batched query per relation and
 * level, as for documents). Targets with draft & publish are read published, localized ones in
 * `locale` (the default locale: the users API has no locale parameter).
 */
export async function populateUserRelations(db: Queryable, registry: Registry, users: Row[], raw: unknown, canRead: CanRead, locale: string): Promise<void> {
  if (raw === undefined) return;
  const model = registry.contentType(USER_UID);
  if (!model) return;
  const populate = parsePopulate(registry, model, raw, [], canRead);
  if (Object.keys(populate).length === 0 || users.length === 0) return;
  await populateRows(db, registry, model, users, populate, { status: 'published', locale });
  checkResponseSize(users, populate);
}
