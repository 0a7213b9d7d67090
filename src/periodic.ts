/**
 * Background work run again and again while an instance serves (the composition root starts
 * and stops it): one round at a time, the next `intervalMs` after the last one ended, the
 * first `firstMs` after start. A failed round is logged and the next one comes all the same.
 * Its timer never keeps a process alive on its own.
 */
import type { Logger } from './log';

export class Periodic {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private running: Promise<void> | undefined;

  constructor(
    private what: string,
    private round: () => Promise<unknown>,
    private options: { intervalMs: number; firstMs?: number; log?: Pick<Logger, 'error'> },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(this.options.firstMs ?? this.options.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Runs a round now (unless one is running: then waits for it). */
  runNow(): Promise<void> {
    return (this.running ??= this.run().finally(() => (this.running = undefined)));
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runNow().then(() => {
        if (!this.stopped && !this.timer) this.schedule(this.options.intervalMs);
      });
    }, ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async run(): Promise<void> {
    try {
      await this.round();
    } catch (error) {
      if (!this.stopped) this.options.log?.error(`${this.what} failed`, { error });
    }
  }
}
