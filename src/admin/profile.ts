/**
 * An admin's own account (the profile page), whatever their role:
 *
 *   GET /admin/api/me            { data: the admin (id, email, role, firstname, lastname) }
 *   PUT /admin/api/me            { firstname, lastname }: their name (a 400 names a bad field)
 *   PUT /admin/api/me/password   { currentPassword, password }: 204; the current password is
 *        required, the new one follows the rules of any admin password; every other session
 *        of theirs ends. Counted against FOLIO_AUTH_RATE_LIMIT as a login is (429 beyond).
 */
import { Elysia } from 'elysia';
import type { Instance } from '../instance';
import { clientAddress } from '../http/rate-limit';
import { json, noContent } from '../http/respond';
import type { AdminAccounts } from './accounts';
import { checkCsrf } from './csrf';
import { requireAdmin } from './session';
import { bodyOf } from './settings/gate';

export function adminProfileRoutes(instance: Instance, accounts: AdminAccounts) {
  const { config, authLimiter } = instance;
  const begin = async (request: Request) => {
    const session = await requireAdmin(accounts, request);
    if (request.method !== 'GET') checkCsrf(request, session.token, config.trustProxy);
    return session;
  };
  const peerOf = (server: { requestIP(r: Request): { address: string } | null } | null, request: Request) => server?.requestIP(request)?.address;

  return new Elysia({ name: 'admin:profile' })
    .get('/admin/api/me', async ({ request }) => json({ data: (await begin(request)).user }, 200, { 'cache-control': 'no-store' }))
    .put(
      '/admin/api/me',
      async ({ request }) => {
        const { user } = await begin(request);
        const body = await bodyOf(request, config.bodyLimit);
        return json({ data: await accounts.setNames(user.id, body) });
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/me/password',
      async ({ request, server }) => {
        // Counted first: a stolen session cannot guess the current password faster than a login could.
        await authLimiter.hit(clientAddress(request, peerOf(server, request), config.trustProxy), '/admin/api/me/password');
        const { user, token } = await begin(request);
        const body = await bodyOf(request, config.bodyLimit);
        await accounts.changePassword(user.id, body, token);
        return noContent();
      },
      { parse: 'none' },
    );
}
