/**
 * `strapi.db.query(uid)`: Strapi's query engine over Folio's storage. It reads and writes
 * rows, not documents: drafts and published rows alike, every locale, `where` with Strapi's
 * operators, `select` (only the columns named: no `id` unless asked), `populate` (each row's
 * relations reach versions of its own status, as Strapi's links do), `orderBy`, `limit`,
 * `offset` (no limit: every row, read a page at a time). Plans come from query/row-plan.ts and
 * run through the document service (no SQL here); inside an open write (a lifecycle handler)
 * reads go through its transaction and writes join it. Read lifecycles (FindMany, FindOne,
 * Count) fire with the caller's params.
 *
 * Writes: update/delete/updateMany/deleteMany are the row writes of documents/write/rows.ts;
 * create and createMany make documents through the document service (a row with `publishedAt`
 * is a published document: its draft is created too, and Create fires for both rows; Strapi's
 * query engine would insert the published row alone).
 */
import { currentWrite } from '../documents/write/context';
import type { LifecycleEvent } from '../documents/write/hooks';
import type { RowAccess, RowRef } from '../documents/write/rows';
import type { Queryable } from '../db/database';
import type { Instance } from '../instance';
import { buildRowPlan, selectOf, type RowParams } from '../query/row-plan';
import type { Row } from '../query/row-reader';
import type { ContentType } from '../registry/types';
import { PROJECT_ACTOR } from './documents';
import { ApplicationError, NotFoundError } from './strapi-errors';

type Params = Record<string, any>;

/** Rows one statement reads. */
const PAGE = 1_000;
/** Ids per populate read of rows found first. */
const ID_CHUNK = 500;
/** Keys of the query engine's rows that are no attribute to write. */
const SYSTEM_KEYS = new Set(['id', 'documentId', 'locale', 'publishedAt', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'localizations']);

export type QueryRepository = Record<
  'findOne' | 'findMany' | 'count' | 'create' | 'createMany' | 'update' | 'updateMany' | 'delete' | 'deleteMany',
  (params?: Params) => Promise<any>
>;

