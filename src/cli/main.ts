/**
 * `folio <command>`: the same commands from source (`bun src/cli.ts …`) and from the
 * compiled binary. Every command takes --data and --content-types; a missing argument
 * prints the usage and exits with 2, a wrong flag one line naming it (and the help to read).
 */
import { parseArgs } from 'node:util';
import { COMMON_OPTIONS, flagProblem, UsageError, type Command } from './command';
import { noContentTypes, noContentTypesHelp, startHere } from './start-here';
import { SchemaError } from '../registry/types';
import { FolioError } from '../errors';
import { initCommand } from './init';
import { adminCommand } from './admin';
import { copyCommand } from './copy';
import { backupCommand } from './backup';
import { exportCommand } from './export';
import { restoreCommand } from './restore';
import { importCommand } from './import';
import { localesCommand } from './locales';
import { migrateCommand } from './migrate';
import { permissionsCommand } from './permissions';
import { serveCommand } from './serve';
import { developCommand } from './develop';
import { consoleCommand } from './console';
import { tokenCommand } from './token';
import { VERSION } from '../version';
import { roleCommand, userCommand } from './users';
import { webhookCommand } from './webhook';
import { openapiCommand } from './openapi';
import { graphqlSchemaCommand } from './graphql-schema';
import { typesCommand } from './types';
import { historyCommand } from './history';
import { auditCommand } from './audit';
import { releaseCommand } from './release';
import { seedCommand } from './seed';

const COMMON_USAGE = `Options for every command:
  --data DIR            data directory (database, secrets, uploads); env FOLIO_DATA; default ./data
  --content-types DIR   content-type schemas; env FOLIO_CONTENT_TYPES; default ./content-types
                        (a Strapi project's root or src: its config and code run too)
  --project DIR         a Strapi project (root or src), as --content-types DIR
  --database URL        postgres://user:pass@host:port/db for PostgreSQL, or sqlite:PATH;
                        env DATABASE_URL; default SQLite in the data directory
  --uploads DIR         uploaded files (share it between instances); env FOLIO_UPLOADS;
                        default <data>/uploads
  -h, --help            show help`;

const commands: Command[] = [
  serveCommand,
  developCommand,
  consoleCommand,
  migrateCommand,
  localesCommand,
  permissionsCommand,
  tokenCommand,
  userCommand,
  roleCommand,
  initCommand,
  importCommand,
  copyCommand,
  backupCommand,
  restoreCommand,
  exportCommand,
  webhookCommand,
  adminCommand,
  openapiCommand,
  graphqlSchemaCommand,
  typesCommand,
  historyCommand,
  auditCommand,
  releaseCommand,
  seedCommand,
];

function mainUsage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Folio: a headless content API speaking the Strapi v5 REST dialect.

Usage: folio <command> [options]
       folio --version

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

${COMMON_USAGE}

Run "folio <command> --help" for a command's options.`;
}

const commandUsage = (command: Command) => `${command.usage}\n\n${COMMON_USAGE}`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(VERSION);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(mainUsage());
    const hint = name ? '' : startHere();
    if (hint) console.log(hint);
    return name ? 0 : 2;
  }
  let command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${mainUsage()}`);
    return 2;
  }
  // A sub-command with flags and help of its own (`folio import strapi --help`).
  const sub = command.subcommands?.find((c) => c.name === `${command!.name} ${rest[0]}`);
  const args = sub ? rest.slice(1) : rest;
  if (sub) command = sub;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${flagProblem(error)}; see: folio ${command.name} --help`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(commandUsage(command));
    return 0;
  }
  try {
    return (await command.run(parsed as { values: Record<string, unknown>; positionals: string[] })) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${commandUsage(command)}`);
      return 2;
    }
    if (error instanceof SchemaError && noContentTypes(error)) console.error(noContentTypesHelp(error.file));
    else if (error instanceof SchemaError) console.error(`Invalid content type: ${error.message}`);
    else if (error instanceof FolioError || error instanceof Error) console.error(`Error: ${error.message}`);
    else console.error(error);
    return 1;
  }
}
