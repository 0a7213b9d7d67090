import { relative } from 'node:path';
import type { Config } from '../config';
import { createApp } from '../app';
import { openInstance, type Instance } from '../instance';
import { createLogger, type Logger } from '../log';
import { SchemaError } from '../registry/types';
import { configFrom, UsageError, type Command } from './command';
import { memoryHintError } from './memory-hint';
import { isCompiled } from './self';
import { writeExampleContent, type FirstStart } from './first-start';
import { VERSION } from '../version';
import { ProjectReloader } from '../project/reload';

/** A word as a POSIX shell reads it back unchanged: bare when safe, else single-quoted. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** A database URL with its password hidden: the start-up screen is a log, and logs are shared. */
function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * `folio COMMAND… FLAGS` as this Folio was started, so it can be pasted as it is: the
 * compiled binary by its path (Bun.main lives in its embedded file system), the source run
 * as the README writes it; then the flags that chose this installation.
 */
export function commandLine(command: string[], values: Record<string, unknown>): string {
  const pathFromHere = (path: string) => {
    const rel = relative(process.cwd(), path);
    return !rel || rel.startsWith('..') ? path : rel.includes('/') ? rel : `./${rel}`;
  };
  const words = [...(isCompiled() ? [pathFromHere(process.execPath)] : ['npx', 'bun', pathFromHere(Bun.main)]), ...command];
  for (const flag of ['data', 'content-types', 'project', 'database']) {
    const value = values[flag];
    if (typeof value === 'string') words.push(`--${flag}`, flag === 'database' ? maskedUrl(value) : value);
  }
  return words.map(shellWord).join(' ');
}

/** Routes of each content type, and what to run when no role may read anything yet. */
async function startupScreen(instance: Instance, log: Logger, values: Record<string, unknown>, firstStart?: FirstStart) {
  const json = log.format === 'json';
  const { contentTypes } = instance.registry;
  log.info(`Folio ${VERSION}: ${contentTypes.length} content type(s)`, json ? { version: VERSION } : undefined);
  const project = instance.config.project;
  if (project) {
    const used = project.used ?? [];
    const envCount = Object.keys(project.dotenv).length;
    if (json) log.info('project', { root: project.root, nodeEnv: project.nodeEnv, fromProject: used, dotenv: envCount });
    else {
      log.info(`Project ${project.root} (NODE_ENV=${project.nodeEnv}${envCount ? `, .env: ${envCount} variable(s)` : ''})`);
      if (used.length) log.info(`  from its config: ${used.join(', ')}`);
    }
  }
  const width = Math.max(0, ...contentTypes.map((ct) => ct.uid.length));
  for (const ct of contentTypes) {
    const routes =
      ct.kind === 'collectionType'
        ? [`GET|POST /api/${ct.pluralName}`, `GET|PUT|DELETE /api/${ct.pluralName}/:documentId`]
        : [`GET|PUT|DELETE /api/${ct.singularName}`];
    if (json) log.info('content type', { uid: ct.uid, kind: ct.kind, routes });
    else log.info(`  ${ct.uid.padEnd(width)}  ${routes.join('  ')}`);
  }
  await disabledWebhooksNotice(instance, log, values);
  if (firstStart) exampleContentNotice(log, values, firstStart);
  // A new installation grants the public and authenticated roles only account actions.
  const grants = await instance.roles.permissions();
  if (grants.some((g) => g.action.startsWith('api::'))) return;
  const first = contentTypes.find((ct) => ct.kind === 'collectionType') ?? contentTypes[0];
  const actions = first ? (first.kind === 'collectionType' ? ['find', 'findOne'] : ['find']).map((a) => `${first.uid}.${a}`) : [];
  const grant = commandLine(['permissions', 'grant', 'public', ...actions], values);
  const token = commandLine(['token', 'create', '--name', 'dev', '--type', 'full-access'], values);
  const message = 'No role grants any content action: every content route answers 403 until one does (or the caller sends an API token).';
  // Information, not a warning (stdout): a new installation is meant to start this way.
  if (json) {
    log.info(message, { grant, tokenCreate: token });
    return;
  }
  log.info(message);
  log.info(`  Let anyone read ${first?.pluralName ?? 'a type'}:  ${grant}`);
  log.info(`  Or create a token (send it as "Authorization: Bearer <key>"):  ${token}`);
}

/** What a first start wrote (cli/first-start.ts), and the command that takes the public grants back. */
function exampleContentNotice(log: Logger, values: Record<string, unknown>, first: FirstStart) {
  const written = Object.entries(first.counts).map(([type, n]) => (n === 1 && !type.endsWith('s') ? type : `${n} ${type}`));
  const message = `New installation of the example content types: wrote example content (${written.join(', ')}; English and French) and let the public role read it (find, findOne)`;
  const revoke = commandLine(first.revoke, values);
  if (log.format === 'json') {
    log.info(message, { exampleContent: first.counts, granted: first.granted, revoke });
    return;
  }
  log.info(message);
  log.info('  Try:  GET /api/articles?populate=*   GET /api/articles?locale=fr   the admin at /admin');
  log.info(`  Take the public grants back:  ${revoke}`);
}

