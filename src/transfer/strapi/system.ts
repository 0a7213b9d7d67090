/**
 * Strapi's own tables → Folio's system tables, ids kept: locales (`i18n_locale`, the default
 * from the core store), roles and their grants (`up_roles`, `up_permissions` + role links),
 * users with their bcrypt hashes (`up_users` + role link; Bun.password.verify reads bcrypt),
 * content API tokens with their keyed hashes (`strapi_api_tokens`, custom tokens' actions),
 * and upload files with formats and metadata (`files`).
 */
import { createHash } from 'node:crypto';
import type { SqlValue } from '../../db/database';
import { checkAdvanced, checkEmailSettings, checkGrant, PROVIDER_NAMES, type StoreKey } from '../../auth/settings-values';
import { FILE_COLUMNS, FILES_TABLE, SYSTEM } from '../../db/layout';
import { USER_UID } from '../../registry/system-models';
import type { Registry } from '../../registry/types';
import type { TableRows } from './content';
import { isoTime, StrapiImportError, type Row, type StrapiSource } from './source';
import { attributeValues } from './values';

const table = (name: string, label: string, rows: Record<string, SqlValue>[], skipped = 0, notes: string[] = []): TableRows => ({
  table: name,
  label,
  rows,
  skipped,
  notes,
});

const rowsOf = (source: StrapiSource, name: string): Row[] => (source.has(name) ? source.rows(name) : []);

const times = (row: Row) => {
  const createdAt = isoTime(row.created_at) ?? new Date(0).toISOString();
  return { createdAt, updatedAt: isoTime(row.updated_at) ?? createdAt };
};

/** `role_id` by `user_id` (or any such pair) from a Strapi link table. */
function linkMap(source: StrapiSource, name: string, from: string, to: string): Map<number, number> {
  const map = new Map<number, number>();
  for (const r of rowsOf(source, name)) map.set(Number(r[from]), Number(r[to]));
  return map;
}

function defaultLocale(source: StrapiSource): string | undefined {
  const row = rowsOf(source, 'strapi_core_store_settings').find((r) => r.key === 'plugin_i18n_default_locale');
  try {
    return row ? (JSON.parse(String(row.value)) as string) : undefined;
  } catch {
    return undefined;
  }
}

function locales(source: StrapiSource): TableRows {
  const rows = rowsOf(source, 'i18n_locale');
  const fallback = defaultLocale(source) ?? rows[0]?.code;
  return table(
    SYSTEM.locales,
    'locales',
    rows.map((r) => {
      const t = times(r);
      return {
        id: Number(r.id),
        documentId: String(r.document_id),
        name: String(r.name ?? r.code),
        code: String(r.code),
        isDefault: r.code === fallback ? 1 : 0,
        ...t,
        publishedAt: isoTime(r.published_at) ?? t.createdAt,
      };
    }),
  );
}

function roles(source: StrapiSource): TableRows[] {
  const roleRows = rowsOf(source, 'up_roles').map((r) => {
    const t = times(r);
    return {
      id: Number(r.id),
      documentId: String(r.document_id),
      name: String(r.name),
      description: (r.description as string | null) ?? null,
      type: String(r.type),
      ...t,
      publishedAt: isoTime(r.published_at) ?? t.createdAt,
      locale: '',
    };
  });
  const roleOf = linkMap(source, 'up_permissions_role_lnk', 'permission_id', 'role_id');
  const seen = new Set<string>();
  let skipped = 0;
  const grants: Record<string, SqlValue>[] = [];
  for (const p of rowsOf(source, 'up_permissions')) {
    const roleId = roleOf.get(Number(p.id));
    // A grant no role holds, or one a role holds twice, means nothing to Folio.
    if (roleId === undefined || seen.has(`${roleId}\0${p.action}`)) {
      skipped++;
      continue;
    }
    seen.add(`${roleId}\0${p.action}`);
    grants.push({ id: Number(p.id), roleId, action: String(p.action), createdAt: times(p).createdAt });
  }
  const notes = skipped ? [`${skipped} up_permissions row(s) without a role (or repeated) were left out`] : [];
  return [table(SYSTEM.roles, 'roles', roleRows), table(SYSTEM.permissions, 'permissions', grants, skipped, notes)];
}

function users(source: StrapiSource, registry: Registry): TableRows {
  const roleOf = linkMap(source, 'up_users_role_lnk', 'user_id', 'role_id');
  const model = registry.contentType(USER_UID);
  const builtIn = new Set(['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked']);
  return table(
    SYSTEM.users,
    'users',
    rowsOf(source, 'up_users').map((r) => {
      if (!r.email || !r.username) throw new StrapiImportError(`up_users row ${r.id}: a user needs a username and an e-mail`);
      const extension = model ? attributeValues(source, 'up_users', model, r) : {};
      for (const name of builtIn) delete extension[name];
      const t = times(r);
      return {
        id: Number(r.id),
        documentId: String(r.document_id),
        username: String(r.username),
        // Folio keeps e-mails lower-cased (its unique index is case-insensitive that way).
        email: String(r.email).toLowerCase(),
        provider: String(r.provider ?? 'local'),
        password: (r.password as string | null) ?? null,
        // Folio keeps codes hashed and looks them up by their hash: a code mailed by Strapi still works.
        resetPasswordToken: hashed(r.reset_password_token),
        confirmationToken: hashed(r.confirmation_token),
        confirmed: r.confirmed ? 1 : 0,
        blocked: r.blocked ? 1 : 0,
        roleId: roleOf.get(Number(r.id)) ?? null,
        ...t,
        publishedAt: isoTime(r.published_at) ?? t.createdAt,
        locale: '',
        ...extension,
      };
    }),
  );
}

