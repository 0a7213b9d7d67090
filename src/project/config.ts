/**
 * A project's configuration, as Strapi 5 loads it: every `config/<name>.(js|ts|cjs|mjs|json)`
 * under the key `<name>`, a function of `({ env })` or a plain value, then
 * `config/env/<NODE_ENV>/<name>.*` merged over it (lodash `merge`: objects deep, arrays by
 * index), over Strapi's defaults. The project's `.env` is read first, never overriding a
 * variable already set. `projectSettings` maps what Folio has a setting for (server
 * host/port, api.rest limits, body limit, CORS origins, upload limits and types, JWT
 * lifetime, GraphQL) and names where each came from, for the start-up banner.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { ProjectConfig, ProjectSettings } from '../config';
import { checkUsersPermissionsInput, type UsersPermissionsInput } from '../auth/settings-values';
import { createEnv, parseDotenv, type Vars } from './env';
import { loadFile, ProjectLoadError } from './module-host';
import { findProjectRoot } from './root';

const EXTENSIONS = ['.ts', '.js', '.cjs', '.mjs', '.json'];

type Obj = Record<string, unknown>;
const isPlain = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** lodash `merge`: plain objects and arrays merged key by key (arrays by index), other values replaced; undefined never overwrites. */
export function merge(target: unknown, source: unknown): unknown {
  if (source === undefined) return target;
  if (Array.isArray(source)) {
    const out = Array.isArray(target) ? [...target] : [];
    source.forEach((v, i) => {
      out[i] = merge(out[i], v);
    });
    return out;
  }
  if (isPlain(source)) {
    const out: Obj = isPlain(target) ? { ...target } : {};
    for (const [k, v] of Object.entries(source)) out[k] = merge(out[k], v);
    return out;
  }
  return source;
}

/** Strapi's own defaults under the project's files. */
function defaults(vars: Vars): Obj {
  return {
    server: {
      host: vars.HOST || 'localhost',
      port: Number(vars.PORT) || 1337,
      proxy: false,
      cron: { enabled: false },
      admin: { autoOpen: false },
      dirs: { public: './public' },
    },
    admin: {},
    api: { rest: { prefix: '/api' } },
  };
}

/** `config/<name>.*` files of one folder, one per name (a `.ts` before a `.js` of the same name). */
function configFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  const names = readdirSync(dir).filter((f) => EXTENSIONS.includes(extname(f)) && !f.endsWith('.d.ts') && statSync(join(dir, f)).isFile());
  names.sort((a, b) => EXTENSIONS.indexOf(extname(a)) - EXTENSIONS.indexOf(extname(b)));
  for (const file of names) {
    const key = file.slice(0, -extname(file).length);
    if (!out.has(key)) out.set(key, join(dir, file));
  }
  return out;
}

function loadDir(dir: string, root: string, env: ReturnType<typeof createEnv>): Obj {
  const out: Obj = {};
  for (const [key, file] of configFiles(dir)) {
    const exported = file.endsWith('.json') ? JSON.parse(readFileSync(file, 'utf8')) : loadFile(file, root);
    try {
      out[key] = typeof exported === 'function' ? exported({ env }) : exported;
    } catch (error) {
      throw new ProjectLoadError(`Could not load config/${key} (${file}): ${(error as Error).message}`, file);
    }
  }
  return out;
}

/** Reads the project that `dir` belongs to; undefined for a plain schema folder. `vars` is the environment (not changed here). */
export function readProject(dir: string, vars: Vars, nodeEnv = vars.NODE_ENV || 'development'): ProjectConfig | undefined {
  const found = findProjectRoot(dir);
  if (!found) return undefined;
  const envFile = join(found.root, '.env');
  const dotenv = existsSync(envFile) ? parseDotenv(readFileSync(envFile, 'utf8')) : {};
  const all: Vars = { ...dotenv, ...vars };
  const env = createEnv(all);
  const configDir = join(found.root, 'config');
  let values = merge(defaults(all), loadDir(configDir, found.root, env)) as Obj;
  values = merge(values, loadDir(join(configDir, 'env', nodeEnv), found.root, env)) as Obj;
  return { root: found.root, src: found.src, nodeEnv, dotenv, vars: all, values, settings: projectSettings(values) };
}

