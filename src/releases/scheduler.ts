/**
 * The release scheduler: while an instance serves, it looks every second for pending
 * releases whose time has come and publishes them (./service.ts publishDue), the first look
 * at start, so a server that was down at a release's time applies it when it starts. Every
 * instance on one database polls; the claim in the publishing transaction makes exactly one
 * of them publish each release (a lease in the database, not a timer per process).
 */
import type { Logger } from '../log';
import { Periodic } from '../periodic';
import type { Releases } from './service';

export const SCHEDULER_INTERVAL_MS = 1000;

export class ReleaseScheduler {
  private periodic: Periodic;

  constructor(releases: Releases, options: { intervalMs?: number; log?: Pick<Logger, 'info' | 'warn' | 'error'> } = {}) {
    const log = options.log;
    this.periodic = new Periodic(
      'release scheduling',
      async () => {
        const published = await releases.publishDue((name, failure) => log?.warn(`scheduled release "${name}" failed: ${failure.message}`, { release: name }));
        for (const name of published) log?.info(`scheduled release "${name}" published`, { release: name });
      },
      { intervalMs: options.intervalMs ?? SCHEDULER_INTERVAL_MS, firstMs: 0, log },
    );
  }

  start(): void {
    this.periodic.start();
  }

  stop(): void {
    this.periodic.stop();
  }

  /** One look now (tests, and a command that wants due releases applied). */
  runNow(): Promise<void> {
    return this.periodic.runNow();
  }
}
