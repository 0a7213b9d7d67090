/**
 * An opened installation: content types read, database migrated and synced, services
 * wired. The composition root: every service is built here, once, from the Config, and the
 * CLI commands, the HTTP server and the tests all start from here (none builds its own).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { recoverReplacements } from './db/sqlite-replace';
import { RateLimiter } from './db/store/rate-limits';
import { Locales } from './documents/locales';
import { DocumentService } from './documents/service';
import { applyDraftToggle } from './documents/write/draft-toggle';
import { Deliverer } from './events/deliverer';
import { Outbox } from './events/outbox';
import { ReadCaches } from './query/caches';
import { Pruner } from './events/prune';
import { RealtimeHub } from './events/realtime';
import { createLogger, type Logger } from './log';
import { Webhooks } from './events/webhooks';
import { loadRegistry } from './registry/load';
import { SchemaError, type Registry } from './registry/types';
import { UploadService } from './upload/service';
import { GraphqlService } from './graphql/service';
import { USER_UID } from './registry/system-models';
import { ProjectApp } from './project/app';
import { ContentHistory } from './history/service';
import { HistoryListener } from './history/listener';
import { Periodic } from './periodic';
import { AuditLog } from './audit/log';
import { AuditListener } from './audit/listener';
import { Releases } from './releases/service';
import { ReleaseScheduler } from './releases/scheduler';
import { discoverCustomFields } from './project/custom-fields';
import { pluginTypeSchemas } from './project/plugins/content-types';

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
  /** Records events in the transactions of the writes that cause them: a listener of the write pipeline (src/events/outbox.ts). */
  outbox: Outbox;
  /** What reads may reuse (plans, answers), keyed by what they depend on (src/query/caches.ts). */
  caches: ReadCaches;
  /** Sends webhook deliveries in the background; start() starts it, close() stops it. */
  deliverer: Deliverer;
  /** Follows the outbox for the open streams of GET /api/realtime (woken by the outbox's commits). */
  realtime: RealtimeHub;
  /** The one logger of server output (the configured format and level, or the one `openInstance` was given). */
  log: Logger;
  /** Webhook management (`folio webhook`). */
  webhooks: Webhooks;
  /** Content history: a version per document write and locale (a listener of the write pipeline, src/history/). */
  history: ContentHistory;
  /**
   * The audit log (src/audit/): content writes as a listener of the write pipeline; settings
   * services and admin logins record through it (each service's `audit`, set here).
   */
  audit: AuditLog;
  /** Releases: sets of publish/unpublish actions applied in one transaction, by hand or on schedule (src/releases/). */
  releases: Releases;
  /** Publishes due releases while the instance serves (start() starts it): exactly once across instances on one database. */
  releaseScheduler: ReleaseScheduler;
  /**
   * GraphQL in Strapi's dialect (src/graphql/): its schema is built on first use. Project code
   * extends it through `graphql.extension` (`use({ typeDefs, resolvers })`, `shadowCRUD(uid)`).
   */
  graphql: GraphqlService;
  /**
   * A Strapi project's code (src/project/), loaded at open when the content types are a
   * project's; `project.start()` runs its register and bootstrap (a server does, before it
   * listens), `project.stop()` its destroy.
   */
  project?: ProjectApp;
  /** Counts requests to /api/auth/* per client and path (shared by instances on one PostgreSQL). */
  authLimiter: RateLimiter;
  /** What the schema sync did at open (or would do, with `dryRun`). */
  syncPlan: SyncStep[];
  /** System migrations applied at open (or pending, with `dryRun`). */
  migrationsApplied: string[];
  /**
   * Starts what a serving instance does in the background: webhook deliveries, outbox pruning,
   * the retention of history and the audit log, and the release scheduler (which first applies
   * releases that fell due while no server ran); the realtime hub runs while someone streams.
   * Idempotent; close() stops it all.
   */
  start(): void;
  /** Stops what start() started, without closing anything (start() resumes it): tests that count statements. */
  pause(): void;
  close(): void;
}

