/**
 * `folio import strapi SOURCE`: a Strapi 5 (or 4: v4.ts) project directory on SQLite or
 * PostgreSQL, or an archive made by `strapi export --no-encrypt` (archive-source.ts), → a new
 * Folio installation.
 * Rows are written directly (not through the REST API), so ids, documentIds, versions,
 * timestamps, password hashes and token hashes survive. Everything is read and mapped
 * first (a row that cannot be mapped stops the import before anything is written), then
 * written in one transaction with every table's count checked inside it: the import
 * commits whole or not at all. Uploaded files are copied (into the uploads folder or the S3
 * bucket: uploads.ts) before the commit and removed again if it fails; the schemas and the
 * token salt are written after it.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';
import { writeSecret } from '../../db/store/secrets';
import { openInstance, registryOf } from '../../instance';
import { readProject } from '../../project/config';
import type { Registry } from '../../registry/types';
import { contentPlan, mediaRows, type TableRows } from './content';
import { Progress, type ProgressSink } from './progress';
import { writeSchemas } from './schemas';
import { ArchiveSource } from './archive-source';
import { PostgresSource } from './postgres-source';
import { projectEnv, SqliteSource, StrapiImportError, type StrapiSource } from './source';
import { systemPlan, usersPermissionsStore } from './system';
import { writePluginStoreValue } from '../../db/store/plugin-store';
import { storeKey } from '../../auth/settings';
import { isStrapi4, V4Source } from './v4';
import { advanceSequences, clearTarget, countRows, holdsData, insertRows, targetBefore, undoCreated, undoCreatedNow } from './target';
import { undoOnInterrupt } from '../interrupt';
import { placeFileRows, PlacedUploads, uploadFiles } from './uploads';

export interface ImportOptions {
  source: string;
  config: Config;
  dryRun?: boolean;
  force?: boolean;
  out?: ProgressSink;
}

export interface ImportReport {
  tables: { table: string; label: string; rows: number; skipped: number }[];
  documents: { uid: string; documents: number; versions: number }[];
  files: number;
  notes: string[];
}

const BATCH = 1000;

/** Documents and versions per content type (the dry run's and the summary's first lines). */
function documentCounts(plan: TableRows[], registry: Registry): ImportReport['documents'] {
  return registry.contentTypes.map((ct) => {
    const rows = plan.find((p) => p.table === ct.tableName)?.rows ?? [];
    return { uid: ct.uid, documents: new Set(rows.map((r) => r.documentId)).size, versions: rows.length };
  });
}

/** A project directory (SQLite or PostgreSQL, as its .env says), or a file that should be a `strapi export` archive. */
async function openSource(path: string): Promise<StrapiSource> {
  if (existsSync(path) && statSync(path).isFile()) return ArchiveSource.open(path);
  const { env, client } = projectEnv(path);
  return client === 'postgres' ? PostgresSource.open(path, env) : new SqliteSource(path, env);
}

