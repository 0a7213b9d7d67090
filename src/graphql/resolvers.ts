/**
 * The resolvers of the generated schema. A root query builds one read plan for its whole
 * selection (./selection.ts → query/plan-builder.ts) and runs it once through the document
 * service; nested resolvers read what that plan populated from their parent row, slice
 * nested lists by their `pagination`, and answer FORBIDDEN for relations the caller may not
 * read (Strapi's per-row errors). Each field reads its parent's value under its fieldKey
 * (./selection.ts), so aliases of one relation with different arguments are batched too.
 */
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { AnyModel, ContentType } from '../registry/types';
import { FILE_UID } from '../registry/system-models';
import { buildReadPlan, type PlanParams } from '../query/plan-builder';
import type { ReadQuery } from '../query/types';
import type { Row } from '../query/row-reader';
import { filtersOf, paginationOf, publicationOf, sliceOf, sortOf, statusOf } from './arguments';
import { GraphqlForbiddenError } from './errors';
import { componentTypeName, typeName } from './names';

import type { RootField, SchemaText } from './schema-text';
import { collectFields, fieldKey, populateOf, scalarsOf, type SelectionContext } from './selection';
import type { GraphqlContext, GraphqlDeps, GraphqlSettings } from './types';

type Resolver = (parent: any, args: Record<string, any>, context: GraphqlContext, info: GraphQLResolveInfo) => unknown;
export type ResolverMap = Record<string, Record<string, Resolver>>;

/**
 * `narrow`: whether a root query's plan may read only the scalars its selection shows (no
 * extension resolver or resolver config could read a row's other fields; selection.ts scalarsOf).
 */
