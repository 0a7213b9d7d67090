/**
 * A Strapi project's code, loaded and run: `src/index` (`register`, `bootstrap`, `destroy`),
 * every API's controllers, services, routes, policies, middlewares and content-type
 * lifecycles, the global `src/policies` and `src/middlewares`, and config/middlewares. The
 * routes become ProjectRoutes (http/routes/project.ts mounts them); core routes whose
 * controller, service and config are Strapi's defaults stay Folio's own REST routes
 * (`builtIn`), so a project that changes nothing pays nothing.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { ContentAction } from '../auth/actions';
import type { ProjectConfig } from '../config';
import type { Instance } from '../instance';
import type { Logger } from '../log';
import { createCoreController, createCoreService, CORE_ROUTER, CUSTOM, type CoreRouteDef } from './factories';
import {
  compose,
  errorsMiddleware,
  OWN_ROUTES,
  routeChain,
  runAround,
  runRoute,
  type ComposedChain,
  type Middleware,
  type OwnRoute,
  type Policy,
  type ProjectRoute,
} from './endpoint';
import type { IncomingRequest } from './context';
import { CODE_EXTENSIONS, codeFileOf, loadFile, ProjectLoadError } from './module-host';
import { fillStrapiModules } from './modules';
import { builtInPlugins } from './plugins/built-in';
import { contentTypeDefinitions } from './plugins/content-types';
import { enabledPlugins } from './plugins/enabled';
import { extendPlugin, pluginParts } from './plugins/local';
import type { ProjectPlugin } from './plugins/plugin';
import { createEnv } from './env';
import { ProjectStrapi } from './strapi';

type Obj = Record<string, any>;

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
/** Code files of a folder by name (`article.js` → `article`), a `.ts` before a `.js`. */
function codeFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!isDir(dir)) return out;
  const files = readdirSync(dir).filter((f) => CODE_EXTENSIONS.includes(extname(f)) && !f.endsWith('.d.ts'));
  files.sort((a, b) => CODE_EXTENSIONS.indexOf(extname(a)) - CODE_EXTENSIONS.indexOf(extname(b)));
  for (const f of files) {
    const name = f.slice(0, -extname(f).length);
    if (!out.has(name)) out.set(name, join(dir, f));
  }
  return out;
}
const folders = (dir: string) =>
  isDir(dir)
    ? readdirSync(dir)
        .filter((f) => isDir(join(dir, f)))
        .sort()
    : [];

/** Strapi's middlewares named in config/middlewares: Folio does their work itself. */
const BUILT_IN_MIDDLEWARES = new Set([
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  'strapi::compression',
  'strapi::ip',
  'strapi::responseTime',
  'strapi::responses',
]);

export class ProjectApp {
  readonly strapi: ProjectStrapi;
  private app: Obj = {};
  /** Routes served by project code (http/routes/project.ts). */
  routes: ProjectRoute[] = [];
  /** Core actions left to Folio's own REST routes, per content type (the rest 404 or are project routes). */
  builtIn = new Map<string, Set<ContentAction>>();
  private global: Middleware[] = [];
  private hasGlobalCustom = false;
  private started = false;

  constructor(
    private instance: Instance,
    readonly project: ProjectConfig,
    private log: Logger,
  ) {
    fillStrapiModules(project.vars);
    this.strapi = new ProjectStrapi(instance, project.values, project.root, project.src, log);
    (globalThis as { strapi?: unknown }).strapi = this.strapi;
  }

  private load(file: string): any {
    return loadFile(file, this.project.root);
  }

