/**
 * `folio restore FILE --data DIR [--database URL] [--force]`, and `folio import ARCHIVE`
 * (import.ts hands archives here): recreates an installation from a backup or an export.
 */
import { existsSync, statSync } from 'node:fs';
import { SYSTEM } from '../db/layout';
import { restoreArchive } from '../transfer/restore';
import { registryOf } from '../instance';
import { configFrom, interruptible, UsageError, type Command } from './command';

/** Restores `file` into the installation the flags name; prints a summary. */
export async function restoreFromArchive(file: string, values: Record<string, unknown>): Promise<number> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`Cannot read "${file}": no such file`);
  const config = configFrom(values);
  const registry = registryOf(config);
  const report = await interruptible(() => restoreArchive(file, { config, registry, force: !!values.force, progress: (line) => console.log(line) }));
  const rows = report.tables.reduce((n, t) => n + t.rows, 0);
  const where = config.databaseUrl && !config.databaseUrl.startsWith('sqlite:') ? 'the PostgreSQL database' : config.dataDir;
  console.log(
    `done: restored ${report.manifest.kind === 'export' ? 'an export' : 'a SQLite backup'} of Folio ${report.manifest.folioVersion} (${report.manifest.engine}, ${report.manifest.createdAt}) into ${where}: ` +
      `${rows} rows in ${report.tables.length} tables, ${report.files} files; counts checked`,
  );
  const webhooks = report.manifest.tables.find((t) => t.name === SYSTEM.webhooks)?.rows ?? 0;
  if (webhooks > 0) {
    console.log(
      `webhooks: ${webhooks}, all disabled so this copy does not call the source's receivers; "folio webhook list" shows them, "folio webhook enable NAME" turns one on`,
    );
  }
  return 0;
}

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'recreate an installation from a backup or export archive',
  usage: `Usage: folio restore FILE --data DIR [--database URL] [--force]

Recreates a working installation from an archive made by "folio backup" or "folio export":
the database (ids, documentIds, users, roles, API tokens), the secrets that keep API
tokens and user sessions valid, and the uploaded files. The target (the SQLite file in
DIR, or the --database PostgreSQL database) must be empty unless --force, which replaces
it. Everything is checked (row counts per table) before the restore is put in place; a
damaged or truncated archive is an error and leaves the target as it was. The content
types (--content-types) must be the source's. The webhooks come disabled (a copy must not
call the source's receivers): "folio webhook enable NAME" turns each back on.`,
  options: { force: { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('Missing FILE (an archive made by folio backup or folio export)');
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    if (!values.data) throw new UsageError('Missing --data DIR (where the installation is recreated)');
    return restoreFromArchive(positionals[0]!, values);
  },
};
