/**
 * /admin/api/audit: the audit log (src/audit/) for the Settings page, Super Admins only.
 *
 *   GET /admin/api/audit?since=&actor=&action=&before=&limit=   rows, newest first (limit ≤ 500,
 *       default 50); `meta.hasMore`: older rows exist (ask again with `before` = the last id)
 */
import { Elysia } from 'elysia';
import { AUDIT_PAGE_LIMIT } from '../audit/log';
import { ValidationError } from '../errors';
import type { Instance } from '../instance';
import { parseQueryString } from '../http/query-string';
import { json } from '../http/respond';
import { unstorableText } from '../text';
import type { AdminAccounts } from './accounts';
import { fieldError, gate } from './settings/gate';

const PARAMETERS = new Set(['since', 'actor', 'action', 'before', 'limit']);

export function adminAuditRoutes(instance: Instance, accounts: AdminAccounts) {
  const begin = gate(instance, accounts, 'settings');

  function filterOf(url: string) {
    const query = parseQueryString(url);
    for (const key of Object.keys(query)) if (!PARAMETERS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
    const textOf = (name: string) => {
      const raw = query[name];
      if (raw === undefined || raw === '') return undefined;
      if (typeof raw !== 'string' || unstorableText(raw) || raw.length > 320) throw fieldError(name, `${name} must be text`);
      return raw;
    };
    const numberOf = (name: string, max: number) => {
      const raw = textOf(name);
      if (raw === undefined) return undefined;
      if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw fieldError(name, `${name} must be a whole number from 1 to ${max}`);
      return Number(raw);
    };
    const sinceText = textOf('since');
    const since = sinceText === undefined ? undefined : Date.parse(sinceText);
    if (since !== undefined && !Number.isFinite(since)) throw fieldError('since', 'since must be an ISO-8601 time');
    return {
      since: since === undefined ? undefined : new Date(since).toISOString(),
      actor: textOf('actor'),
      action: textOf('action'),
      before: numberOf('before', 2 ** 31 - 1),
      limit: numberOf('limit', AUDIT_PAGE_LIMIT) ?? 50,
    };
  }

  return new Elysia({ name: 'admin:audit' }).get('/admin/api/audit', async ({ request }) => {
    await begin(request);
    const filter = filterOf(request.url);
    const rows = await instance.audit.list({ ...filter, limit: filter.limit + 1 });
    return json({
      data: rows.slice(0, filter.limit),
      meta: { hasMore: rows.length > filter.limit, enabled: instance.audit.enabled, days: instance.audit.days },
    });
  });
}