  /** Loads every file of the project (nothing runs yet but the modules' top level and the factories' registration). */
  loadFiles(): void {
    const { src } = this.project;
    const index = codeFileOf(src, 'index');
    this.app = index ? (this.load(index) ?? {}) : {};
    for (const [name, file] of codeFiles(join(src, 'policies'))) this.strapi.policies.set(`global::${name}`, this.load(file));
    for (const [name, file] of codeFiles(join(src, 'middlewares'))) this.strapi.middlewares.set(`global::${name}`, this.load(file));
    const routers: RouterFile[] = [];
    // Plugins: Folio's built-in ones, then the project's (declared in config/plugins, then installed), each with the project's extension of it.
    const env = createEnv(this.project.vars);
    const plugins: [string, ReturnType<typeof pluginParts>, string | undefined][] = Object.entries(builtInPlugins(this.instance, this.strapi.log)).map(
      ([n, p]) => [n, p, undefined],
    );
    const enabled = enabledPlugins(this.project);
    for (const warning of enabled.warnings) this.log.warn(warning);
    for (const found of enabled.plugins) plugins.push([found.name, pluginParts(this.load(found.file), env), found.file]);
    for (const [name, parts, file] of plugins) {
      const plugin = this.strapi.addPlugin(name, extendPlugin(this.project, name, parts));
      this.plugins.push(plugin);
      for (const router of pluginRouters(plugin))
        routers.push({ namespace: `plugin::${name}`, file: file ?? join(src, 'extensions', name), router, prefix: `/${name}` });
      // Its content types' lifecycles, as a content type's lifecycles file (the registry read their schemas at open).
      for (const [key, definition] of Object.entries(contentTypeDefinitions(plugin.parts.contentTypes))) {
        const uid = `plugin::${name}.${key}`;
        if (!definition?.lifecycles || !this.instance.registry.contentType(uid)) continue;
        this.strapi.unsubscribers.push(this.instance.documents.hooks.subscribe({ ...definition.lifecycles, models: [uid] }));
      }
    }
    for (const api of folders(join(src, 'api'))) {
      const dir = join(src, 'api', api);
      for (const [name, file] of codeFiles(join(dir, 'controllers'))) this.strapi.controllers.set(`api::${api}.${name}`, this.load(file));
      for (const [name, file] of codeFiles(join(dir, 'services'))) this.strapi.services.set(`api::${api}.${name}`, this.load(file));
      for (const [name, file] of codeFiles(join(dir, 'policies'))) this.strapi.policies.set(`api::${api}.${name}`, this.load(file));
      for (const [name, file] of codeFiles(join(dir, 'middlewares'))) this.strapi.middlewares.set(`api::${api}.${name}`, this.load(file));
      for (const [, file] of codeFiles(join(dir, 'routes'))) routers.push({ namespace: `api::${api}`, api, file, router: this.load(file) });
      for (const ct of folders(join(dir, 'content-types'))) {
        const lifecycles = codeFileOf(join(dir, 'content-types', ct), 'lifecycles');
        if (lifecycles) {
          const handlers = this.load(lifecycles) ?? {};
          const off = this.instance.documents.hooks.subscribe({ ...handlers, models: [`api::${api}.${ct}`] });
          this.strapi.unsubscribers.push(off);
        }
      }
    }
    // Types without a controller or service file get Strapi's core ones.
    for (const ct of this.instance.registry.contentTypes) {
      if (!this.strapi.controllers.has(ct.uid)) this.strapi.controllers.set(ct.uid, createCoreController(ct.uid));
      if (!this.strapi.services.has(ct.uid)) this.strapi.services.set(ct.uid, createCoreService(ct.uid));
    }
    this.routerFiles = routers;
  }
  private routerFiles: RouterFile[] = [];
  private plugins: ProjectPlugin[] = [];

  /** Runs the plugins' `register`, the app's, the plugins' `bootstrap`, the app's, then builds the routes and the global middlewares. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const cfg = { strapi: this.strapi };
    // resolversConfig's policies (`global::is-owner`, `api::article.is-owner`) are the project's.
    this.instance.graphql.extension.findPolicy = (name) => {
      const found = this.strapi.policies.get(name.includes('::') ? name : `global::${name}`);
      if (!found) return undefined;
      const handler = this.policyHandler(found as Obj | Policy);
      return (policyContext, config) => handler(policyContext as never, config, { strapi: this.strapi });
    };
    for (const plugin of this.plugins) await plugin.parts.register?.(cfg);
    await this.app.register?.(cfg);
    for (const plugin of this.plugins) await plugin.parts.bootstrap?.(cfg);
    await this.app.bootstrap?.(cfg);
    // server.cron.tasks when server.cron.enabled (Strapi's cron provider); they run once the instance starts.
    if (this.strapi.config.get('server.cron.enabled', false)) this.strapi.cron.add(this.strapi.config.get('server.cron.tasks', {}) ?? {});
    this.buildRoutes();
  }

  /** The project's background work (its cron tasks) from now on: the composition root calls it (instance.start()). */
  startBackground(): void {
    this.strapi.cron.start();
  }

  /** The app's `destroy`, the plugins', and every hook the project registered taken back. */
  async stop(): Promise<void> {
    this.strapi.cron.destroy();
    if (this.started) {
      const cfg = { strapi: this.strapi };
      await this.app.destroy?.(cfg);
      for (const plugin of this.plugins) await plugin.parts.destroy?.(cfg);
    }
    this.started = false;
    this.instance.graphql.extension.findPolicy = () => undefined;
    for (const off of this.strapi.unsubscribers.splice(0)) off();
  }

  private resolve<T>(kind: 'policy' | 'middleware', name: string, info: { apiName?: string; pluginName?: string }): T {
    const table = kind === 'policy' ? this.strapi.policies : this.strapi.middlewares;
    const local = info.apiName ? [`api::${info.apiName}.${name}`] : info.pluginName ? [`plugin::${info.pluginName}.${name}`] : [];
    const candidates = name.includes('::') ? [name] : [...local, `global::${name}`];
    for (const uid of candidates) {
      const found = table.get(uid);
      if (found) return found as T;
    }
    throw new ProjectLoadError(`${kind === 'policy' ? 'Policy' : 'Middleware'} ${name} not found.`);
  }

