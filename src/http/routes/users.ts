/**
 * /api/users*: the current user, and the users API. With `user.update` or `user.destroy`
 * granted to a role, its users may change or delete their own account only; other accounts,
 * and role, blocked & co., need an API token holding the action.
 */
import { Elysia } from 'elysia';
import type { Principal } from '../../auth/access';
import { FieldErrors } from '../../auth/user-fields';
import { populateUserRelations, splitRole } from '../../auth/user-populate';
import { ForbiddenError, NotFoundError } from '../../errors';
import { ROLE_UID } from '../../registry/system-models';
import type { Instance } from '../../instance';
import { writerOf, type Caller, type Guard } from '../guard';
import { parseQueryString } from '../query-string';
import { json } from '../respond';
import { numericId, objectBody, pluginGuard, userOf, type ProjectFirst } from './users-permissions';

/** What a user's own JWT may change on its own account (PUT /api/users/:id). */
const PROFILE_FIELDS = ['username', 'email'];
/** What only an API token holding `user.update` may change (a user could otherwise promote or unblock itself). */
const ADMIN_FIELDS = ['role', 'blocked', 'confirmed', 'provider'];

/** Refuses (403) a user JWT acting on another account; API tokens holding the action may act on any. */
function ownAccountOnly(principal: Principal, id: number) {
  if (principal.kind !== 'token' && (principal.kind !== 'user' || principal.user.id !== id)) throw new ForbiddenError();
}

export function usersRoutes(instance: Instance, allow: Guard, projectFirst?: ProjectFirst) {
  const { users, config } = instance;
  const guarded = pluginGuard(allow);
  const caller = async (request: Request, action: string) => (await guarded(request, action)).principal;

  /**
   * The users as asked by `populate`: the role (`populate=role`, `*`, or the object form) and the
   * relations of the user extension, read with the caller's permissions (auth/user-populate.ts).
   */
  const populated = async <U extends { id: number }>(request: Request, allowed: Caller, list: U[]): Promise<U[]> => {
    const { role, rest } = splitRole(parseQueryString(request.url).populate);
    // The role is a relation to roles: left out unless the caller may read roles, as Strapi's output sanitizer does.
    const roles = role && allowed.readableTypes().has(ROLE_UID) ? await users.rolesOf(list.map((user) => user.id)) : undefined;
    const rows = roles ? list.map((user) => ({ ...user, role: roles.get(user.id) ?? null })) : list;
    if (rest !== undefined) {
      const readable = allowed.readableTypes();
      await populateUserRelations(instance.db, instance.registry, rows, rest, (uid) => readable.has(uid), await instance.locales.defaultCode());
    }
    return rows;
  };
  const one = async <U extends { id: number }>(request: Request, allowed: Caller, user: U) => (await populated(request, allowed, [user]))[0]!;

  return new Elysia({ name: 'users-permissions:users' })
    .onBeforeHandle(({ request }) => projectFirst?.(request))
    .get('/api/users/me', async ({ request }) => {
      const allowed = await guarded(request, 'user.me');
      const me = await users.me(userOf(allowed.principal).id, parseQueryString(request.url), instance.registry);
      // Filters that leave the caller out: Strapi answers 204 without a body.
      if (!me) return new Response(null, { status: 204 });
      return json(await one(request, allowed, me as { id: number }));
    })
    .get('/api/users/count', async ({ request }) => {
      await caller(request, 'user.count');
      // Strapi's count takes the list's filters and ignores its other parameters.
      return json(await users.count(parseQueryString(request.url).filters, instance.registry));
    })
    .get('/api/users', async ({ request }) => {
      const allowed = await guarded(request, 'user.find');
      const query = parseQueryString(request.url);
      const listed = await users.list(query, instance.registry, config);
      return json(await populated(request, allowed, listed as { id: number }[]));
    })
    .get('/api/users/:id', async ({ request, params }) => {
      const allowed = await guarded(request, 'user.findOne');
      const user = await users.find(numericId(params.id));
      if (!user) throw new NotFoundError();
      return json(await one(request, allowed, user));
    })
    .post(
      '/api/users',
      async ({ request, server }) => {
        const by = writerOf(await guarded(request, 'user.create'), request, server, config.trustProxy);
        const input = await objectBody(request, config.bodyLimit, ['username', 'email', 'password', 'role', 'blocked', 'confirmed', ...users.extensionNames]);
        // Users.create checks every value (types and caps), not only the ones a caller should send.
        return json(await users.create(input as never, by), 201);
      },
      { parse: 'none' },
    )
    .put(
      '/api/users/:id',
      async ({ request, params, server }) => {
        const allowed = await guarded(request, 'user.update');
        const principal = allowed.principal;
        const id = numericId(params.id);
        ownAccountOnly(principal, id);
        if (!(await users.find(id))) throw new NotFoundError();
        const input = await objectBody(request, config.bodyLimit, [...PROFILE_FIELDS, ...users.extensionNames, ...ADMIN_FIELDS, 'password']);
        if (principal.kind !== 'token') {
          if (Object.keys(input).some((k) => ADMIN_FIELDS.includes(k))) throw new ForbiddenError();
          // change-password asks for the current one; a stolen JWT alone must not set a new one.
          if ('password' in input) {
            const errors = new FieldErrors();
            errors.add('password', 'password cannot be changed here: use /api/auth/change-password or /api/auth/reset-password', null);
            errors.throwIfAny();
          }
        }
        return json(await users.update(id, input, writerOf(allowed, request, server, config.trustProxy)));
      },
      { parse: 'none' },
    )
    .delete('/api/users/:id', async ({ request, params, server }) => {
      const allowed = await guarded(request, 'user.destroy');
      const id = numericId(params.id);
      ownAccountOnly(allowed.principal, id);
      const user = await users.delete(id, writerOf(allowed, request, server, config.trustProxy));
      if (!user) throw new NotFoundError();
      return json(user);
    });
}
