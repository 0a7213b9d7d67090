/**
 * What the users & permissions settings may hold, with Strapi 5.54's names, values and
 * defaults, and the checks every source goes through (FOLIO_USERS_PERMISSIONS_CONFIG at
 * start, a stored value when it is written). Pure: no I/O, so config.ts can check the
 * variable before anything opens.
 *
 * Two kinds, as in Strapi:
 * - the plugin's configuration (Strapi's `config/plugins.js`): `jwtManagement`, `sessions`,
 *   `ratelimit`, `jwt`, `register`; fixed for the life of the process;
 * - the plugin's store (Strapi's core store, `plugin_users-permissions_<key>`): `advanced`,
 *   `email`, `grant`; the admin's Settings pages and `folio import strapi` write them.
 */
import { isObject } from '../json';
import { isEmail } from '../text';

export interface AdvancedSettings {
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  /** The front end's reset-password page (the reset mail's `URL`). */
  email_reset_password: string | null;
  /** Where the confirmation link redirects once the address is confirmed (`/` when null). */
  email_confirmation_redirection: string | null;
  /** The role type registrations (and provider sign-ups) get. */
  default_role: string;
}

export interface EmailTemplate {
  from: { name: string; email: string };
  response_email: string;
  /** The subject, a template (`<%= USER.username %>`). */
  object: string;
  /** The body, a template with Strapi's variables (`URL`, `CODE`, `TOKEN`, `USER`, `SERVER_URL`, `ADMIN_URL`). */
  message: string;
}

export type EmailTemplateName = 'reset_password' | 'email_confirmation';

export type EmailSettings = Record<EmailTemplateName, { display?: string; icon?: string; options: EmailTemplate }>;

/** One provider of Strapi's grant settings; `callback` is the front end's page the flow ends on. */
export interface GrantProvider {
  enabled: boolean;
  icon?: string;
  key?: string;
  secret?: string;
  callback?: string;
  /** Strapi's defaults for some providers spell the callback this way (unused by the flow). */
  callbackUrl?: string;
  scope?: string[] | string;
  /** keycloak, cognito, auth0, cas: the host (and path) of the provider's endpoints. */
  subdomain?: string;
  /** cognito: the JWKS its ID tokens are checked against. */
  jwksurl?: string;
}

export type GrantSettings = Record<string, GrantProvider>;

export interface SessionSettings {
  /** Seconds an access JWT lives (600). */
  accessTokenLifespan: number;
  /** Seconds a refresh token's family lives at most (30 days). */
  maxRefreshTokenLifespan: number;
  /** Seconds a refresh token stays usable unused (14 days). */
  idleRefreshTokenLifespan: number;
  /** The same two for sessions that are not of the `refresh` type (1 day, 2 hours). */
  maxSessionLifespan: number;
  idleSessionLifespan: number;
  /** Refresh tokens travel in an httpOnly cookie instead of the answer's body. */
  httpOnly: boolean;
  cookie: { name?: string; secure?: boolean; sameSite?: 'lax' | 'strict' | 'none'; path?: string; domain?: string; maxAge?: number };
}

export type JwtManagement = 'legacy-support' | 'refresh';

export interface PluginSettings {
  jwtManagement: JwtManagement;
  sessions: SessionSettings;
  ratelimit: { enabled: boolean; interval: number; max: number };
  jwt: { expiresIn: string | number };
  register: { allowedFields: string[] };
}

/** A template as a source may give it: any part. */
export type TemplateInput = Omit<Partial<EmailTemplate>, 'from'> & { from?: Partial<EmailTemplate['from']> };

