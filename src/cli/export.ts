/** `folio export FILE`: the portable archive (src/transfer/export.ts). */
import { exportInstallation } from '../transfer/export';
import { writeArchive } from './backup';
import type { Command } from './command';

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a portable archive of this installation (any engine)',
  usage: `Usage: folio export FILE

Writes the whole installation as a portable archive (tar, gzip), from one consistent
snapshot: a manifest (Folio version, engine, tables with row counts, migrations), one
JSON Lines file per table (every row, ids kept), the secrets and the uploaded files.
"folio import FILE" (or "folio restore") reads it into SQLite or PostgreSQL.`,
  options: {},
  run: ({ values, positionals }) => writeArchive(values, positionals, exportInstallation, 'exported to'),
};
