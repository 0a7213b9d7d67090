/**
 * The HTTP application: error envelope, system routes and one plugin per content type.
 * Pure wiring; `serve` listens with it and tests call it directly.
 */
import { Elysia } from 'elysia';
import { NotFoundError } from '../errors';
import type { Instance } from '../instance';
import { contentRoutes } from './routes/content';
import { systemRoutes } from './routes/system';
import { MULTIPART_OVERHEAD, uploadRoutes } from './routes/upload';
import { usersPermissionsRoutes } from './routes/users-permissions';
import { securityHeaders } from './security';
import { errorResponse, fromError } from './respond';

export function createApp(instance: Instance, options: { precompile?: boolean } = {}) {
  const app = new Elysia({
    normalize: false,
    precompile: options.precompile ?? false,
    // Bun's own limit only backs ours up: our checks (JSON bodies, uploads) answer 413 with the envelope first.
    serve: {
      maxRequestBodySize: Math.max(instance.config.bodyLimit * 2, 16 * 1024 * 1024, instance.config.uploadLimit + 2 * MULTIPART_OVERHEAD),
    },
  })
    .onError({ as: 'global' }, ({ code, error }) => {
      if (code === 'NOT_FOUND') return fromError(new NotFoundError());
      if (code === 'PARSE') return errorResponse(400, 'ValidationError', 'Invalid request body');
      if (code === 'VALIDATION') return errorResponse(400, 'ValidationError', 'Invalid request');
      return fromError(error);
    })
    .use(securityHeaders(instance.config.corsOrigins))
    .use(systemRoutes(instance))
    .use(usersPermissionsRoutes(instance));
  for (const ct of instance.registry.contentTypes) app.use(contentRoutes(instance, ct));
  app.use(uploadRoutes(instance));
  return app;
}
