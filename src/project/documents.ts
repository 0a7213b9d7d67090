/**
 * `strapi.documents(uid)`: Strapi 5's document service over Folio's. Reads go through the
 * document middlewares (`hooks.around`) and then a plan built from Strapi's params
 * (query/plan-builder.ts: filters, fields, populate, sort, pagination or start/limit, status,
 * locale); writes are the write pipeline's operations (which run the middlewares and
 * lifecycles themselves), with actor `project`. Strapi's defaults: the document service reads
 * and writes drafts unless `status: 'published'` is given; without pagination a read returns
 * every match (bounded here by PROJECT_READ_LIMIT).
 */
import type { Instance } from '../instance';
import type { Actor } from '../documents/write/context';
import type { DocumentAction, DocumentMiddleware } from '../documents/write/hooks';
import { buildReadPlan, type PlanParams } from '../query/plan-builder';
import { READ_PARAMETERS } from '../query/parse';
import type { ReadQuery } from '../query/types';
import type { ContentType } from '../registry/types';
import { NotFoundError } from './strapi-errors';

type Params = Record<string, any>;

/** The most rows one project read returns without pagination (Strapi returns all; every buffer here is bounded). */
export const PROJECT_READ_LIMIT = 10_000;
const LIMITS = { defaultLimit: PROJECT_READ_LIMIT, maxLimit: PROJECT_READ_LIMIT };
/** A sanitized query carries the caller's readable types to the plan (populate leaves the others out, as Strapi's sanitizer does). */
export const CAN_READ = Symbol('folio.canRead');
export const PROJECT_ACTOR: Actor = Object.freeze({ kind: 'project' as const });

export interface DocumentsFn {
  (uid: string): Record<string, (params?: Params) => Promise<any>>;
  use(middleware: DocumentMiddleware): DocumentsFn;
}

export function contentTypeOf(instance: Pick<Instance, 'registry'>, uid: string): ContentType {
  const ct = instance.registry.contentTypes.find((c) => c.uid === uid);
  if (!ct) throw new NotFoundError(`Content type "${uid}" not found`);
  return ct;
}

/** Strapi's document-service params → the plan builder's (status defaults to draft, start/limit → pagination). */
export function planParams(ct: ContentType, params: Params, defaults: { status?: 'draft' | 'published' } = {}): PlanParams {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params ?? {})) if (READ_PARAMETERS.has(key) && value !== undefined) out[key] = value;
  const { start, limit, page, pageSize } = params ?? {};
  if (out.pagination === undefined) {
    if (start !== undefined || limit !== undefined) out.pagination = { start: Number(start ?? 0), limit: limit === undefined ? PROJECT_READ_LIMIT : Number(limit) };
    else if (page !== undefined || pageSize !== undefined) out.pagination = { page: Number(page ?? 1), pageSize: Number(pageSize ?? 25) };
    else out.pagination = { start: 0, limit: PROJECT_READ_LIMIT };
  }
  if (out.status === undefined && ct.draftAndPublish) out.status = defaults.status ?? 'draft';
  if (!ct.draftAndPublish) delete out.status;
  return out as PlanParams;
}

export function createDocuments(instance: Instance): DocumentsFn {
  const { documents, registry, locales } = instance;
  const plan = async (ct: ContentType, params: Params): Promise<ReadQuery> =>
    buildReadPlan(registry, ct, planParams(ct, params), { defaultLocale: await locales.defaultCode(), limits: LIMITS, canRead: (params as any)[CAN_READ] });
  const read = <T>(action: DocumentAction, ct: ContentType, params: Params, run: (p: Params) => Promise<T>) =>
    documents.hooks.around(action, ct, { ...(params ?? {}) }, run);

  /** Reads back what a write produced, shaped by the call's fields/populate. */
  const answer = async (ct: ContentType, written: { documentId: string; status: 'draft' | 'published'; locale?: string } | null, params: Params) => {
    if (!written) return null;
    const query = await plan(ct, { fields: params.fields, populate: params.populate, status: written.status, locale: written.locale || undefined, [CAN_READ]: (params as any)[CAN_READ] });
    return documents.findOne(ct, written.documentId, query);
  };
  const writeOptions = (params: Params) => ({
    status: (params.status === 'published' ? 'published' : 'draft') as 'draft' | 'published',
    locale: typeof params.locale === 'string' ? params.locale : undefined,
    actor: PROJECT_ACTOR,
  });

  const fn = ((uid: string) => {
    const ct = contentTypeOf(instance, uid);
    return {
      findMany: (params: Params = {}) => read('findMany', ct, params, async (p) => (await documents.findMany(ct, await plan(ct, p))).data),
      findFirst: (params: Params = {}) =>
        read('findFirst', ct, params, async (p) => (await documents.findMany(ct, await plan(ct, { ...p, start: 0, limit: 1, pagination: undefined }))).data[0] ?? null),
      findOne: (params: Params = {}) =>
        read('findOne', ct, params, async (p) => {
          const { documentId, ...rest } = p;
          if (ct.kind === 'collectionType' && !documentId) return null;
          return (await documents.findOne(ct, documentId, await plan(ct, rest))) ?? null;
        }),
      count: (params: Params = {}) =>
        read('count', ct, params, async (p) => {
          const { pagination } = await documents.findMany(ct, await plan(ct, { ...p, fields: ['documentId'], populate: undefined, sort: undefined, pagination: { start: 0, limit: 1, withCount: true } }));
          return (pagination as { total?: number }).total ?? 0;
        }),
      create: async (params: Params = {}) => {
        const written = await documents.create(ct, params.data ?? {}, writeOptions(params));
        return answer(ct, written, params);
      },
      update: async (params: Params = {}) => {
        const documentId = params.documentId ?? (ct.kind === 'singleType' ? await documents.singleDocumentId(ct) : undefined);
        if (!documentId) return null;
        return answer(ct, await documents.update(ct, documentId, params.data ?? {}, writeOptions(params)), params);
      },
      delete: async (params: Params = {}) => {
        const documentId = params.documentId ?? (ct.kind === 'singleType' ? await documents.singleDocumentId(ct) : undefined);
        if (!documentId) return { documentId: null, entries: [] };
        const count = await documents.delete(ct, documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return { documentId, entries: Array.from({ length: count }, () => ({ documentId })) };
      },
      publish: async (params: Params = {}) => {
        const written = await documents.publish(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return { documentId: params.documentId, entries: written ? [await answer(ct, written, params)] : [] };
      },
      unpublish: async (params: Params = {}) => {
        const written = await documents.unpublish(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return { documentId: params.documentId, entries: written ? [{ documentId: params.documentId }] : [] };
      },
      discardDraft: async (params: Params = {}) => {
        const written = await documents.discardDraft(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return { documentId: params.documentId, entries: written ? [await answer(ct, written, params)] : [] };
      },
    };
  }) as unknown as DocumentsFn;
  fn.use = (middleware) => {
    documents.hooks.use(middleware);
    return fn;
  };
  return fn;
}
