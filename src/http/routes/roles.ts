/**
 * /api/users-permissions/*: roles and the permission tree they are granted from.
 */
import { Elysia } from 'elysia';
import { actionsFromTree, knownActions, permissionTree } from '../../auth/actions';
import { NotFoundError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { writerOf, type Guard } from '../guard';
import { json } from '../respond';
import { numericId, objectBody, pluginGuard, type ProjectFirst } from './users-permissions';

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value === '') throw new ValidationError(`${name} is required`);
  return value;
};

export function rolesRoutes(instance: Instance, allow: Guard, projectFirst?: ProjectFirst) {
  const { roles, registry, config } = instance;
  const guarded = pluginGuard(allow);
  const body = (request: Request) => objectBody(request, config.bodyLimit);

  /** Refuses actions that do not exist rather than storing grants that mean nothing. */
  function knownOnly(actions: string[]): string[] {
    const known = new Set(knownActions(registry));
    const unknown = actions.filter((a) => !known.has(a));
    if (unknown.length) throw new ValidationError(`Unknown action ${unknown[0]}`);
    return actions;
  }

  return new Elysia({ name: 'users-permissions:roles' })
    .onBeforeHandle(({ request }) => projectFirst?.(request))
    .get('/api/users-permissions/roles', async ({ request }) => {
      await guarded(request, 'role.find');
      const list = await roles.list();
      return json({ roles: await Promise.all(list.map(async (r) => ({ ...r, nb_users: await roles.userCount(r.id) }))) });
    })
    .get('/api/users-permissions/roles/:id', async ({ request, params }) => {
      await guarded(request, 'role.findOne');
      const role = await roles.findById(numericId(params.id));
      if (!role) throw new NotFoundError();
      const granted = new Set((await roles.permissions(role.type)).map((p) => p.action));
      return json({ role: { ...role, permissions: permissionTree(knownActions(registry), granted) } });
    })
    .post(
      '/api/users-permissions/roles',
      async ({ request, server }) => {
        const by = writerOf(await guarded(request, 'role.createRole'), request, server, config.trustProxy);
        const input = await body(request);
        const role = await roles.create(text(input.name, 'name'), typeof input.description === 'string' ? input.description : null, undefined, by);
        if (input.permissions !== undefined) await roles.setActions(role.type, knownOnly(actionsFromTree(input.permissions)), by);
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .put(
      '/api/users-permissions/roles/:id',
      async ({ request, params, server }) => {
        const by = writerOf(await guarded(request, 'role.updateRole'), request, server, config.trustProxy);
        const input = await body(request);
        const role = await roles.update(
          numericId(params.id),
          {
            name: typeof input.name === 'string' ? input.name : undefined,
            description: typeof input.description === 'string' ? input.description : undefined,
          },
          by,
        );
        if (input.permissions !== undefined) await roles.setActions(role.type, knownOnly(actionsFromTree(input.permissions)), by);
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .delete('/api/users-permissions/roles/:id', async ({ request, params, server }) => {
      const by = writerOf(await guarded(request, 'role.deleteRole'), request, server, config.trustProxy);
      await roles.delete(numericId(params.id), by);
      return json({ ok: true });
    })
    .get('/api/users-permissions/permissions', async ({ request }) => {
      await guarded(request, 'permissions.getPermissions');
      return json({ permissions: permissionTree(knownActions(registry), new Set()) });
    });
}
