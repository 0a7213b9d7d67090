/**
 * Shadow CRUD mutations with Strapi's semantics, through the public DocumentService methods:
 *
 *  - createArticle(data, status, locale): the document (a draft only with status: DRAFT);
 *  - updateArticle(documentId, data, status, locale): null for an unknown documentId;
 *  - deleteArticle(documentId, locale): the default locale's versions (Strapi ignores `locale`),
 *    `{ documentId }` echoed even for an unknown one;
 *  - updateGlobal / deleteGlobal for single types (create-or-update, and the given locale).
 *
 * Relation inputs are plain documentId lists (or one documentId) that replace the relation; a
 * relation to a type the caller may not find is left out of the write, as Strapi's sanitized input leaves it;
 * media and component ids arrive as GraphQL IDs (strings) and are given as row ids. The answer
 * is read back with the mutation's own selection, batched like a query.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { AnyModel, ContentType, Registry } from '../registry/types';
import { buildReadPlan, type PlanOptions, type PopulateOptions } from '../query/plan-builder';
import type { Row } from '../query/row-reader';
import { withoutRestrictedRelations } from '../documents/relations/restricted';
import { isObject } from '../json';
import { actorOf } from '../auth/access';
import { statusOf } from './arguments';
import { GraphqlForbiddenError } from './errors';
import { typeName } from './names';
import type { ResolverMap } from './resolvers';
import type { SchemaText } from './schema-text';
import { populateOf } from './selection';
import type { GraphqlContext, GraphqlDeps } from './types';

const digits = (value: unknown) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value);

/** A `…Input` value as the document service takes it. */
function dataOf(registry: Registry, model: AnyModel, input: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isObject(input)) return out;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    // Strapi ignores both on writes: the status and locale arguments choose the version.
    if (model.modelType === 'contentType' && (key === 'publishedAt' || key === 'locale')) continue;
    if (model.modelType === 'component' && key === 'id') {
      out.id = digits(value);
      continue;
    }
    const attribute = model.attributes[key];
    if (attribute?.kind === 'media') out[key] = Array.isArray(value) ? value.map(digits) : digits(value);
    else if (attribute?.kind === 'component' && value !== null) {
      const component = attribute.componentModel;
      out[key] = Array.isArray(value) ? value.map((v) => dataOf(registry, component, v)) : dataOf(registry, component, value);
    } else out[key] = value;
  }
  return out;
}

export function mutationResolvers(text: SchemaText, deps: GraphqlDeps): ResolverMap {
  const { registry, documents } = deps;
  const out: Record<string, (parent: unknown, args: Record<string, any>, context: GraphqlContext, info: GraphQLResolveInfo) => unknown> = {};

  /** The written version, read back with the mutation's selection (one batched read). */
  async function answer(
    ct: ContentType,
    written: { documentId: string; locale: string; status: 'draft' | 'published' },
    context: GraphqlContext,
    info: GraphQLResolveInfo,
  ) {
    const ctx = {
      schema: info.schema,
      fragments: info.fragments,
      variables: info.variableValues,
      registry,
      canRead: (uid: string) => context.caller.readable(uid),
    };
    const sets = info.fieldNodes.map((n) => n.selectionSet).filter((s) => !!s);
    const populate = populateOf(ctx, ct, typeName(ct), sets);
    const localizations = Object.entries(populate).filter(([key, spec]) => (spec === true ? key : (spec.attribute ?? key)) === 'localizations');
    for (const [key] of localizations) delete populate[key];
    const options = { defaultLocale: await deps.locales.defaultCode(), canRead: (uid: string) => context.caller.readable(uid) };
    const query = buildReadPlan(
      registry,
      ct,
      {
        status: written.status,
        ...(ct.localized ? { locale: written.locale } : {}),
        populate,
      },
      options,
    );
    const row = await documents.findOne(ct, written.documentId, query);
    for (const [key, spec] of row ? localizations : []) row![key] = await versionsBeside(ct, row!, spec === true ? {} : spec, options);
    return row;
  }

  /**
   * `localizations` of a mutation's answer, as Strapi reads it there (no query status applies
   * to a mutation's relations): every other version of the document, drafts and published
   * versions of every locale, in the order they were written.
   */
  async function versionsBeside(ct: ContentType, row: Row, spec: PopulateOptions, options: PlanOptions) {
    const filters = { $and: [{ documentId: { $eq: row.documentId as string } }, ...(spec.filters ? [spec.filters] : [])] };
    const statuses: ('draft' | 'published')[] = ct.draftAndPublish ? ['draft', 'published'] : ['published'];
    const reads = await Promise.all(
      statuses.map((status) =>
        documents.findMany(
          ct,
          buildReadPlan(
            registry,
            ct,
            {
              status,
              locale: '*',
              filters,
              pagination: { start: 0, limit: -1, withCount: false },
              ...(spec.sort ? { sort: spec.sort } : {}),
              ...(spec.populate ? { populate: spec.populate } : {}),
            },
            { ...options, limits: { defaultLimit: 100, maxLimit: 1000 } },
          ),
        ),
      ),
    );
    const versions = reads.flatMap((r) => r.data).filter((v) => v.id !== row.id);
    return spec.sort ? versions : versions.sort((a, b) => (a.id as number) - (b.id as number));
  }

  for (const [name, { kind, ct, action }] of text.roots.Mutation) {
    const authorize = (context: GraphqlContext) => {
      if (!context.caller.can(action)) throw new GraphqlForbiddenError();
    };
    const options = (args: Record<string, any>, context: GraphqlContext) => ({
      status: statusOf(args.status),
      ...(ct.localized && args.locale ? { locale: args.locale as string } : {}),
      actor: actorOf(context.caller.principal, context.caller.client),
    });
    // Relations to types the caller may not find are left out, as Strapi's sanitized input leaves them.
    const data = (args: Record<string, any>, context: GraphqlContext) =>
      withoutRestrictedRelations(ct, dataOf(registry, ct, args.data), (uid) => context.caller.can(`${uid}.find`));
    out[name] = async (_parent, args, context, info) => {
      authorize(context);
      switch (kind) {
        case 'create': {
          const written = await documents.create(ct, data(args, context), options(args, context));
          return answer(ct, written, context, info);
        }
        case 'update': {
          const written = await documents.update(ct, String(args.documentId), data(args, context), options(args, context));
          return written ? answer(ct, written, context, info) : null;
        }
        case 'updateSingle': {
          const written = await documents.upsertSingle(ct, data(args, context), options(args, context));
          return answer(ct, written, context, info);
        }
        case 'delete':
          await documents.delete(ct, String(args.documentId), { actor: actorOf(context.caller.principal, context.caller.client) });
          return { documentId: args.documentId };
        case 'deleteSingle': {
          const documentId = await documents.singleDocumentId(ct);
          const actor = actorOf(context.caller.principal, context.caller.client);
          if (documentId) await documents.delete(ct, documentId, ct.localized && args.locale ? { locale: args.locale, actor } : { actor });
          return { documentId: documentId ?? '' };
        }
        default:
          return null;
      }
    };
  }
  return { Mutation: out };
}
