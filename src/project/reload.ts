/**
 * `folio develop` / `folio serve --watch`: a project's code reloaded in the running server
 * when its files change (src/, config/, .env), within a second, without a restart: the
 * database, its data and the open connections stay. A reload loads the changed files afresh
 * (the project's node_modules stay loaded), then takes the old code's hooks back (its
 * `destroy`, document middlewares, lifecycles, cron tasks, GraphQL extensions: ProjectApp.stop)
 * and runs the new register and bootstrap; the HTTP layer looks its routes up at request time.
 * A file that fails to load is logged with its file and line and the old code keeps serving.
 * Schema files (content types, components) need a restart: a change to one is only logged.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Instance } from '../instance';
import type { Logger } from '../log';
import { ProjectApp } from './app';
import { readProject } from './config';
import { forgetModules } from './module-host';

const CODE = /\.(js|ts|cjs|mjs|json)$/;
/** Files saved together (an editor writing several, a git checkout) make one reload. */
const SETTLE_MS = 40;

export class ProjectReloader {
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Reloads done, for callers waiting on one (tests, the console). */
  reloads = 0;

  constructor(
    private instance: Instance,
    private log: Logger,
  ) {}

  /** Watches the project's folders; each change schedules a reload. */
  watch(): this {
    const project = this.instance.project?.project;
    if (!project) return this;
    const dirs = [...new Set([project.src, join(project.root, 'config')])].filter((dir) => existsSync(dir));
    for (const dir of dirs) {
      this.watchers.push(watch(dir, { recursive: true }, (_event, file) => file && this.changed(join(dir, String(file)))));
    }
    if (existsSync(join(project.root, '.env'))) this.watchers.push(watch(join(project.root, '.env'), () => this.changed(join(project.root, '.env'))));
    return this;
  }

  close(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
    if (this.timer) clearTimeout(this.timer);
  }

  private changed(path: string): void {
    const project = this.instance.project?.project;
    if (!project) return;
    const rel = relative(project.root, path);
    if (rel.split(sep).includes('node_modules') || (!CODE.test(path) && !path.endsWith('.env'))) return;
    if (/(^|\/)content-types\/[^/]+\/schema\.json$/.test(rel.split(sep).join('/')) || rel.split(sep).join('/').startsWith('src/components/')) {
      this.log.warn(`[folio] ${rel} changed: schema changes take effect when the server restarts`);
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), SETTLE_MS);
  }

  /** Reloads now (one at a time: a change during a reload makes one more). */
  reload(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.swap();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  private async swap(): Promise<void> {
    const old = this.instance.project;
    if (!old) return;
    const started = performance.now();
    const { root, vars, nodeEnv, used } = old.project;
    forgetModules(root);
    let next: ProjectApp;
    try {
      const config = readProject(root, vars, nodeEnv);
      if (!config) throw new Error(`${root} is no longer a Strapi project`);
      next = new ProjectApp(this.instance, { ...config, used }, this.log);
      next.loadFiles();
    } catch (error) {
      (globalThis as { strapi?: unknown }).strapi = old.strapi;
      this.log.error(`[folio] project code not reloaded, the previous code keeps serving: ${(error as Error).message}`);
      return;
    }
    await old.stop();
    this.instance.project = next;
    try {
      await next.start();
      next.startBackground();
      this.reloads++;
      this.log.info(`[folio] project code reloaded in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      this.log.error(`[folio] project code reloaded but failed to start (fix it and save again): ${(error as Error).message}`, { error });
    }
  }
}
