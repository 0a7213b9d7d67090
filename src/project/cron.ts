/**
 * `strapi.cron`: Strapi 5's cron service, on the same scheduler Strapi uses (croner, with
 * Strapi's options: `sloppyRanges`, a `tz`). Tasks are `{ '<rule>': fn }` or
 * `{ name: { task: fn, options: { rule, tz, start, end } } }` (or `options: '<rule>'`); rules
 * have 5 fields, or 6 with seconds first (7 with years), or are a Date or a time (once).
 * `server.cron.tasks` are added when `server.cron.enabled` is true, `strapi.cron.add` any time;
 * a task runs as `fn({ strapi }, fireDate)`, a failure is logged.
 *
 * Several instances on PostgreSQL each schedule every task, and each tick runs once across
 * them, which Strapi itself does not do: at a tick each instance inserts the row (task, tick)
 * into folio_cron_ticks, and only the one whose insert went in runs it (db/store/cron-ticks.ts).
 * The tick is the scheduled time, the same everywhere (a pattern fires on wall-clock times).
 * On SQLite one process serves an installation: tasks simply run.
 *
 * The composition root starts it (instance.start(): nothing runs in CLI commands) and stops it
 * (the project's stop, on instance.close()).
 */
import { hostname } from 'node:os';
import { Cron } from 'croner';
import type { Database } from '../db/database';
import { claimTick, pruneTicks } from '../db/store/cron-ticks';
import type { ProjectStrapi } from './strapi';

type Obj = Record<string, any>;
type TaskFn = (cfg: { strapi: ProjectStrapi }, fireDate: Date) => unknown;

/** How long ran ticks are remembered, and how often they are pruned. */
const KEEP_TICKS_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface CronJobSpec {
  job: Cron & { cancel(): boolean; nextInvocation(): Date | null; invoke(): Promise<unknown> };
  options: unknown;
  name: string | null;
}

/** Strapi's rule forms → croner's pattern and options. */
function cronerArgs(options: unknown): { pattern: string | Date; croner: Obj } {
  if (typeof options === 'number' || options instanceof Date) return { pattern: new Date(options), croner: { maxRuns: 1 } };
  if (typeof options === 'string') return { pattern: options, croner: {} };
  if (options && typeof options === 'object' && 'rule' in options) {
    const { rule, tz, start, end } = options as Obj;
    const croner: Obj = {};
    if (tz) croner.timezone = tz;
    if (start != null) croner.startAt = new Date(start);
    if (end != null) croner.stopAt = new Date(end);
    if (typeof rule === 'number' || rule instanceof Date) return { pattern: new Date(rule), croner: { ...croner, maxRuns: 1 } };
    if (typeof rule === 'string') return { pattern: rule, croner };
  }
  throw new Error('Unsupported cron schedule');
}

export class ProjectCron {
  private specs: CronJobSpec[] = [];
  private running = false;
  private lastPrune = 0;
  private readonly runner = `${hostname()}:${process.pid}`;
  /** Registrations per task key, so two tasks under one key stay two tasks. */
  private keys = new Map<string, number>();

  constructor(
    private strapi: ProjectStrapi,
    private db: Database,
  ) {}

  /** Adds tasks (`{ rule: fn }` or `{ name: { task, options } }`); one that cannot be scheduled is logged and left out, as in Strapi. */
  add(tasks: Obj = {}): this {
    for (const key of Object.keys(tasks)) {
      const value = tasks[key];
      let fn: TaskFn;
      let options: unknown;
      let name: string | null;
      if (typeof value === 'function') {
        fn = value.bind(tasks);
        options = key;
        name = null;
      } else if (value && typeof value.task === 'function') {
        fn = value.task.bind(value);
        options = value.options;
        name = key;
      } else throw new Error(`Could not schedule a cron job for "${key}": no function found.`);
      const label = name ?? key;
      const n = (this.keys.get(label) ?? 0) + 1;
      this.keys.set(label, n);
      const id = n === 1 ? label : `${label}#${n}`;
      try {
        const { pattern, croner } = cronerArgs(options);
        this.specs.push({ job: this.schedule(pattern, croner, fn, label, id), options, name });
      } catch (error) {
        this.strapi.log.error(`Could not schedule cron job "${label}": invalid schedule`, error);
      }
    }
    return this;
  }

  /** Stops and forgets the tasks added under `name`. */
  remove(name: string): this {
    if (!name) throw new Error('You must provide a name to remove a cron job.');
    for (const spec of this.specs) if (spec.name === name) spec.job.stop();
    this.specs = this.specs.filter((spec) => spec.name !== name);
    return this;
  }

  start(): this {
    this.running = true;
    for (const { job } of this.specs) job.resume();
    return this;
  }

  stop(): this {
    this.running = false;
    for (const { job } of this.specs) job.pause();
    return this;
  }

  /** Stops every task and forgets them all. */
  destroy(): this {
    this.stop();
    for (const { job } of this.specs) job.stop();
    this.specs = [];
    this.keys.clear();
    return this;
  }

  get jobs(): CronJobSpec[] {
    return this.specs;
  }

  private schedule(pattern: string | Date, options: Obj, fn: TaskFn, label: string, id: string): CronJobSpec['job'] {
    // The scheduled time of the coming run: the tick's identity, the same on every instance.
    let next: Date | null = null;
    const job = new Cron(pattern, { paused: !this.running, sloppyRanges: true, ...options }, async (self: Cron) => {
      const fireDate = next ?? self.currentRun() ?? new Date();
      next = self.nextRun(fireDate);
      if (!(await this.claim(id, fireDate))) return;
      try {
        await fn({ strapi: this.strapi }, fireDate);
      } catch (error) {
        this.strapi.log.error(`Cron job "${label}" failed`, error);
      }
    });
    next = job.nextRun();
    return Object.assign(job, {
      cancel: () => (job.stop(), true),
      nextInvocation: () => job.nextRun(),
      invoke: async () => fn({ strapi: this.strapi }, job.currentRun() ?? new Date()),
    });
  }

  /** Whether this instance runs the tick: always on one process's database, else the one whose row went in. */
  private async claim(id: string, fireDate: Date): Promise<boolean> {
    if (!this.db.dialect.sharedByInstances) return true;
    const tick = Math.floor(fireDate.getTime() / 1000) * 1000;
    try {
      const mine = await claimTick(this.db, id, tick, this.runner);
      const now = Date.now();
      if (now - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = now;
        pruneTicks(this.db, now - KEEP_TICKS_MS).catch((error) => this.strapi.log.warn('could not prune cron ticks', error));
      }
      return mine;
    } catch (error) {
      this.strapi.log.error(`Cron job "${id}": could not claim its tick, skipped`, error);
      return false;
    }
  }
}
