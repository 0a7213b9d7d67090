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
import { contentRoutes } from './routes/content';
import { rolesRoutes } from './routes/roles';
import { realtimeRoutes } from './routes/realtime';
import { systemRoutes } from './routes/system';
import { MULTIPART_OVERHEAD, uploadRoutes } from './routes/upload';
import { usersRoutes } from './routes/users';
import { graphqlRoutes } from './routes/graphql';
import { projectRoutes } from './routes/project';
import { homeRoutes } from './routes/home';
import { MAX_URL_LENGTH, securityHeaders } from './security';
import { errorResponse, fromError } from './respond';
import { tagContentResponse } from './etag';
import { requestIdOf, requestLog } from './request-log';
import { createLogger, type Logger } from '../log';

/**
 * Bun refuses a request whose head (request line and headers) exceeds 16 KiB with a bare 431
 * and no body, before any of our code runs. Raising that process-wide limit (Bun.serve has no
 * per-server option; node:http's setter drives it) lets URLs up to MAX_URL_LENGTH, and a bit
 * beyond, reach our own check, which answers 414 with the envelope. Only ever raised.
 */
export const MAX_REQUEST_HEAD = 4 * MAX_URL_LENGTH;

function raiseHeaderLimit() {
  if (http.maxHeaderSize < MAX_REQUEST_HEAD) (http as { maxHeaderSize: number }).maxHeaderSize = MAX_REQUEST_HEAD;
}

/**
 * `log` gets a line per request (serve passes the configured logger); without one, as in
 * tests that build the app directly, only unexpected errors are logged.
 */
export function createHttpApp(instance: Instance, options: { precompile?: boolean; log?: Logger } = {}) {
  raiseHeaderLimit();
  const log = options.log ?? createLogger({ level: 'warn', format: instance.config.logFormat });
  // Every route family authenticates through this one guard (and authorizes its action, or per item).
  const allow = guard(instance);
  const who = identify(instance);
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
    .wrap(requestLog(log))
    .onError({ as: 'global' }, ({ code, error, request }) => {
      if (code === 'NOT_FOUND') error = new NotFoundError();
      if (code === 'PARSE') return errorResponse(400, 'ValidationError', 'Invalid request body');
      if (code === 'VALIDATION') return errorResponse(400, 'ValidationError', 'Invalid request');
      return fromError(error, (e) => log.error('unexpected error', { requestId: requestIdOf(request), error: e }));
    })
    .onAfterHandle({ as: 'global' }, ({ request, responseValue, set }) => tagContentResponse(request, responseValue, set.headers.vary))
    .use(securityHeaders(instance.config.corsOrigins))
    .use(systemRoutes(instance, allow))
    .use(authRoutes(instance, allow))
    .use(usersRoutes(instance, allow))
    .use(rolesRoutes(instance, allow));
  const project = instance.project;
  // A project's routes first: core routes it serves itself are left out of Folio's own (project/app.ts builtIn).
  if (project) app.use(projectRoutes(instance, project, () => app.server ?? undefined));
  for (const ct of instance.registry.contentTypes) {
    app.use(contentRoutes(instance, ct, allow, project ? project.builtIn.get(ct.uid) ?? new Set() : undefined)).use(actionRoutes(instance, ct, allow));
  }
  app.use(uploadRoutes(instance, allow));
  app.use(graphqlRoutes(instance, who));
  app.use(realtimeRoutes(instance, who));
  app.use(homeRoutes(instance));
  return app;
}
