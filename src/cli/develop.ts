/**
 * `folio develop`: `folio serve --watch`, as `strapi develop` is for a project: its code is
 * reloaded in the running server when a file of it changes (project/reload.ts).
 */
import type { Command } from './command';
import { runServe, serveCommand } from './serve';

export const developCommand: Command = {
  name: 'develop',
  summary: "start the API server and reload the project's code when it changes",
  usage: `Usage: folio develop [--port 1337] [--host 127.0.0.1] [--log-format text|json]

folio serve --watch: serves a Strapi project (--project DIR, or --content-types <project root>)
and reloads its code (src/, config/, .env) within a second of a change, keeping the database,
its data and open connections. A file that fails to load is reported with its file and line,
and the previous code keeps serving. Changes to schemas take effect on a restart.`,
  options: { ...serveCommand.options },
  run: (args) => runServe(args, { watch: true }),
};