  private policiesOf(config: Obj, info: { apiName?: string; pluginName?: string }) {
    return (config.policies ?? []).map((p: unknown) => {
      if (typeof p === 'string') return { handler: this.policyHandler(this.resolve<Obj | Policy>('policy', p, info)), config: {} };
      if (p && typeof p === 'object' && typeof (p as Obj).name === 'string')
        return { handler: this.policyHandler(this.resolve<Obj | Policy>('policy', (p as Obj).name, info)), config: (p as Obj).config ?? {} };
      throw new ProjectLoadError(`Policy  not found.`);
    });
  }
  private policyHandler(policy: Obj | Policy): Policy {
    return (typeof policy === 'function' ? policy : policy.handler) as Policy;
  }

  private middlewaresOf(list: unknown[], info: { apiName?: string; pluginName?: string }): Middleware[] {
    const out: Middleware[] = [];
    for (const item of list) {
      if (typeof item === 'function') {
        out.push(item as Middleware);
        continue;
      }
      const { name, resolve, config = {} } = typeof item === 'string' ? { name: item } : ((item ?? {}) as Obj);
      if (name && BUILT_IN_MIDDLEWARES.has(name)) {
        if (name === 'strapi::errors') out.push(errorsMiddleware(this.log));
        continue;
      }
      let factory: Function;
      if (name) factory = this.resolve<Function>('middleware', name, info);
      else if (resolve) factory = this.load(join(this.project.root, resolve));
      else throw new ProjectLoadError('Invalid middleware configuration. Missing name or resolve properties.');
      const made = factory(config, { strapi: this.strapi });
      out.push((made ?? ((_: unknown, next: () => Promise<unknown>) => next())) as Middleware);
      this.hasGlobalCustom ||= list === this.project.values.middlewares;
    }
    return out;
  }

  private buildRoutes(): void {
    const configured = Array.isArray(this.project.values.middlewares) ? this.project.values.middlewares : ['strapi::errors'];
    this.global = [errorsMiddleware(this.log), ...this.middlewaresOf(configured, {})];
    const prefix = String(this.strapi.config.get('api.rest.prefix', '/api'));
    const routes: ProjectRoute[] = [];
    const builtIn = new Map<string, Set<ContentAction>>();
    const custom = new Set<string>();
    for (const { namespace, api, file, router, prefix: routerPrefix } of this.routerFiles) {
      const value = typeof router === 'function' && !(router as Obj)[CORE_ROUTER as unknown as string] ? router({ strapi: this.strapi }) : router;
      if (!value || !Array.isArray(value.routes))
        throw new ProjectLoadError(`${relative(this.project.root, file)}: a router must export { routes: [...] } or createCoreRouter(uid)`, file);
      if ((value.type ?? 'content-api') !== 'content-api') continue;
      const pluginName = api ? undefined : namespace.slice('plugin::'.length);
      for (const def of value.routes as CoreRouteDef[]) {
        const info = { ...(api ? { apiName: api } : { pluginName }), type: 'content-api', ...(def.info ?? {}) };
        const handlerName = String(def.handler);
        const cut = handlerName.lastIndexOf('.');
        const controllerName = handlerName.slice(0, cut);
        const actionName = handlerName.slice(cut + 1);
        const controllerUid = controllerName.includes('::') ? controllerName : `${namespace}.${controllerName}`;
        const controller = this.strapi.controller(controllerUid);
        if (!controller || typeof controller[actionName] !== 'function')
          throw new ProjectLoadError(`Error creating endpoint ${def.method} ${def.path}: Handler not found "${handlerName}"`, file);
        const action = `${controllerUid}.${actionName}`;
        const config = def.config ?? {};
        const core = def.core as ContentAction | undefined;
        const service = this.strapi.service(controllerUid);
        // Strapi's own core action: Folio's REST route does what its controller and service would.
        const folioCore = core && !controller[CUSTOM] && !service?.[CUSTOM] && config.auth === undefined ? core : undefined;
        const plain = folioCore && !(config.policies ?? []).length && !(config.middlewares ?? []).length;
        if (plain) {
          let set = builtIn.get(controllerUid);
          if (!set) builtIn.set(controllerUid, (set = new Set()));
          set.add(core!);
          continue;
        }
        const routePrefix = typeof config.prefix === 'string' ? config.prefix : (value.prefix ?? routerPrefix ?? '');
        // A built-in plugin action on its own route, with nothing of the project's around it: Folio's own route serves it.
        const own = controller[actionName][OWN_ROUTES] as OwnRoute[] | undefined;
        if (
          own?.some((r) => r.method === String(def.method).toUpperCase() && r.path === `${routePrefix}${def.path}`) &&
          config.auth === undefined &&
          !(config.policies ?? []).length &&
          (config.middlewares ?? []).every((m: unknown) => m === `${namespace}.rateLimit`)
        )
          continue;
        if (!core) custom.add(action);
        const path = `${prefix}${routePrefix}${def.path}`.replace(/\/+$/, '') || '/';
        routes.push({
          method: String(def.method).toUpperCase(),
          path,
          action,
          handler: controller[actionName].bind(controller),
          config,
          info,
          policies: this.policiesOf(config, info),
          middlewares: this.middlewaresOf(config.middlewares ?? [], info),
          // With only policies or middlewares of its own, the route ends in Folio's own handler (its kept plans and answers).
          ...(folioCore ? { folioCore: { uid: controllerUid, action: folioCore } } : {}),
        });
      }
    }
    this.routes = routes;
    this.builtIn = builtIn;
    this.instance.registry.customActions.splice(0, Infinity, ...[...custom].sort());
  }

