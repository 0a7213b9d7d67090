/**
 * Resolvers of Strapi's own plugin fields that are not shadow CRUD over Folio's documents:
 * i18n locales (read from the locales service), review workflows (Folio has none: empty),
 * a user's role, and `me`. Users-permissions mutations live in ./auth-resolvers.ts.
 */
import { createHash } from 'node:crypto';
import type { GraphQLResolveInfo } from 'graphql';
import type { Role } from '../auth/roles';
import { buildReadPlan, type PlanParams } from '../query/plan-builder';
import { REQUEST_LIMITS } from '../query/limits';
import type { Row } from '../query/row-reader';
import { ROLE_UID, USER_UID } from '../registry/system-models';
import { filtersOf, sliceOf, sortOf } from './arguments';
import { batched } from './batch';
import { FolioError } from '../errors';
import { GraphqlForbiddenError } from './errors';
import { rowMatches, sortRows } from './row-filters';
import { fieldKey, populateOf } from './selection';
import type { ResolverMap } from './resolvers';
import type { GraphqlContext, GraphqlDeps, GraphqlSettings } from './types';

type Args = Record<string, any>;

/** Strapi's permission type: no role can be granted its `find`, so only API tokens that read everything see permissions. */
const PERMISSION_UID = 'plugin::users-permissions.permission';

