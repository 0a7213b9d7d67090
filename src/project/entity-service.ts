/**
 * `strapi.entityService`: Strapi 4's API, which Strapi 5 keeps (deprecated) as a thin layer
 * over the document service and the query engine, addressing entries by row id — and which
 * code moved from Strapi 4 still calls (`strapi.entityService.findMany(uid, { filters,
 * populate })`, `update(uid, id, { data })` in a users-permissions extension). As Strapi 5.54.0
 * does it (`@strapi/core` services/entity-service):
 *   findMany   the document service's findMany (findFirst for a single type), params as given
 *   findOne    the row's documentId through the query engine, then the document service's findOne
 *   count      the document service's count
 *   create     the document service's create, published unless `data.publishedAt` is null on a
 *              draft & publish type
 *   update     the row's document updated, published unless that row is a draft
 *   delete     the row's document deleted; answers the row
 *   findPage   `{ results, pagination }` through the query engine
 *   load       one relation, component or media of an entry, through the query engine
 * A missing id answers null, as Strapi's.
 */
import { orderByOf } from '../documents/reads';
import type { ContentType } from '../registry/types';

type Params = Record<string, any>;

/** What the entity service stands on: the project's `strapi.documents` and `strapi.db.query`. */
export interface EntityServiceDeps {
  contentTypeOf(uid: string): ContentType;
  documents(uid: string): Record<string, (params?: Params) => Promise<any>>;
  query(uid: string): Record<string, (params?: Params) => Promise<any>>;
}

/** Whether `data` describes a draft on a type with draft & publish (Strapi's contentTypes.isDraft). */
const isDraft = (data: Params | null | undefined, ct: ContentType) => ct.draftAndPublish && data?.publishedAt === null;

export function createEntityService(deps: EntityServiceDeps) {
  const rowOf = (uid: string, id: unknown) => deps.query(uid).findOne!({ where: { id } });
  return {
    async findMany(uid: string, params: Params = {}) {
      const ct = deps.contentTypeOf(uid);
      return ct.kind === 'singleType' ? deps.documents(uid).findFirst!(params) : deps.documents(uid).findMany!(params);
    },
    async findOne(uid: string, id: unknown, params: Params = {}) {
      const row = await rowOf(uid, id);
      return row ? deps.documents(uid).findOne!({ ...params, documentId: row.documentId }) : null;
    },
    count: (uid: string, params: Params = {}) => deps.documents(uid).count!(params),
    async create(uid: string, params: Params = {}) {
      if (!params.data) throw new Error('cannot create');
      const ct = deps.contentTypeOf(uid);
      return deps.documents(uid).create!({ ...params, status: isDraft(params.data, ct) ? 'draft' : 'published' });
    },
    async update(uid: string, id: unknown, params: Params = {}) {
      const row = await rowOf(uid, id);
      if (!row) return null;
      const ct = deps.contentTypeOf(uid);
      return deps.documents(uid).update!({ ...params, status: isDraft(row, ct) ? 'draft' : 'published', documentId: row.documentId });
    },
    async delete(uid: string, id: unknown, params: Params = {}) {
      const row = await rowOf(uid, id);
      if (!row) return null;
      await deps.documents(uid).delete!({ ...params, documentId: row.documentId });
      return row;
    },
    async findPage(uid: string, params: Params = {}) {
      // Strapi's query params → the query engine's: filters → where, sort → orderBy, fields → select.
      const { page: pageParam, pageSize: sizeParam, filters, where, sort, fields, ...rest } = params;
      const page = Math.max(1, Number(pageParam) || 1);
      const pageSize = Math.max(1, Number(sizeParam) || 10);
      const query = deps.query(uid);
      const condition = where ?? filters;
      const shape = { ...(sort !== undefined ? { orderBy: orderByOf(sort) } : {}), ...(fields !== undefined ? { select: fields } : {}) };
      const [results, total] = await Promise.all([
        query.findMany!({ ...rest, ...shape, ...(condition ? { where: condition } : {}), offset: (page - 1) * pageSize, limit: pageSize }),
        query.count!(condition ? { where: condition } : {}),
      ]);
      return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
    },
    async load(uid: string, entity: { id?: unknown } | null | undefined, field: string, params: Params = {}) {
      if (typeof field !== 'string') throw new Error(`Invalid load. Expected "${field}" to be a string`);
      if (!entity || entity.id === undefined) return null;
      const row = await deps.query(uid).findOne!({
        where: { id: entity.id },
        select: ['id'],
        populate: { [field]: params && Object.keys(params).length ? params : true },
      });
      return row?.[field] ?? null;
    },
  };
}
