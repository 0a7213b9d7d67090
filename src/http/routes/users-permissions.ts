/**
 * The users & permissions plugin's routes, answering as Strapi's does: bare objects and
 * arrays (no `{ data }`), errors in the envelope. `/api/auth/*` is rate-limited.
 */
import { Elysia } from 'elysia';
import { actionsFromTree, knownActions, permissionTree } from '../../auth/actions';
import type { Principal } from '../../auth/access';
import { Users } from '../../auth/users';
import { FolioError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { readJsonBody } from '../body';
import { parseQueryString } from '../query-string';
import { RateLimiter } from '../rate-limit';
import { json } from '../respond';

type Body = Record<string, unknown>;
const UP = 'plugin::users-permissions';

export function usersPermissionsRoutes(instance: Instance) {
  const { access, users, roles, jwt, config } = instance;
  // Instances sharing PostgreSQL share the counters too.
  const shared = instance.db.dialect.name === 'postgres' ? instance.db : undefined;
  const limiter = new RateLimiter(config.authRateLimit.max, config.authRateLimit.windowMs, shared);

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
  const numericId = (raw: string): number => {
    if (!/^\d+$/.test(raw)) throw new NotFoundError();
    return Number(raw);
  };
  const withJwt = async (user: { id: number }) => ({ jwt: await jwt.issue(user.id), user });
  /** The user, with its role when the query asks `populate=role` (or `*`, or the object form). */
  const withRole = async <U extends { id: number }>(request: Request, user: U) => {
    const populate = parseQueryString(request.url).populate;
    const wanted = populate === '*' || populate === 'role' || (Array.isArray(populate) && populate.includes('role')) ||
      (typeof populate === 'object' && populate !== null && 'role' in populate);
    return wanted ? { ...user, role: (await users.role(user.id)) ?? null } : user;
  };

  const app = new Elysia({ name: 'users-permissions' })
    .onBeforeHandle(async ({ request, server, path }) => {
      if (path.startsWith('/api/auth/')) await limiter.hit(server?.requestIP(request)?.address ?? 'unknown', path);
    })
    .post(
      '/api/auth/local',
      async ({ request }) => {
        await begin(request, 'auth.callback');
        const { identifier, password } = await body(request);
        if (typeof identifier !== 'string' || typeof password !== 'string') throw new ValidationError('identifier and password are required');
        const user = await users.authenticate(identifier, password);
        if (!user) throw new ValidationError('Invalid identifier or password');
        if (user.blocked) throw new FolioError(400, 'ApplicationError', 'Your account has been blocked by an administrator');
        return json(await withJwt(user));
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
        return json(await withJwt(user));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/change-password',
      async ({ request }) => {
        const user = userOf(await begin(request, 'auth.changePassword'));
        const input = await body(request, ['currentPassword', 'password', 'passwordConfirmation']);
        const password = text(input.password, 'password');
        if (password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        if (!(await users.checkPassword(user.id, text(input.currentPassword, 'currentPassword')))) {
          throw new ValidationError('The provided current password is invalid');
        }
        if (input.currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
        await users.setPassword(user.id, password);
        return json(await withJwt(user));
      },
      { parse: 'none' },
    )
    .post(
      '/api/auth/forgot-password',
      async ({ request }) => {
        await begin(request, 'auth.forgotPassword');
        const email = text((await body(request, ['email'])).email, 'email');
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
        const input = await body(request, ['code', 'password', 'passwordConfirmation']);
        const password = text(input.password, 'password');
        if (password !== input.passwordConfirmation) throw new ValidationError('Passwords do not match');
        const user = await users.findByResetCode(text(input.code, 'code'));
        if (!user) throw new ValidationError('Incorrect code provided');
        await users.setPassword(user.id, password);
        return json(await withJwt(user));
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
        const input = await body(request, ['username', 'email', 'password', 'role', 'blocked']);
        const user = await users.create({
          username: input.username as string,
          email: input.email as string,
          password: input.password as string,
          role: input.role === undefined ? undefined : String(input.role),
          blocked: input.blocked === true,
        });
        return json(user, 201);
      },
      { parse: 'none' },
    )
    .put(
      '/api/users/:id',
      async ({ request, params }) => {
        await begin(request, 'user.update');
        const id = numericId(params.id);
        if (!(await users.find(id))) throw new NotFoundError();
        const input = await body(request, ['username', 'email', 'password', 'role', 'blocked']);
        Users.checkFields(input);
        return json(await users.update(id, input as never));
      },
      { parse: 'none' },
    )
    .delete('/api/users/:id', async ({ request, params }) => {
      await begin(request, 'user.destroy');
      const user = await users.delete(numericId(params.id));
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
