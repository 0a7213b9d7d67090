/**
 * Runtime settings, from flags first, then environment variables, then defaults. The only
 * reader of process.env: everything else takes its settings from the Config it is given.
 */
import { resolve } from 'node:path';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log';
import { parseMailbox, parseResetPasswordUrl, parseSmtpUrl } from './auth/mail-format';
import { DEFAULT_IMAGE_MEMORY_MB } from './upload/image-budget';
import { parseS3Url, type S3Location } from './upload/storage-s3-location';
import { graphqlSettings, readGraphqlConfig } from './graphql/settings';
import type { GraphqlSettings } from './graphql/types';
import { parseUsersPermissionsConfig, type UsersPermissionsInput } from './auth/settings-values';
import { readFileSync } from 'node:fs';

export interface Config {
  /** Database file, secrets and uploads live here (with SQLite). */
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; absent or `sqlite:PATH` keeps SQLite (default `<dataDir>/folio.db`). */
  databaseUrl?: string;
  /** Where uploaded files go; every instance must share it (default `<dataDir>/uploads`; unused with uploadsS3). */
  uploadsDir: string;
  /** `FOLIO_UPLOADS=s3://bucket/prefix`: files live in that bucket (src/upload/storage-s3.ts), reached with the S3/AWS variables. */
  uploadsS3?: S3Location;
  /** FOLIO_UPLOADS_PUBLIC_URL: base URL that serves `<base>/<name>`; file `url`s point there instead of Folio's `/uploads/<name>`. */
  uploadsPublicUrl?: string;
  contentTypesDir: string;
  port: number;
  host: string;
  /** Largest accepted JSON body, in bytes (413 above it). */
  bodyLimit: number;
  defaultLimit: number;
  maxLimit: number;
  /**
   * Bytes of content-API answers kept until the next commit (FOLIO_ANSWER_CACHE_MB, 4; 0: off).
   * SQLite only: PostgreSQL has no cheap signal that another instance committed.
   */
  answerCacheBytes: number;
  /** Largest accepted upload, in bytes (413 above it); also the most a multipart request may carry. */
  uploadLimit: number;
  /** MIME patterns (`image/*`, `application/pdf`) uploads may have; undefined keeps the default list (src/upload/policy.ts). */
  uploadAllowedTypes?: string[];
  /** MIME patterns refused even when allowed; undefined refuses none beyond the built-in dangerous types. */
  uploadDeniedTypes?: string[];
  /** Origins allowed by CORS; ['*'] allows any (the default, for local development). */
  corsOrigins: string[];
  /** Requests per IP and path allowed on /api/auth/* in each window. */
  authRateLimit: { max: number; windowMs: number };
  /** FOLIO_ALLOW_REGISTER: users-permissions' `advanced.allow_register` (undefined: unset, the stored value or Strapi's default applies). */
  allowRegister?: boolean;
  /** Behind one reverse proxy: count rate limits by the right-most X-Forwarded-For entry (FOLIO_TRUST_PROXY). */
  trustProxy: boolean;
  /** Strapi's `rest.strictParams`: an unknown top-level query parameter is a 400 (true, the default) or ignored (FOLIO_STRICT_PARAMS=false). */
  strictParams: boolean;
  /** User JWT lifetime, as `jose` reads it (`30d`, `12h`). */
  jwtExpiresIn: string;
  /** Wait after a webhook's first failed attempt, doubled for each later one (6 attempts: about an hour at the default 2 min). */
  webhookRetryBaseMs: number;
  /** How long attempts stay in the webhook attempt log (FOLIO_WEBHOOK_LOG_DAYS, 30). */
  webhookLogDays: number;
  /** How long content history keeps a document's versions (FOLIO_HISTORY_DAYS, 90; 0: no history is kept). */
  historyDays: number;
  /** How long the audit log keeps its rows (FOLIO_AUDIT_DAYS, 90; 0: nothing is logged). */
  auditDays: number;
  /**
   * FOLIO_PREVIEW_URL: the admin's "Preview" link, a template with {uid}, {pluralApiId},
   * {documentId}, {locale}, {status} (src/admin/preview.ts fills it). A project's
   * `config/admin` `preview` handler is used instead when it has one.
   */
  previewUrl?: string;
  /**
   * FOLIO_WEBHOOK_DENY_PRIVATE (false): refuse webhook URLs at loopback, private, link-local…
   * addresses, and never send to a host name that resolves to one (src/events/private-address.ts).
   */
  webhookDenyPrivate: boolean;
  /**
   * FOLIO_EXAMPLE_CONTENT (true): `folio serve` gives a new database of the example content types
   * example content and lets the public role read it (cli/first-start.ts); false starts empty.
   */
  exampleContent: boolean;
  /** A comment line on every realtime stream this often, so proxies keep idle streams open (FOLIO_REALTIME_HEARTBEAT_MS, 15000; 0: none). */
  realtimeHeartbeatMs: number;
  /** Events stay resumable (Last-Event-ID) this long after the last realtime subscriber left (FOLIO_REALTIME_RESUME_SECONDS, 600). */
  realtimeResumeWindowMs: number;
  /** Secrets the environment sets (FOLIO_API_TOKEN_SALT, FOLIO_JWT_SECRET); the others are generated once and kept. */
  secrets: { apiTokenSalt?: string; jwtSecret?: string };
  /** `text` (default) or `json`: every log line one JSON object (FOLIO_LOG_FORMAT, `serve --log-format`). */
  logFormat: LogFormat;
  /** Lowest level written: debug, info (default: one line per request), warn, error (FOLIO_LOG_LEVEL). */
  logLevel: LogLevel;
  /** `smtp://user:pass@host:port` or `smtps://…` (FOLIO_SMTP_URL); unset: mails go to the log. */
  smtpUrl?: string;
  /** Sender of outgoing mail (FOLIO_EMAIL_FROM); default `no-reply@` the SMTP host's domain. */
  emailFrom?: string;
  /** Re-encode uploaded JPEG/PNG/WebP/AVIF originals when smaller (Strapi's sizeOptimization; FOLIO_IMAGE_OPTIMIZE, false). */
  imageOptimize?: boolean;
  /** Image workers at most (FOLIO_IMAGE_WORKERS; default one core left free, at most 2): src/upload/image-pool.ts. */
  imageWorkers?: number;
  /** Uploads that may wait for an image worker (FOLIO_IMAGE_QUEUE, 32); one more is a 503. */
  imageQueueLimit?: number;
  /** Longest one image's work may take (FOLIO_IMAGE_TIMEOUT_MS, 60000); beyond, the upload fails with a 422. */
  imageTimeoutMs?: number;
  /**
   * Bytes all image work may hold at once, across workers (FOLIO_IMAGE_MEMORY_MB, 512):
   * beyond, an image waits its turn; one needing more alone is stored without formats.
   */
  imageMemoryBytes?: number;
  /** Users-permissions' "Reset password page" (FOLIO_RESET_PASSWORD_URL): the reset mail links to it with `?code=`. */
  resetPasswordUrl?: string;
  /** GraphQL (`graphql.config` of Strapi's plugin): FOLIO_GRAPHQL_CONFIG, JSON text or a file; Strapi's defaults otherwise. */
  graphql: GraphqlSettings;
  /** The Strapi project the content types belong to (src/project/), whose code runs; undefined for a plain schema folder. */
  project?: ProjectConfig;
  /**
   * FOLIO_USERS_PERMISSIONS_CONFIG (JSON text or a JSON file's path), checked: Strapi's users-permissions
   * settings (`advanced`, `grant`, `email`, `jwtManagement`, `sessions`, `ratelimit`, `jwt`, `register`).
   * It wins over the single-purpose variables above and over stored values (auth/settings.ts).
   */
  usersPermissions?: UsersPermissionsInput;
  /** FOLIO_PUBLIC_URL, Strapi's `server.url`: the base of links in mails and of provider callbacks (default `http://<host>:<port>`). */
  publicUrl?: string;
}