/** Disabled webhooks (a restored or imported copy's are, until enabled): named, with the command that enables one. */
async function disabledWebhooksNotice(instance: Instance, log: Logger, values: Record<string, unknown>) {
  const disabled = (await instance.webhooks.list()).filter((w) => !w.enabled).map((w) => w.name);
  if (disabled.length === 0) return;
  const enable = commandLine(['webhook', 'enable', disabled[0]!], values);
  const message = `${disabled.length} webhook(s) disabled, sent nothing until enabled (a restored or imported copy starts so): ${disabled.join(', ')}`;
  if (log.format === 'json') log.info(message, { webhooksDisabled: disabled, enable });
  else {
    log.info(message);
    log.info(`  Enable one:  ${enable}`);
  }
}

/** Opens the installation, prints the start-up screen and listens; closes what it opened if that fails. */
async function start(config: Config, log: Logger, values: Record<string, unknown>) {
  const instance = await openInstance(config, { log });
  for (const warning of instance.registry.warnings) log.warn(`[folio] warning: ${warning}`);
  // Schema changes that could lose or hide data (db/schema-changes.ts): removed, renamed-looking, retyped attributes…
  for (const step of instance.syncPlan) if (step.warning) log.warn(`[folio] ${step.description}`);
  const changes = instance.syncPlan.filter((s) => s.sql).length;
  if (changes) log.info(`[folio] synced content tables: ${changes} change(s) (folio migrate --dry-run shows them)`);
  try {
    // The project's register and bootstrap run before the server listens, as in Strapi.
    await instance.project?.start();
    const firstStart = await writeExampleContent(instance);
    await startupScreen(instance, log, values, firstStart);
    return { app: listen(instance, log), instance };
  } catch (error) {
    instance.close();
    throw error;
  }
}

/**
 * The HTTP server of an opened installation on its configured port and host (0: a free one).
 * `folio serve` and the library entry (src/index.ts, startFolio) both start their server here.
 */
export function listen(instance: Instance, log: Logger) {
  const { port, host } = instance.config;
  try {
    // Routes compile on their first request (under 1 ms each); precompiling them all added
    // ~27 ms to every cold start (bench: 70 → 43 ms median to the first /_health).
    // Elysia asks Bun for SO_REUSEPORT by default, which let a second `folio serve` share a
    // port already in use and split the traffic with the first, silently. Not here: fail.
    return createApp(instance, { precompile: false, log }).listen({ port, hostname: host, reusePort: false });
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') throw new Error(`Port ${port} on ${host} is already in use`);
    throw error;
  }
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the API server',
  usage: `Usage: folio serve [--port 1337] [--host 127.0.0.1] [--log-format text|json] [--watch]

Starts the content API and logs one line per request (method, path without the query
string, status, duration, bytes). With --watch, a Strapi project's code (its src/, config/
and .env) is reloaded in the running server when a file changes (as folio develop does).
Env: PORT, HOST, FOLIO_BODY_LIMIT (bytes, default 1048576),
FOLIO_LOG_FORMAT (text or json: every line one JSON object), FOLIO_LOG_LEVEL (debug, info,
warn, error; default info), FOLIO_MEMORY_HINT_MB (memory the garbage collector sizes itself
for, default 256; a hint, not a limit; 0: the machine's RAM).`,
  options: { port: { type: 'string', short: 'p' }, host: { type: 'string' }, 'log-format': { type: 'string' }, watch: { type: 'boolean' } },
  run: (args) => runServe(args, { watch: args.values.watch === true }),
};

/** `folio serve`, and `folio develop` (serve --watch). */
export async function runServe(
  { values, positionals }: { values: Record<string, unknown>; positionals: string[] },
  options: { watch: boolean },
): Promise<number> {
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  const logFormat = values['log-format'] as string | undefined;
  if (logFormat !== undefined && logFormat !== 'text' && logFormat !== 'json') throw new UsageError('--log-format must be text or json');
  const badHint = memoryHintError();
  if (badHint) throw new UsageError(badHint);
  const config = configFrom(values, { port: values.port as string | undefined, host: values.host as string | undefined, logFormat });
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(config, log, values);
  } catch (error) {
    // With JSON logs, a failed start is a JSON line too (a collector would drop plain text);
    // in text mode main.ts prints it as for every command.
    if (log.format !== 'json') throw error;
    log.error(error instanceof SchemaError ? `Invalid content type: ${error.message}` : ((error as Error).message ?? String(error)));
    return 1;
  }
  const { app, instance } = started;
  const url = `http://${config.host}:${app.server!.port}`;
  log.info(`Folio listening on ${url}`, log.format === 'json' ? { url } : undefined);
  let reloader: ProjectReloader | undefined;
  if (options.watch) {
    if (instance.project) {
      reloader = new ProjectReloader(instance, log).watch();
      log.info(`Watching ${instance.project.project.root} for changes to the project's code`);
    } else log.warn('--watch: no Strapi project to watch (a folder of schemas runs no code)');
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  reloader?.close();
  await app.stop();
  await instance.project?.stop();
  instance.close();
  return 0;
}
