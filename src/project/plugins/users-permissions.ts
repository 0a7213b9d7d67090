/**
 * `strapi.plugin('users-permissions')`: the basics of Strapi's `user`, `jwt` and `role`
 * services on Folio's own (`instance.users`, `instance.jwt`, `instance.roles`), which keep
 * their rules (password hashing, unique email and username, token versions). Users are
 * addressed by id, as in Strapi.
 *
 *   user: add, edit, fetch, fetchAuthenticatedUser, fetchAll, count, remove, validatePassword,
 *         sendConfirmationEmail
 *   jwt:  issue({ id }), verify(token), getToken(ctx)
 *   role: find, findOne, createRole, updateRole, deleteRole
 *
 * Not here: the `providers` and `users-permissions` services; `issue` ignores `jwtOptions` (the lifetime is the server's).
 *
 * Its controllers (`auth`, `user`, `role`, `permissions`) and `routes['content-api']` are
 * Strapi 5.54.0's, so an extension (src/extensions/users-permissions) can wrap or replace an
 * action and push routes. Each built-in action answers as Folio's own route does
 * (endpoint.ts `ownAnswer`); a route still ending in its built-in action is left to Folio's
 * route (app.ts), a replaced one is the project's.
 */
import type { Instance } from '../../instance';
import { NotFoundError, UnauthorizedError, ValidationError } from '../strapi-errors';
import { ownAction, type OwnRoute } from '../endpoint';
import type { Factory, PluginParts } from './plugin';

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
    controllers: builtInControllers(),
    routes: {
      'content-api': {
        type: 'content-api',
        routes: STRAPI_ROUTES.map((route) => ({
          ...route,
          config: { ...route.config, ...(route.config.middlewares ? { middlewares: [...route.config.middlewares] } : {}) },
        })),
      },
    },
    // Strapi's route middleware limiting the auth routes: Folio's own routes limit them (http/routes/auth.ts).
    middlewares: { rateLimit: () => (_ctx: unknown, next: () => Promise<unknown>) => next() },
    services: {
      user: () => ({
        count: (params: Obj = {}) => users.count(params.filters, instance.registry),
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
        /** The email_confirmation mail with a new confirmation token, as the register route sends it. */
        async sendConfirmationEmail(user: Obj = {}) {
          const found = await users.find(userId(user.id));
          if (!found) throw new NotFoundError('User not found');
          await instance.accounts.sendConfirmation(found);
        },
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

interface StrapiRoute {
  method: string;
  path: string;
  handler: string;
  config: { prefix?: string; middlewares?: string[] };
}
const limited = { middlewares: ['plugin::users-permissions.rateLimit'], prefix: '' };
/** Strapi 5.54.0's content-api routes of users-permissions (routes/content-api/*.js), in its order. */
const STRAPI_ROUTES: StrapiRoute[] = [
  { method: 'GET', path: '/connect/(.*)', handler: 'auth.connect', config: limited },
  { method: 'POST', path: '/auth/local', handler: 'auth.callback', config: limited },
  { method: 'POST', path: '/auth/local/register', handler: 'auth.register', config: limited },
  { method: 'GET', path: '/auth/:provider/callback', handler: 'auth.callback', config: { prefix: '' } },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth.forgotPassword', config: limited },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth.resetPassword', config: limited },
  { method: 'GET', path: '/auth/email-confirmation', handler: 'auth.emailConfirmation', config: { prefix: '' } },
  { method: 'POST', path: '/auth/send-email-confirmation', handler: 'auth.sendEmailConfirmation', config: limited },
  { method: 'POST', path: '/auth/change-password', handler: 'auth.changePassword', config: limited },
  { method: 'POST', path: '/auth/refresh', handler: 'auth.refresh', config: { prefix: '' } },
  { method: 'POST', path: '/auth/logout', handler: 'auth.logout', config: { prefix: '' } },
  { method: 'GET', path: '/auth/sessions', handler: 'auth.getSessions', config: { prefix: '' } },
  { method: 'DELETE', path: '/auth/sessions/:sessionId', handler: 'auth.revokeSession', config: { prefix: '' } },
  { method: 'GET', path: '/users/count', handler: 'user.count', config: { prefix: '' } },
  { method: 'GET', path: '/users', handler: 'user.find', config: { prefix: '' } },
  { method: 'GET', path: '/users/me', handler: 'user.me', config: { prefix: '' } },
  { method: 'GET', path: '/users/:id', handler: 'user.findOne', config: { prefix: '' } },
  { method: 'POST', path: '/users', handler: 'user.create', config: { prefix: '' } },
  { method: 'PUT', path: '/users/:id', handler: 'user.update', config: { prefix: '' } },
  { method: 'DELETE', path: '/users/:id', handler: 'user.destroy', config: { prefix: '' } },
  { method: 'GET', path: '/roles/:id', handler: 'role.findOne', config: {} },
  { method: 'GET', path: '/roles', handler: 'role.find', config: {} },
  { method: 'POST', path: '/roles', handler: 'role.createRole', config: {} },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole', config: {} },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole', config: {} },
  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions', config: {} },
];

/**
 * The plugin's controllers as Strapi 5.54.0's: `user`, `role` and `permissions` plain objects of
 * actions (an extension changes them in place), `auth` a factory of `{ strapi }` (an extension
 * wraps what it makes; setting `plugin.controllers.auth.register` changes nothing, as in
 * Strapi). Each action runs Folio's own route of its Strapi route(s) on the ctx's request.
 */
function builtInControllers(): Record<string, Factory> {
  const controllers: Record<string, Obj> = {};
  const routesOf = new Map<string, OwnRoute[]>();
  for (const route of STRAPI_ROUTES) {
    // Without `prefix: ''` a plugin route is under /api/users-permissions, as Strapi mounts it.
    const path = `${route.config.prefix === '' ? '' : '/users-permissions'}${route.path}`;
    const list = routesOf.get(route.handler) ?? [];
    list.push({ method: route.method, path });
    routesOf.set(route.handler, list);
  }
  for (const [handler, routes] of routesOf) {
    const [controller, action] = handler.split('.') as [string, string];
    (controllers[controller] ??= {})[action] = ownAction(routes);
  }
  const auth = controllers.auth!;
  return { ...controllers, auth: () => ({ ...auth }) };
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