/** One setting a project's configuration gave, and the config path it came from (`server.port`). */
export interface ProjectSetting<T> {
  value: T;
  from: string;
}

/** What of a project's configuration maps onto Folio's settings (src/project/config.ts projectSettings). */
/**
 * A project's users-permissions settings under the single variables that also set them: the
 * environment wins over the project (FOLIO_JWT_EXPIRES_IN over `jwt.expiresIn`,
 * FOLIO_AUTH_RATE_LIMIT / FOLIO_AUTH_RATE_WINDOW over `ratelimit.max` / `interval`).
 */
function underEnvironment(input: UsersPermissionsInput | undefined, env: (name: string) => string | undefined): UsersPermissionsInput | undefined {
  if (!input) return undefined;
  const out = { ...input };
  if (env('FOLIO_JWT_EXPIRES_IN') !== undefined) delete out.jwt;
  if (out.ratelimit) {
    const ratelimit = { ...out.ratelimit };
    if (env('FOLIO_AUTH_RATE_LIMIT') !== undefined) delete ratelimit.max;
    if (env('FOLIO_AUTH_RATE_WINDOW') !== undefined) delete ratelimit.interval;
    out.ratelimit = ratelimit;
  }
  return out;
}

export interface ProjectSettings {
  port?: ProjectSetting<number>;
  host?: ProjectSetting<string>;
  defaultLimit?: ProjectSetting<number>;
  maxLimit?: ProjectSetting<number>;
  strictParams?: ProjectSetting<boolean>;
  bodyLimit?: ProjectSetting<number>;
  corsOrigins?: ProjectSetting<string[]>;
  uploadLimit?: ProjectSetting<number>;
  uploadAllowedTypes?: ProjectSetting<string[]>;
  uploadDeniedTypes?: ProjectSetting<string[]>;
  jwtExpiresIn?: ProjectSetting<string>;
  graphql?: ProjectSetting<Record<string, unknown>>;
  /** The email plugin's provider (nodemailer, sendmail) as an SMTP URL for Folio's sender. */
  smtpUrl?: ProjectSetting<string>;
  emailFrom?: ProjectSetting<string>;
  /** users-permissions' plugin config (jwtManagement, jwt, register, ratelimit, sessions), as FOLIO_USERS_PERMISSIONS_CONFIG takes it. */
  usersPermissions?: ProjectSetting<UsersPermissionsInput>;
}