/** A value at a dotted path (`api.rest.defaultLimit`) of the merged configuration, as `strapi.config.get` reads it. */
export function configValue(values: Obj, path: string | string[], fallback?: unknown): unknown {
  const parts = Array.isArray(path) ? path : path.split('.');
  let at: unknown = values;
  for (const part of parts) {
    if (at === null || typeof at !== 'object') return fallback;
    at = (at as Obj)[part];
  }
  return at === undefined ? fallback : at;
}

/** `1mb`, `512kb`, `100000` → bytes (the `bytes` package's units). */
export function parseBytes(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(m[1]) * unit);
}

/** The config of a built-in middleware in `config/middlewares` (`{ name: 'strapi::cors', config }`). */
export function middlewareConfig(values: Obj, name: string): Obj | undefined {
  const list = values.middlewares;
  if (!Array.isArray(list)) return undefined;
  for (const entry of list) if (isPlain(entry) && entry.name === name && isPlain(entry.config)) return entry.config;
  return undefined;
}

const strings = (v: unknown): string[] | undefined =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : Array.isArray(v) && v.every((s) => typeof s === 'string')
      ? (v as string[])
      : undefined;

/** What of the project's configuration Folio has a setting for, each with the config path it came from. */
export function projectSettings(values: Obj): ProjectSettings {
  const out: ProjectSettings = {};
  const set = <K extends keyof ProjectSettings>(key: K, value: NonNullable<ProjectSettings[K]>['value'] | undefined, from: string) => {
    if (value !== undefined && !(typeof value === 'number' && Number.isNaN(value))) out[key] = { value, from } as never;
  };
  const num = (path: string) => {
    const v = configValue(values, path);
    return typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
  };
  set('port', num('server.port'), 'server.port');
  const host = configValue(values, 'server.host');
  // Strapi's default host (os.hostname() or localhost) is no choice of the project's.
  if (typeof host === 'string' && host !== 'localhost') set('host', host, 'server.host');
  set('defaultLimit', num('api.rest.defaultLimit'), 'api.rest.defaultLimit');
  set('maxLimit', num('api.rest.maxLimit'), 'api.rest.maxLimit');
  const strict = configValue(values, 'api.rest.strictParams');
  if (typeof strict === 'boolean') set('strictParams', strict, 'api.rest.strictParams');
  const body = middlewareConfig(values, 'strapi::body');
  set('bodyLimit', parseBytes(body?.jsonLimit), 'middlewares strapi::body jsonLimit');
  const cors = middlewareConfig(values, 'strapi::cors');
  set('corsOrigins', strings(cors?.origin), 'middlewares strapi::cors origin');
  set('uploadLimit', parseBytes(configValue(values, 'plugins.upload.config.sizeLimit')), 'plugins.upload.config.sizeLimit');
  set(
    'uploadAllowedTypes',
    strings(configValue(values, 'plugins.upload.config.security.allowedTypes'))?.map((t) => t.toLowerCase()),
    'plugins.upload.config.security.allowedTypes',
  );
  set(
    'uploadDeniedTypes',
    strings(configValue(values, 'plugins.upload.config.security.deniedTypes'))?.map((t) => t.toLowerCase()),
    'plugins.upload.config.security.deniedTypes',
  );
  const expiresIn = configValue(values, 'plugins.users-permissions.config.jwt.expiresIn');
  if (typeof expiresIn === 'string') set('jwtExpiresIn', expiresIn, 'plugins.users-permissions.config.jwt.expiresIn');
  const usersPermissions = usersPermissionsOf(configValue(values, 'plugins.users-permissions.config'));
  if (usersPermissions) set('usersPermissions', usersPermissions, `plugins.users-permissions.config (${Object.keys(usersPermissions).join(', ')})`);
  const graphql = configValue(values, 'plugins.graphql.config');
  if (isPlain(graphql)) set('graphql', graphql, 'plugins.graphql.config');
  const email = configValue(values, 'plugins.email.config');
  if (isPlain(email)) {
    set('smtpUrl', emailSmtpUrl(email), `plugins.email.config (${String(email.provider ?? 'sendmail')})`);
    const from = configValue(email, 'settings.defaultFrom');
    if (typeof from === 'string' && from) set('emailFrom', from, 'plugins.email.config.settings.defaultFrom');
  }
  return out;
}

