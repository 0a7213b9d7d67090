/**
 * Folio as a library: `startFolio()` runs a whole Folio (database, content types, HTTP server
 * on 127.0.0.1) inside the caller's Bun process, for a front end's tests or a dev server,
 * and `stop()` throws it away. Each call opens its own instance (src/instance.ts): several
 * run side by side in one process, even with different schemas for the same uid.
 *
 *   const folio = await startFolio({ contentTypes: './content-types', seed: { articles: [{ title: 'Hi' }] } });
 *   await fetch(`${folio.url}/api/articles`, { headers: { Authorization: `Bearer ${folio.token('read-only')}` } });
 *   await folio.stop();
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveActions } from './auth/actions';
import { TOKEN_TYPES, type TokenType } from './auth/tokens';
import { listen } from './cli/serve';
import { resolveConfig, type Config } from './config';
import { readProject } from './project/config';
import type { DocumentService } from './documents/service';
import { openInstance, type Instance } from './instance';
import { createLogger, type LogLevel } from './log';
import { parseReadQuery } from './query/parse';
import type { ReadQuery } from './query/types';
import type { ContentType } from './registry/types';
import { writeSchemas, type SchemaMap } from './library/schemas';
import { runSeed, type Seed } from './library/seed';
import { seedFiles } from './library/seed-files';

export type { DocumentService, WriteOptions, Written } from './documents/service';
export type { ReadQuery } from './query/types';
export type { ContentType, Component, Registry } from './registry/types';
export type { Instance } from './instance';
export type { Config } from './config';
export type { SchemaMap } from './library/schemas';
export type { Seed, SeedItem } from './library/seed';

/** A token to create: its type, or the type with the actions of a custom token (Strapi names, `*` expands). */
export type TokenSpec = TokenType | { type: TokenType; actions?: string[]; lifespanDays?: number; description?: string };

export interface FolioOptions {
  /** A folder of schemas (Folio's layout or a Strapi project), or the schemas themselves (see SchemaMap). */
  contentTypes: string | SchemaMap;
  /** Data folder (SQLite file, secrets, uploads); default: a temporary folder removed by stop(). A folder given is kept. */
  data?: string;
  /**
   * `':memory:'`: SQLite in memory-backed storage (/dev/shm where there is one), gone after stop();
   * `postgres://…`: that database, used as it is (give a fresh one: its tables stay after stop());
   * `sqlite:PATH`: that file. Default: SQLite in the data folder. DATABASE_URL is never read.
   */
  database?: string;
  /** Port on 127.0.0.1; default 0, a free one (read it from `url`). */
  port?: number;
  /** Host to listen on; default 127.0.0.1. */
  host?: string;
  /** Documents to create once started, in order (see Seed: relations by documentId or `'$key'`). */
  seed?: Seed;
  /** Actions to grant by role, as `folio permissions grant` takes them: `{ public: ['api::article.article.find', 'api::tag.tag.*'] }`. */
  permissions?: Record<string, string[]>;
  /**
   * API tokens to create, by name, or a list of token types (each named after its type:
   * `['full-access', 'read-only']`); `token(name)` returns their keys. Default:
   * `{ 'full-access': 'full-access', 'read-only': 'read-only' }`.
   */
  tokens?: Record<string, TokenSpec> | TokenType[];
  /** Lowest log level written to the console; default `warn` (no line per request). */
  logLevel?: LogLevel;
  /** Any other setting (strictParams, corsOrigins, limits…) over the defaults and FOLIO_* variables. */
  config?: Partial<Config>;
}

export interface Folio {
  /** `http://127.0.0.1:<port>`, no trailing slash; the REST API is under `${url}/api`. */
  url: string;
  /** The access key of the token of that name (throws for a name not created). */
  token(name: string): string;
  /**
   * The document service the routes use: `create(ct, data, { status?, locale? })`, `findMany(ct, query)`,
   * `findOne(ct, documentId, query)`, `update(ct, documentId, data, options)`, `delete(ct, documentId, { locale? })`,
   * `upsertSingle(ct, data, options)`, `publish` / `unpublish` / `discardDraft(ct, documentId, { locale? })`.
   * `ct` comes from `contentType()`, `query` from `readQuery()`.
   */
  documents: DocumentService;
  /** A content type by uid (`api::article.article`) or API id (`articles`, a single type's `homepage`); throws when unknown. */
  contentType(id: string): ContentType;
  /** A read query from REST parameters as `qs` would parse them (`{ filters, populate, sort, status, locale, pagination, fields }`). */
  readQuery(id: string | ContentType, params?: Record<string, unknown>): Promise<ReadQuery>;
  /** documentIds of the seed items that had a `$key`, by key. */
  seeded: Record<string, string>;
  /** The whole opened installation (roles, tokens, locales, registry, database) for what the above does not cover. */
  instance: Instance;
  /** Closes the server and the database, stops background work and removes the temporary folders. Safe to call twice. */
  stop(): Promise<void>;
}

const DEFAULT_TOKENS: Record<string, TokenSpec> = { 'full-access': 'full-access', 'read-only': 'read-only' };

/** `tokens` as given: by name, or a list of types each named after its type; anything else is an error naming the option. */
function tokenSpecs(tokens: FolioOptions['tokens']): Record<string, TokenSpec> {
  if (tokens === undefined) return DEFAULT_TOKENS;
  if (Array.isArray(tokens)) {
    const specs: Record<string, TokenSpec> = {};
    for (const [i, type] of (tokens as unknown[]).entries()) {
      if (typeof type !== 'string' || !TOKEN_TYPES.includes(type as TokenType)) {
        throw new Error(
          `startFolio: tokens[${i}] must be a token type (${TOKEN_TYPES.join(', ')}), got ${JSON.stringify(type)}; name tokens with { name: type } instead`,
        );
      }
      if (type in specs) throw new Error(`startFolio: tokens lists "${type}" twice (each is named after its type; name them with { name: type } to have two)`);
      specs[type] = type as TokenType;
    }
    return specs;
  }
  if (typeof tokens !== 'object' || tokens === null)
    throw new Error(`startFolio: tokens must be { name: type } or a list of token types, got ${JSON.stringify(tokens)}`);
  return tokens;
}