/** FOLIO_USERS_PERMISSIONS_CONFIG, checked: every part optional, each a partial of its shape. */
export interface UsersPermissionsInput {
  advanced?: Partial<AdvancedSettings>;
  email?: Partial<Record<EmailTemplateName, { options?: TemplateInput }>>;
  grant?: Record<string, Partial<GrantProvider>>;
  jwtManagement?: JwtManagement;
  sessions?: Partial<Omit<SessionSettings, 'cookie'>> & { cookie?: SessionSettings['cookie'] };
  ratelimit?: { enabled?: boolean; interval?: number; max?: number };
  jwt?: { expiresIn?: string | number };
  register?: { allowedFields?: string[] };
}

export const STORE_KEYS = ['advanced', 'email', 'grant'] as const;
export type StoreKey = (typeof STORE_KEYS)[number];

export const DEFAULT_ADVANCED: AdvancedSettings = {
  unique_email: true,
  allow_register: true,
  email_confirmation: false,
  email_reset_password: null,
  email_confirmation_redirection: null,
  default_role: 'authenticated',
};

/** Strapi's sender in its default templates; a placeholder, not an address of the installation (see mail.ts). */
export const STRAPI_PLACEHOLDER_FROM = { name: 'Administration Panel', email: 'no-reply@strapi.io' };

export const DEFAULT_EMAIL: EmailSettings = {
  reset_password: {
    display: 'Email.template.reset_password',
    icon: 'sync',
    options: {
      from: { ...STRAPI_PLACEHOLDER_FROM },
      response_email: '',
      object: 'Reset password',
      message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: { ...STRAPI_PLACEHOLDER_FROM },
      response_email: '',
      object: 'Account confirmation',
      message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
    },
  },
};

/** Strapi's built-in providers and their default grant settings; `base` is `<public url>/api/auth`. */
export function defaultGrant(base: string): GrantSettings {
  const plain =
    (icon: string, scope: string[] | undefined, spelling: 'callback' | 'callbackUrl' = 'callbackUrl') =>
    (name: string): GrantProvider => ({
      enabled: false,
      icon,
      key: '',
      secret: '',
      [spelling]: `${base}/${name}/callback`,
      ...(scope ? { scope } : {}),
    });
  const make: Record<string, (name: string) => GrantProvider> = {
    discord: plain('discord', ['identify', 'email']),
    facebook: plain('facebook-square', ['email']),
    google: plain('google', ['email']),
    github: plain('github', ['user', 'user:email']),
    microsoft: plain('windows', ['user.read']),
    twitter: plain('twitter', undefined),
    instagram: plain('instagram', ['user_profile']),
    vk: plain('vk', ['email']),
    twitch: plain('twitch', ['user:read:email']),
    linkedin: plain('linkedin', ['r_liteprofile', 'r_emailaddress']),
    cognito: (name) => ({ ...plain('aws', ['email', 'openid', 'profile'], 'callback')(name), subdomain: 'my.subdomain.com' }),
    reddit: plain('reddit', ['identity'], 'callback'),
    auth0: (name) => ({ ...plain('', ['openid', 'email', 'profile'], 'callback')(name), subdomain: 'my-tenant.eu' }),
    cas: (name) => ({ ...plain('book', ['openid email'], 'callback')(name), subdomain: 'my.subdomain.com/cas' }),
    patreon: plain('', ['identity', 'identity[email]'], 'callback'),
    keycloak: (name) => ({ ...plain('', ['openid', 'email', 'profile'], 'callback')(name), subdomain: 'myKeycloakProvider.com/realms/myrealm' }),
  };
  return { email: { enabled: true, icon: 'envelope' }, ...Object.fromEntries(Object.entries(make).map(([name, f]) => [name, f(name)])) };
}

/** Every provider name the grant settings know: the local `email` one and Strapi's built-ins. */
export const PROVIDER_NAMES: readonly string[] = Object.keys(defaultGrant(''));

export const DEFAULT_SESSIONS: SessionSettings = {
  accessTokenLifespan: 10 * 60,
  maxRefreshTokenLifespan: 30 * 24 * 60 * 60,
  idleRefreshTokenLifespan: 14 * 24 * 60 * 60,
  maxSessionLifespan: 24 * 60 * 60,
  idleSessionLifespan: 2 * 60 * 60,
  httpOnly: false,
  cookie: {},
};