/** The keys of users-permissions' plugin config Folio has settings for, with the sub-keys it reads. */
const USERS_PERMISSIONS_KEYS: Record<string, readonly string[] | null> = {
  jwtManagement: null,
  jwt: ['expiresIn'],
  register: ['allowedFields'],
  ratelimit: ['enabled', 'interval', 'max'],
  sessions: ['accessTokenLifespan', 'maxRefreshTokenLifespan', 'idleRefreshTokenLifespan', 'maxSessionLifespan', 'idleSessionLifespan', 'httpOnly', 'cookie'],
};

/**
 * `config/plugins` users-permissions `config` as Folio's users-permissions settings (what
 * FOLIO_USERS_PERMISSIONS_CONFIG takes): `jwtManagement`, `jwt.expiresIn`, `register.allowedFields`,
 * `ratelimit`, `sessions`, checked as that variable is (a bad value stops start-up naming it).
 * Keys Folio has no setting for (`jwtSecret`, `layout`, `callback`, koa2-ratelimit's other
 * options) are left out, as Strapi's defaults would be: they never stop a project Strapi starts.
 */
export function usersPermissionsOf(config: unknown): UsersPermissionsInput | undefined {
  if (!isPlain(config)) return undefined;
  const picked: Obj = {};
  for (const [key, sub] of Object.entries(USERS_PERMISSIONS_KEYS)) {
    const value = config[key];
    if (value === undefined || value === null) continue;
    if (sub === null) picked[key] = value;
    else if (isPlain(value)) {
      const kept = Object.fromEntries(Object.entries(value).filter(([k, v]) => sub.includes(k) && v !== undefined));
      if (Object.keys(kept).length) picked[key] = kept;
    }
  }
  return Object.keys(picked).length ? checkUsersPermissionsInput(picked, 'config/plugins users-permissions config') : undefined;
}

/**
 * The email plugin's provider as an SMTP URL for Folio's sender (auth/smtp.ts): nodemailer's
 * `host`, `port`, `secure`, `auth: { user, pass }`, `ignoreTLS` / `requireTLS`; sendmail's
 * `devHost`/`devPort` (a development server) or `smtpHost`/`smtpPort` (a relay). Sendmail
 * without either delivers to each recipient's MX, which Folio does not: no URL then (mail goes
 * to the log unless FOLIO_SMTP_URL is set).
 */
export function emailSmtpUrl(email: Obj): string | undefined {
  const provider = String(email.provider ?? 'sendmail')
    .toLowerCase()
    .replace(/^@strapi\/provider-email-/, '');
  const options = isPlain(email.providerOptions) ? email.providerOptions : {};
  const url = (secure: boolean, host: string, port: number, tls?: 'false' | 'required', auth?: Obj) => {
    const userinfo =
      auth && typeof auth.user === 'string'
        ? `${encodeURIComponent(auth.user)}${typeof auth.pass === 'string' ? `:${encodeURIComponent(auth.pass)}` : ''}@`
        : '';
    const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return `${secure ? 'smtps' : 'smtp'}://${userinfo}${hostPart}:${port}${tls && !secure ? `?tls=${tls}` : ''}`;
  };
  if (provider === 'nodemailer') {
    if (typeof options.host !== 'string' || !options.host) return undefined;
    const secure = options.secure === true;
    const port = Number(options.port ?? (secure ? 465 : 587));
    return url(
      secure,
      options.host,
      port,
      options.ignoreTLS === true ? 'false' : options.requireTLS === true ? 'required' : undefined,
      isPlain(options.auth) ? options.auth : undefined,
    );
  }
  if (provider === 'sendmail') {
    const devPort = options.devPort;
    if (typeof devPort === 'number' && devPort > 0)
      return url(false, typeof options.devHost === 'string' && options.devHost ? options.devHost : 'localhost', devPort);
    if ((typeof options.smtpHost === 'string' && options.smtpHost) || typeof options.smtpHost === 'number')
      return url(false, String(options.smtpHost), Number(options.smtpPort ?? 25));
  }
  return undefined;
}