/** A stable documentId for a role's grant of an action (24 characters of cuid2's alphabet, a letter first). */
const permissionDocumentId = (role: string, action: string) =>
  `p${BigInt(`0x${createHash('sha256').update(`${role}\0${action}`).digest('hex')}`)
    .toString(36)
    .slice(0, 23)}`;

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
  const pageInfo = ({ start, limit, total }: { start: number; limit: number; total: number }) => ({
    total,
    page: Math.floor(start / limit) + 1,
    pageSize: limit,
    pageCount: Math.ceil(total / limit),
  });
  // Review workflows are Strapi's admin feature: no role can be granted them, and Folio keeps none.
  const WORKFLOWS = 'plugin::review-workflows.workflows.find';
  const empty = (context: GraphqlContext) => {
    authorize(context, WORKFLOWS);
    return [];
  };
  const emptyConnection = (context: GraphqlContext) => ({
    nodes: empty(context),
    pageInfo: { total: 0, page: 1, pageSize: limits.defaultLimit, pageCount: 0 },
  });

  /**
   * Strapi's mutations Folio does not run through GraphQL: roles and users are managed in
   * Folio Admin and the CLI, and Folio keeps no review workflows. The caller without the
   * action gets Strapi's FORBIDDEN; one with it (a full-access token) an application error
   * saying so, rather than a silent null.
   */
  function notKept(field: string, action: string) {
    return {
      [field]: (_p: unknown, _a: Args, context: GraphqlContext) => {
        authorize(context, action);
        throw new FolioError(400, 'ApplicationError', `${field} is not available through Folio's GraphQL`);
      },
    };
  }

  /**
   * A role's permissions, as Strapi's documents of `plugin::users-permissions.permission`:
   * Folio keeps them as action names per role, so the level's roles are read together and
   * `filters`, `sort` and `pagination` apply to those rows here (./row-filters.ts). Their
   * documentId is made from the role's and the action (stable, not stored).
   */
  async function permissionsOf(role: Role, args: Args, context: GraphqlContext) {
    if (!context.caller.can(`${PERMISSION_UID}.find`)) throw new GraphqlForbiddenError();
    const all = await batched(context, 'role.permissions', role.id, async (ids) => {
      const byRole = new Map<number, { roleId: number; action: string; createdAt: string }[]>();
      for (const p of await deps.roles.permissionsOfRoles(ids)) byRole.set(p.roleId, [...(byRole.get(p.roleId) ?? []), p]);
      return byRole;
    });
    const rows = (all ?? []).map((p) => ({
      documentId: permissionDocumentId(role.documentId, p.action),
      action: p.action,
      role,
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
      publishedAt: p.createdAt,
    }));
    const { start, limit } = sliceOf(args.pagination, limits);
    return sortRows(
      rows.filter((r) => rowMatches(r, args.filters)),
      sortOf(args.sort) as string[] | undefined,
    ).slice(start, start + limit);
  }

  /** A role's users: the level's roles' user ids in one read, then those users read as documents with the field's selection. */
  async function usersOf(role: Role, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) {
    const user = deps.registry.contentType(USER_UID);
    if (!user || !context.caller.readable(USER_UID)) throw new GraphqlForbiddenError();
    const node = info.fieldNodes[0]!;
    const byRole = await batched(
      context,
      `role.users:${fieldKey(deps.registry, deps.registry.contentType(ROLE_UID)!, 'users', args)}`,
      role.id,
      async (roleIds) => {
        const links = await deps.roles.usersOfRoles(roleIds);
        const found = new Map<number, Row[]>();
        if (links.length === 0) return found;
        const ids = links.map((l) => l.userId);
        const byId = { id: { $in: ids } };
        const filters: NonNullable<PlanParams['filters']> = args.filters ? { $and: [byId, filtersOf(deps.registry, user, args.filters)] } : byId;
        const sets = node.selectionSet ? [node.selectionSet] : [];
        const ctx = {
          schema: info.schema,
          fragments: info.fragments,
          variables: info.variableValues,
          registry: deps.registry,
          canRead: (uid: string) => context.caller.readable(uid),
        };
        const query = buildReadPlan(
          deps.registry,
          user,
          {
            filters,
            ...(sortOf(args.sort) ? { sort: sortOf(args.sort) } : {}),
            pagination: { start: 0, limit: -1, withCount: false },
            populate: populateOf(ctx, user, 'UsersPermissionsUser', sets),
          },
          {
            defaultLocale: await deps.locales.defaultCode(),
            limits: { defaultLimit: limits.defaultLimit, maxLimit: REQUEST_LIMITS.responseEntries },
            canRead: ctx.canRead,
          },
        );
        const users = new Map((await deps.documents.findMany(user, query)).data.map((u) => [u.id as number, u]));
        const roleOf = new Map(links.map((l) => [l.userId, l.roleId]));
        // In the read's order (its sort), each under its role.
        for (const [id, row] of users) {
          const roleId = roleOf.get(id)!;
          found.set(roleId, [...(found.get(roleId) ?? []), row]);
        }
        return found;
      },
    );
    const { start, limit } = sliceOf(args.pagination, limits);
    return (byRole ?? []).slice(start, start + limit);
  }

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
    Mutation: {
      // The upload plugin's own mutations (uploads themselves stay on REST), under its actions.
      updateUploadFile: async (_p: unknown, args: Args, context: GraphqlContext) => {
        authorize(context, 'plugin::upload.content-api.upload');
        const { name, alternativeText, caption } = (args.info ?? {}) as Record<string, string | null | undefined>;
        return deps.uploads().updateInfo(String(args.id), { name, alternativeText, caption });
      },
      deleteUploadFile: async (_p: unknown, args: Args, context: GraphqlContext) => {
        authorize(context, 'plugin::upload.content-api.destroy');
        return (await deps.uploads().remove(String(args.id))) ?? null;
      },
      ...notKept('createUsersPermissionsRole', `${ROLE_UID}.createRole`),
      ...notKept('updateUsersPermissionsRole', `${ROLE_UID}.updateRole`),
      ...notKept('deleteUsersPermissionsRole', `${ROLE_UID}.deleteRole`),
      ...notKept('createUsersPermissionsUser', `${USER_UID}.create`),
      ...notKept('updateUsersPermissionsUser', `${USER_UID}.update`),
      ...notKept('deleteUsersPermissionsUser', `${USER_UID}.destroy`),
      ...Object.assign(
        {},
        ...['Workflow', 'WorkflowStage'].flatMap((type) =>
          ['create', 'update', 'delete'].map((verb) =>
            notKept(`${verb}ReviewWorkflows${type}`, `plugin::review-workflows.${type === 'Workflow' ? 'workflow' : 'stage'}.${verb}`),
          ),
        ),
      ),
    },
    UsersPermissionsUser: {
      // The role is not a document attribute of Folio's user model: the roles of a level's users in one read.
      role: async (parent: { id: number }, _a: Args, context: GraphqlContext) => {
        if (!context.caller.readable(ROLE_UID)) throw new GraphqlForbiddenError();
        return (await batched(context, 'user.role', parent.id, (ids) => deps.users.rolesOf(ids))) ?? null;
      },
    },
    UsersPermissionsRole: {
      permissions: (parent: Role, args: Args, context: GraphqlContext) => permissionsOf(parent, args, context),
      permissions_connection: async (parent: Role, args: Args, context: GraphqlContext) => ({ nodes: await permissionsOf(parent, args, context) }),
      users: (parent: Role, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => usersOf(parent, args, context, info),
      users_connection: async (parent: Role, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => ({
        nodes: await usersOf(parent, args, context, info),
      }),
    },
    UsersPermissionsPermission: {
      role: (parent: { role: Role }, _a: Args, context: GraphqlContext) => {
        if (!context.caller.readable(ROLE_UID)) throw new GraphqlForbiddenError();
        return parent.role;
      },
    },
  };
}

export type { GraphQLResolveInfo };
