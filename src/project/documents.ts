/**
 * `strapi.documents(uid)`: Strapi 5's document service over Folio's. Reads are the document
 * service's Strapi-style reads (documents/read/hooked.ts: through the document middlewares and
 * the read lifecycles, drafts by default, every match without a limit); writes are the write
 * pipeline's operations (which run the middlewares and lifecycles themselves), with actor
 * `project`. Inside an open write (a lifecycle handler) a write joins it and a read reads
 * through its transaction, as Strapi's nested transactions do.
 */
import type { Instance } from '../instance';
import { currentWrite, type Actor } from '../documents/write/context';
import type { DocumentMiddleware } from '../documents/write/hooks';
import type { Written } from '../documents/service';
import { buildReadPlan } from '../query/plan-builder';
import type { ContentType } from '../registry/types';
import { NotFoundError } from './strapi-errors';

type Params = Record<string | symbol, any>;

/** A sanitized query carries the caller's readable types to the plan (populate leaves the others out, as Strapi's sanitizer does). */
export const CAN_READ = Symbol('folio.canRead');
/** What CAN_READ depends on (the caller's grants key): reads then reuse their plans. */
export const CAN_READ_KEY = Symbol('folio.canReadKey');
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

type Entry = Record<string, unknown>;
const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Strapi's document service answers `locale: null` on an entry of a type without i18n (the
 * column is there, empty), after `publishedAt`, populated relations' entries included; an
 * entry read with `fields` has only what they name. Strapi's users, roles and files are left as they are.
 */
export function withLocales(ct: ContentType, value: unknown, params: { fields?: unknown; populate?: unknown }): unknown {
  if (Array.isArray(value)) return value.map((v) => withLocales(ct, v, params));
  if (!isEntry(value)) return value;
  // A copy: what the read answered is left as it is.
  const entry: Entry = {};
  const addLocale = !ct.localized && !ct.system && params.fields === undefined && !('locale' in value);
  for (const [key, v] of Object.entries(value)) {
    entry[key] = v;
    if (addLocale && key === 'publishedAt') entry.locale = null;
  }
  if (addLocale && !('locale' in entry)) entry.locale = null;
  for (const [name, attribute] of Object.entries(ct.attributes)) {
    if (attribute.kind !== 'relation' || entry[name] === null || entry[name] === undefined) continue;
    const populate = isEntry(params.populate) ? params.populate[name] : undefined;
    entry[name] = withLocales(attribute.targetType, entry[name], isEntry(populate) ? populate : {});
  }
  return entry;
}

export function createDocuments(instance: Instance): DocumentsFn {
  const { documents, registry, locales } = instance;
  const readOptions = (params: Params) => ({
    canRead: params?.[CAN_READ] as ((uid: string) => boolean) | undefined,
    canReadKey: params?.[CAN_READ_KEY] as string | undefined,
  });

  /** A version as it stands now (in the open write, when there is one), shaped by the call's fields/populate. */
  const version = async (ct: ContentType, key: { documentId: string; status: 'draft' | 'published'; locale?: string }, params: Params) => {
    const query = buildReadPlan(
      registry,
      ct,
      {
        fields: params.fields,
        populate: params.populate,
        ...(ct.draftAndPublish ? { status: key.status } : {}),
        locale: key.locale || undefined,
      },
      { defaultLocale: await locales.defaultCode(), canRead: params[CAN_READ] },
    );
    return documents.findOne(ct, key.documentId, query, currentWrite()?.tx);
  };
  /** What a write produced, as the document service answers it. */
  const answer = (ct: ContentType, written: Written | null, params: Params) => (written ? version(ct, written, params) : Promise.resolve(null));
  const writeOptions = (params: Params) => ({
    status: (params.status === 'published' ? 'published' : 'draft') as 'draft' | 'published',
    locale: typeof params.locale === 'string' ? params.locale : undefined,
    actor: PROJECT_ACTOR,
  });
  /** The versions of a document in a locale ('*': all) before a delete removes them: Strapi answers them. */
  const versionsOf = async (ct: ContentType, documentId: string, params: Params) => {
    const statuses = ct.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const);
    const rows = [];
    for (const status of statuses) {
      const query = buildReadPlan(
        registry,
        ct,
        {
          filters: { documentId: { $eq: documentId } },
          fields: params.fields,
          populate: params.populate,
          ...(ct.draftAndPublish ? { status } : {}),
          locale: params.locale,
          pagination: { start: 0, limit: 100 },
        },
        { defaultLocale: await locales.defaultCode(), limits: { defaultLimit: 100, maxLimit: 100 } },
      );
      rows.push(...(await documents.findMany(ct, query, currentWrite()?.tx)).data);
    }
    return rows;
  };

  const fn = ((uid: string) => {
    const ct = contentTypeOf(instance, uid);
    const single = async (params: Params) =>
      params.documentId ?? (ct.kind === 'singleType' ? await documents.singleDocumentId(ct, currentWrite()?.tx) : undefined);
    const shaped = (params: Params) => (value: unknown) => withLocales(ct, value, params);
    const entries = (params: Params) => (result: { documentId: unknown; entries: unknown[] }) => ({ ...result, entries: result.entries.map(shaped(params)) });
    return {
      findMany: (params: Params = {}) => documents.reads.findMany(ct, params, readOptions(params)).then(shaped(params)),
      findFirst: (params: Params = {}) => documents.reads.findFirst(ct, params, readOptions(params)).then(shaped(params)),
      findOne: (params: Params = {}) => documents.reads.findOne(ct, params, readOptions(params)).then(shaped(params)),
      count: (params: Params = {}) => documents.reads.count(ct, params, readOptions(params)),
      create: async (params: Params = {}) => shaped(params)(await answer(ct, await documents.create(ct, params.data ?? {}, writeOptions(params)), params)),
      update: async (params: Params = {}) => {
        const documentId = await single(params);
        if (!documentId) return null;
        return shaped(params)(await answer(ct, await documents.update(ct, documentId, params.data ?? {}, writeOptions(params)), params));
      },
      delete: async (params: Params = {}) => {
        const documentId = await single(params);
        if (!documentId) return { documentId: null, entries: [] };
        const found = await versionsOf(ct, documentId, params);
        await documents.delete(ct, documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return entries(params)({ documentId, entries: found });
      },
      publish: async (params: Params = {}) => {
        const written = await documents.publish(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return entries(params)({ documentId: params.documentId, entries: written ? [await answer(ct, written, params)] : [] });
      },
      unpublish: async (params: Params = {}) => {
        const documentId = await single(params);
        const found = documentId && ct.draftAndPublish ? (await versionsOf(ct, documentId, params)).filter((row) => row.publishedAt) : [];
        await documents.unpublish(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return entries(params)({ documentId: params.documentId, entries: found });
      },
      discardDraft: async (params: Params = {}) => {
        const written = await documents.discardDraft(ct, params.documentId, { locale: params.locale, actor: PROJECT_ACTOR });
        return entries(params)({ documentId: params.documentId, entries: written ? [await answer(ct, written, params)] : [] });
      },
    };
  }) as unknown as DocumentsFn;
  fn.use = (middleware) => {
    documents.hooks.use(middleware);
    return fn;
  };
  return fn;
}