export async function importStrapi(options: ImportOptions): Promise<ImportReport> {
  const out = options.out ?? { write: (text: string) => process.stdout.write(text), isTTY: process.stdout.isTTY };
  let source = await openSource(options.source);
  try {
    // Folio reads a Strapi project's layout as it is: the registry is the project's.
    const schemaRoot = source.schemaRoot;
    // A project directory's plugins may declare content types of their own (plugin::<plugin>.<name>): their rows come too.
    // Its configuration reads the project's .env alone, as the source does (Folio's own environment names the target).
    const project = source instanceof ArchiveSource ? undefined : readProject(schemaRoot, { ...source.env });
    const registry = registryOf({ contentTypesDir: schemaRoot, project });
    // A Strapi 4 database reads as the Strapi 5 one its own migration would make (v4.ts); an
    // archive is Strapi 5's by its metadata (and its empty tables list no columns to tell by).
    if (!(source instanceof ArchiveSource) && isStrapi4(source, registry)) source = V4Source.from(source, registry);
    writeSchemas(schemaRoot, options.config.contentTypesDir, true);
    const plan = [...systemPlan(source, registry), ...contentPlan(source, registry), mediaRows(source, registry)];
    const store = usersPermissionsStore(source);
    const uploads = uploadFiles(source);
    placeFileRows(plan.find((p) => p.label === 'files')?.rows ?? [], options.config);
    const report: ImportReport = {
      tables: plan.map((p) => ({ table: p.table, label: p.label, rows: p.rows.length, skipped: p.skipped })),
      documents: documentCounts(plan, registry),
      files: uploads.length,
      notes: [...plan.flatMap((p) => p.notes), ...store.notes, ...source.omissions],
    };
    const pluginTypes = registry.contentTypes.filter((ct) => ct.plugin).map((ct) => ct.uid);
    if (pluginTypes.length) {
      report.notes.push(
        `plugin content types (${pluginTypes.join(', ')}) are declared by the project's plugins, not by schema files: serve the project itself (--project) for Folio to know them`,
      );
    }
    const salt = source.env.API_TOKEN_SALT;
    if (!salt && plan.some((p) => p.label === 'API tokens' && p.rows.length)) {
      report.notes.push('the project has API tokens but its .env has no API_TOKEN_SALT: their keys will not work in Folio');
    }
    if (options.dryRun) return report;

    const before = await targetBefore(options.config);
    let instance: Awaited<ReturnType<typeof openInstance>> | undefined;
    const placed = new PlacedUploads(options.config);
    const release = undoOnInterrupt(() => {
      placed.undoNow();
      undoCreatedNow(options.config, before);
    });
    try {
      instance = await openInstance({ ...options.config, contentTypesDir: schemaRoot }, { registry });
      const { db, registry: target } = instance;
      const occupied = await holdsData(db, target);
      if (occupied && !options.force) {
        throw new StrapiImportError(`the target installation is not empty (${occupied} has rows); use --force to replace its content`);
      }
      await placed.place(source.uploadsDir, uploads);
      const progress = new Progress(
        plan.reduce((n, p) => n + p.rows.length, 0),
        out,
      );
      await db.transaction(async (tx) => {
        await clearTarget(tx, db, target);
        for (const part of plan) {
          for (let at = 0; at < part.rows.length; at += BATCH) {
            const batch = part.rows.slice(at, at + BATCH);
            try {
              await insertRows(tx, part.table, batch);
            } catch (error) {
              // A constraint of Folio's the source broke (two e-mails differing only in case…): name the rows.
              throw new StrapiImportError(
                `${part.label}, rows ${at + 1}-${at + batch.length} (ids ${batch[0]?.id}…${batch.at(-1)?.id}): ${(error as Error).message}`,
              );
            }
            progress.advance(part.label, batch.length);
          }
        }
        await advanceSequences(tx, [...new Set(plan.map((p) => p.table))]);
        // Every table holds exactly what was read for it (several parts may share one table).
        const expected = new Map<string, number>();
        for (const p of plan) expected.set(p.table, (expected.get(p.table) ?? 0) + p.rows.length);
        for (const [table, rows] of expected) {
          const counted = await countRows(tx, table);
          if (counted !== rows) throw new StrapiImportError(`count check failed for ${table}: read ${rows} rows from Strapi, the target holds ${counted}`);
        }
        // users-permissions' settings (advanced, email, grant), as the admin's Settings pages store them.
        for (const { key, value } of store.values) await writePluginStoreValue(tx, storeKey(key), JSON.stringify(value), new Date().toISOString());
        if (db.dialect.sharedByInstances) {
          if (salt) await writeSecret(tx, 'apiTokenSalt', salt);
          if (source.env.JWT_SECRET) await writeSecret(tx, 'jwtSecret', source.env.JWT_SECRET);
        }
      });
    } catch (error) {
      await placed.undo();
      instance?.close();
      instance = undefined;
      // Nothing half-written: the tables and files this import made before its transaction go too.
      await undoCreated(options.config, before);
      throw error;
    } finally {
      release();
      instance?.close();
    }
    if (!options.config.databaseUrl?.startsWith('postgres')) keepSecrets(options.config.dataDir, salt, source.env.JWT_SECRET);
    if (options.config.secrets.apiTokenSalt && salt && options.config.secrets.apiTokenSalt !== salt) {
      report.notes.push("FOLIO_API_TOKEN_SALT is set and differs from the project's API_TOKEN_SALT: imported API tokens work only without it");
    }
    writeSchemas(schemaRoot, options.config.contentTypesDir, false);
    return report;
  } finally {
    source.close();
  }
}

/** SQLite installations keep their secrets in the data dir (auth/secrets.ts): Strapi's salt and JWT secret go there. */
function keepSecrets(dataDir: string, salt: string | undefined, jwtSecret: string | undefined): void {
  const file = join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  if (salt) stored.apiTokenSalt = salt;
  if (jwtSecret) stored.jwtSecret = jwtSecret;
  writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The summary `folio import strapi` prints (also the dry run's, with "would import"). */
export function formatReport(report: ImportReport, dryRun: boolean): string {
  const verb = dryRun ? 'would import' : 'imported';
  const lines = report.documents.map((d) => `${verb} ${d.uid}: ${d.documents} document(s), ${d.versions} version row(s)`);
  for (const t of report.tables) {
    lines.push(`${verb} ${t.label}: ${t.rows} row(s)${t.skipped ? `, ${t.skipped} left out` : ''}`);
  }
  lines.push(`${verb} ${report.files} uploaded file(s)`);
  for (const note of report.notes) lines.push(`note: ${note}`);
  const total = report.tables.reduce((n, t) => n + t.rows, 0);
  lines.push(
    dryRun
      ? `dry run: nothing written (${total} rows in ${report.tables.length} tables)`
      : `done: ${total} rows in ${report.tables.length} tables; counts checked`,
  );
  return lines.join('\n');
}
