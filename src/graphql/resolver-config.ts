/**
 * `resolversConfig` of extensions, applied as `@strapi/plugin-graphql` 5 applies it
 * (content-api/wrap-resolvers.ts, policy.ts), around every Query and Mutation field and any
 * other field that has an entry:
 *
 *  1. authorization: `auth: false` lets anyone call the field; `auth: { scope: [...] }` asks for
 *     one of those actions instead of the field's own; without `auth`, a generated field keeps
 *     its own action and a field an extension added may be called by full-access tokens only
 *     (Strapi verifies it against no scope, which no role and no other token passes);
 *  2. `middlewares`: functions `(next, parent, args, context, info)`, in order;
 *  3. `policies`: functions `(policyContext, config, { strapi })`, names, or `{ name, config }`,
 *     names found by the extension's policy lookup (project code's `global::…`); anything but
 *     `true` or `undefined` is Strapi's PolicyError ("Policy Failed", FORBIDDEN);
 *  4. the resolver.
 */
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import { FolioError } from '../errors';
import { GraphqlForbiddenError } from './errors';
import type { PolicyHandler, Resolver, ResolverConfig } from './extension';
import type { GraphqlContext } from './types';

type FieldResolver = GraphQLFieldResolver<unknown, GraphqlContext>;

/** Strapi's PolicyError: a ForbiddenError named PolicyError. */
export class GraphqlPolicyError extends FolioError {
  constructor() {
    super(403, 'PolicyError', 'Policy Failed');
  }
}

export interface FieldAuth {
  /** The field's own action, when it is generated (shadow CRUD, Strapi's plugins); undefined for an extension's field. */
  action?: string;
  /** Whether the field's resolver checks that action itself (the generated ones do). */
  checksItself: boolean;
}

/** The caller as a resolver whose authorization was already decided sees it: every action granted. */
function authorized(context: GraphqlContext): GraphqlContext {
  return { ...context, caller: { ...context.caller, can: () => true } };
}

const fullAccess = (context: GraphqlContext) => context.caller.principal.kind === 'token' && context.caller.principal.tokenType === 'full-access';

/**
 * `resolve` wrapped in the field's authorization, middlewares and policies. `root`: a Query or
 * Mutation field (always authorized); others only when `config` has an entry.
 */
export function configuredResolver(
  resolve: FieldResolver,
  config: ResolverConfig | undefined,
  auth: FieldAuth,
  root: boolean,
  findPolicy: (name: string) => PolicyHandler | undefined,
): FieldResolver {
  if (!config && (!root || auth.checksItself)) return resolve;
  const policies = (config?.policies ?? []).map((entry) => {
    const named = typeof entry === 'string' ? { name: entry, config: {} } : typeof entry === 'function' ? undefined : entry;
    const handler = named ? findPolicy(named.name) : (entry as PolicyHandler);
    if (!handler) throw new Error(`Policy ${named?.name ?? ''} not found.`);
    return { handler, config: named?.config ?? {} };
  });
  const middlewares = config?.middlewares ?? [];
  const run = async (parent: unknown, args: Record<string, unknown>, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const policyContext = {
      parent,
      args,
      context,
      info,
      state: context.state,
      http: undefined,
      type: 'graphql',
      is: (type: string) => type === 'graphql',
    };
    for (const { handler, config: policyConfig } of policies) {
      const result = await handler(policyContext, policyConfig, { strapi: undefined });
      if (result !== true && result !== undefined) throw new GraphqlPolicyError();
    }
    return resolve(parent, args, context, info);
  };
  const chain = middlewares.reduceRight<typeof run>(
    (next, middleware) => (parent, args, context, info) => middleware(next as Resolver, parent, args, context, info) as Promise<unknown>,
    run,
  );
  return async (parent, args, context, info) => {
    const rule = config?.auth;
    let seen = context;
    if (rule === false) seen = authorized(context);
    else if (rule?.scope) {
      if (!rule.scope.some((action) => context.caller.can(action))) throw new GraphqlForbiddenError();
      seen = authorized(context);
    } else if (root && !auth.checksItself) {
      if (auth.action ? !context.caller.can(auth.action) : !fullAccess(context)) throw new GraphqlForbiddenError();
    } else if (!root && rule !== undefined && !fullAccess(context)) {
      // `auth: {}` on another type's field: verified against no scope, as a root field without one.
      throw new GraphqlForbiddenError();
    }
    return chain(parent, args, seen, info);
  };
}
