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
import { migrateSystem } from './db/migrate';
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
  /** What the schema sync did at open (or would do, with `sync: false`). */
  syncPlan: SyncStep[];
  migrationsApplied: string[];
  close(): void;
}

export interface OpenOptions {
  /** Apply the content-table sync (default). `false` only plans it, for `migrate --dry-run`. */
  sync?: boolean;
}

export async function openInstance(config: Config, options: OpenOptions = {}): Promise<Instance> {
  const registry = loadRegistry(config.contentTypesDir);
  mkdirSync(config.dataDir, { recursive: true });
  const db = new SqliteDatabase(join(config.dataDir, 'folio.db'));
  try {
    const migrationsApplied = await migrateSystem(db);
    const syncPlan = await planSchemaSync(db, registry);
    if (options.sync !== false) await applySchemaSync(db, syncPlan);
    const secrets = loadSecrets(config.dataDir);
    const locales = new Locales(db);
    await locales.ensureDefault();
    const roles = new Roles(db);
    await roles.ensureDefaults();
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
