/**
 * A Strapi plugin as project code sees it (`strapi.plugin('email')`): its services and
 * controllers by short name (`.service('email')`, made once through the `strapi` object's
 * containers under `plugin::<name>.<short>`), its configuration (`.config('settings.defaultFrom')`:
 * `config/plugins` `<name>.config` over the plugin's defaults), and the rest of Strapi's plugin
 * object (`routes`, `policies`, `middlewares`, `contentTypes`, `provider`). Folio's built-in
 * plugins (./email.ts, ./users-permissions.ts, ./upload.ts, ./graphql.ts) and the project's
 * local plugins (./local.ts) are all made of this.
 */
import type { ProjectStrapi } from '../strapi';

type Obj = Record<string, any>;
export type Factory = Obj | ((cfg: { strapi: ProjectStrapi }) => Obj);

export interface PluginParts {
  services?: Record<string, Factory>;
  controllers?: Record<string, Factory>;
  routes?: unknown;
  policies?: Record<string, unknown>;
  middlewares?: Record<string, unknown>;
  contentTypes?: Record<string, unknown>;
  /** The plugin's defaults, under `config/plugins` `<name>.config`. */
  config?: Obj;
  register?: (cfg: { strapi: ProjectStrapi }) => unknown;
  bootstrap?: (cfg: { strapi: ProjectStrapi }) => unknown;
  destroy?: (cfg: { strapi: ProjectStrapi }) => unknown;
}

export class ProjectPlugin {
  routes: unknown;
  readonly policies: Obj;
  readonly middlewares: Obj;
  /** The provider (email, upload) when the plugin has one. */
  provider?: Obj;

  constructor(
    readonly name: string,
    private strapi: ProjectStrapi,
    readonly parts: PluginParts,
  ) {
    for (const [short, factory] of Object.entries(parts.services ?? {})) strapi.services.set(`plugin::${name}.${short}`, factory);
    for (const [short, factory] of Object.entries(parts.controllers ?? {})) strapi.controllers.set(`plugin::${name}.${short}`, factory);
    for (const [short, policy] of Object.entries(parts.policies ?? {})) strapi.policies.set(`plugin::${name}.${short}`, policy as Function);
    for (const [short, middleware] of Object.entries(parts.middlewares ?? {})) strapi.middlewares.set(`plugin::${name}.${short}`, middleware as Function);
    this.routes = parts.routes ?? {};
    this.policies = parts.policies ?? {};
    this.middlewares = parts.middlewares ?? {};
  }

  /** Its content types as `strapi.contentTypes` holds them, by short name (`nav-item`), as Strapi's plugin object answers. */
  get contentTypes(): Obj {
    return this.table(Object.keys(this.strapi.contentTypes), (uid) => this.strapi.contentTypes[uid]);
  }
  readonly contentType = (short: string): any => this.strapi.contentTypes[`plugin::${this.name}.${short}`];

  // Bound, as Strapi's are: project code takes them off the plugin (`const { config } = strapi.plugin('x')`).
  readonly service = (short: string): any => this.strapi.service(`plugin::${this.name}.${short}`);
  readonly controller = (short: string): any => this.strapi.controller(`plugin::${this.name}.${short}`);
  /** `config/plugins` `<name>.config` at `path`, over the plugin's defaults. */
  readonly config = (path?: string, fallback?: unknown): any =>
    this.strapi.config.get(path ? `plugin::${this.name}.${path}` : `plugin::${this.name}`, fallback);
  get services(): Obj {
    return this.table(this.strapi.services.keys(), (uid) => this.strapi.service(uid));
  }
  get controllers(): Obj {
    return this.table(this.strapi.controllers.keys(), (uid) => this.strapi.controller(uid));
  }
  private table(uids: string[], get: (uid: string) => unknown): Obj {
    const prefix = `plugin::${this.name}.`;
    return Object.fromEntries(uids.filter((u) => u.startsWith(prefix)).map((u) => [u.slice(prefix.length), get(u)]));
  }
}