const hashed = (code: unknown) => (typeof code === 'string' && code ? createHash('sha256').update(code).digest('hex') : null);

const TOKEN_TYPES = new Set(['read-only', 'full-access', 'custom']);

/**
 * users-permissions' stored settings (core store `plugin_users-permissions_advanced`, `_email`,
 * `_grant`), checked as Folio checks them: a value that does not pass is left out with a note
 * (Strapi's defaults then apply), and so are providers Folio does not have (custom ones).
 */
export function usersPermissionsStore(source: StrapiSource): { values: { key: StoreKey; value: unknown }[]; notes: string[] } {
  const rows = rowsOf(source, 'strapi_core_store_settings');
  const values: { key: StoreKey; value: unknown }[] = [];
  const notes: string[] = [];
  const checks = { advanced: checkAdvanced, email: checkEmailSettings, grant: checkGrant } as const;
  for (const key of ['advanced', 'email', 'grant'] as const) {
    const row = rows.find((r) => r.key === `plugin_users-permissions_${key}`);
    if (!row) continue;
    try {
      let value = typeof row.value === 'string' ? JSON.parse(row.value) : row.value;
      if (key === 'grant' && value && typeof value === 'object') {
        const unknown = Object.keys(value).filter((name) => !PROVIDER_NAMES.includes(name));
        if (unknown.length) notes.push(`users-permissions providers Folio does not have were left out: ${unknown.join(', ')}`);
        value = Object.fromEntries(Object.entries(value).filter(([name]) => PROVIDER_NAMES.includes(name)));
      }
      values.push({ key, value: checks[key](value, `users-permissions ${key}`) });
    } catch (error) {
      notes.push(`users-permissions ${key} settings were left out (Strapi's defaults apply): ${(error as Error).message}`);
    }
  }
  return { values, notes };
}

function tokens(source: StrapiSource): TableRows[] {
  let skipped = 0;
  const kept: Record<string, SqlValue>[] = [];
  for (const r of rowsOf(source, 'strapi_api_tokens')) {
    // Strapi 5.5x keeps admin tokens in the same table (kind = 'admin'); Folio has no admin API.
    if (r.kind && r.kind !== 'content-api') {
      skipped++;
      continue;
    }
    if (!TOKEN_TYPES.has(String(r.type))) throw new StrapiImportError(`strapi_api_tokens row ${r.id}: unknown token type "${r.type}"`);
    kept.push({
      id: Number(r.id),
      documentId: String(r.document_id),
      name: String(r.name),
      description: (r.description as string | null) || null,
      type: String(r.type),
      accessKey: String(r.access_key),
      lifespan: r.lifespan === null || r.lifespan === undefined ? null : Number(r.lifespan),
      expiresAt: isoTime(r.expires_at),
      lastUsedAt: isoTime(r.last_used_at),
      ...times(r),
    });
  }
  const ids = new Set(kept.map((t) => t.id));
  const tokenOf = linkMap(source, 'strapi_api_token_permissions_token_lnk', 'api_token_permission_id', 'api_token_id');
  const actions: Record<string, SqlValue>[] = [];
  for (const p of rowsOf(source, 'strapi_api_token_permissions')) {
    const tokenId = tokenOf.get(Number(p.id));
    if (tokenId !== undefined && ids.has(tokenId)) actions.push({ id: Number(p.id), tokenId, action: String(p.action) });
  }
  const notes = skipped ? [`${skipped} admin token(s) were left out (Folio has no admin API)`] : [];
  return [table(SYSTEM.apiTokens, 'API tokens', kept, skipped, notes), table(SYSTEM.apiTokenPermissions, 'API token actions', actions)];
}

function files(source: StrapiSource): TableRows {
  const columns = FILE_COLUMNS.filter((c) => c !== 'id');
  return table(
    FILES_TABLE,
    'files',
    rowsOf(source, 'files').map((r) => {
      const out: Record<string, SqlValue> = { id: Number(r.id), locale: '' };
      for (const name of columns) {
        const column = source.column('files', name);
        let value = column === undefined ? null : (r[column] as SqlValue);
        if (name === 'createdAt' || name === 'updatedAt' || name === 'publishedAt') value = isoTime(value);
        // JSON columns stay JSON text, as Folio's upload plugin writes them.
        else if (value !== null && typeof value === 'object') value = JSON.stringify(value);
        out[name] = value;
      }
      out.publishedAt ??= out.createdAt ?? new Date(0).toISOString();
      out.updatedAt ??= out.createdAt;
      return out;
    }),
  );
}

/** Strapi's own tables, parents before children. */
export function systemPlan(source: StrapiSource, registry: Registry): TableRows[] {
  return [locales(source), ...roles(source), users(source, registry), ...tokens(source), files(source)];
}
