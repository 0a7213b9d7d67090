import { copyToPostgres } from '../db/copy';
import { PostgresDatabase } from '../db/postgres';
import { openInstance, sqlitePath } from '../instance';
import { configFrom, UsageError, type Command } from './command';

export const copyCommand: Command = {
  name: 'copy',
  summary: 'copy this SQLite installation into a PostgreSQL database',
  usage: `Usage: folio copy --to postgres://user:pass@host:port/db [--force]

Copies every table of the SQLite installation (content, links, components, files
metadata, users, roles, tokens, and the secrets that keep tokens and JWTs valid) into an
empty PostgreSQL database, keeping ids. Refuses a target that already holds data unless
--force (which replaces it). Counts are checked afterwards. Uploaded files stay where they
are: point every instance's --uploads at that directory.`,
  options: { to: { type: 'string' }, force: { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const to = values.to as string | undefined;
    if (!to || !/^postgres(ql)?:\/\//.test(to)) throw new UsageError('--to must be a postgres:// URL');
    const config = configFrom(values);
    if (config.databaseUrl && !config.databaseUrl.startsWith('sqlite:')) throw new UsageError('The source must be a SQLite installation');
    // Opening the source brings it up to date with the content types first.
    const source = await openInstance(config);
    const sourcePath = sqlitePath(config);
    const { registry, secrets } = source;
    source.close();
    const target = new PostgresDatabase(to);
    try {
      let last = 0;
      const report = await copyToPostgres(
        sourcePath,
        target,
        registry,
        { ...secrets },
        {
          force: !!values.force,
          progress: (line) => {
            // One line a second at most; a TTY gets it rewritten in place.
            if (Date.now() - last < 1000) return;
            last = Date.now();
            console.log(line);
          },
        },
      );
      for (const r of report) console.log(`copied ${r.table}: ${r.rows} rows`);
      console.log(`done: ${report.reduce((n, r) => n + r.rows, 0)} rows in ${report.length} tables; counts checked`);
    } finally {
      target.close();
    }
  },
};
