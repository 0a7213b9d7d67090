/**
 * An opened installation: content types read, database migrated and synced, services
 * wired. The CLI commands, the HTTP server and the tests all start from here.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Access } from './auth/access';
import { Roles } from './auth/roles';
import { loadSecrets, type Secrets } from './auth/secrets';
import { ApiTokens } from './auth/tokens';
import type { Config } from './config';
import type { Database } from './db/database';
import { migrateSystem, pendingSystemMigrations } from './db/migrate';
import { applySchemaSync, planSchemaSync, type SyncStep } from './db/schema-sync';
import { SqliteDatabase } from './db/sqlite';
import { Locales } from './documents/locales';
import { DocumentService } from './documents/service';
import { loadRegistry } from './registry/load';
import type { Registry } from './registry/types';

export interface Instance {
  config: Config;
  registry: Registry;
  db: Database;
  secrets: Secrets;
  documents: DocumentService;
  locales: Locales;
  roles: Roles;
  tokens: ApiTokens;
  access: Access;
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

export async function openInstance(config: Config, options: OpenOptions = {}): Promise<Instance> {
  const registry = loadRegistry(config.contentTypesDir);
  mkdirSync(config.dataDir, { recursive: true });
  const db = new SqliteDatabase(join(config.dataDir, 'folio.db'));
  try {
    const migrationsApplied = options.dryRun ? await pendingSystemMigrations(db) : await migrateSystem(db);
    const syncPlan = await planSchemaSync(db, registry);
    const locales = new Locales(db);
    const roles = new Roles(db);
    if (!options.dryRun) {
      await applySchemaSync(db, syncPlan);
      await locales.ensureDefault();
      await roles.ensureDefaults();
    }
    const secrets = options.dryRun ? { apiTokenSalt: '', jwtSecret: '' } : loadSecrets(config.dataDir);
    const tokens = new ApiTokens(db, secrets.apiTokenSalt);
    return {
      config,
      registry,
      db,
      secrets,
      documents: new DocumentService(db, registry, locales),
      locales,
      roles,
      tokens,
      access: new Access(roles, tokens),
      syncPlan,
      migrationsApplied,
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