export function createQueryEngine(instance: Instance): (uid: string) => QueryRepository {
  const { documents, registry, locales } = instance;
  const modelOf = (uid: string): ContentType => {
    const ct = registry.contentTypes.find((c) => c.uid === uid) ?? registry.systemTypes.find((c) => c.uid === uid);
    if (!ct) throw new NotFoundError(`Model ${uid} not found`);
    return ct;
  };
  const tx = () => currentWrite()?.tx;

  /** An integer param (offset, limit), or undefined. */
  const integer = (value: unknown, name: string): number | undefined => {
    if (value === undefined || value === null) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new ApplicationError(`Invalid ${name}: expected a non-negative integer`);
    return n;
  };

  /** Rows as the plan builder shapes them, page after page. */
  async function pages(ct: ContentType, params: RowParams, from: Queryable | undefined, status?: 'draft' | 'published'): Promise<Row[]> {
    const defaultLocale = await locales.defaultCode();
    const offset = integer(params.offset, 'offset') ?? 0;
    const limit = integer(params.limit, 'limit');
    const rows: Row[] = [];
    for (let at = offset, left = limit ?? Infinity; left > 0; ) {
      const size = Math.min(PAGE, left);
      const plan = buildRowPlan(registry, ct, params, { defaultLocale, window: { start: at, limit: size }, status });
      const { data } = await documents.findMany(ct, plan, from);
      for (const row of data) rows.push(row);
      if (data.length < size) break;
      at += size;
      left -= size;
    }
    return rows;
  }

  /** `params`' rows: with populate on a draft & publish type, found first, then read per status (each row's relations reach its own status). */
  async function readRows(ct: ContentType, params: Params, from: Queryable | undefined): Promise<Row[]> {
    const populate = params.populate;
    const hasPopulate = populate !== undefined && populate !== null && populate !== false && !(Array.isArray(populate) && populate.length === 0);
    let rows: Row[];
    if (!hasPopulate || !ct.draftAndPublish) rows = await pages(ct, params, from);
    else {
      const found = await pages(ct, { ...params, populate: undefined, select: ['publishedAt'] }, from);
      const byId = new Map<unknown, Row>();
      for (const status of ['draft', 'published'] as const) {
        const ids = found.filter((r) => (status === 'draft') === (r.publishedAt === null)).map((r) => r.id);
        for (let i = 0; i < ids.length; i += ID_CHUNK) {
          const chunk = ids.slice(i, i + ID_CHUNK);
          for (const row of await pages(ct, { where: { id: { $in: chunk } }, select: params.select, populate }, from, status)) byId.set(row.id, row);
        }
      }
      rows = found.map((r) => byId.get(r.id)).filter((r): r is Row => r !== undefined);
    }
    const select = selectOf(params.select);
    // Strapi's rows of a type without i18n still have a locale column (null).
    if (!select && !ct.localized && !ct.system) for (const row of rows) row.locale = null;
    if (!select) return hasPopulate ? rows.map((row) => trimPopulated(row, populate)) : rows;
    // Only what `select` names (no id unless named: Strapi adds it when it populates), and what populate added.
    const keep = new Set([...select, ...populatedKeys(populate), ...(hasPopulate ? ['id'] : [])]);
    return rows.map((row) => trimPopulated(Object.fromEntries(Object.entries(row).filter(([key]) => keep.has(key))), populate));
  }

  /**
   * A populated relation with a `select` of its own keeps only what it names (and `id` when it
   * populates further), as Strapi's query engine answers it; deeper levels likewise.
   */
  function trimPopulated(row: Row, populate: unknown): Row {
    if (!populate || typeof populate !== 'object' || Array.isArray(populate)) return row;
    for (const [key, inner] of Object.entries(populate as Record<string, unknown>)) {
      if (!inner || typeof inner !== 'object' || row[key] === null || row[key] === undefined) continue;
      const nested = (inner as Record<string, unknown>).populate;
      const select = selectOf((inner as Record<string, unknown>).select);
      const trim = (entry: Row): Row => {
        if (!entry || typeof entry !== 'object') return entry;
        const keep = select ? new Set([...select, ...populatedKeys(nested), ...(nested ? ['id'] : [])]) : undefined;
        const kept = keep ? (Object.fromEntries(Object.entries(entry).filter(([k]) => keep.has(k))) as Row) : entry;
        return trimPopulated(kept, nested);
      };
      const value = row[key];
      row[key] = Array.isArray(value) ? value.map((v) => trim(v as Row)) : trim(value as Row);
    }
    return row;
  }

  /** The attributes a populate param names at its top level. */
  function populatedKeys(populate: unknown): string[] {
    if (typeof populate === 'string') return populate.split(',').map((s) => s.trim().split('.')[0]!);
    if (Array.isArray(populate)) return populate.flatMap((p) => (typeof p === 'string' ? [p.split('.')[0]!] : populatedKeys(p)));
    if (populate && typeof populate === 'object') return Object.keys(populate);
    return [];
  }

  /** How the row writes find and read rows. */
  const access = (ct: ContentType): RowAccess => ({
    async find(params, from, first) {
      const rows = await pages(ct, { where: params.where, select: ['publishedAt', ...(ct.localized ? ['locale'] : [])], ...(first ? { limit: 1 } : {}) }, from);
      return rows.map(
        (r): RowRef => ({
          id: Number(r.id),
          documentId: String(r.documentId),
          locale: (r.locale as string | undefined) ?? '',
          publishedAt: (r.publishedAt as string | null) ?? null,
        }),
      );
    },
    async read(id, params, from) {
      const [row] = await readRows(ct, { where: { id }, select: params.select, populate: params.populate }, from);
      return row ?? null;
    },
  });

  /** A document for a row's data: a new document, or a new locale of the one `documentId` names. */
  async function createRow(ct: ContentType, params: Params) {
    const data: Params = params.data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ApplicationError('Create expects a data object');
    const body = Object.fromEntries(Object.entries(data).filter(([key]) => !SYSTEM_KEYS.has(key)));
    const status = !ct.draftAndPublish || data.publishedAt ? 'published' : 'draft';
    const locale = ct.localized && typeof data.locale === 'string' ? data.locale : undefined;
    const options = { status, locale, actor: PROJECT_ACTOR } as const;
    const existing =
      typeof data.documentId === 'string'
        ? (await readRows(ct, { where: { documentId: data.documentId }, select: ['documentId'], limit: 1 }, tx())).length > 0
        : false;
    const written = existing ? await documents.update(ct, data.documentId, body, options) : await documents.create(ct, body, options);
    if (!written) return null;
    const where: Params = {
      documentId: written.documentId,
      publishedAt: status === 'published' && ct.draftAndPublish ? { $notNull: true } : ct.draftAndPublish ? { $null: true } : undefined,
    };
    if (ct.localized) where.locale = written.locale;
    const [row] = await readRows(
      ct,
      { where: Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined)), select: params.select, populate: params.populate, limit: 1 },
      tx(),
    );
    return row ?? null;
  }

  return (uid: string): QueryRepository => {
    const ct = modelOf(uid);
    const { hooks } = documents;
    const read = <T>(action: 'FindMany' | 'FindOne' | 'Count', params: Params, run: (p: LifecycleEvent['params']) => Promise<T>) =>
      hooks.aroundRead(action, ct, { ...(params ?? {}) }, run);
    const rows = () => documents.rows(ct, access(ct), { actor: PROJECT_ACTOR });
    return {
      findMany: (params = {}) => read('FindMany', params, (p) => readRows(ct, p, tx())),
      findOne: (params = {}) => read('FindOne', params, async (p) => (await readRows(ct, { ...p, limit: 1 }, tx()))[0] ?? null),
      count: (params = {}) =>
        read('Count', params, async (p) => {
          const plan = buildRowPlan(
            registry,
            ct,
            { where: (p.where ?? p.filters) as Params | undefined, _q: p._q as string | undefined, select: ['documentId'] },
            {
              defaultLocale: await locales.defaultCode(),
              window: { start: 0, limit: 1, withCount: true },
            },
          );
          return (await documents.findMany(ct, plan, tx())).pagination.total ?? 0;
        }),
      create: (params = {}) => createRow(ct, params),
      async createMany(params = {}) {
        const data = params.data;
        if (!Array.isArray(data)) throw new ApplicationError('CreateMany expects data to be an array');
        if (data.length === 0) throw new ApplicationError('Nothing to insert');
        const ids: number[] = [];
        for (const status of ['draft', 'published'] as const) {
          const items = data.filter((d: Params) => (!ct.draftAndPublish || d?.publishedAt ? 'published' : 'draft') === status);
          if (!items.length) continue;
          const bodies = items.map((d: Params) => Object.fromEntries(Object.entries(d ?? {}).filter(([key]) => !SYSTEM_KEYS.has(key))));
          const written = await documents.createMany(ct, bodies, { status, locale: ct.localized ? items[0].locale : undefined, actor: PROJECT_ACTOR });
          for (const w of written) if (w.answer) ids.push(w.answer.rowId);
        }
        return { count: data.length, ids };
      },
      update: async (params = {}) => {
        if (!params.where || !Object.keys(params.where).length) throw new ApplicationError('Update requires a where parameter');
        return rows().update({ ...params });
      },
      updateMany: (params = {}) => rows().updateMany({ ...params }),
      delete: async (params = {}) => {
        if (!params.where || !Object.keys(params.where).length) throw new ApplicationError('Delete requires a where parameter');
        // The row as it was, with its id beside what `select` names.
        const select = selectOf(params.select);
        return rows().delete({ ...params, ...(select ? { select: ['id', ...select.filter((f) => f !== 'id')] } : {}) });
      },
      deleteMany: (params = {}) => rows().deleteMany({ ...params }),
    };
  };
}