/** The refresh cookie's name unless `sessions.cookie.name` says otherwise. */
export const REFRESH_COOKIE = 'strapi_up_refresh';

// ---------------------------------------------------------------------------------------
// Checks. Each takes the value and where it came from (for the message) and returns the
// value as stored, or throws an Error whose message names the source and the key.
// ---------------------------------------------------------------------------------------

export class SettingsError extends Error {}

const fail = (where: string, message: string): never => {
  throw new SettingsError(`${where}: ${message}`);
};

function onlyKeys(value: unknown, where: string, allowed: readonly string[]): Record<string, unknown> {
  if (!isObject(value)) fail(where, 'must be an object');
  for (const key of Object.keys(value as object)) {
    if (!allowed.includes(key)) fail(where, `unknown key "${key}" (${allowed.join(', ')})`);
  }
  return value as Record<string, unknown>;
}

const bool = (v: unknown, where: string) => (typeof v === 'boolean' ? v : fail(where, 'must be true or false'));
const str = (v: unknown, where: string, max = 2048) =>
  typeof v === 'string' ? (v.length <= max ? v : fail(where, `must be at most ${max} characters`)) : fail(where, 'must be a string');
const seconds = (v: unknown, where: string) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 10 * 365 * 24 * 3600 ? v : fail(where, 'must be a positive whole number of seconds');

/** An absolute http(s) URL without credentials, or null ('' counts as null, as Strapi's admin form sends it). */
function urlOrNull(v: unknown, where: string): string | null {
  if (v === null || v === '') return null;
  const text = str(v, where);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(where, `must be an absolute http(s) URL such as https://example.com/page, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, `must start with http:// or https://, got "${url.protocol}//"`);
  if (url.username || url.password) fail(where, 'must not carry credentials');
  return text;
}

/**
 * Where a provider's flow ends: an absolute URL of the front end, a web page or an app's own
 * scheme (`myapp://auth`), as Strapi allows; never a scheme that runs or reads something here.
 */
function appUrl(v: unknown, where: string): string {
  if (v === null || v === '') return '';
  const text = str(v, where);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(where, `must be an absolute URL such as https://app.example/connect/callback, got "${text}"`);
  }
  if (/^(javascript|data|vbscript|file|blob):$/i.test(url.protocol)) fail(where, `must not use the ${url.protocol} scheme`);
  if (url.username || url.password) fail(where, 'must not carry credentials');
  return text;
}

export function checkAdvanced(value: unknown, where: string): Partial<AdvancedSettings> {
  const v = onlyKeys(value, where, Object.keys(DEFAULT_ADVANCED));
  const out: Partial<AdvancedSettings> = {};
  for (const key of ['unique_email', 'allow_register', 'email_confirmation'] as const) if (key in v) out[key] = bool(v[key], `${where}.${key}`);
  for (const key of ['email_reset_password', 'email_confirmation_redirection'] as const) if (key in v) out[key] = urlOrNull(v[key], `${where}.${key}`);
  if ('default_role' in v) {
    const role = str(v.default_role, `${where}.default_role`, 256);
    out.default_role = role || fail(`${where}.default_role`, 'must name a role type');
  }
  return out;
}

const TEMPLATE_VARIABLES = ['URL', 'ADMIN_URL', 'SERVER_URL', 'CODE', 'USER', 'USER.email', 'USER.username', 'TOKEN'];

/**
 * Strapi's isValidEmailTemplate: no `<% … %>` evaluation, no `${…}`, and every `<%= … %>`
 * names one of the variables it knows.
 */
export function isValidEmailTemplate(template: string): boolean {
  if (/<%[^=]([\s\S]*?)%>/m.test(template) || /\${([^{}]*)}/m.test(template)) return false;
  for (const match of template.matchAll(/<%=([\s\S]+?)%>/g)) if (!TEMPLATE_VARIABLES.includes(match[1]!.trim())) return false;
  return true;
}

