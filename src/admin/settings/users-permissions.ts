/**
 * Settings → Users & Permissions: the stored values of users-permissions' Advanced settings,
 * Providers and Email templates (auth/settings.ts), as Strapi's admin pages edit them. Values
 * FOLIO_USERS_PERMISSIONS_CONFIG or a single-purpose variable sets win over stored ones: the
 * answer lists them as `pinned`, so the page can say a change would not apply. A provider's
 * secret never leaves the server (`secretSet` says whether one is stored; a blank one keeps it).
 *
 *   GET  /admin/api/settings/users-permissions                   everything the page shows
 *   PUT  /admin/api/settings/users-permissions/advanced          { unique_email, allow_register, … }
 *   PUT  /admin/api/settings/users-permissions/email             { reset_password: { options }, email_confirmation: { options } }
 *   PUT  /admin/api/settings/users-permissions/providers/:name   { enabled, key, secret, callback, scope, subdomain }
 */
import { Elysia } from 'elysia';
import { SettingsError, PROVIDER_NAMES, type GrantProvider, type StoreKey } from '../../auth/settings-values';
import { NotFoundError } from '../../errors';
import type { Instance } from '../../instance';
import { json } from '../../http/respond';
import type { AdminAccounts } from '../accounts';
import { bodyOf, fieldError, gate, nameParam } from './gate';

/** The providers whose endpoints take a `subdomain` (Strapi's keycloak, cognito, auth0, cas). */
const WITH_SUBDOMAIN = new Set(['keycloak', 'cognito', 'auth0', 'cas']);

export function settingsUsersPermissionsRoutes(instance: Instance, accounts: AdminAccounts) {
  const { usersPermissions: settings, roles, config } = instance;
  const begin = gate(instance, accounts, 'settings');

  async function page() {
    const { advanced, email, grant } = await settings.values();
    const providers = PROVIDER_NAMES.filter((name) => name !== 'email').map((name) => {
      const p: GrantProvider = grant[name] ?? { enabled: false };
      return {
        name,
        enabled: p.enabled,
        key: p.key ?? '',
        secretSet: !!p.secret,
        callback: p.callback ?? '',
        scope: p.scope ?? [],
        ...(WITH_SUBDOMAIN.has(name) ? { subdomain: p.subdomain ?? '' } : {}),
        redirectUri: instance.providers.redirectUri(name),
      };
    });
    return {
      data: {
        advanced,
        localLogin: grant.email?.enabled !== false,
        email: { reset_password: email.reset_password.options, email_confirmation: email.email_confirmation.options },
        providers,
        roles: (await roles.list()).filter((r) => r.type !== 'public').map((r) => ({ type: r.type, name: r.name })),
        pinned: {
          advanced: Object.keys(settings.pinned.advanced ?? {}),
          email: Object.keys(settings.pinned.email ?? {}),
          grant: Object.keys(settings.pinned.grant ?? {}),
        },
      },
    };
  }

  /** Stores a key's value; a value the checks refuse is a 400 at its field (`grant.keycloak.subdomain: …` → `subdomain`). */
  async function write(key: StoreKey, value: unknown) {
    try {
      await settings.write(key, value);
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      const [where = '', ...rest] = error.message.split(': ');
      const field = where
        .split('.')
        .at(-1)!
        .replace(/\[\d+\]$/, '');
      throw fieldError(field, `${field} ${rest.join(': ')}`);
    }
  }

  return new Elysia({ name: 'admin:settings:users-permissions' })
    .get('/admin/api/settings/users-permissions', async ({ request }) => {
      await begin(request);
      return json(await page(), 200, { 'cache-control': 'no-store' });
    })
    .put(
      '/admin/api/settings/users-permissions/advanced',
      async ({ request }) => {
        await begin(request);
        const body = await bodyOf(request, config.bodyLimit);
        if (
          body.default_role !== undefined &&
          (typeof body.default_role !== 'string' || body.default_role === 'public' || !(await roles.find(body.default_role)))
        ) {
          throw fieldError('default_role', 'default_role must be one of the roles');
        }
        await write('advanced', body);
        return json(await page());
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/settings/users-permissions/email',
      async ({ request }) => {
        await begin(request);
        const body = await bodyOf(request, config.bodyLimit);
        const value = Object.fromEntries(Object.entries(body).map(([name, options]) => [name, { options }]));
        await write('email', value);
        return json(await page());
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/settings/users-permissions/providers/:name',
      async ({ request, params }) => {
        await begin(request);
        const name = nameParam(params.name);
        if (!PROVIDER_NAMES.includes(name)) throw new NotFoundError('Provider not found');
        const body = await bodyOf(request, config.bodyLimit);
        // `email` is the local login: it can be turned off, nothing more.
        if (name === 'email') {
          await write('grant', { email: { enabled: body.enabled } });
          return json(await page());
        }
        const { secret, scope, ...rest } = body;
        const value: Record<string, unknown> = { ...rest };
        // A blank secret keeps the stored one (it is never sent to the page).
        if (typeof secret === 'string' && secret !== '') value.secret = secret;
        else if (secret !== undefined && secret !== '' && secret !== null) value.secret = secret;
        // Scopes as the page types them: space- or comma-separated.
        if (typeof scope === 'string') value.scope = scope.split(/[\s,]+/).filter(Boolean);
        else if (scope !== undefined) value.scope = scope;
        if (!WITH_SUBDOMAIN.has(name) && 'subdomain' in value) delete value.subdomain;
        await write('grant', { [name]: value });
        return json(await page());
      },
      { parse: 'none' },
    );
}
