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
import { createLogger, type Logger } from './log';

/**
 * `log` gets a line per request and the start-up information (serve passes the configured
 * logger); without one, as in tests that build the app directly, only warnings and errors.
 */
export function createApp(instance: Instance, options: { precompile?: boolean; log?: Logger } = {}) {
  const log = options.log ?? createLogger({ level: 'warn', format: instance.config.logFormat });
  const app = createHttpApp(instance, { ...options, log }).use(adminRoutes(instance, log));
  instance.start();
  return app;
}
