/**
 * Resolvers of Strapi's own plugin fields that are not shadow CRUD over Folio's documents:
 * i18n locales (read from the locales service), review workflows (Folio has none: empty),
 * a user's role, and `me`. Users-permissions mutations live in ./auth-resolvers.ts.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { ROLE_UID } from '../registry/system-models';
import { sliceOf } from './arguments';
import { GraphqlForbiddenError } from './errors';
import type { ResolverMap } from './resolvers';
import type { GraphqlContext, GraphqlDeps, GraphqlSettings } from './types';

type Args = Record<string, any>;

export function pluginResolvers(deps: GraphqlDeps, settings: GraphqlSettings): ResolverMap {
  const limits = { defaultLimit: settings.defaultLimit, maxLimit: settings.maxLimit > 0 ? settings.maxLimit : Number.MAX_SAFE_INTEGER };
  const authorize = (context: GraphqlContext, action: string) => {
    if (!context.caller.can(action)) throw new GraphqlForbiddenError();
  };
  const LOCALES = 'plugin::i18n.locales.listLocales';
  const locales = async () => (await deps.locales.list()).map(({ isDefault: _, ...locale }) => locale);
  const page = <T>(list: T[], args: Args) => {
    const { start, limit } = sliceOf(args.pagination, limits);
    return { nodes: list.slice(start, start + limit), start, limit, total: list.length };
  };
  const pageInfo = ({ start, limit, total }: { start: number; limit: number; total: number }) =>
    ({ total, page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit) });
  // Review workflows are Strapi's admin feature: no role can be granted them, and Folio keeps none.
  const WORKFLOWS = 'plugin::review-workflows.workflows.find';
  const empty = (context: GraphqlContext) => {
    authorize(context, WORKFLOWS);
    return [];
  };
  const emptyConnection = (context: GraphqlContext) => ({ nodes: empty(context), pageInfo: { total: 0, page: 1, pageSize: limits.defaultLimit, pageCount: 0 } });

  return {
    Query: {
      i18NLocales: async (_p: unknown, args: Args, context: GraphqlContext) => {
        authorize(context, LOCALES);
        return page(await locales(), args).nodes;
      },
      i18NLocales_connection: async (_p: unknown, args: Args, context: GraphqlContext) => {
        authorize(context, LOCALES);
        const result = page(await locales(), args);
        return { nodes: result.nodes, pageInfo: pageInfo(result) };
      },
      i18NLocale: async (_p: unknown, args: Args, context: GraphqlContext) => {
        authorize(context, LOCALES);
        return (await locales()).find((l) => l.documentId === args.documentId) ?? null;
      },
      reviewWorkflowsWorkflows: (_p: unknown, _a: Args, context: GraphqlContext) => empty(context),
      reviewWorkflowsWorkflowStages: (_p: unknown, _a: Args, context: GraphqlContext) => empty(context),
      reviewWorkflowsWorkflows_connection: (_p: unknown, _a: Args, context: GraphqlContext) => emptyConnection(context),
      reviewWorkflowsWorkflowStages_connection: (_p: unknown, _a: Args, context: GraphqlContext) => emptyConnection(context),
      reviewWorkflowsWorkflow: (_p: unknown, _a: Args, context: GraphqlContext) => (empty(context), null),
      reviewWorkflowsWorkflowStage: (_p: unknown, _a: Args, context: GraphqlContext) => (empty(context), null),
    },
    UsersPermissionsUser: {
      // The role is not a document attribute of Folio's user model: read per user (user lists are small and rare).
      role: async (parent: { id: number }, _a: Args, context: GraphqlContext) => {
        if (!context.caller.readable(ROLE_UID)) throw new GraphqlForbiddenError();
        const role = await deps.users.role(parent.id);
        return role ?? null;
      },
    },
    UsersPermissionsRole: {
      // Folio keeps a role's permissions as action names and its users on the users: not shown as documents here.
      permissions: () => [],
      permissions_connection: () => ({ nodes: [] }),
      users: () => [],
      users_connection: () => ({ nodes: [] }),
    },
  };
}

export type { GraphQLResolveInfo };
