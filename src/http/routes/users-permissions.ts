/**
 * The users & permissions plugin's routes, answering as Strapi's does: bare objects and
 * arrays (no `{ data }`), errors in the envelope. `/api/auth/*` is rate-limited.
 */
import { Elysia } from 'elysia';
import { actionsFromTree, knownActions, permissionTree } from '../../auth/actions';
import type { Principal } from '../../auth/access';
import { Users } from '../../auth/users';
import { checkCredentials, checkEmail, FieldErrors, PASSWORD_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from '../../auth/user-fields';
import { FolioError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { readJsonBody } from '../body';
import { parseQueryString } from '../query-string';
import { clientAddress, RateLimiter } from '../rate-limit';
import { json } from '../respond';

type Body = Record<string, unknown>;
const UP = 'plugin::users-permissions';
/** What a user's own JWT may change on its own account (PUT /api/users/:id). */
const PROFILE_FIELDS = ['username', 'email'];
/** What only an API token holding `user.update` may change (a user could otherwise promote or unblock itself). */
const ADMIN_FIELDS = ['role', 'blocked', 'confirmed', 'provider'];

export function usersPermissionsRoutes(instance: Instance) {
  const { access, users, roles, jwt, config } = instance;
  // Instances sharing PostgreSQL share the counters too.
  const shared = instance.db.dialect.name === 'postgres' ? instance.db : undefined;
  const limiter = new RateLimiter({ ...config.authRateLimit, shared });

  async function begin(request: Request, action: string): Promise<Principal> {
    const principal = await access.authenticate(request.headers.get('authorization'));
    await access.authorize(principal, `${UP}.${action}`);
    return principal;
  }

  async function body(request: Request, allowed?: string[]): Promise<Body> {
    const data = await readJsonBody(request, config.bodyLimit);
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Missing request body');
    if (allowed) {
      const extra = Object.keys(data).filter((k) => !allowed.includes(k));
      if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    }
    return data as Body;
  }

  const userOf = (principal: Principal) => {
    if (principal.kind !== 'user') throw new UnauthorizedError();
    return principal.user;
  };
  const text = (value: unknown, name: string): string => {
    if (typeof value !== 'string' || value === '') throw new ValidationError(`${name} is required`);
    return value;
  };
  /** Required strings of a password route, capped before anything hashes them; yup's field errors otherwise. */
  const passwords = (input: Body, fields: Record<string, number>): Record<string, string> => {
    const errors = new FieldErrors();
    for (const [name, max] of Object.entries(fields)) {
      if (errors.string(name, input[name], { required: true, max }) && input[name] === '') errors.add(name, `${name} is a required field`, null);
    }
    errors.throwIfAny();
    return input as Record<string, string>;
  };
  const numericId = (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new NotFoundError();
    return Number(raw);
  };
  /** The answer of a login: a JWT carrying the user's token version, and the user. */
  const withJwt = async (user: { id: number }, version: number) => ({ jwt: await jwt.issue(user.id, version), user });
  /** The user, with its role when the query asks `populate=role` (or `*`, or the object form). */
  const withRole = async <U extends { id: number }>(request: Request, user: U) => {
    const populate = parseQueryString(request.url).populate;
    const wanted = populate === '*' || populate === 'role' || (Array.isArray(populate) && populate.includes('role')) ||
      (typeof populate === 'object' && populate !== null && 'role' in populate);
    return wanted ? { ...user, role: (await users.role(user.id)) ?? null } : user;
  };

  const app = new Elysia({ name: 'users-permissions' })
    .onBeforeHandle(async ({ request, server, path }) => {
      if (path.startsWith('/api/auth/')) await limiter.hit(clientAddress(request, server?.requestIP(request)?.address, config.trustProxy), path);
    })
    .post(
      '/api/auth/local',
      async ({ request }) => {
        await begin(request, 'auth.callback');
        // No body, or not an object, is a login without its fields: yup's two "required" errors, as Strapi's.
        const data = await readJsonBody(request, config.bodyLimit);
        const { identifier, password } = checkCredentials(data && typeof data === 'object' && !Array.isArray(data) ? (data as Body) : {});
        const found = await users.authenticate(identifier, password);
        if (!found) throw new ValidationError('Invalid identifier or password');
        if (found.user.blocked) throw new FolioError(400, 'ApplicationError', 'Your account has been blocked by an administrator');
        return json(await withJwt(found.user, found.tokenVersion));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/local/register',
      async ({ request }) => {
        await begin(request, 'auth.register');
        if (!config.allowRegister) throw new FolioError(400, 'ApplicationError', 'Register action is currently disabled');
        const { username, email, password } = await body(request, ['username', 'email', 'password']);
        const user = await users.create({ username: username as string, email: email as string, password: password as string });
        // A new account's token version is 0.
        return json(await withJwt(user, 0));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/change-password',
      async ({ request }) => {
        const user = userOf(await begin(request, 'auth.changePassword'));
        const input = passwords(await body(request, ['currentPassword', 'password', 'passwordConfirmation']), {
          currentPassword: PASSWORD_MAX_LENGTH, password: PASSWORD_MAX_LENGTH, passwordConfirmation: PASSWORD_MAX_LENGTH,
        });
        if (input.password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password: input.password });
        if (!(await users.checkPassword(user.id, input.currentPassword!))) throw new ValidationError('The provided current password is invalid');
        if (input.currentPassword === input.password) throw new ValidationError('Your new password must be different than your current password');
        // The answer's JWT carries the new version; every earlier one stops working.
        return json(await withJwt(user, await users.setPassword(user.id, input.password!)));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/forgot-password',
      async ({ request }) => {
        await begin(request, 'auth.forgotPassword');
        const email = checkEmail((await body(request, ['email'])).email);
        const code = await users.createResetCode(email);
        // The same answer whether or not the address exists, so it cannot be used to probe accounts.
        if (code) {
          await instance.email.send({
            to: email.toLowerCase(),
            subject: 'Reset password',
            text: `We heard that you lost your password. Use this code to reset it:\n\n${code}\n\nPOST /api/auth/reset-password { "code", "password", "passwordConfirmation" }`,
          });
        }
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/reset-password',
      async ({ request }) => {
        await begin(request, 'auth.resetPassword');
        const input = passwords(await body(request, ['code', 'password', 'passwordConfirmation']), {
          code: RESET_CODE_MAX_LENGTH, password: PASSWORD_MAX_LENGTH, passwordConfirmation: PASSWORD_MAX_LENGTH,
        });
        if (input.password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        Users.checkFields({ password: input.password });
        const user = await users.findByResetCode(input.code!);
        if (!user) throw new ValidationError('Incorrect code provided');
        return json(await withJwt(user, await users.setPassword(user.id, input.password!)));
      },
      { parse: 'none' },
    )
    .get('/api/users/me', async ({ request }) => {
      const user = userOf(await begin(request, 'user.me'));
      return json(await withRole(request, user));
    })
    .get('/api/users/count', async ({ request }) => {
      await begin(request, 'user.count');
      return json(await users.count());
    })
    .get('/api/users', async ({ request }) => {
      await begin(request, 'user.find');
      return json(await Promise.all((await users.list()).map((user) => withRole(request, user))));
    })
    .get('/api/users/:id', async ({ request, params }) => {
      await begin(request, 'user.findOne');
      const user = await users.find(numericId(params.id));
      if (!user) throw new NotFoundError();
      return json(await withRole(request, user));
    })
    .post(
      '/api/users',
      async ({ request }) => {
        await begin(request, 'user.create');
        const input = await body(request, ['username', 'email', 'password', 'role', 'blocked', 'confirmed']);
        // Users.create checks every value (types and caps), not only the ones a caller should send.
        return json(await users.create(input as never), 201);
      },
      { parse: 'none' },
    )
    .put(
      '/api/users/:id',
      async ({ request, params }) => {
        const principal = await begin(request, 'user.update');
        const id = numericId(params.id);
        // With `user.update` granted to a role, its users may edit their own profile, nothing more:
        // other accounts, and role, blocked & co., need an API token holding the action.
        const asUser = principal.kind !== 'token';
        if (asUser && (principal.kind !== 'user' || principal.user.id !== id)) throw new ForbiddenError();
        if (!(await users.find(id))) throw new NotFoundError();
        const input = await body(request, [...PROFILE_FIELDS, ...ADMIN_FIELDS, 'password']);
        if (asUser) {
          if (Object.keys(input).some((k) => ADMIN_FIELDS.includes(k))) throw new ForbiddenError();
          // change-password asks for the current one; a stolen JWT alone must not set a new one.
          if ('password' in input) {
            const errors = new FieldErrors();
            errors.add('password', 'password cannot be changed here: use /api/auth/change-password or /api/auth/reset-password', null);
            errors.throwIfAny();
          }
        }
        return json(await users.update(id, input));
      },
      { parse: 'none' },
    )
    .delete('/api/users/:id', async ({ request, params }) => {
      const principal = await begin(request, 'user.destroy');
      const id = numericId(params.id);
      // As for updates: with `user.destroy` granted to a role, its users may delete their own
      // account only; deleting others takes an API token holding the action.
      if (principal.kind !== 'token' && (principal.kind !== 'user' || principal.user.id !== id)) throw new ForbiddenError();
      const user = await users.delete(id);
      if (!user) throw new NotFoundError();
      return json(user);
    })
    .get('/api/users-permissions/roles', async ({ request }) => {
      await begin(request, 'role.find');
      const list = await roles.list();
      return json({ roles: await Promise.all(list.map(async (r) => ({ ...r, nb_users: await roles.userCount(r.id) }))) });
    })
    .get('/api/users-permissions/roles/:id', async ({ request, params }) => {
      await begin(request, 'role.findOne');
      const role = await roles.findById(numericId(params.id));
      if (!role) throw new NotFoundError();
      const granted = new Set((await roles.permissions(role.type)).map((p) => p.action));
      return json({ role: { ...role, permissions: permissionTree(knownActions(instance.registry), granted) } });
    })
    .post(
      '/api/users-permissions/roles',
      async ({ request }) => {
        await begin(request, 'role.createRole');
        const input = await body(request);
        const role = await roles.create(text(input.name, 'name'), typeof input.description === 'string' ? input.description : null);
        if (input.permissions !== undefined) await roles.setActions(role.type, knownOnly(actionsFromTree(input.permissions)));
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .put(
      '/api/users-permissions/roles/:id',
      async ({ request, params }) => {
        await begin(request, 'role.updateRole');
        const input = await body(request);
        const role = await roles.update(numericId(params.id), {
          name: typeof input.name === 'string' ? input.name : undefined,
          description: typeof input.description === 'string' ? input.description : undefined,
        });
        if (input.permissions !== undefined) await roles.setActions(role.type, knownOnly(actionsFromTree(input.permissions)));
        return json({ ok: true });
      },
      { parse: 'none' },
    )
    .delete('/api/users-permissions/roles/:id', async ({ request, params }) => {
      await begin(request, 'role.deleteRole');
      await roles.delete(numericId(params.id));
      return json({ ok: true });
    })
    .get('/api/users-permissions/permissions', async ({ request }) => {
      await begin(request, 'permissions.getPermissions');
      return json({ permissions: permissionTree(knownActions(instance.registry), new Set()) });
    });

  /** Refuses actions that do not exist rather than storing grants that mean nothing. */
  function knownOnly(actions: string[]): string[] {
    const known = new Set(knownActions(instance.registry));
    const unknown = actions.filter((a) => !known.has(a));
    if (unknown.length) throw new ValidationError(`Unknown action ${unknown[0]}`);
    return actions;
  }
  return app;
}
