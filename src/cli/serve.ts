import { createApp } from '../http/app';
import { openInstance } from '../instance';
import { configFrom, UsageError, type Command } from './command';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the API server',
  usage: `Usage: folio serve [--port 1337] [--host 127.0.0.1]

Starts the content API. Env: PORT, HOST, FOLIO_BODY_LIMIT (bytes, default 1048576).`,
  options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } },
  async run({ values, positionals }) {
    if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
    const config = configFrom(values, { port: values.port as string | undefined, host: values.host as string | undefined });
    const instance = await openInstance(config);
    for (const warning of instance.registry.warnings) console.error(`[folio] warning: ${warning}`);
    const changes = instance.syncPlan.filter((s) => s.sql).length;
    if (changes) console.log(`[folio] synced content tables: ${changes} change(s) (folio migrate --dry-run shows them)`);
    // Routes compile on their first request (under 1 ms each); precompiling them all added
    // ~27 ms to every cold start (bench: 70 → 43 ms median to the first /_health).
    let app: ReturnType<typeof createApp>;
    try {
      // Elysia asks Bun for SO_REUSEPORT by default, which let a second `folio serve` share a
      // port already in use and split the traffic with the first, silently. Not here: fail.
      app = createApp(instance, { precompile: false }).listen({ port: config.port, hostname: config.host, reusePort: false });
    } catch (error) {
      instance.close();
      if ((error as { code?: string }).code === 'EADDRINUSE') throw new Error(`Port ${config.port} on ${config.host} is already in use`);
      throw error;
    }
    const url = `http://${config.host}:${app.server!.port}`;
    console.log(`Folio listening on ${url}`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await app.stop();
    instance.close();
    return 0;
  },
};
