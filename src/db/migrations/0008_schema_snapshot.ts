/**
 * The schema the content tables were last synced with: one row per content type and
 * component, its attributes' kinds and types as JSON (db/schema-diff.ts `ModelShape`).
 * Schema sync compares the schema files with it to tell a removed, renamed-looking or
 * retyped attribute apart (column types cannot: string and text are both TEXT on SQLite),
 * and rewrites it after every sync. Empty on an installation that predates it: the first
 * sync fills it and later ones compare against it.
 */
import type { Dialect } from '../dialect';

export default (d: Dialect): string => `CREATE TABLE folio_schema_snapshot (
  "uid" ${d.textType} PRIMARY KEY,
  "shape" ${d.textType} NOT NULL,
  "syncedAt" ${d.textType} NOT NULL
);
`;