function checkTemplate(value: unknown, where: string): TemplateInput {
  const v = onlyKeys(value, where, ['from', 'response_email', 'object', 'message']);
  const out: Omit<Partial<EmailTemplate>, 'from'> & { from?: Partial<EmailTemplate['from']> } = {};
  if ('from' in v) {
    const from = onlyKeys(v.from, `${where}.from`, ['name', 'email']);
    const checked: Partial<EmailTemplate['from']> = {};
    if ('name' in from) checked.name = str(from.name, `${where}.from.name`, 256).replace(/[\r\n]+/g, ' ');
    if ('email' in from) {
      const email = str(from.email, `${where}.from.email`, 254);
      if (email && !isEmail(email)) fail(`${where}.from.email`, `must be an e-mail address, got "${email}"`);
      checked.email = email;
    }
    out.from = checked;
  }
  if ('response_email' in v) {
    const email = str(v.response_email, `${where}.response_email`, 254);
    if (email && !isEmail(email)) fail(`${where}.response_email`, `must be an e-mail address, got "${email}"`);
    out.response_email = email;
  }
  for (const key of ['object', 'message'] as const) {
    if (!(key in v)) continue;
    const text = str(v[key], `${where}.${key}`, key === 'object' ? 998 : 64 * 1024);
    if (!isValidEmailTemplate(text))
      fail(`${where}.${key}`, 'is not a valid template (variables: URL, SERVER_URL, ADMIN_URL, CODE, TOKEN, USER, USER.email, USER.username)');
    out[key] = text;
  }
  return out;
}

export function checkEmailSettings(value: unknown, where: string): UsersPermissionsInput['email'] {
  const v = onlyKeys(value, where, ['reset_password', 'email_confirmation']);
  const out: NonNullable<UsersPermissionsInput['email']> = {};
  for (const name of ['reset_password', 'email_confirmation'] as const) {
    if (!(name in v)) continue;
    // Strapi stores `display` and `icon` beside `options` (the admin's labels); they are kept as they are.
    const entry = onlyKeys(v[name], `${where}.${name}`, ['options', 'display', 'icon']);
    out[name] = 'options' in entry ? { options: checkTemplate(entry.options, `${where}.${name}.options`) } : {};
  }
  return out;
}

const GRANT_KEYS = ['enabled', 'icon', 'key', 'secret', 'callback', 'callbackUrl', 'scope', 'subdomain', 'jwksurl', 'redirectUri'];

export function checkGrant(value: unknown, where: string): Record<string, Partial<GrantProvider>> {
  const v = onlyKeys(value, where, PROVIDER_NAMES);
  const out: Record<string, Partial<GrantProvider>> = {};
  for (const [name, raw] of Object.entries(v)) {
    const at = `${where}.${name}`;
    const p = onlyKeys(raw, at, GRANT_KEYS);
    const provider: Partial<GrantProvider> = {};
    if ('enabled' in p) provider.enabled = bool(p.enabled, `${at}.enabled`);
    for (const key of ['icon', 'key', 'secret'] as const) if (key in p) provider[key] = str(p[key], `${at}.${key}`);
    if ('subdomain' in p) {
      // Spliced into https://<subdomain>/…: a host (and port, and path), nothing that could end the URL or a header.
      const subdomain = str(p.subdomain, `${at}.subdomain`, 512);
      if (!/^[A-Za-z0-9.\-:[\]/_~%]*$/.test(subdomain))
        fail(`${at}.subdomain`, 'must be a host name, with a port and a path if need be, such as auth.example.com/realms/main');
      provider.subdomain = subdomain;
    }
    for (const key of ['callback', 'callbackUrl'] as const) if (key in p) provider[key] = appUrl(p[key], `${at}.${key}`);
    if ('jwksurl' in p) provider.jwksurl = urlOrNull(p.jwksurl, `${at}.jwksurl`) ?? '';
    if ('scope' in p) {
      const scope = p.scope;
      if (typeof scope === 'string') provider.scope = str(scope, `${at}.scope`);
      else if (Array.isArray(scope) && scope.length <= 64) provider.scope = scope.map((s, i) => str(s, `${at}.scope[${i}]`, 256));
      else fail(`${at}.scope`, 'must be a list of scopes');
    }
    // `redirectUri` is what Strapi's admin API adds when it answers; never stored.
    out[name] = provider;
  }
  return out;
}