/** A Strapi project's root, its configuration as Strapi merges it, and what Folio took from it. */
export interface ProjectConfig {
  root: string;
  src: string;
  nodeEnv: string;
  /** The variables of the project's `.env` (set in the environment where not already set). */
  dotenv: Record<string, string>;
  /** The environment the project's code reads (`env()`, `@strapi/utils` env): the process's, over its `.env`. */
  vars: Record<string, string | undefined>;
  /** `strapi.config.get(path)` reads these: every config file merged over Strapi's defaults. */
  values: Record<string, unknown>;
  settings: ProjectSettings;
  /** Folio settings the project's configuration decided (no flag or environment variable did), as `port ← server.port`; filled by resolveConfig. */
  used?: string[];
}

/** Reads the project a content-types folder belongs to (src/project/config.ts readProject); given by the caller, so config.ts loads no project code itself. */
export type ProjectReader = (dir: string, vars: Record<string, string | undefined>) => ProjectConfig | undefined;

export interface ConfigInput {
  data?: string;
  contentTypes?: string;
  database?: string;
  uploads?: string;
  port?: string | number;
  host?: string;
  logFormat?: string;
  /** `--project DIR`: a Strapi project (root or src); the same as `--content-types DIR`. */
  project?: string;
}

const env = (name: string) => (process.env[name] === '' ? undefined : process.env[name]);

