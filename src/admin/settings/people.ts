/**
 * Settings → Users (the API's end users, auth/users.ts) and Admin users (accounts.ts).
 * Blocking a user makes their next login fail (POST /api/auth/local checks `blocked`) and
 * refuses their JWTs (auth/access.ts); the last Super Admin can neither be deleted nor lose
 * the role (checked in accounts.ts, inside the write's transaction).
 *
 *   GET     /admin/api/settings/users?q=&page=    list (search in username and email), 20 a page
 *   PUT     /admin/api/settings/users/:id         {blocked?, role?}
 *   GET     /admin/api/settings/admins            list
 *   POST    /admin/api/settings/admins            create {email, password, role}
 *   PUT     /admin/api/settings/admins/:id        {role}
 *   DELETE  /admin/api/settings/admins/:id
 */
import { Elysia } from 'elysia';
import { NotFoundError } from '../../errors';
import type { Instance } from '../../instance';
import { parseQueryString } from '../../http/query-string';
import { json, noContent } from '../../http/respond';
import { unstorableText } from '../../text';
import type { AdminAccounts } from '../accounts';
import { bodyOf, fieldError, gate, idParam } from './gate';
import { adminActor } from '../session';

const PAGE_SIZE = 20;

export function settingsPeopleRoutes(instance: Instance, accounts: AdminAccounts) {
  const { users, roles, registry, config } = instance;
  const begin = gate(instance, accounts, 'settings');

  const idOf = (raw: string) => {
    const id = idParam(raw);
    if (id === undefined) throw new NotFoundError();
    return id;
  };

  return new Elysia({ name: 'admin:settings:people' })
    .get('/admin/api/settings/users', async ({ request }) => {
      await begin(request);
      const query = parseQueryString(request.url);
      const q = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
      if (unstorableText(q)) throw fieldError('q', 'q cannot hold NUL or lone surrogate characters');
      const page = typeof query.page === 'string' && /^\d{1,6}$/.test(query.page) && Number(query.page) > 0 ? Number(query.page) : 1;
      // One more than a page: whether there is a next page, without counting every match.
      const raw: Record<string, unknown> = { sort: 'id:asc', start: String((page - 1) * PAGE_SIZE), limit: String(PAGE_SIZE + 1) };
      if (q) raw.filters = { $or: [{ username: { $containsi: q } }, { email: { $containsi: q } }] };
      const found = await users.list(raw, registry);
      const shown = found.slice(0, PAGE_SIZE);
      const rolesOf = await users.rolesOf(shown.map((user) => user.id!));
      const data = shown.map((user) => {
        const role = rolesOf.get(user.id!);
        return { ...user, role: role ? { type: role.type, name: role.name } : null };
      });
      return json({
        data,
        meta: { page, pageSize: PAGE_SIZE, hasMore: found.length > PAGE_SIZE, roles: (await roles.list()).filter((r) => r.type !== 'public') },
      });
    })
    .put(
      '/admin/api/settings/users/:id',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const id = idOf(params.id);
        const body = await bodyOf(request, config.bodyLimit);
        const changes: { blocked?: boolean; role?: string } = {};
        if (body.blocked !== undefined) {
          if (typeof body.blocked !== 'boolean') throw fieldError('blocked', 'blocked must be true or false');
          changes.blocked = body.blocked;
        }
        if (body.role !== undefined) {
          if (typeof body.role !== 'string' || body.role === 'public' || !(await roles.find(body.role)))
            throw fieldError('role', 'role must be one of the roles a user can have');
          changes.role = body.role;
        }
        if (!(await users.find(id))) throw new NotFoundError('User not found');
        const user = await users.update(id, changes, by);
        const role = await users.role(id);
        return json({ data: { ...user, role: role ? { type: role.type, name: role.name } : null } });
      },
      { parse: 'none' },
    )
    .get('/admin/api/settings/admins', async ({ request }) => {
      await begin(request);
      return json({ data: await accounts.list() });
    })
    .post(
      '/admin/api/settings/admins',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        return json({ data: await accounts.create({ email: body.email, password: body.password, role: body.role ?? 'editor' }, {}, by) }, 201);
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/settings/admins/:id',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const id = idOf(params.id);
        const body = await bodyOf(request, config.bodyLimit);
        const user = await accounts.setRole(id, body.role, by);
        if (!user) throw new NotFoundError('Admin user not found');
        return json({ data: user });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/settings/admins/:id', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      if (!(await accounts.remove(idOf(params.id), by))) throw new NotFoundError('Admin user not found');
      return noContent();
    });
}
