/** Settings under /admin/api/settings: Super Admin only (an Editor gets 403 on every route). */
import { Elysia } from 'elysia';
import type { Instance } from '../../instance';
import type { AdminAccounts } from '../accounts';
import { settingsIntegrationRoutes } from './integrations';
import { settingsPeopleRoutes } from './people';
import { settingsRoleRoutes } from './roles';
import { settingsUsersPermissionsRoutes } from './users-permissions';

export function adminSettingsRoutes(instance: Instance, accounts: AdminAccounts) {
  return new Elysia({ name: 'admin:settings' })
    .use(settingsRoleRoutes(instance, accounts))
    .use(settingsIntegrationRoutes(instance, accounts))
    .use(settingsPeopleRoutes(instance, accounts))
    .use(settingsUsersPermissionsRoutes(instance, accounts));
}
