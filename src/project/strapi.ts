/**
 * The `strapi` object project code receives (`({ strapi })`, and the global `strapi`): its
 * configuration, logger, models, document service, lifecycles, and the project's own
 * controllers, services, policies and middlewares by uid (`api::article.article`,
 * `global::is-owner`, `plugin::users-permissions.user`). Registries are filled by app.ts
 * as it loads the project; controllers and services are made from their factories on first
 * use, as Strapi does.
 */
import type { Instance } from '../instance';
import type { Logger, LogFields } from '../log';
import type { LifecycleSubscriber } from '../documents/write/hooks';
import type { Component, ContentType, Registry } from '../registry/types';
import { configValue, merge } from './config';
import { ProjectPlugin, type PluginParts } from './plugins/plugin';
import { createEntityService } from './entity-service';
import { projectUsers } from './users';
import { USER_UID } from '../registry/system-models';
import { contentTypeOf, createDocuments, type DocumentsFn } from './documents';
import { createQueryEngine } from './query-engine';
import { registeredField } from './custom-fields';
import { ProjectCron } from './cron';
import { PROJECT_ACTOR } from './documents';

type Obj = Record<string, any>;
type Factory = Obj | ((cfg: { strapi: ProjectStrapi }) => Obj);

/** A model as Strapi shows it (`strapi.contentTypes[uid]`, `event.model`): Folio's content type with Strapi's names beside. */
function modelView(model: ContentType | Component): Obj {
  const base: Obj = {
    ...model,
    modelName: model.modelType === 'component' ? model.name : (model as ContentType).singularName,
    collectionName: model.tableName,
  };
  if (model.modelType === 'contentType') {
    const ct = model as ContentType;
    base.info = {
      singularName: ct.singularName,
      pluralName: ct.pluralName,
      displayName: ct.displayName,
      ...(ct.description ? { description: ct.description } : {}),
    };
    base.options = { draftAndPublish: ct.draftAndPublish };
    base.pluginOptions = ct.localized ? { i18n: { localized: true } } : {};
    const match = /^api::([^.]+)\./.exec(ct.uid);
    if (match) base.apiName = match[1];
  } else base.info = { displayName: model.displayName };
  return base;
}

/** A registry of factories by uid, instantiated once on first `get`. */
class Container {
  private factories = new Map<string, Factory>();
  private made = new Map<string, Obj>();
  constructor(private strapi: () => ProjectStrapi) {}
  set(uid: string, factory: Factory) {
    this.factories.set(uid, factory);
    this.made.delete(uid);
  }
  has(uid: string) {
    return this.factories.has(uid);
  }
  get(uid: string): Obj | undefined {
    const done = this.made.get(uid);
    if (done) return done;
    const factory = this.factories.get(uid);
    if (factory === undefined) return undefined;
    const value = typeof factory === 'function' ? factory({ strapi: this.strapi() }) : factory;
    this.made.set(uid, value);
    return value;
  }
  raw(uid: string) {
    return this.factories.get(uid);
  }
  keys() {
    return [...this.factories.keys()];
  }
  all(): Obj {
    return Object.fromEntries(this.keys().map((k) => [k, this.get(k)]));
  }
  clear() {
    this.factories.clear();
    this.made.clear();
  }
}

