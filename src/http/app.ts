/**
 * The content API over HTTP: the server's root (request log, error envelope, security
 * headers, ETags, which every route of the server passes through, Folio Admin's included),
 * system routes, one plugin per content type, uploads, GraphQL and the realtime feed. Pure
 * wiring; src/app.ts mounts Folio Admin beside it and starts the instance's background work.
 */
import http from 'node:http';
import { Elysia } from 'elysia';
import { NotFoundError } from '../errors';
import type { Instance } from '../instance';
import { guard, identify } from './guard';
import { authRoutes } from './routes/auth';
import { actionRoutes } from './routes/actions';
import { contentRoutes, type CoreHandler, type ProjectRouting } from './routes/content';
import { rolesRoutes } from './routes/roles';
import { realtimeRoutes } from './routes/realtime';
import { systemRoutes } from './routes/system';
import { MULTIPART_OVERHEAD, uploadRoutes } from './routes/upload';
import { usersRoutes } from './routes/users';
import { graphqlRoutes } from './routes/graphql';
import { projectAnswer, projectGlobalMiddlewares, projectRoutes } from './routes/project';
import { MAX_URL_LENGTH, securityHeaders, urlLimitUnder } from './security';
import { homeRoutes } from './routes/home';
import { errorResponse, fromError } from './respond';
import { tagContentResponse } from './etag';
import { requestIdOf, requestLog } from './request-log';
import { createLogger, type Logger } from '../log';
import { atRequestStart } from '../db/read-horizon';

/**
 * Bun refuses a request whose head (request line and headers) exceeds 16 KiB with a bare 431
 * and no body, before any of our code runs. Raising that process-wide limit (Bun.serve has no
 * per-server option; node:http's setter drives it) lets URLs up to MAX_URL_LENGTH, and a bit
 * beyond, reach our own check, which answers 414 with the envelope. Only ever raised.
 */
export const MAX_REQUEST_HEAD = 4 * MAX_URL_LENGTH;

/** Raises Bun's head limit; answers the limit in effect, which Folio's URL limit stays below (security.ts urlLimitUnder). */
function raiseHeaderLimit(): number {
  if (http.maxHeaderSize < MAX_REQUEST_HEAD) (http as { maxHeaderSize: number }).maxHeaderSize = MAX_REQUEST_HEAD;
  return http.maxHeaderSize;
}

/**
 * `log` gets a line per request (serve passes the configured logger); without one, as in
 * tests that build the app directly, only unexpected errors are logged.
 */
export function createHttpApp(instance: Instance, options: { precompile?: boolean; log?: Logger } = {}) {
  const maxUrlLength = urlLimitUnder(raiseHeaderLimit());
  const log = options.log ?? createLogger({ level: 'warn', format: instance.config.logFormat });
  // Every route family authenticates through this one guard (and authorizes its action, or per item).
  const allow = guard(instance);
  const who = identify(instance);
  /** The listening server, once there is one (the client's address for project code). */
  const served: { server?: { requestIP?(r: Request): { address: string } | null } } = {};
  const app = new Elysia({
    normalize: false,
    precompile: options.precompile ?? false,
    // Bun's own limit only backs ours up: our checks (JSON bodies, uploads) answer 413 with the envelope first.
    serve: {
      maxRequestBodySize: Math.max(instance.config.bodyLimit * 2, 16 * 1024 * 1024, instance.config.uploadLimit + 2 * MULTIPART_OVERHEAD),
    },
  })
    // Elysia's hook around its whole fetch handler: every answer (404s, errors, answers given
    // before routing) passes through it, which no lifecycle hook guarantees.
    // A project's own global middlewares (config/middlewares) wrap every route but the admin's, as Strapi's wrap its app.
    // Each request runs with the time it began: no marker read sent before it is reused for it (db/read-horizon.ts).
    .wrap((fetch) => {
      const handle = requestLog(log)(projectGlobalMiddlewares(instance, () => served.server)(fetch) as (...args: unknown[]) => unknown);
      return (request: Request) => atRequestStart(() => handle(request));
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      if (code === 'NOT_FOUND') error = new NotFoundError();
      if (code === 'PARSE') return errorResponse(400, 'ValidationError', 'Invalid request body');
      if (code === 'VALIDATION') return errorResponse(400, 'ValidationError', 'Invalid request');
      return fromError(error, (e) => log.error('unexpected error', { requestId: requestIdOf(request), error: e }));
    })
    .onAfterHandle({ as: 'global' }, ({ request, responseValue, set }) => tagContentResponse(request, responseValue, set.headers.vary))
    .use(securityHeaders(instance.config.corsOrigins, maxUrlLength));
  // A project's routes are looked up at request time (a reload in development swaps the project):
  // a content type's paths ask it first, every other path under the API prefix goes to it.
  Object.defineProperty(served, 'server', { get: () => app.server ?? undefined });
  const server = () => served.server;
  const core = new Map<string, CoreHandler>();
  // users-permissions' routes of Folio's own, without the project in front: what the plugin's
  // built-in controller actions answer through when project code calls them (project/endpoint.ts ownAction).
  const own = instance.project ? ownPluginRoutes(instance, allow, server, log) : undefined;
  const routing: ProjectRouting | undefined = instance.project
    ? { answer: (request) => projectAnswer(instance, request, server, core, own), serves: (uid, action) => instance.project?.serves(uid, action) ?? true, core }
    : undefined;
  // An extension's replaced action (src/extensions/users-permissions) answers before Folio's route.
  const first = routing?.answer;
  app
    .use(systemRoutes(instance, allow))
    .use(authRoutes(instance, allow, first))
    .use(usersRoutes(instance, allow, first))
    .use(rolesRoutes(instance, allow, first));
  for (const ct of instance.registry.contentTypes) {
    app.use(contentRoutes(instance, ct, allow, routing)).use(actionRoutes(instance, ct, allow));
  }
  if (instance.project) app.use(projectRoutes(instance, instance.project, server, own));
  app.use(uploadRoutes(instance, allow));
  app.use(graphqlRoutes(instance, who));
  app.use(realtimeRoutes(instance, who));
  app.use(homeRoutes(instance));
  return app;
}

/** The users-permissions routes alone, answering errors in the envelope, their client address the server's. */
function ownPluginRoutes(
  instance: Instance,
  allow: ReturnType<typeof guard>,
  server: () => { requestIP?(r: Request): { address: string } | null } | undefined,
  log: Logger,
) {
  const app = new Elysia({ normalize: false })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      if (code === 'NOT_FOUND') error = new NotFoundError();
      if (code === 'PARSE') return errorResponse(400, 'ValidationError', 'Invalid request body');
      if (code === 'VALIDATION') return errorResponse(400, 'ValidationError', 'Invalid request');
      return fromError(error, (e) => log.error('unexpected error', { requestId: requestIdOf(request), error: e }));
    })
    .use(authRoutes(instance, allow))
    .use(usersRoutes(instance, allow))
    .use(rolesRoutes(instance, allow));
  // Its routes ask the listening server for the client's address (rate limits, audit): the
  // address of the request the project received, which the one made for them stands for.
  const received = new WeakMap<Request, Request>();
  const requestIP = (r: Request) => server()?.requestIP?.(received.get(r) ?? r) ?? null;
  (app as unknown as { getServer: () => unknown }).getServer = () => (server() ? { requestIP } : null);
  return (request: Request, from: Request) => {
    received.set(request, from);
    return app.handle(request);
  };
}
