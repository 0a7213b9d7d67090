/**
 * `folio console`: `strapi console` for a project served by Folio: the project is loaded (its
 * register and bootstrap run, no server listens, no cron task runs) and a REPL opens with
 * `strapi` bound (top-level await works): `await strapi.documents('api::article.article').findMany()`.
 * `.exit` (or end of input) runs the project's destroy and closes the installation.
 */
import repl from 'node:repl';
import { openInstance } from '../instance';
import { createLogger } from '../log';
import { configFrom, UsageError, type Command } from './command';

export const consoleCommand: Command = {
  name: 'console',
  summary: "open a REPL with a Strapi project's strapi object",
  usage: `Usage: folio console --project DIR

Loads a Strapi project's code (register, then bootstrap) on its installation and opens a REPL
with \`strapi\` bound, as strapi console does. No server listens and no cron task runs.`,
  options: {},
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const config = configFrom(values);
    if (!config.project) throw new UsageError('folio console opens a Strapi project: give --project DIR (or --content-types <project root>)');
    const instance = await openInstance(config, { log: createLogger({ level: 'warn', format: config.logFormat }) });
    try {
      const project = instance.project!;
      await project.start();
      const session = repl.start({ prompt: 'strapi > ', useGlobal: false });
      session.context.strapi = project.strapi;
      await new Promise<void>((resolve) => session.on('exit', () => resolve()));
      await project.stop();
    } finally {
      instance.close();
    }
    return 0;
  },
};
