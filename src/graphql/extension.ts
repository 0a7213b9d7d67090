/**
 * What project code may change in the generated schema, as `@strapi/plugin-graphql`'s
 * extension service offers it:
 *
 *   extension.shadowCRUD('api::article.article').disable() / .disableQueries() / .disableMutations()
 *            .disableAction('create') / .field('title').disable() / .disableOutput() / .disableInput() / .disableFilters()
 *   extension.use({ typeDefs, resolvers, resolversConfig })   (or a function of { strapi, nexus } returning it)
 *
 * The schema is built from this state (./service.ts rebuilds it after a change). Nexus types
 * are not supported: `typeDefs` (SDL text), `resolvers` (a map of type → field → function) and
 * `resolversConfig` (auth, policies, middlewares: ./resolver-config.ts).
 */

export interface FieldSettings {
  output: boolean;
  input: boolean;
  filters: boolean;
}

interface TypeSettings {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  disabledActions: Set<string>;
  fields: Map<string, FieldSettings>;
}

/** A resolver as graphql-js calls it: (parent, args, context, info). */
export type Resolver = (parent: unknown, args: Record<string, unknown>, context: unknown, info: unknown) => unknown;

/** A policy: true or undefined lets the call through, anything else refuses it (./resolver-config.ts). */
export type PolicyHandler = (policyContext: Record<string, unknown>, config: unknown, context: { strapi: unknown }) => unknown;

/** A middleware around a field's resolver: it calls `next(parent, args, context, info)` (or not). */
export type ResolverMiddleware = (next: Resolver, parent: unknown, args: Record<string, unknown>, context: unknown, info: unknown) => unknown;

/**
 * `resolversConfig['Query.articles']` (./resolver-config.ts): `auth: false` makes the field
 * public; `auth.scope` names the actions it needs instead of its own; `policies` (functions,
 * names the policy lookup knows, or `{ name, config }`) and `middlewares` run before it.
 */
export interface ResolverConfig {
  auth?: false | { scope?: string[] };
  policies?: (string | PolicyHandler | { name: string; config?: unknown })[];
  middlewares?: ResolverMiddleware[];
}

export interface ExtensionConfig {
  typeDefs?: string;
  resolvers?: Record<string, Record<string, Resolver | { resolve: Resolver }>>;
  resolversConfig?: Record<string, ResolverConfig>;
}

export type ExtensionInput = ExtensionConfig | ((context: { strapi?: unknown; nexus?: unknown }) => ExtensionConfig);

const ALL_ACTIONS = '*';

export class GraphqlExtension {
  private types = new Map<string, TypeSettings>();
  private configs: ExtensionInput[] = [];
  /** Called after every change, so the schema can be rebuilt (./service.ts). */
  onChange: () => void = () => {};
  /**
   * Finds a policy named in `resolversConfig` (`global::is-owner`, `api::x.y`): project code's
   * policies, once it provides them. A name it does not know stops the schema's build, as
   * Strapi stops at start ("Policy … not found.").
   */
  findPolicy: (name: string) => PolicyHandler | undefined = () => undefined;

  private settings(uid: string): TypeSettings {
    let found = this.types.get(uid);
    if (!found) {
      found = { enabled: true, queries: true, mutations: true, disabledActions: new Set(), fields: new Map() };
      this.types.set(uid, found);
    }
    return found;
  }

  /** Strapi's `shadowCRUD(uid)`: switches parts of a type's generated schema off. */
  shadowCRUD(uid: string) {
    const changed = () => this.onChange();
    const settings = () => this.settings(uid);
    const api = {
      isEnabled: () => this.types.get(uid)?.enabled ?? true,
      isDisabled: () => !api.isEnabled(),
      areQueriesEnabled: () => this.types.get(uid)?.queries ?? true,
      areQueriesDisabled: () => !api.areQueriesEnabled(),
      areMutationsEnabled: () => this.types.get(uid)?.mutations ?? true,
      areMutationsDisabled: () => !api.areMutationsEnabled(),
      isActionEnabled: (action: string) => {
        const disabled = this.types.get(uid)?.disabledActions;
        return !disabled || (!disabled.has(action) && !disabled.has(ALL_ACTIONS));
      },
      isActionDisabled: (action: string) => !api.isActionEnabled(action),
      disable: () => ((settings().enabled = false), changed(), api),
      disableQueries: () => ((settings().queries = false), changed(), api),
      disableMutations: () => ((settings().mutations = false), changed(), api),
      disableAction: (action: string) => (settings().disabledActions.add(action), changed(), api),
      disableActions: (actions: string[] = []) => (actions.forEach((a) => settings().disabledActions.add(a)), changed(), api),
      field: (name: string) => {
        const field = () => {
          const fields = settings().fields;
          let found = fields.get(name);
          if (!found) fields.set(name, (found = { output: true, input: true, filters: true }));
          return found;
        };
        const known = () => this.types.get(uid)?.fields.get(name);
        const fieldApi = {
          isEnabled: () => {
            const f = known();
            return !f || f.output || f.input || f.filters;
          },
          hasOutputEnabled: () => known()?.output ?? true,
          hasInputEnabled: () => known()?.input ?? true,
          hasFiltersEnabled: () => known()?.filters ?? true,
          /** Strapi's own spelling. */
          hasFiltersEnabeld: () => known()?.filters ?? true,
          disable: () => (Object.assign(field(), { output: false, input: false, filters: false }), changed(), fieldApi),
          disableOutput: () => ((field().output = false), changed(), fieldApi),
          disableInput: () => ((field().input = false), changed(), fieldApi),
          disableFilters: () => ((field().filters = false), changed(), fieldApi),
        };
        return fieldApi;
      },
    };
    return api;
  }

  /** Forgets every change and addition (project code reloaded in development registers its own again). */
  reset(): void {
    this.types.clear();
    this.configs = [];
    this.onChange();
  }

  /** Adds type definitions, resolvers and resolver settings (a config object, or a function returning one). */
  use(config: ExtensionInput): this {
    this.configs.push(config);
    this.onChange();
    return this;
  }

  /** Every `use()` merged: typeDefs in order, later resolvers over earlier ones, earlier resolversConfig over later. */
  generate(): Required<Pick<ExtensionConfig, 'resolvers' | 'resolversConfig'>> & { typeDefs: string[] } {
    const out = { typeDefs: [] as string[], resolvers: {} as NonNullable<ExtensionConfig['resolvers']>, resolversConfig: {} as Record<string, ResolverConfig> };
    for (const input of this.configs) {
      const config = typeof input === 'function' ? input({}) : input;
      if (typeof config.typeDefs === 'string') out.typeDefs.push(config.typeDefs);
      for (const [type, fields] of Object.entries(config.resolvers ?? {})) out.resolvers[type] = { ...out.resolvers[type], ...fields };
      out.resolversConfig = { ...config.resolversConfig, ...out.resolversConfig };
    }
    return out;
  }
}
