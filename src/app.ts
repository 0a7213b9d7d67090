/**
 * The HTTP server of an opened installation: the content API (src/http/: REST, uploads,
 * GraphQL, the realtime feed) and Folio Admin (src/admin/) mounted side by side on one
 * root, whose request log, error envelope and security headers every route passes through.
 * A serving instance also works in the background (webhook deliveries, outbox pruning):
 * started here, stopped by instance.close(). `folio serve`, the library entry and the tests
 * build their servers here.
 */
import { adminRoutes } from './admin/server';
import { createHttpApp } from './http/app';
import type { Instance } from './instance';
import type { Logger } from './log';

export function createApp(instance: Instance, options: { precompile?: boolean; log?: Logger } = {}) {
  const app = createHttpApp(instance, options).use(adminRoutes(instance, options.log ?? instance.log));
  instance.start();
  return app;
}