/** RAM-backed temporary storage where the system has it (Linux), else the OS temp folder. */
function memoryRoot(): string {
  try {
    if (statSync('/dev/shm').isDirectory()) return mkdtempSync('/dev/shm/folio-memory-');
  } catch {
    // no /dev/shm, or not writable
  }
  return mkdtempSync(join(tmpdir(), 'folio-memory-'));
}

/** The configuration of one embedded instance: explicit everywhere the environment could point elsewhere. */
function configOf(options: FolioOptions, contentTypesDir: string, dataDir: string, database: string): Config {
  const base = resolveConfig(
    { data: dataDir, contentTypes: contentTypesDir, database, uploads: join(dataDir, 'uploads'), host: options.host ?? '127.0.0.1', port: options.port ?? 0 },
    { readProject },
  );
  return {
    ...base,
    ...options.config,
    dataDir: base.dataDir,
    contentTypesDir: base.contentTypesDir,
    databaseUrl: base.databaseUrl,
    port: base.port,
    host: base.host,
  };
}

export async function startFolio(options: FolioOptions): Promise<Folio> {
  if (!options || (typeof options.contentTypes !== 'string' && (typeof options.contentTypes !== 'object' || options.contentTypes === null))) {
    throw new Error('startFolio: contentTypes must be a folder or an object of schemas');
  }
  // Checked before anything is created: a wrong option leaves nothing behind.
  const tokenSpecsGiven = tokenSpecs(options.tokens);
  // Everything this call creates, removed by stop() or by a failed start.
  const temporary: string[] = [];
  let instance: Instance | undefined;
  let server: ReturnType<typeof listen> | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        // Force: open keep-alive connections would otherwise hold the port (and the process).
        if (server) await server.stop(true);
      } finally {
        try {
          instance?.close();
        } finally {
          for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
        }
      }
    })());

  try {
    let contentTypesDir: string;
    if (typeof options.contentTypes === 'string') contentTypesDir = resolve(options.contentTypes);
    else {
      const root = mkdtempSync(join(tmpdir(), 'folio-schemas-'));
      temporary.push(root);
      contentTypesDir = join(root, 'content-types');
      mkdirSync(contentTypesDir);
      writeSchemas(contentTypesDir, options.contentTypes);
    }
    let dataDir: string;
    if (options.data !== undefined) dataDir = resolve(options.data);
    else temporary.push((dataDir = mkdtempSync(join(tmpdir(), 'folio-data-'))));
    let database = options.database ?? `sqlite:${join(dataDir, 'folio.db')}`;
    // Folio's SQLite engine holds two connections (writer, WAL reader), and a true `:memory:`
    // database is private to one connection: a file in RAM-backed storage gives both the same data.
    if (database === ':memory:' || database === 'sqlite::memory:') {
      const root = memoryRoot();
      temporary.push(root);
      database = `sqlite:${join(root, 'folio.db')}`;
    }

    const config = configOf(options, contentTypesDir, dataDir, database);
    const log = createLogger({ level: options.logLevel ?? 'warn', format: config.logFormat });
    instance = await openInstance(config, { log });
    for (const warning of instance.registry.warnings) log.warn(`[folio] warning: ${warning}`);
    const { registry, roles, tokens, documents, locales } = instance;

    for (const [role, names] of Object.entries(options.permissions ?? {})) {
      if (!Array.isArray(names)) throw new Error(`startFolio: permissions.${role} must be an array of action names`);
      await roles.grant(role, resolveActions(registry, names));
    }
    const keys = new Map<string, string>();
    for (const [name, spec] of Object.entries(tokenSpecsGiven)) {
      if (typeof spec !== 'string' && (typeof spec !== 'object' || spec === null))
        throw new Error(`startFolio: tokens.${name} must be a token type or { type, actions }`);
      const { type, actions = [], lifespanDays, description } = typeof spec === 'string' ? { type: spec } : spec;
      if (!Array.isArray(actions)) throw new Error(`startFolio: tokens.${name}.actions must be an array of action names`);
      const created = await tokens.create(name, type, lifespanDays, description, actions.length ? resolveActions(registry, actions) : []);
      keys.set(name, created.accessKey);
    }
    const seeded =
      options.seed === undefined
        ? {}
        : await runSeed(registry, documents, options.seed, { source: 'startFolio', root: 'seed', files: seedFiles(instance, process.cwd()) });

    server = listen(instance, log);
    const contentType = (id: string): ContentType => {
      const found = registry.contentType(id) ?? registry.byRouteId(id);
      if (!found || found.system) throw new Error(`startFolio: no content type "${id}"`);
      return found;
    };
    return {
      url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${server.server!.port}`,
      token(name) {
        const key = keys.get(name);
        if (key === undefined) throw new Error(`startFolio: no token named "${name}" (tokens: ${[...keys.keys()].join(', ') || 'none'})`);
        return key;
      },
      documents,
      contentType,
      async readQuery(id, params = {}) {
        const ct = typeof id === 'string' ? contentType(id) : id;
        return parseReadQuery(registry, ct, params, await locales.defaultCode(), { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit });
      },
      seeded,
      instance,
      stop,
    };
  } catch (error) {
    // The cause of the failed start is what the caller needs, not a failure while cleaning up.
    await stop().catch(() => {});
    throw error;
  }
}
