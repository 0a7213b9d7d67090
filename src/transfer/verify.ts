/**
 * What an archive and the database made from it must be before that database replaces an
 * installation's: the manifest describes a Folio installation this Folio can read (its
 * migrations known, its tables Folio's, and Folio's first tables among them); the database,
 * opened afresh, passes SQLite's check of its structure, records only known migrations
 * (a backup's: exactly the manifest's) and holds every table of the manifest with the
 * manifest's row count. A restore or an import says done only after these checks, once on the
 * work file and once more where it has been moved to, before the old installation is let go.
 */
import { carriedTables, inspectSqliteFile, installationTables } from '../db/copy';
import { sqliteDialect } from '../db/dialect';
import { FILES_TABLE, MEDIA_LINKS, SYSTEM } from '../db/layout';
import { migrations } from '../db/migrations';
import type { Registry } from '../registry/types';
import { ArchiveError } from './archive';
import type { Manifest } from './format';

const NOT_FOLIO = 'it is not the archive of a Folio installation';

/** Tables every Folio installation has had since its first migration (0001_system), and every archive lists. */
const FIRST_TABLES = [SYSTEM.locales, SYSTEM.roles, SYSTEM.permissions, SYSTEM.apiTokens, SYSTEM.apiTokenPermissions, FILES_TABLE, MEDIA_LINKS.table];
const FIRST_MIGRATION = migrations[0]!.name;
const known = new Set(migrations.map((m) => m.name));

/** The manifest describes an installation this Folio can restore. */
export function checkManifest(manifest: Manifest): void {
  if (manifest.tables.length === 0) throw new ArchiveError(`The archive's manifest lists no tables: ${NOT_FOLIO}`);
  const listed = new Set(manifest.tables.map((t) => t.name));
  const missing = FIRST_TABLES.find((t) => !listed.has(t));
  if (missing) throw new ArchiveError(`The archive's manifest does not list Folio's table ${missing}: ${NOT_FOLIO}`);
  if (!manifest.migrations.includes(FIRST_MIGRATION))
    throw new ArchiveError(`The archive's manifest does not list Folio's first migration (${FIRST_MIGRATION}): ${NOT_FOLIO}`);
  const unknown = manifest.migrations.find((m) => !known.has(m));
  if (unknown) throw new Error(`The archive comes from a newer Folio (${manifest.folioVersion}, migration ${unknown}); restore it with that version or later`);
}

/**
 * A SQLite backup's tables are this installation's (the same content types), as an export's are
 * checked against the tables its import made (import-archive.ts checkTables).
 */
export function checkBackupTables(manifest: Manifest, registry: Registry): void {
  const names = manifest.tables.map((t) => t.name);
  const ours = new Set(carriedTables(installationTables({ dialect: sqliteDialect }, registry), names));
  const foreign = names.find((n) => !ours.has(n));
  if (foreign) throw new ArchiveError(`The archive holds table "${foreign}", which this installation does not have (are --content-types the source's?)`);
}

export interface DatabaseExpectations {
  /** SQLite's full integrity_check (a file from outside, or before the swap); otherwise quick_check. */
  full: boolean;
  /** A backup: the file is the source's own, and records exactly the manifest's migrations. */
  backup: boolean;
}

/** Opens the SQLite file at `path` afresh and checks it against the manifest; throws what is wrong. */
export function verifyDatabaseFile(path: string, manifest: Manifest, expect: DatabaseExpectations): void {
  const what = expect.backup ? "The archive's database" : 'The imported database';
  const report = inspectSqliteFile(path, { full: expect.full, count: manifest.tables.map((t) => t.name) });
  if (report.check !== 'ok') throw new ArchiveError(`${what} is damaged (${report.check})`);
  if (!report.migrations) throw new ArchiveError(`${what} is not a Folio installation (it has no ${SYSTEM.migrations} table)`);
  const unknown = report.migrations.find((m) => !known.has(m));
  if (unknown)
    throw new ArchiveError(`${what} records migration "${unknown}", which this Folio does not know: it is not a Folio installation this version can open`);
  if (expect.backup) {
    const recorded = new Set(report.migrations);
    const differ = report.migrations.length !== manifest.migrations.length || manifest.migrations.some((m) => !recorded.has(m));
    if (differ) throw new ArchiveError(`${what} records other migrations (${report.migrations.join(', ') || 'none'}) than the manifest lists`);
  }
  for (const table of manifest.tables) {
    const n = report.counts.get(table.name);
    if (n !== table.rows)
      throw new ArchiveError(`Count check failed for ${table.name}: the manifest says ${table.rows} rows, the database holds ${n ?? 'no such table'}`);
  }
}