function checkSessions(value: unknown, where: string): UsersPermissionsInput['sessions'] {
  const lifespans = ['accessTokenLifespan', 'maxRefreshTokenLifespan', 'idleRefreshTokenLifespan', 'maxSessionLifespan', 'idleSessionLifespan'] as const;
  const v = onlyKeys(value, where, [...lifespans, 'httpOnly', 'cookie']);
  const out: NonNullable<UsersPermissionsInput['sessions']> = {};
  for (const key of lifespans) if (key in v) out[key] = seconds(v[key], `${where}.${key}`);
  if ('httpOnly' in v) out.httpOnly = bool(v.httpOnly, `${where}.httpOnly`);
  if ('cookie' in v) {
    const c = onlyKeys(v.cookie, `${where}.cookie`, ['name', 'secure', 'sameSite', 'path', 'domain', 'maxAge']);
    const cookie: SessionSettings['cookie'] = {};
    if ('name' in c) {
      cookie.name = str(c.name, `${where}.cookie.name`, 128);
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookie.name)) fail(`${where}.cookie.name`, "must be a cookie name (letters, digits and !#$%&'*+-.^_`|~)");
    }
    if ('secure' in c) cookie.secure = bool(c.secure, `${where}.cookie.secure`);
    if ('sameSite' in c) {
      const same = c.sameSite;
      if (same !== 'lax' && same !== 'strict' && same !== 'none') fail(`${where}.cookie.sameSite`, 'must be lax, strict or none');
      cookie.sameSite = same as 'lax' | 'strict' | 'none';
    }
    for (const key of ['path', 'domain'] as const) {
      if (!(key in c)) continue;
      const text = str(c[key], `${where}.cookie.${key}`, 256);
      if (/[;\s,]/.test(text)) fail(`${where}.cookie.${key}`, 'must not hold spaces, commas or semicolons');
      cookie[key] = text;
    }
    if ('maxAge' in c) {
      const ms = c.maxAge;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms <= 0) fail(`${where}.cookie.maxAge`, 'must be a positive whole number of milliseconds');
      cookie.maxAge = ms as number;
    }
    out.cookie = cookie;
  }
  return out;
}

