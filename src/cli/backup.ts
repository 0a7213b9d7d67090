/**
 * `folio backup FILE` (and, through writeArchive, `folio export FILE`): one archive of the
 * whole installation, written while a server may be serving it.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openInstance, sqlitePath } from '../instance';
import { backupInstallation } from '../transfer/backup';
import type { Source, TransferReport } from '../transfer/export';
import { isPostgres } from '../transfer/target';
import { configFrom, interruptible, UsageError, type Command } from './command';

type Writer = (source: Source, file: string, progress: (line: string) => void) => Promise<TransferReport>;

/** Opens the installation the flags name and writes an archive of it with `write`. */
export async function writeArchive(values: Record<string, unknown>, positionals: string[], write: Writer, what: string): Promise<number> {
  if (positionals.length === 0) throw new UsageError('Missing FILE (the archive to write, e.g. folio.tar.gz)');
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
  const file = resolve(positionals[0]!);
  const config = configFrom(values);
  // Opening would create an installation where there is none: a typo in --data must not back up an empty one.
  if (!isPostgres(config) && !existsSync(sqlitePath(config))) throw new Error(`No installation at ${sqlitePath(config)} (check --data)`);
  const instance = await openInstance(config);
  try {
    const source: Source = {
      db: instance.db,
      registry: instance.registry,
      secrets: instance.secrets,
      uploadsDir: config.uploadsDir,
      bucket: config.uploadsS3 ? instance.uploads.storage : undefined,
      sqliteFile: isPostgres(config) ? undefined : sqlitePath(config),
    };
    const report = await interruptible(() => write(source, file, (line) => console.log(line)));
    const rows = report.tables.reduce((n, t) => n + t.rows, 0);
    console.log(`done: ${what} ${file}: ${rows} rows in ${report.tables.length} tables, ${report.files} files`);
    return 0;
  } finally {
    instance.close();
  }
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'write a backup archive of this installation (safe while serving)',
  usage: `Usage: folio backup FILE

Writes one archive (tar, gzip) of the installation while it may be serving: SQLite: an
online copy of the database file (VACUUM INTO: writers are not held up), the secrets
(API-token salt, JWT secret) and the uploaded files; PostgreSQL: the portable archive of
"folio export". Restore it with "folio restore FILE --data DIR".`,
  options: {},
  run: ({ values, positionals }) => writeArchive(values, positionals, backupInstallation, 'backed up to'),
};
