/**
 * `strapi.plugin('users-permissions')`: the basics of Strapi's `user`, `jwt` and `role`
 * services on Folio's own (`instance.users`, `instance.jwt`, `instance.roles`), which keep
 * their rules (password hashing, unique email and username, token versions). Users are
 * addressed by id, as in Strapi.
 *
 *   user: add, edit, fetch, fetchAuthenticatedUser, fetchAll, count, remove, validatePassword
 *   jwt:  issue({ id }), verify(token), getToken(ctx)
 *   role: find, findOne, createRole, updateRole, deleteRole
 *
 * Not here (the account flows' side): sendConfirmationEmail, the `providers` and
 * `users-permissions` services; `issue` ignores `jwtOptions` (the lifetime is the server's).
 */
import type { Instance } from '../../instance';
import { NotFoundError, UnauthorizedError, ValidationError } from '../strapi-errors';
import type { PluginParts } from './plugin';

type Obj = Record<string, any>;

export function usersPermissionsPlugin(instance: Instance): PluginParts {
  const { users, jwt, roles } = instance;
  /** A user with its role, as `fetchAuthenticatedUser` and the writes answer. */
  const withRole = async (id: number) => {
    const user = await users.find(id);
    if (!user) return null;
    const role = await users.role(id);
    return { ...user, role: role ?? null };
  };
  const userId = (id: unknown) => {
    const n = Number(id);
    if (!Number.isSafeInteger(n)) throw new ValidationError('Invalid user id');
    return n;
  };
  return {
    services: {
      user: () => ({
        count: () => users.count(),
        async add(values: Obj = {}) {
          const user = await users.create(values as Parameters<typeof users.create>[0]);
          return withRole(user.id);
        },
        async edit(id: unknown, params: Obj = {}) {
          const user = await users.update(userId(id), params);
          return user ? withRole(user.id) : null;
        },
        fetch: async (id: unknown) => (await users.find(userId(id))) ?? null,
        fetchAuthenticatedUser: (id: unknown) => withRole(userId(id)),
        fetchAll: (params: Obj = {}) => users.list(params, instance.registry),
        async remove(params: Obj = {}) {
          if (params.id === undefined) throw new ValidationError('remove takes { id }');
          return (await users.delete(userId(params.id))) ?? null;
        },
        validatePassword: (password: string, hash: string) => users.passwords.verify(password, hash),
      }),
      jwt: () => ({
        /** `issue({ id })`: a JWT for that user, carrying its token version (a password change ends it). */
        async issue(payload: Obj = {}) {
          const principal = await users.principal(userId(payload.id));
          if (!principal) throw new NotFoundError('User not found');
          return jwt.issue(principal.user.id, principal.tokenVersion);
        },
        async verify(token: string) {
          const claims = await jwt.verify(String(token ?? ''));
          if (!claims) throw new UnauthorizedError('Invalid token.');
          return { id: claims.id };
        },
        getToken(ctx: Obj) {
          const header = ctx?.request?.header?.authorization ?? ctx?.request?.headers?.authorization;
          if (typeof header !== 'string') return null;
          const [scheme, token] = header.split(/\s+/);
          return scheme?.toLowerCase() === 'bearer' && token ? token : null;
        },
      }),
      role: () => ({
        async find() {
          const list = await roles.list();
          return Promise.all(list.map(async (role) => ({ ...role, nb_users: await roles.userCount(role.id) })));
        },
        async findOne(id: unknown) {
          const role = await roles.findById(Number(id));
          if (!role) throw new NotFoundError('Role not found');
          return { ...role, permissions: [...(await roles.actions(role.type))].sort() };
        },
        /** `{ name, description, type?, permissions: { 'api::x': { controllers: { x: { find: { enabled: true } } } } } }` */
        async createRole(params: Obj = {}) {
          const role = await roles.create(String(params.name ?? ''), params.description ?? null, params.type);
          const actions = enabledActions(params.permissions);
          if (actions.length) await roles.grant(role.type, actions);
          return role;
        },
        async updateRole(id: unknown, data: Obj = {}) {
          const role = await roles.findById(Number(id));
          if (!role) throw new NotFoundError('Role not found');
          const updated = await roles.update(role.id, { name: data.name, description: data.description });
          if (data.permissions) await roles.setActions(role.type, enabledActions(data.permissions));
          return updated;
        },
        async deleteRole(id: unknown) {
          await roles.delete(Number(id));
        },
      }),
    },
  };
}

/** The actions Strapi's role form marks enabled: `type.controllers.controller.action.enabled`. */
function enabledActions(permissions: unknown): string[] {
  const out: string[] = [];
  if (!permissions || typeof permissions !== 'object') return out;
  for (const [type, value] of Object.entries(permissions as Obj)) {
    for (const [controller, actions] of Object.entries((value?.controllers ?? {}) as Obj)) {
      for (const [action, state] of Object.entries((actions ?? {}) as Obj)) if (state?.enabled) out.push(`${type}.${controller}.${action}`);
    }
  }
  return out;
}
