/**
 * Settings → Roles and Locales, on the same services the CLI uses (auth/roles.ts,
 * documents/locales.ts). A role's page lists every action the permission model knows
 * (auth/actions.ts): a section per content type, named by its displayName, then the
 * plugins' actions; saving replaces the role's grants for the actions shown, and the
 * content API reads grants through a cache that the write invalidates, so it applies at once.
 *
 *   GET|POST        /admin/api/settings/roles            list (with user counts) | create {name, description}
 *   GET|PUT|DELETE  /admin/api/settings/roles/:type      the role's sections | save {actions: [...]} | delete
 *   GET|POST        /admin/api/settings/locales          list | add {code, name}
 *   PUT             /admin/api/settings/locales/:code/default
 *   DELETE          /admin/api/settings/locales/:code
 */
import { Elysia } from 'elysia';
import { contentActions, actionName, PLUGIN_ACTIONS } from '../../auth/actions';
import { FolioError, NotFoundError } from '../../errors';
import type { Instance } from '../../instance';
import { json, noContent } from '../../http/respond';
import type { AdminAccounts } from '../accounts';
import { bodyOf, fieldError, gate, nameParam, strings, text } from './gate';
import { adminActor } from '../session';

export interface RoleSection {
  /** Shown as the section's name: a content type's displayName, or the plugin and controller. */
  label: string;
  actions: { name: string; action: string; enabled: boolean }[];
}

const PLUGIN_LABELS: Record<string, string> = {
  'plugin::upload.content-api': 'Upload',
  'plugin::i18n.locales': 'Locales (i18n)',
  'plugin::users-permissions.auth': 'Users & Permissions: auth',
  'plugin::users-permissions.user': 'Users & Permissions: user',
  'plugin::users-permissions.role': 'Users & Permissions: role',
  'plugin::users-permissions.permissions': 'Users & Permissions: permissions',
};

export function settingsRoleRoutes(instance: Instance, accounts: AdminAccounts) {
  const { roles, registry, locales, config } = instance;
  const begin = gate(instance, accounts, 'settings');

  /** Every action a role may hold, grouped as the page shows them. */
  function sections(enabled: Set<string>): RoleSection[] {
    const out: RoleSection[] = [];
    for (const ct of registry.contentTypes.filter((c) => !c.system)) {
      out.push({
        label: ct.displayName,
        actions: contentActions(ct).map((a) => ({ name: a, action: actionName(ct, a), enabled: enabled.has(actionName(ct, a)) })),
      });
    }
    const plugins = new Map<string, RoleSection>();
    for (const action of PLUGIN_ACTIONS) {
      const at = action.lastIndexOf('.');
      const group = action.slice(0, at);
      const section = plugins.get(group) ?? { label: PLUGIN_LABELS[group] ?? group, actions: [] };
      plugins.set(group, section);
      section.actions.push({ name: action.slice(at + 1), action, enabled: enabled.has(action) });
    }
    return [...out, ...plugins.values()];
  }

  async function roleOf(rawType: string) {
    const role = await roles.find(nameParam(rawType));
    if (!role) throw new NotFoundError('Role not found');
    return role;
  }

  return new Elysia({ name: 'admin:settings:roles' })
    .get('/admin/api/settings/roles', async ({ request }) => {
      await begin(request);
      const list = await roles.list();
      const data = [];
      for (const role of list) data.push({ ...role, userCount: await roles.userCount(role.id) });
      return json({ data });
    })
    .post(
      '/admin/api/settings/roles',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        const name = text(body, 'name', { required: true, max: 100 })!;
        const description = text(body, 'description', { max: 1000 }) ?? null;
        if (!/[a-z0-9]/i.test(name)) throw fieldError('name', 'name needs at least one letter or digit');
        return json({ data: await roles.create(name, description, undefined, by) }, 201);
      },
      { parse: 'none' },
    )
    .get('/admin/api/settings/roles/:type', async ({ request, params }) => {
      await begin(request);
      const role = await roleOf(params.type);
      return json({ data: { role, sections: sections(await roles.actions(role.type)) } });
    })
    .put(
      '/admin/api/settings/roles/:type',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const role = await roleOf(params.type);
        const body = await bodyOf(request, config.bodyLimit);
        const wanted = strings(body, 'actions');
        const shown = new Set(sections(new Set()).flatMap((s) => s.actions.map((a) => a.action)));
        const unknown = wanted.find((a) => !shown.has(a));
        if (unknown !== undefined) throw fieldError('actions', `Unknown action "${unknown}"`);
        // Grants the page does not show (an action of a content type since removed) are kept.
        const kept = [...(await roles.actions(role.type))].filter((a) => !shown.has(a));
        await roles.setActions(role.type, [...kept, ...wanted], by);
        return json({ data: { role, sections: sections(await roles.actions(role.type)) } });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/settings/roles/:type', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const role = await roleOf(params.type);
      await roles.delete(role.id, by);
      return noContent();
    })
    .get('/admin/api/settings/locales', async ({ request }) => {
      await begin(request);
      return json({ data: await locales.list() });
    })
    .post(
      '/admin/api/settings/locales',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        const code = text(body, 'code', { required: true, max: 40 })!;
        const name = text(body, 'name', { max: 100 });
        if (!/^[a-zA-Z]{2,3}([-_][a-zA-Z0-9]{2,8})*$/.test(code)) throw fieldError('code', `Invalid locale code "${code}" (expected e.g. en, fr, pt-BR)`);
        if (await locales.exists(code)) throw fieldError('code', `Locale "${code}" already exists`);
        return json({ data: await locales.add(code, name ?? undefined, by) }, 201);
      },
      { parse: 'none' },
    )
    .put('/admin/api/settings/locales/:code/default', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const code = nameParam(params.code);
      if (!(await locales.exists(code))) throw new NotFoundError('Locale not found');
      await locales.setDefault(code, by);
      return json({ data: await locales.list() });
    })
    .delete('/admin/api/settings/locales/:code', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const code = nameParam(params.code);
      if (!(await locales.exists(code))) throw new NotFoundError('Locale not found');
      if ((await locales.defaultCode()) === code)
        throw new FolioError(400, 'ApplicationError', 'The default locale cannot be removed: make another locale the default first');
      await locales.remove(code, by);
      return noContent();
    });
}
