/**
 * The users & permissions settings an installation runs with, from their sources. For each
 * key, the first source that sets it wins:
 *
 * 1. FOLIO_USERS_PERMISSIONS_CONFIG (JSON text or a JSON file, Strapi's names and values);
 * 2. the single-purpose variables Folio had before it: FOLIO_ALLOW_REGISTER
 *    (`advanced.allow_register`), FOLIO_RESET_PASSWORD_URL (`advanced.email_reset_password`),
 *    FOLIO_AUTH_RATE_LIMIT / FOLIO_AUTH_RATE_WINDOW (`ratelimit`), FOLIO_JWT_EXPIRES_IN (`jwt.expiresIn`);
 * 3. the stored values (`folio_plugin_store`: the admin's Settings pages, `folio import strapi`),
 *    for the store's keys (`advanced`, `email`, `grant`) only;
 * 4. Strapi 5.54's defaults (settings-values.ts).
 *
 * Stored values are read through a settings cache (db/cache.ts), so a value written by the
 * CLI, the admin or another instance applies from the next request on.
 */
import type { LogFormat, LogLevel } from '../log';
import { ChangeCache } from '../db/cache';
import type { Database, Queryable } from '../db/database';
import { readPluginStore, writePluginStoreValue } from '../db/store/plugin-store';
import { createLogger, type Logger } from '../log';
import {
  checkAdvanced,
  checkEmailSettings,
  checkGrant,
  DEFAULT_ADVANCED,
  DEFAULT_EMAIL,
  DEFAULT_SESSIONS,
  deepMerge,
  defaultGrant,
  type AdvancedSettings,
  type EmailSettings,
  type GrantSettings,
  type PluginSettings,
  type StoreKey,
  type UsersPermissionsInput,
} from './settings-values';

/** A store key's row name in folio_plugin_store (Strapi's `plugin_users-permissions_<key>`, without the `plugin_`). */
export const storeKey = (key: StoreKey) => `users-permissions_${key}`;

export interface StoreValues {
  advanced: AdvancedSettings;
  email: EmailSettings;
  grant: GrantSettings;
}

const CHECKS: Record<StoreKey, (value: unknown, where: string) => unknown> = {
  advanced: checkAdvanced,
  email: checkEmailSettings,
  grant: checkGrant,
};

/** What of the configuration (src/config.ts reads it) the users-permissions settings start from. */
export interface SettingsConfig {
  usersPermissions?: UsersPermissionsInput;
  authRateLimit: { max: number; windowMs: number };
  jwtExpiresIn: string;
  publicUrl?: string;
  host: string;
  port: number;
  allowRegister?: boolean;
  resetPasswordUrl?: string;
  logLevel?: LogLevel;
  logFormat?: LogFormat;
}

/**
 * Strapi's `server.absoluteUrl`: FOLIO_PUBLIC_URL, or `http://<host>:<port>` (a wildcard host
 * reads as `localhost`). Links in mails and provider callbacks start with it.
 */
export function publicUrlOf(config: Pick<SettingsConfig, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The plugin's configuration part (fixed at start): FOLIO_USERS_PERMISSIONS_CONFIG over the single variables and defaults. */
export function pluginSettingsOf(config: Pick<SettingsConfig, 'usersPermissions' | 'authRateLimit' | 'jwtExpiresIn'>): PluginSettings {
  const input = config.usersPermissions ?? {};
  return {
    jwtManagement: input.jwtManagement ?? 'legacy-support',
    sessions: deepMerge(DEFAULT_SESSIONS, input.sessions),
    ratelimit: {
      enabled: input.ratelimit?.enabled ?? true,
      interval: input.ratelimit?.interval ?? config.authRateLimit.windowMs,
      max: input.ratelimit?.max ?? config.authRateLimit.max,
    },
    jwt: { expiresIn: input.jwt?.expiresIn ?? config.jwtExpiresIn },
    register: { allowedFields: input.register?.allowedFields ?? [] },
  };
}

export class UsersPermissionsSettings {
  /** jwtManagement, sessions, ratelimit, jwt, register. */
  readonly plugin: PluginSettings;
  /** Strapi's server.absoluteUrl (publicUrlOf). */
  readonly publicUrl: string;
  /** What the environment sets of the store's keys (sources 1 and 2): it wins over stored values. */
  readonly pinned: Pick<UsersPermissionsInput, 'advanced' | 'email' | 'grant'>;
  private cache: ChangeCache<'values', StoreValues>;
  private log: Logger;

  constructor(
    private db: Database,
    config: SettingsConfig,
  ) {
    this.plugin = pluginSettingsOf(config);
    this.publicUrl = publicUrlOf(config);
    const aliases: Partial<AdvancedSettings> = {};
    if (config.allowRegister !== undefined) aliases.allow_register = config.allowRegister;
    if (config.resetPasswordUrl !== undefined) aliases.email_reset_password = config.resetPasswordUrl;
    const input = config.usersPermissions ?? {};
    this.pinned = { advanced: { ...aliases, ...input.advanced }, email: input.email ?? {}, grant: input.grant ?? {} };
    this.cache = ChangeCache.settings(db, 1);
    this.log = createLogger({ level: config.logLevel, format: config.logFormat });
  }

  /** The `<public url>/api/auth` base of Strapi's default provider callbacks. */
  get authBase(): string {
    return `${this.publicUrl}/api/auth`;
  }

  /** Every store key's value, resolved (defaults ← stored ← environment). */
  values(): Promise<StoreValues> {
    return this.cache.get('values', async () => {
      const stored = await this.stored();
      return {
        advanced: deepMerge(deepMerge(DEFAULT_ADVANCED, stored.advanced), this.pinned.advanced),
        email: deepMerge(deepMerge(DEFAULT_EMAIL, stored.email), this.pinned.email),
        grant: deepMerge(deepMerge(defaultGrant(this.authBase), stored.grant), this.pinned.grant),
      };
    });
  }

  async advanced(): Promise<AdvancedSettings> {
    return (await this.values()).advanced;
  }

  async email(): Promise<EmailSettings> {
    return (await this.values()).email;
  }

  async grant(): Promise<GrantSettings> {
    return (await this.values()).grant;
  }

  /**
   * The stored values, checked again as they are read: a value that no longer passes (written
   * by hand, or by an older Folio) is logged and left out, so the defaults apply instead of a
   * request failing.
   */
  async stored(db: Queryable = this.db): Promise<Partial<Record<StoreKey, unknown>>> {
    const out: Partial<Record<StoreKey, unknown>> = {};
    for (const row of await readPluginStore(db)) {
      const key = (Object.keys(CHECKS) as StoreKey[]).find((k) => storeKey(k) === row.key);
      if (!key) continue;
      try {
        out[key] = CHECKS[key](JSON.parse(row.value), `stored ${key}`);
      } catch (error) {
        this.log.warn(`ignoring the stored users-permissions ${key} settings: ${(error as Error).message}`);
      }
    }
    return out;
  }

  /**
   * Stores a key's value (checked first; throws SettingsError naming the key), laid over
   * what is stored already unless `replace`. Values the environment pins still win on reads.
   */
  async write(key: StoreKey, value: unknown, options: { replace?: boolean } = {}): Promise<void> {
    const checked = CHECKS[key](value, key);
    await this.db.transaction(async (tx) => {
      const current = options.replace ? undefined : (await this.stored(tx))[key];
      await writePluginStoreValue(tx, storeKey(key), JSON.stringify(current === undefined ? checked : deepMerge(current, checked)), new Date().toISOString());
    });
  }
}