  /** Custom actions of the project's routes, without running register/bootstrap (for `folio permissions`, the admin). */
  listActions(): void {
    if (this.started) return;
    try {
      this.buildRoutes();
    } catch {
      // A route that needs bootstrap to resolve: its actions appear once the server has started.
    }
  }

  /**
   * The project's route for a method and path, with the path's parameters (`/api/articles/slug/:slug`,
   * `*`), in the order the routes were declared (the first that matches wins, as in Strapi's router).
   */
  match(method: string, pathname: string): { route: ProjectRoute; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method && !(route.method === 'GET' && method === 'HEAD') && route.method !== 'ALL') continue;
      const matcher = ((route as { matcher?: PathMatcher }).matcher ??= pathMatcher(route.path));
      const found = matcher.regex.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      matcher.names.forEach((name, i) => {
        const value = found[i + 1];
        if (value !== undefined) params[name] = safeDecode(value);
      });
      return { route, params };
    }
    return undefined;
  }

  /** Whether Folio's own REST route serves this core action of a type (the project left it plain). */
  serves(uid: string, action: ContentAction): boolean {
    return this.builtIn.get(uid)?.has(action) ?? false;
  }

  /** Whether config/middlewares has middlewares of the project's own: they wrap every request, Folio's own routes included (`around`). */
  get wrapsAll(): boolean {
    return this.hasGlobalCustom;
  }

  /** Runs the global middlewares around an answer of Folio's own route (a request no project route takes). */
  around(incoming: IncomingRequest, inner: () => Promise<Response>): Promise<Response> {
    return runAround(this.global, incoming, inner);
  }

  /** Answers one request to a project route. */
  handle(route: ProjectRoute, incoming: IncomingRequest): Promise<Response> {
    // Composed once per route (the global middlewares and the route's are fixed until routes are built again, with new route objects).
    const run = ((route as { run?: ComposedChain }).run ??= compose([...this.global, ...routeChain(this.instance, this.strapi, route)]));
    return runRoute(run, incoming);
  }
}

export { compose };

interface PathMatcher {
  regex: RegExp;
  names: string[];
}

/** A Koa-router path (`/articles/:id`, `:id?`, `*`) as a regular expression and its parameter names. */
function pathMatcher(path: string): PathMatcher {
  const names: string[] = [];
  let source = '';
  for (const part of path.split('/').filter(Boolean)) {
    const param = /^:(\w+)(\?)?$/.exec(part);
    if (param) {
      names.push(param[1]!);
      source += param[2] ? '(?:/([^/]+))?' : '/([^/]+)';
    } else if (part === '*' || part === '(.*)') {
      names.push(String(names.length));
      source += '/(.*)';
    } else source += `/${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  }
  return { regex: new RegExp(`^${source || '/'}/?$`), names };
}

const safeDecode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** A router to mount: an API's routes file, or a plugin's content-api router. */
interface RouterFile {
  /** `api::article` or `plugin::my-plugin`: short handler names resolve in it. */
  namespace: string;
  api?: string;
  file: string;
  router: Obj;
  /** A plugin's routes are under `/api/<plugin>` unless the router or route says otherwise. */
  prefix?: string;
}

/** A plugin's content-api routers (`{ 'content-api': { type, routes } }`; an array of routes is admin routes, not served). */
function pluginRouters(plugin: ProjectPlugin): Obj[] {
  const routes = plugin.routes as Obj;
  if (!routes || Array.isArray(routes) || typeof routes !== 'object') return [];
  return Object.values(routes).filter((r) => r && typeof r === 'object' && (r.type ?? 'admin') === 'content-api');
}
