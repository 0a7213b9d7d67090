/**
 * `folio import strapi SOURCE`: moves a Strapi 5 project or a `strapi export` archive (schemas,
 * content with every version and locale, components, relations in order, media files, users,
 * roles, API tokens, locales) into a new installation. Dispatched from `folio import` (src/cli/import.ts).
 */
import { formatReport, importStrapi } from '../transfer/strapi/import';
import { StrapiImportError } from '../transfer/strapi/source';
import { configFrom, interruptible, UsageError, type Command } from './command';

export const importStrapiCommand: Command = {
  name: 'import strapi',
  summary: 'import a Strapi 5 project or strapi export archive (schemas, content, files, users, tokens)',
  usage: `Usage: folio import strapi SOURCE [--data DIR] [--content-types DIR] [--database URL] [--dry-run] [--force]

SOURCE is a Strapi 5 (or 4) project directory (schemas from src/, files from public/uploads, data
from the database its .env names: SQLite, default .tmp/data.db, or PostgreSQL through
DATABASE_URL or DATABASE_HOST/PORT/NAME/USERNAME/PASSWORD/SCHEMA), or an archive made by
"strapi export --no-encrypt" (.tar.gz or .tar; it holds no API tokens or secrets). Writes the
schemas into --content-types (Folio's layout) and the data into the installation of --data
/ --database, keeping ids, documentIds, every draft and published version, locales,
relation order, components, dynamic zones, media, users (same passwords), roles and
permissions, and API tokens (the project's API_TOKEN_SALT becomes the installation's).
One transaction with every count checked: it imports everything or nothing.

  --dry-run   read and map everything, print the counts, write nothing
  --force     replace the content of an installation that is not empty`,
  options: { 'dry-run': { type: 'boolean' }, force: { type: 'boolean' } },
  async run({ values, positionals }) {
    if (positionals.length === 0) throw new UsageError('Missing SOURCE (a Strapi project directory or a strapi export archive)');
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    const dryRun = !!values['dry-run'];
    try {
      const report = await interruptible(() => importStrapi({ source: positionals[0]!, config: configFrom(values), dryRun, force: !!values.force }));
      console.log(formatReport(report, dryRun));
      return 0;
    } catch (error) {
      if (!(error instanceof StrapiImportError)) throw error;
      console.error(`Error: ${error.message}`);
      console.error('Nothing was imported.');
      return 1;
    }
  },
};