export function buildResolvers(text: SchemaText, deps: GraphqlDeps, settings: GraphqlSettings, narrow = false): ResolverMap {
  const { registry, documents } = deps;
  const limits = { defaultLimit: settings.defaultLimit, maxLimit: settings.maxLimit > 0 ? settings.maxLimit : Number.MAX_SAFE_INTEGER };
  const resolvers: ResolverMap = { Query: {}, Mutation: {} };

  const selection = (context: GraphqlContext, info: GraphQLResolveInfo, narrowed = false): SelectionContext => ({
    schema: info.schema,
    fragments: info.fragments,
    variables: info.variableValues,
    registry,
    canRead: (uid) => context.caller.readable(uid),
    narrow: narrowed && narrow,
  });

  const rootSets = (info: GraphQLResolveInfo) => info.fieldNodes.map((n) => n.selectionSet).filter((s) => !!s);

  /**
   * A root field's arguments as the document service's params (Strapi's resolvers pass the
   * same): status, publicationFilter, locale, filters, sort.
   */
  function argumentParams(ct: ContentType, args: Record<string, any>) {
    const publicationFilter = publicationOf(args);
    const sort = sortOf(args.sort);
    return {
      status: statusOf(args.status),
      ...(publicationFilter ? { publicationFilter } : {}),
      ...(args.locale ? { locale: args.locale } : {}),
      ...(args.filters ? { filters: filtersOf(registry, ct, args.filters) } : {}),
      ...(sort ? { sort } : {}),
    };
  }

  /** The plan of a root field over `ct`: its arguments and the populate tree of its selection. */
  async function plan(
    context: GraphqlContext,
    ct: ContentType,
    args: Record<string, any>,
    { populate, fields }: Pick<PlanParams, 'populate' | 'fields'>,
    withCount: boolean,
  ): Promise<ReadQuery> {
    const params: PlanParams = {
      ...argumentParams(ct, args),
      pagination: { ...paginationOf(args.pagination), withCount },
      populate,
      ...(fields ? { fields } : {}),
    };
    return buildReadPlan(registry, ct, params, {
      defaultLocale: await deps.locales.defaultCode(),
      limits,
      canRead: (uid) => context.caller.readable(uid),
      // Strapi's relation resolvers take the root query's publicationFilter too.
      inheritPublicationFilter: true,
    });
  }

  /** What a connection's selection reads: the populate tree of its `nodes`, and whether it asks for `pageInfo`. */
  function connectionSelection(context: GraphqlContext, ct: ContentType, info: GraphQLResolveInfo, narrowed = false) {
    const ctx = selection(context, info, narrowed);
    const collection = String(info.returnType).replace(/!$/, '');
    const fields = rootSets(info).length ? collectFields(ctx, collection, rootSets(info)) : [];
    const nodeSets = fields.filter((f) => f.name.value === 'nodes' && f.selectionSet).map((f) => f.selectionSet!);
    return {
      populate: populateOf(ctx, ct, typeName(ct), nodeSets),
      fields: scalarsOf(ctx, ct, typeName(ct), nodeSets),
      wantsTotal: fields.some((f) => f.name.value === 'pageInfo'),
    };
  }

  function authorize(context: GraphqlContext, action: string | undefined) {
    if (!action || !context.caller.can(action)) throw new GraphqlForbiddenError();
  }

  /**
   * The plan of a root field, kept as REST's are (query/caches.ts: by the caller's grants until
   * a settings write) under the operation's text, the field's place in it and the variables,
   * so a repeated query reuses the plan and its compiled statements.
   */
  function rootPlan(context: GraphqlContext, ct: ContentType, info: GraphQLResolveInfo, build: () => Promise<ReadQuery>): Promise<ReadQuery> {
    const { grants } = context.caller;
    if (!deps.plans || grants === undefined || context.operationKey === undefined) return build();
    return deps.plans(grants, ct.uid, `graphql\n${context.operationKey}\n${String(info.path.key)}\n${JSON.stringify(info.variableValues)}`, build);
  }

  /**
   * A root field read as Strapi's resolvers read it, through the document service
   * (documents.reads): what runs once a document middleware or a read lifecycle could see the
   * read. The params are Strapi's (`filters`, `sort`, `start`/`limit` from the pagination,
   * `status`, `locale`, `publicationFilter`), with the populate tree of the selection beside
   * them; a middleware that replaces the populate leaves the fields it drops to readOnItsOwn.
   */
  async function readThroughDocuments(context: GraphqlContext, ct: ContentType, kind: RootField['kind'], args: Record<string, any>, info: GraphQLResolveInfo) {
    const options = { canRead: (uid: string) => context.caller.readable(uid), canReadKey: context.caller.grants, inheritPublicationFilter: true };
    const params = argumentParams(ct, args);
    if (kind === 'connection' || kind === 'findMany') {
      const { start, limit } = sliceOf(args.pagination, limits);
      const list = { ...params, start, limit: limit === Infinity ? -1 : limit };
      if (kind === 'findMany')
        return documents.reads.findMany(ct, { ...list, populate: populateOf(selection(context, info), ct, typeName(ct), rootSets(info)) }, options);
      const { populate, wantsTotal } = connectionSelection(context, ct, info);
      const nodes = await documents.reads.findMany(ct, { ...list, populate }, options);
      const total = wantsTotal ? await documents.reads.count(ct, list, options) : 0;
      // Strapi's pagination resolver: limit -1 is one page of everything from start.
      const pageInfo =
        limit === Infinity
          ? { total, page: 1, pageSize: total - start, pageCount: 1 }
          : { total, page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit) };
      return { nodes, pageInfo };
    }
    const populate = populateOf(selection(context, info), ct, typeName(ct), rootSets(info));
    if (kind === 'single') return documents.reads.findFirst(ct, { ...params, populate }, options);
    return documents.reads.findOne(ct, { ...params, documentId: String(args.documentId), populate }, options);
  }

  function rootQuery(name: string, root: RootField) {
    const { ct, kind, action } = root;
    resolvers.Query![name] = async (_parent, args, context, info) => {
      authorize(context, action);
      if (documents.hooks.readsHooked(ct)) return readThroughDocuments(context, ct, kind, args, info);
      if (kind === 'connection') {
        const query = await rootPlan(context, ct, info, () => {
          const { populate, fields, wantsTotal } = connectionSelection(context, ct, info, true);
          return plan(context, ct, args, { populate, fields }, wantsTotal);
        });
        const { data, pagination } = await documents.findMany(ct, query);
        const { start, limit } = query.pagination;
        const total = pagination.total ?? 0;
        return {
          nodes: data,
          pageInfo: { total, page: Math.floor(start / limit) + 1, pageSize: limit, pageCount: Math.ceil(total / limit) },
        };
      }
      const read = () => {
        const ctx = selection(context, info, true);
        return { populate: populateOf(ctx, ct, typeName(ct), rootSets(info)), fields: scalarsOf(ctx, ct, typeName(ct), rootSets(info)) };
      };
      if (kind === 'findMany') {
        const { data } = await documents.findMany(ct, await rootPlan(context, ct, info, () => plan(context, ct, args, read(), false)));
        return data;
      }
      const one = { status: args.status, locale: args.locale, publicationFilter: args.publicationFilter, hasPublishedVersion: args.hasPublishedVersion };
      const query = await rootPlan(context, ct, info, () => plan(context, ct, one, read(), false));
      return documents.findOne(ct, kind === 'single' ? undefined : String(args.documentId), query);
    };
  }

  for (const [name, root] of text.roots.Query) rootQuery(name, root);

  /**
   * A field its parent holds no read for (a parent an extension's resolver answered): read for
   * this parent alone, in the parent's own locale and status.
   */
  async function readOnItsOwn(parentModel: AnyModel, parent: Row, key: string, info: GraphQLResolveInfo, context: GraphqlContext) {
    if (parentModel.modelType !== 'contentType' || typeof parent.documentId !== 'string') return undefined;
    const ctx = selection(context, info);
    const populate = populateOf(ctx, parentModel, typeName(parentModel), [{ kind: 'SelectionSet' as never, selections: info.fieldNodes }]);
    if (!populate[key]) return undefined;
    const query = buildReadPlan(
      registry,
      parentModel,
      {
        status: parent.publishedAt ? 'published' : 'draft',
        ...(parentModel.localized && typeof parent.locale === 'string' ? { locale: parent.locale } : {}),
        populate: { [key]: populate[key] },
      },
      { defaultLocale: await deps.locales.defaultCode(), limits, canRead: (uid) => context.caller.readable(uid) },
    );
    const row = await documents.findOne(parentModel, parent.documentId, query);
    return row?.[key];
  }

  /**
   * What a nested field reads: the value its parent holds under the field's key, synchronously
   * (the usual case: graphql-js then needs no promise per row and field), or, when none is
   * there, its own read.
   */
  function nested(model: AnyModel, parent: Row, attribute: string, args: Record<string, any>, info: GraphQLResolveInfo, context: GraphqlContext): unknown {
    const node = info.fieldNodes[0]!;
    let key = context.keys.get(node);
    if (key === undefined) context.keys.set(node, (key = fieldKey(registry, model, attribute, args)));
    if (!(key in parent)) return readOnItsOwn(model, parent, key, info, context);
    return parent[key];
  }

  /** `f(value)`, after `value` settles when it is a promise. */
  const then = <T>(value: unknown, f: (v: unknown) => T): T | Promise<T> => (value instanceof Promise ? value.then(f) : f(value));

  const page = (list: unknown, args: Record<string, any>) => {
    if (!Array.isArray(list)) return [];
    // No pagination (GraphQL's default `{}`): the first defaultLimit, the list itself when it is shorter.
    if (!args.pagination || Object.keys(args.pagination).length === 0) return list.length > limits.defaultLimit ? list.slice(0, limits.defaultLimit) : list;
    const { start, limit } = sliceOf(args.pagination, limits);
    return list.slice(start, start + limit);
  };

  for (const [type, model] of text.models) {
    const fields: Record<string, Resolver> = (resolvers[type] = {});
    const lists = (name: string, guard?: (context: GraphqlContext) => void, paged = true) => {
      const list: Resolver = (parent, args, context, info) => {
        guard?.(context);
        return then(nested(model, parent, name, args, info, context), (value) => (paged ? page(value, args) : Array.isArray(value) ? value : []));
      };
      fields[name] = list;
      fields[`${name}_connection`] = (parent, args, context, info) => then(list(parent, args, context, info), (nodes) => ({ nodes }));
    };
    const one = (name: string, guard?: (context: GraphqlContext) => void) => {
      fields[name] = (parent, args, context, info) => {
        guard?.(context);
        return then(nested(model, parent, name, args, info, context), (value) => value ?? null);
      };
    };
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'relation') {
        const target = attribute.target;
        const guard = (context: GraphqlContext) => {
          if (!context.caller.readable(target)) throw new GraphqlForbiddenError();
        };
        if (attribute.toMany) lists(attribute.name, guard);
        else one(attribute.name, guard);
      } else if (attribute.kind === 'media') {
        if (attribute.multiple) lists(attribute.name);
        else one(attribute.name);
      } else if (attribute.kind === 'component') {
        if (attribute.repeatable) lists(attribute.name);
        else one(attribute.name);
      } else if (attribute.kind === 'dynamiczone') {
        lists(attribute.name, undefined, false);
      } else if (attribute.kind === 'morph') {
        fields[attribute.name] = polymorphic;
      }
    }
    if (model.modelType === 'contentType' && model.localized) lists('localizations');
    if (model.uid === FILE_UID) fields.related = polymorphic;
  }

  return resolvers;
}

/**
 * A polymorphic relation (a morphTo side, `UploadFile.related`): Strapi 5.54.0's plugin fails
 * every read of one (its association resolver validates the query against the target's schema,
 * which a polymorphic relation has none of), answering null and this error per row. Folio answers
 * the same, so a front end sees what it sees on Strapi.
 */
const polymorphic = () => {
  throw new GraphQLError('Missing schema in validateQuery', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
};

/** Component uid → GraphQL type name, worked out once per uid (a zone item's type is asked for every item). */
const zoneTypes = new Map<string, string>();

/** A dynamic-zone item is the component its `__component` names; anything else is the Error type. */
export const zoneItemType = (value: any) => {
  const uid = value?.__component;
  if (typeof uid !== 'string') return 'Error';
  let name = zoneTypes.get(uid);
  if (name === undefined) {
    name = componentTypeName(uid);
    // Bounded by the components a schema has; a stray uid is not kept.
    if (zoneTypes.size < 10_000) zoneTypes.set(uid, name);
  }
  return name;
};