const INTERVAL_UNITS: Record<string, number> = { ms: 1, sec: 1000, min: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/** koa2-ratelimit's interval: milliseconds, or `{ min: 5 }` style (ms, sec, min, hour, day, week). */
function interval(value: unknown, where: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (isObject(value)) {
    const v = onlyKeys(value, where, Object.keys(INTERVAL_UNITS));
    let ms = 0;
    for (const [unit, n] of Object.entries(v)) {
      if (typeof n !== 'number' || !(n >= 0)) fail(`${where}.${unit}`, 'must be a non-negative number');
      ms += (n as number) * INTERVAL_UNITS[unit]!;
    }
    if (ms > 0) return Math.round(ms);
  }
  return fail(where, 'must be a positive number of milliseconds, or { min: 5 } style');
}

const TOP_KEYS = ['advanced', 'email', 'grant', 'jwtManagement', 'sessions', 'ratelimit', 'jwt', 'register'];

/** FOLIO_USERS_PERMISSIONS_CONFIG's parsed JSON, checked; `where` names the source in messages. */
export function checkUsersPermissionsInput(value: unknown, where = 'FOLIO_USERS_PERMISSIONS_CONFIG'): UsersPermissionsInput {
  const v = onlyKeys(value, where, TOP_KEYS);
  const out: UsersPermissionsInput = {};
  if ('advanced' in v) out.advanced = checkAdvanced(v.advanced, `${where} advanced`);
  if ('email' in v) out.email = checkEmailSettings(v.email, `${where} email`);
  if ('grant' in v) out.grant = checkGrant(v.grant, `${where} grant`);
  if ('jwtManagement' in v) {
    if (v.jwtManagement !== 'legacy-support' && v.jwtManagement !== 'refresh')
      fail(`${where} jwtManagement`, `must be "legacy-support" or "refresh", got ${JSON.stringify(v.jwtManagement)}`);
    out.jwtManagement = v.jwtManagement as JwtManagement;
  }
  if ('sessions' in v) out.sessions = checkSessions(v.sessions, `${where} sessions`);
  if ('ratelimit' in v) {
    const r = onlyKeys(v.ratelimit, `${where} ratelimit`, ['enabled', 'interval', 'max']);
    out.ratelimit = {};
    if ('enabled' in r) out.ratelimit.enabled = bool(r.enabled, `${where} ratelimit.enabled`);
    if ('interval' in r) out.ratelimit.interval = interval(r.interval, `${where} ratelimit.interval`);
    if ('max' in r) {
      if (typeof r.max !== 'number' || !Number.isInteger(r.max) || r.max < 0) fail(`${where} ratelimit.max`, 'must be a non-negative whole number');
      out.ratelimit.max = r.max as number;
    }
  }
  if ('jwt' in v) {
    const j = onlyKeys(v.jwt, `${where} jwt`, ['expiresIn']);
    if ('expiresIn' in j) out.jwt = { expiresIn: expiresIn(j.expiresIn, `${where} jwt.expiresIn`) };
    else out.jwt = {};
  }
  if ('register' in v) {
    const r = onlyKeys(v.register, `${where} register`, ['allowedFields']);
    if ('allowedFields' in r) {
      if (!Array.isArray(r.allowedFields) || r.allowedFields.length > 256) fail(`${where} register.allowedFields`, 'must be a list of attribute names');
      out.register = { allowedFields: (r.allowedFields as unknown[]).map((f, i) => str(f, `${where} register.allowedFields[${i}]`, 256)) };
    } else out.register = {};
  }
  return out;
}

/** A JWT lifetime as jose and jsonwebtoken read it: seconds, or `30d`, `12h`, `90m`, `45s`. */
export function expiresIn(value: unknown, where: string): string | number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (
    typeof value === 'string' &&
    /^\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks|y|yr|yrs|year|years)$/i.test(value.trim())
  ) {
    return value.trim();
  }
  return fail(where, `must be a number of seconds or a duration such as "30d" or "12h", got ${JSON.stringify(value)}`);
}

/**
 * Reads FOLIO_USERS_PERMISSIONS_CONFIG: JSON text (starting with `{`), or the path of a JSON
 * file. `readFile` is given by the caller (config.ts) so this stays free of I/O.
 */
export function parseUsersPermissionsConfig(raw: string, readFile: (path: string) => string, name = 'FOLIO_USERS_PERMISSIONS_CONFIG'): UsersPermissionsInput {
  const trimmed = raw.trim();
  let text = trimmed;
  let source = name;
  if (!trimmed.startsWith('{')) {
    source = `${name} (${trimmed})`;
    try {
      text = readFile(trimmed);
    } catch (error) {
      throw new SettingsError(
        `${name}: cannot read "${trimmed}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give JSON text or the path of a JSON file`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  return checkUsersPermissionsInput(parsed, source);
}

/** `base` with `over` laid on it, objects merged key by key, anything else (lists too) replaced. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    out[key] = isObject(out[key]) && isObject(value) ? deepMerge(out[key], value) : value;
  }
  return out as T;
}