export class ProjectStrapi {
  readonly registry: Registry;
  readonly controllers = new Container(() => this);
  readonly services = new Container(() => this);
  readonly policies = new Map<string, Function>();
  readonly middlewares = new Map<string, Function>();
  readonly customFields = {
    registered: new Map<string, Obj>(),
    register: (fields: Obj | Obj[]) => {
      for (const field of Array.isArray(fields) ? fields : [fields]) this.customFields.registered.set(registeredField(field)[0], field);
    },
    get: (uid: string) => this.customFields.registered.get(uid),
  };
  readonly documents: DocumentsFn;
  readonly log: { debug(...a: unknown[]): void; info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
  readonly config: { get(path: string, fallback?: unknown): any; set(path: string, value: unknown): void; has(path: string): boolean };
  readonly db: Obj;
  readonly dirs: Obj;
  /** Lifecycle subscriptions made through this object (taken back when the project is unloaded). */
  readonly unsubscribers: (() => void)[] = [];
  readonly contentTypes: Obj;
  readonly components: Obj;
  readonly plugins: Record<string, ProjectPlugin> = {};
  readonly api: Obj = {};
  readonly EE = false;
  /** Strapi's cron service (./cron.ts); the composition root starts it. */
  readonly cron: ProjectCron;
  /** Strapi 4's entity service, which Strapi 5 keeps over the document service (./entity-service.ts). */
  readonly entityService: ReturnType<typeof createEntityService>;

  constructor(
    readonly instance: Instance,
    values: Obj,
    root: string,
    src: string,
    logger: Logger,
  ) {
    this.registry = instance.registry;
    this.cron = new ProjectCron(this, instance.db);
    // The users type is kept by its own service: its documents and query engine go through it (./users.ts).
    const users = projectUsers(instance);
    const documents = createDocuments(instance);
    this.documents = Object.assign((uid: string) => (uid === USER_UID ? users.documents : documents(uid)), { use: documents.use }) as unknown as DocumentsFn;
    const use = this.documents.use;
    // Middlewares the project adds are taken back when it is unloaded (stop, reload).
    this.documents.use = (middleware) => {
      use(middleware);
      this.unsubscribers.push(() => instance.documents.hooks.unuse(middleware));
      return this.documents;
    };
    const write =
      (level: 'debug' | 'info' | 'warn' | 'error') =>
      (...args: unknown[]) => {
        const [first, ...rest] = args;
        const fields: LogFields | undefined = rest.length
          ? { args: rest.map((a) => (a instanceof Error ? { message: a.message, stack: a.stack } : a)) }
          : undefined;
        if (first instanceof Error) logger[level](first.message, { ...fields, error: first });
        else logger[level](typeof first === 'string' ? first : JSON.stringify(first), fields);
      };
    this.log = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
    /** `plugin::email.settings.defaultFrom`: config/plugins `email.config` over the plugin's defaults, as Strapi keeps it. */
    const read = (path: string, fallback?: unknown) => {
      const plugin = /^plugin::([^.]+)(?:\.(.*))?$/.exec(path);
      if (!plugin) return configValue(values, path, fallback);
      const [, name, rest] = plugin;
      const config = merge(this.plugins[name!]?.parts.config ?? {}, configValue(values, ['plugins', name!, 'config']) ?? {});
      return rest ? configValue(config as Obj, rest, fallback) : (config ?? fallback);
    };
    this.config = {
      get: (path, fallback) => read(path, fallback),
      set: (path, value) => {
        const parts = path.split('.');
        let at: Obj = values;
        for (const part of parts.slice(0, -1)) at = at[part] ??= {};
        at[parts.at(-1)!] = value;
      },
      has: (path) => read(path) !== undefined,
    };
    const engine = createQueryEngine(instance);
    const query = (uid: string) => (uid === USER_UID ? users.query : engine(uid));
    this.db = {
      query,
      /** Strapi's `strapi.db.transaction(fn)`: `fn` runs in one write (writes and reads inside join it, as they do in a lifecycle handler). */
      transaction: <T>(fn: (ctx: { onCommit(cb: () => void): void }) => Promise<T>) =>
        instance.documents.pipeline.run({ actor: PROJECT_ACTOR }, (ctx) => fn({ onCommit: (cb) => ctx.afterCommit(cb) })),
      lifecycles: {
        subscribe: (subscriber: LifecycleSubscriber) => {
          const off = instance.documents.hooks.subscribe(subscriber);
          this.unsubscribers.push(off);
          return off;
        },
      },
    };
    this.entityService = createEntityService({
      contentTypeOf: (uid) => (uid === USER_UID ? instance.registry.contentType(USER_UID)! : this.contentTypeOf(uid)),
      documents: this.documents as never,
      query: query as never,
    });
    this.dirs = {
      app: {
        root,
        src,
        config: `${root}/config`,
        api: `${src}/api`,
        components: `${src}/components`,
        policies: `${src}/policies`,
        middlewares: `${src}/middlewares`,
        extensions: `${src}/extensions`,
      },
      dist: { root, src, config: `${root}/config` },
      static: { public: `${root}/public` },
    };
    this.contentTypes = Object.fromEntries([...instance.registry.contentTypes, ...instance.registry.systemTypes].map((ct) => [ct.uid, modelView(ct)]));
    this.components = Object.fromEntries(instance.registry.components.map((c) => [c.uid, modelView(c)]));
  }

  /** `strapi.query(uid)`: the query engine, as `strapi.db.query(uid)`. */
  query(uid: string): any {
    return this.db.query(uid);
  }
  contentTypeOf(uid: string): ContentType {
    return contentTypeOf(this.instance, uid);
  }
  getModel(uid: string): Obj | undefined {
    return this.contentTypes[uid] ?? this.components[uid];
  }
  contentType(uid: string): Obj | undefined {
    return this.contentTypes[uid];
  }
  component(uid: string): Obj | undefined {
    return this.components[uid];
  }
  service(uid: string): any {
    return this.services.get(uid);
  }
  controller(uid: string): any {
    return this.controllers.get(uid);
  }
  policy(uid: string): Function | undefined {
    return this.policies.get(uid);
  }
  middleware(uid: string): Function | undefined {
    return this.middlewares.get(uid);
  }
  plugin(name: string): ProjectPlugin | undefined {
    return this.plugins[name];
  }
  /** Adds a plugin (Folio's built-in ones, the project's local ones): its services and controllers become `plugin::<name>.<short>`. */
  addPlugin(name: string, parts: PluginParts): ProjectPlugin {
    const plugin = new ProjectPlugin(name, this, parts);
    this.plugins[name] = plugin;
    return plugin;
  }
  /** The REST limits (api.rest.defaultLimit / maxLimit as Folio resolved them). */
  restLimits() {
    return { defaultLimit: this.instance.config.defaultLimit, maxLimit: this.instance.config.maxLimit };
  }
  singleDocumentId(ct: ContentType): Promise<string | undefined> {
    return this.instance.documents.singleDocumentId(ct);
  }
}
