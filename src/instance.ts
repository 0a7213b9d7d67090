/**
 * An opened installation: content types read, database migrated and synced, services
 * wired. The composition root: every service is built here, once, from the Config, and the
 * CLI commands, the HTTP server and the tests all start from here (none builds its own).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Access } from './auth/access';
import { Roles } from './auth/roles';
import { loadSecrets, loadSharedSecrets, type Secrets } from './auth/secrets';
import { emailSenderFor, type EmailSender } from './auth/email';
import { Jwt } from './auth/jwt';
import { ApiTokens } from './auth/tokens';
import { Users } from './auth/users';
import { UsersPermissionsSettings } from './auth/settings';
import { AccountFlows } from './auth/account-flows';
import { Sessions } from './auth/sessions';
import { ProviderFlows } from './auth/providers/connect';
import type { Config } from './config';
import type { Database } from './db/database';
import { migrateSystem, pendingSystemMigrations } from './db/migrate';
import { applySchemaSync, planSchemaSync, type SyncStep } from './db/schema-sync';
import { PostgresDatabase } from './db/postgres';
import { SqliteDatabase } from './db/sqlite';
import { RateLimiter } from './db/store/rate-limits';
import { Locales } from './documents/locales';
import { DocumentService } from './documents/service';
import { Deliverer } from './events/deliverer';
import { Events } from './events/log';
import { Webhooks } from './events/webhooks';
import { loadRegistry } from './registry/load';
import type { Registry } from './registry/types';
import { UploadService } from './upload/service';
import { USER_UID } from './registry/system-models';

export interface Instance {
  config: Config;
  registry: Registry;
  db: Database;
  secrets: Secrets;
  documents: DocumentService;
  locales: Locales;
  roles: Roles;
  tokens: ApiTokens;
  users: Users;
  /** Users & permissions settings (advanced, email, grant, jwtManagement, sessions…), from their sources (auth/settings.ts). */
  usersPermissions: UsersPermissionsSettings;
  jwt: Jwt;
  /** Where account mails (password reset, confirmation) go; the default writes them to the log. Replaceable. */
  email: EmailSender;
  /** The account flows (login, register, passwords, e-mail confirmation): what the auth routes and GraphQL call. */
  accounts: AccountFlows;
  /** End users' refresh-token sessions (jwtManagement 'refresh'). */
  sessions: Sessions;
  /** Signing in through a provider (/api/connect/:provider, /api/auth/:provider/callback). */
  providers: ProviderFlows;
  access: Access;
  /** The upload plugin's files: stored bytes and their rows. */
  uploads: UploadService;
  /** Records events in the transactions of the writes that cause them (src/events/log.ts). */
  events: Events;
  /** Sends webhook deliveries in the background; a server starts it (http/app.ts), close() stops it. */
  deliverer: Deliverer;
  /** Webhook management (`folio webhook`). */
  webhooks: Webhooks;
  /** Counts requests to /api/auth/* per client and path (shared by instances on one PostgreSQL). */
  authLimiter: RateLimiter;
  /** What the schema sync did at open (or would do, with `dryRun`). */
  syncPlan: SyncStep[];
  /** System migrations applied at open (or pending, with `dryRun`). */
  migrationsApplied: string[];
  close(): void;
}

export interface OpenOptions {
  /** Plan only: apply no system migration and no table sync, create nothing (`migrate --dry-run`). */
  dryRun?: boolean;
}

/** The SQLite file of a configuration without a `postgres://` URL: `sqlite:PATH`, or the data dir's. */
export const sqlitePath = (config: Config) =>
  config.databaseUrl ? config.databaseUrl.slice('sqlite:'.length) : join(config.dataDir, 'folio.db');

/** PostgreSQL for a `postgres://` URL; otherwise the SQLite file (`sqlite:PATH`, or the data dir's). */
export function openDatabase(config: Config): Database {
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return new PostgresDatabase(url);
  if (url && !url.startsWith('sqlite:')) throw new Error(`Unsupported database URL "${url}" (postgres://… or sqlite:PATH)`);
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteDatabase(sqlitePath(config));
}

// Any constant will do: it only has to be the same for every Folio instance.
export const SCHEMA_LOCK = 0x466f6c69;

export async function openInstance(config: Config, options: OpenOptions = {}): Promise<Instance> {
  const registry = loadRegistry(config.contentTypesDir);
  const db = openDatabase(config);
  try {
    const locales = new Locales(db);
    const roles = new Roles(db);
    // Instances starting together on one PostgreSQL database take turns to migrate and sync.
    const { migrationsApplied, syncPlan } = await db.exclusive(SCHEMA_LOCK, async () => {
      const migrationsApplied = options.dryRun ? await pendingSystemMigrations(db) : await migrateSystem(db);
      const syncPlan = await planSchemaSync(db, registry);
      if (!options.dryRun) {
        await applySchemaSync(db, syncPlan);
        await locales.ensureDefault();
        await roles.ensureDefaults();
      }
      return { migrationsApplied, syncPlan };
    });
    const secrets = options.dryRun
      ? { apiTokenSalt: '', jwtSecret: '' }
      : db.dialect.name === 'postgres'
        ? await loadSharedSecrets(db, config.secrets)
        : (mkdirSync(config.dataDir, { recursive: true }), loadSecrets(config.dataDir, config.secrets));
    const tokens = new ApiTokens(db, secrets.apiTokenSalt);
    const users = new Users(db, registry.contentType(USER_UID));
    const usersPermissions = new UsersPermissionsSettings(db, config);
    const jwt = new Jwt(secrets.jwtSecret, usersPermissions.plugin.jwt.expiresIn);
    const { ratelimit } = usersPermissions.plugin;
    const sessions = new Sessions(db, secrets.jwtSecret, usersPermissions.plugin.sessions);
    // Reads instance.email at send time: a test or an embedder may replace the sender.
    const accounts: AccountFlows = new AccountFlows({ users, roles, jwt, sessions, settings: usersPermissions, mail: () => instance.email });
    let uploads: UploadService | undefined;
    const events = new Events(db, registry);
    const deliverer = new Deliverer(db, { retryBaseMs: config.webhookRetryBaseMs });
    // Only a serving instance has started the deliverer; waking a stopped one does nothing.
    events.onCommit = () => deliverer.wake();
    const instance: Instance = {
      config,
      registry,
      db,
      secrets,
      documents: new DocumentService(db, registry, locales, events),
      locales,
      roles,
      tokens,
      users,
      usersPermissions,
      jwt,
      email: emailSenderFor(config),
      sessions,
      accounts,
      providers: new ProviderFlows({ db, settings: usersPermissions, users, roles, accounts }),
      access: new Access(roles, tokens, users, jwt, usersPermissions, sessions),
      // Built on first use: it creates the uploads folder, which commands that never touch
      // files (and `migrate --dry-run`, which creates nothing) must not.
      get uploads() {
        return (uploads ??= new UploadService({ db, registry, locales, config, events }));
      },
      // Instances sharing PostgreSQL share the counters too; on SQLite they stay in memory.
      authLimiter: new RateLimiter({ max: ratelimit.enabled ? ratelimit.max : 0, windowMs: ratelimit.interval, shared: db.dialect.name === 'postgres' ? db : undefined }),
      syncPlan,
      migrationsApplied,
      events,
      deliverer,
      webhooks: new Webhooks(db),
      // The deliverer first: its timers go and a send in flight is aborted before the database closes.
      close: () => {
        deliverer.stop();
        uploads?.close();
        db.close();
      },
    };
    return instance;
  } catch (error) {
    db.close();
    throw error;
  }
}