export interface OpenOptions {
  /** Plan only: apply no system migration and no table sync, create nothing (`migrate --dry-run`). */
  dryRun?: boolean;
  /** The logger (default: one made from the config's level and format). */
  log?: Logger;
  /** The registry, when the caller read it (`folio import strapi`: the source project's, its plugins' types included). */
  registry?: Registry;
}

/** The SQLite file of a configuration without a `postgres://` URL: `sqlite:PATH`, or the data dir's. */
export const sqlitePath = (config: Config) => (config.databaseUrl ? config.databaseUrl.slice('sqlite:'.length) : join(config.dataDir, 'folio.db'));

/** PostgreSQL for a `postgres://` URL; otherwise the SQLite file (`sqlite:PATH`, or the data dir's). */
export function openDatabase(config: Config): Database {
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return new PostgresDatabase(url);
  if (url && !url.startsWith('sqlite:')) throw new Error(`Unsupported database URL "${url}" (postgres://… or sqlite:PATH)`);
  mkdirSync(config.dataDir, { recursive: true });
  recoverSqliteFiles(config);
  return new SqliteDatabase(sqlitePath(config));
}

/**
 * After a restore or an import into this SQLite installation that was killed part-way: its
 * work files go, and an old database (with its secrets.json) it had moved aside comes back
 * (db/sqlite-replace.ts). Run before the database is opened, and before a restore or an import starts.
 */
export function recoverSqliteFiles(config: Config): void {
  recoverReplacements(sqlitePath(config), [join(config.dataDir, 'secrets.json')]);
}

// Any constant will do: it only has to be the same for every Folio instance.
export const SCHEMA_LOCK = 0x466f6c69;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The registry of the configured schemas, with the content types a project's plugins declare
 * in their server code (project/plugins/content-types.ts). A schema using a custom field Folio
 * does not know may be a project's own (a plugin's `customFields.register`): then the
 * project's register functions are asked first (project/custom-fields.ts).
 */
export function registryOf(config: Pick<Config, 'contentTypesDir' | 'project'>): Registry {
  const pluginTypes = config.project ? pluginTypeSchemas(config.project) : [];
  try {
    return loadRegistry(config.contentTypesDir, {}, pluginTypes);
  } catch (error) {
    if (!config.project || !(error instanceof SchemaError) || !/custom field/.test(error.message)) throw error;
    return loadRegistry(config.contentTypesDir, discoverCustomFields(config.project), pluginTypes);
  }
}

/**
 * A dry run writes nothing: where there is no SQLite installation yet, it plans against an
 * empty scratch database in the temp folder (removed when closed), not a new data folder.
 */
function dryRunDatabase(config: Config): Database | undefined {
  const url = config.databaseUrl;
  if ((url && !url.startsWith('sqlite:')) || existsSync(sqlitePath(config))) return undefined;
  return new ScratchSqlite(mkdtempSync(join(tmpdir(), 'folio-dry-run-')));
}

/** A SQLite database in a folder of its own that goes with it when it is closed. */
class ScratchSqlite extends SqliteDatabase {
  constructor(private folder: string) {
    super(join(folder, 'folio.db'));
  }

  override close(): void {
    super.close();
    rmSync(this.folder, { recursive: true, force: true });
  }
}