/** A comma-separated list of MIME patterns (`*` matches any run), lower-cased; undefined when unset. */
function mimePatterns(name: string): string[] | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  const patterns = raw
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  for (const p of patterns) {
    if (p !== '*' && !/^[a-z0-9*][a-z0-9!#$&^_.+*-]*\/[a-z0-9*][a-z0-9!#$&^_.+*-]*$/.test(p))
      throw new Error(`${name} must list MIME patterns like image/*,application/pdf, got "${p}"`);
  }
  return patterns;
}

function positiveInteger(name: string, raw: string | number | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function flag(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  const value = raw.trim().toLowerCase() as T;
  if (!allowed.includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return value;
}

/**
 * `s3://bucket/prefix` and the bucket's endpoint, region and keys. The AWS SDKs' standard names
 * first, then the `S3_*` ones Bun's S3 client also knows.
 */
function uploadsBucket(raw: string): S3Location {
  return {
    ...parseS3Url(raw),
    endpoint: env('AWS_ENDPOINT_URL_S3') ?? env('AWS_ENDPOINT_URL') ?? env('S3_ENDPOINT'),
    region: env('AWS_REGION') ?? env('AWS_DEFAULT_REGION') ?? env('S3_REGION'),
    accessKeyId: env('AWS_ACCESS_KEY_ID') ?? env('S3_ACCESS_KEY_ID'),
    secretAccessKey: env('AWS_SECRET_ACCESS_KEY') ?? env('S3_SECRET_ACCESS_KEY'),
    sessionToken: env('AWS_SESSION_TOKEN') ?? env('S3_SESSION_TOKEN'),
  };
}

/** The placeholders FOLIO_PREVIEW_URL may hold. */
export const PREVIEW_PLACEHOLDERS = ['uid', 'pluralApiId', 'documentId', 'locale', 'status'] as const;

/** FOLIO_PREVIEW_URL checked: an http(s) URL once filled, with no placeholder but the known ones. */
function previewTemplate(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const unknown = [...raw.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!).find((name) => !(PREVIEW_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new Error(`FOLIO_PREVIEW_URL has an unknown placeholder {${unknown}} (known: ${PREVIEW_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`);
  const sample = raw.replace(/\{[a-zA-Z]+\}/g, 'x');
  let url: URL | undefined;
  try {
    url = new URL(sample);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error(
      `FOLIO_PREVIEW_URL must be an http(s) URL template such as https://site.example/api/preview?type={pluralApiId}&id={documentId}, got "${raw}"`,
    );
  return raw;
}

/** An http(s) base URL without its trailing `/`, or undefined when unset. */
function baseUrl(name: string, example = 'https://cdn.example.com/uploads'): string | undefined {
  const raw = env(name);
  if (raw === undefined) return undefined;
  if (!/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/.test(raw)) throw new Error(`${name} must be an http(s) URL such as ${example}, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** A value checked by its parser (which throws a readable error), or undefined. */
const checked = (value: string | undefined, parse: (v: string) => unknown): string | undefined => {
  if (value === undefined || value === '') return undefined;
  parse(value);
  return value;
};

export function resolveConfig(input: ConfigInput = {}, options: { readProject?: ProjectReader } = {}): Config {
  const contentTypesDir = resolve(input.project ?? input.contentTypes ?? env('FOLIO_CONTENT_TYPES') ?? './content-types');
  const project = options.readProject?.(contentTypesDir, { ...process.env });
  // The project's .env is part of the environment, as in Strapi (dotenv: never over a variable already set).
  if (project) for (const [key, value] of Object.entries(project.dotenv)) if (process.env[key] === undefined) process.env[key] = value;
  const used: string[] = [];
  /** The project's value of a setting no flag or variable gave (precedence: flags > environment > project > defaults). */
  const fromProject = <K extends keyof ProjectSettings>(key: K, given: unknown): NonNullable<ProjectSettings[K]>['value'] | undefined => {
    const setting = project?.settings[key];
    if (given !== undefined || !setting) return undefined;
    used.push(`${key} (${setting.from})`);
    return setting.value as never;
  };
  const projectNumber = (key: 'port' | 'defaultLimit' | 'maxLimit' | 'bodyLimit' | 'uploadLimit', given: unknown) => {
    const value = fromProject(key, given);
    return value === undefined ? undefined : String(value);
  };
  const projectFlag = (key: 'strictParams', given: unknown) => {
    const value = fromProject(key, given);
    return value === undefined ? undefined : String(value);
  };
  const dataDir = resolve(input.data ?? env('FOLIO_DATA') ?? './data');
  const uploads = input.uploads ?? env('FOLIO_UPLOADS');
  const s3 = uploads?.startsWith('s3://') ? uploadsBucket(uploads) : undefined;
  const portGiven = input.port ?? env('PORT');
  const hostGiven = input.host ?? env('HOST');
  const projectGraphql = fromProject('graphql', env('FOLIO_GRAPHQL_CONFIG'));
  const corsGiven = env('FOLIO_CORS_ORIGINS');
  const config: Config = {
    dataDir,
    databaseUrl: input.database ?? env('DATABASE_URL'),
    uploadsDir: resolve(s3 || uploads === undefined ? resolve(dataDir, 'uploads') : uploads),
    uploadsS3: s3,
    uploadsPublicUrl: baseUrl('FOLIO_UPLOADS_PUBLIC_URL'),
    contentTypesDir,
    port: positiveInteger('port', portGiven ?? projectNumber('port', portGiven), 1337),
    host: hostGiven ?? fromProject('host', hostGiven) ?? '127.0.0.1',
    bodyLimit: positiveInteger('FOLIO_BODY_LIMIT', env('FOLIO_BODY_LIMIT') ?? projectNumber('bodyLimit', env('FOLIO_BODY_LIMIT')), 1024 * 1024),
    defaultLimit: positiveInteger('FOLIO_DEFAULT_LIMIT', env('FOLIO_DEFAULT_LIMIT') ?? projectNumber('defaultLimit', env('FOLIO_DEFAULT_LIMIT')), 25),
    maxLimit: positiveInteger('FOLIO_MAX_LIMIT', env('FOLIO_MAX_LIMIT') ?? projectNumber('maxLimit', env('FOLIO_MAX_LIMIT')), 100),
    answerCacheBytes: positiveInteger('FOLIO_ANSWER_CACHE_MB', env('FOLIO_ANSWER_CACHE_MB'), 4) * 1024 * 1024,
    uploadLimit: positiveInteger('FOLIO_UPLOAD_LIMIT', env('FOLIO_UPLOAD_LIMIT') ?? projectNumber('uploadLimit', env('FOLIO_UPLOAD_LIMIT')), 200 * 1024 * 1024),
    uploadAllowedTypes: mimePatterns('FOLIO_UPLOAD_ALLOWED_TYPES') ?? fromProject('uploadAllowedTypes', env('FOLIO_UPLOAD_ALLOWED_TYPES')),
    uploadDeniedTypes: mimePatterns('FOLIO_UPLOAD_DENIED_TYPES') ?? fromProject('uploadDeniedTypes', env('FOLIO_UPLOAD_DENIED_TYPES')),
    corsOrigins:
      corsGiven === undefined && project?.settings.corsOrigins
        ? fromProject('corsOrigins', corsGiven)!
        : (corsGiven ?? '*')
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    authRateLimit: {
      max: positiveInteger('FOLIO_AUTH_RATE_LIMIT', env('FOLIO_AUTH_RATE_LIMIT'), 10),
      windowMs: positiveInteger('FOLIO_AUTH_RATE_WINDOW', env('FOLIO_AUTH_RATE_WINDOW'), 60) * 1000,
    },
    allowRegister: env('FOLIO_ALLOW_REGISTER') === undefined ? undefined : flag('FOLIO_ALLOW_REGISTER', env('FOLIO_ALLOW_REGISTER'), true),
    trustProxy: flag('FOLIO_TRUST_PROXY', env('FOLIO_TRUST_PROXY'), false),
    strictParams: flag('FOLIO_STRICT_PARAMS', env('FOLIO_STRICT_PARAMS') ?? projectFlag('strictParams', env('FOLIO_STRICT_PARAMS')), true),
    jwtExpiresIn: env('FOLIO_JWT_EXPIRES_IN') ?? fromProject('jwtExpiresIn', env('FOLIO_JWT_EXPIRES_IN')) ?? '30d',
    webhookRetryBaseMs: positiveInteger('FOLIO_WEBHOOK_RETRY_BASE_MS', env('FOLIO_WEBHOOK_RETRY_BASE_MS'), 120_000),
    webhookLogDays: positiveInteger('FOLIO_WEBHOOK_LOG_DAYS', env('FOLIO_WEBHOOK_LOG_DAYS'), 30),
    historyDays: positiveInteger('FOLIO_HISTORY_DAYS', env('FOLIO_HISTORY_DAYS'), 90),
    auditDays: positiveInteger('FOLIO_AUDIT_DAYS', env('FOLIO_AUDIT_DAYS'), 90),
    previewUrl: previewTemplate(env('FOLIO_PREVIEW_URL')),
    webhookDenyPrivate: flag('FOLIO_WEBHOOK_DENY_PRIVATE', env('FOLIO_WEBHOOK_DENY_PRIVATE'), false),
    exampleContent: flag('FOLIO_EXAMPLE_CONTENT', env('FOLIO_EXAMPLE_CONTENT'), true),
    realtimeHeartbeatMs: positiveInteger('FOLIO_REALTIME_HEARTBEAT_MS', env('FOLIO_REALTIME_HEARTBEAT_MS'), 15_000),
    realtimeResumeWindowMs: positiveInteger('FOLIO_REALTIME_RESUME_SECONDS', env('FOLIO_REALTIME_RESUME_SECONDS'), 600) * 1000,
    secrets: { apiTokenSalt: env('FOLIO_API_TOKEN_SALT'), jwtSecret: env('FOLIO_JWT_SECRET') },
    logFormat: oneOf('FOLIO_LOG_FORMAT', input.logFormat ?? env('FOLIO_LOG_FORMAT'), LOG_FORMATS, 'text'),
    logLevel: oneOf('FOLIO_LOG_LEVEL', env('FOLIO_LOG_LEVEL'), LOG_LEVELS, 'info'),
    // Checked now, so a typo stops start-up instead of the first password reset.
    smtpUrl: checked(env('FOLIO_SMTP_URL') ?? fromProject('smtpUrl', env('FOLIO_SMTP_URL')), parseSmtpUrl),
    emailFrom: checked(env('FOLIO_EMAIL_FROM') ?? fromProject('emailFrom', env('FOLIO_EMAIL_FROM')), parseMailbox),
    imageOptimize: flag('FOLIO_IMAGE_OPTIMIZE', env('FOLIO_IMAGE_OPTIMIZE'), false),
    imageWorkers: env('FOLIO_IMAGE_WORKERS') === undefined ? undefined : Math.max(1, positiveInteger('FOLIO_IMAGE_WORKERS', env('FOLIO_IMAGE_WORKERS'), 1)),
    imageQueueLimit: positiveInteger('FOLIO_IMAGE_QUEUE', env('FOLIO_IMAGE_QUEUE'), 32),
    imageTimeoutMs: positiveInteger('FOLIO_IMAGE_TIMEOUT_MS', env('FOLIO_IMAGE_TIMEOUT_MS'), 60_000),
    imageMemoryBytes: positiveInteger('FOLIO_IMAGE_MEMORY_MB', env('FOLIO_IMAGE_MEMORY_MB'), DEFAULT_IMAGE_MEMORY_MB) * 1024 * 1024,
    resetPasswordUrl: env('FOLIO_RESET_PASSWORD_URL') && parseResetPasswordUrl(env('FOLIO_RESET_PASSWORD_URL')!),
    graphql: projectGraphql ? graphqlSettings(projectGraphql, env('NODE_ENV')) : readGraphqlConfig(env('FOLIO_GRAPHQL_CONFIG'), env('NODE_ENV')),
    usersPermissions:
      env('FOLIO_USERS_PERMISSIONS_CONFIG') === undefined
        ? underEnvironment(fromProject('usersPermissions', undefined), env)
        : parseUsersPermissionsConfig(env('FOLIO_USERS_PERMISSIONS_CONFIG')!, (path) => readFileSync(resolve(path), 'utf8')),
    publicUrl: baseUrl('FOLIO_PUBLIC_URL', 'https://cms.example.com'),
  };
  if (project) config.project = { ...project, used };
  return config;
}