export async function openInstance(config: Config, options: OpenOptions = {}): Promise<Instance> {
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const registry = options.registry ?? registryOf(config);
  const db = (options.dryRun && dryRunDatabase(config)) || openDatabase(config);
  if (db instanceof PostgresDatabase)
    db.onListenError = (error) => log.error("listening for other instances' commits failed: their events reach the realtime feed within 10 s", { error });
  try {
    const locales = new Locales(db);
    const roles = new Roles(db);
    // Instances starting together on one PostgreSQL database take turns to migrate and sync.
    const { migrationsApplied, syncPlan } = await db.exclusive(SCHEMA_LOCK, async () => {
      const migrationsApplied = options.dryRun ? await pendingSystemMigrations(db) : await migrateSystem(db);
      const syncPlan = await planSchemaSync(db, registry);
      if (!options.dryRun) {
        // Draft & publish turned off or on: the document layer deletes or makes drafts in the sync's transaction.
        await applySchemaSync(db, syncPlan, (tx, toggle) => applyDraftToggle(tx, registry, toggle));
        await locales.ensureDefault();
        await roles.ensureDefaults();
      }
      return { migrationsApplied, syncPlan };
    });
    const secrets = options.dryRun
      ? { apiTokenSalt: '', jwtSecret: '' }
      : db.dialect.sharedByInstances
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
    let graphql: GraphqlService | undefined;
    const documents = new DocumentService(db, registry, locales, { log });
    users.rideOn(documents);
    const outbox = new Outbox();
    documents.pipeline.listen(outbox);
    const deliverer = new Deliverer(db, { retryBaseMs: config.webhookRetryBaseMs, denyPrivate: config.webhookDenyPrivate, log });
    // Only a serving instance has started the deliverer; waking a stopped one does nothing.
    outbox.onCommit = () => deliverer.wake();
    const realtime = new RealtimeHub(db, {
      resumeWindowMs: config.realtimeResumeWindowMs,
      // Grants, roles, tokens and users all move the settings version.
      accessMarker: () => db.settingsVersion({ fresh: true }),
      log,
    });
    outbox.listen(() => realtime.wake());
    const pruner = new Pruner(db, { keepEventsMs: config.realtimeResumeWindowMs, keepAttemptsMs: config.webhookLogDays * DAY_MS, log });
    const history = new ContentHistory(db, registry, documents, config.historyDays);
    if (config.historyDays > 0) documents.pipeline.listen(new HistoryListener());
    const audit = new AuditLog(db, config.auditDays, { log });
    if (audit.enabled) documents.pipeline.listen(new AuditListener());
    const webhooks = new Webhooks(db, { denyPrivate: config.webhookDenyPrivate });
    const releases = new Releases(db, registry, documents);
    for (const service of [roles, tokens, users, locales, webhooks, releases]) service.audit = audit;
    const releaseScheduler = new ReleaseScheduler(releases, { log });
    // What is kept only so long: checked soon after start, then hourly.
    const retention = new Periodic('retention', async () => (await history.prune()) + (await audit.prune()), { intervalMs: 3600_000, firstMs: 30_000, log });
    const instance: Instance = {
      config,
      registry,
      db,
      secrets,
      documents,
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
        return (uploads ??= new UploadService({ db, registry, locales, config, pipeline: documents.pipeline, log }));
      },
      get graphql() {
        return (graphql ??= new GraphqlService(
          {
            registry,
            documents,
            locales,
            users,
            roles,
            uploads: () => instance.uploads,
            accounts,
            authLimiter: instance.authLimiter,
            log,
            plans: (grants, uid, key, build) => instance.caches.plan(grants, uid, key, build),
          },
          config.graphql,
        ));
      },
      // Instances sharing PostgreSQL share the counters too; on SQLite they stay in memory.
      authLimiter: new RateLimiter({
        max: ratelimit.enabled ? ratelimit.max : 0,
        windowMs: ratelimit.interval,
        shared: db.dialect.sharedByInstances ? db : undefined,
      }),
      syncPlan,
      migrationsApplied,
      outbox,
      // Content answers kept until the next commit, by anyone (off with FOLIO_ANSWER_CACHE_MB=0).
      caches: new ReadCaches(db, { answerBytes: config.answerCacheBytes }),
      deliverer,
      realtime,
      log,
      webhooks,
      history,
      audit,
      releases,
      releaseScheduler,
      start: () => {
        deliverer.start();
        pruner.start();
        retention.start();
        releaseScheduler.start();
        instance.project?.startBackground();
      },
      pause: () => {
        deliverer.stop();
        pruner.stop();
        retention.stop();
        releaseScheduler.stop();
      },
      // Background work first: its timers go and a send in flight is aborted before the database closes.
      close: () => {
        void instance.project?.stop();
        instance.pause();
        realtime.stop();
        uploads?.close();
        db.close();
      },
    };
    if (config.project && !options.dryRun) {
      const project = new ProjectApp(instance, config.project, log);
      project.loadFiles();
      project.listActions();
      instance.project = project;
    }
    return instance;
  } catch (error) {
    db.close();
    throw error;
  }
}
