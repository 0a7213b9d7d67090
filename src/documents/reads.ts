/**
 * Reads as Strapi's document service takes them: `strapi.documents(uid).findMany(params)` in
 * project code, and the REST read routes once a document middleware or a read lifecycle is
 * registered (Strapi's core controllers call the document service). Strapi's params pass
 * through the document middlewares (which may change them), then the read lifecycle
 * (before/afterFindMany, FindOne, Count, with the query engine's params: where, select,
 * orderBy, populate, offset, limit — a before* handler may change them too), and what is left
 * becomes a checked plan (query/plan-builder.ts). A read started inside an open write (a
 * lifecycle handler's) reads through its transaction, so it sees what the write did.
 *
 * Strapi's defaults: drafts unless `status: 'published'`; `start`/`limit` or `page`/`pageSize`
 * at the top level; without a limit every match, read here a page at a time so that each
 * statement stays bounded (the caller asked for all of them, as on Strapi).
 */
import { ChangeCache } from '../db/cache';
import type { Database, Queryable } from '../db/database';
import { ValidationError } from '../errors';
import { isObject } from '../json';
import { buildReadPlan, type PlanParams } from '../query/plan-builder';
import { READ_PARAMETERS } from '../query/parse';
import type { Row } from '../query/row-reader';
import type { CanRead, ReadQuery } from '../query/types';
import type { ContentType, Registry } from '../registry/types';
import type { Locales } from './locales';
import { currentWrite } from './write/context';
import type { DocumentAction, DocumentHooks, LifecycleEvent, ReadLifecycle } from './write/hooks';
import type { PageMeta } from '../query/read';

export type DocumentParams = Record<string, any>;

/** The rows one statement of a read reads at most (a larger or absent limit reads page after page). */
export const READ_PAGE = 1_000;

export interface DocumentReadOptions {
  /** Whether the caller may read a type: filters and sort through others are refused, populate leaves them out. */
  canRead?: CanRead;
  /**
   * What `canRead` depends on (auth/access.ts grantsKey): plans are then reused for the same
   * params and grants until a settings write. Without it, a read with `canRead` plans afresh.
   */
  canReadKey?: string;
  /** Apply a root `publicationFilter` to populated relations too (GraphQL's relation resolvers take the root's). */
  inheritPublicationFilter?: boolean;
}

/** What Strapi's document service reads take: REST's read parameters and `publicationFilter`. */
const DOCUMENT_READ_PARAMETERS: ReadonlySet<string> = new Set([...READ_PARAMETERS, 'publicationFilter']);

/** Plans kept per content type, params and grants (a key this long is planned afresh). */
const PLAN_KEY_LIMIT = 4096;

/** What runs a checked plan (the document service). */
export interface PlanRunner {
  findMany(ct: ContentType, query: ReadQuery, from?: Queryable): Promise<{ data: Row[]; pagination: PageMeta }>;
  findOne(ct: ContentType, documentId: string | undefined, query: ReadQuery, from?: Queryable): Promise<Row | null>;
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** A non-negative integer of the params (`start`, `limit`, `page`, `pageSize`), or undefined; -1 for an unlimited `limit`. */
function integerParam(params: DocumentParams, name: string, min: number): number | undefined {
  const value = params[name];
  if (isEmpty(value)) return undefined;
  const n = Number(value);
  if (name === 'limit' && n === -1) return -1;
  if (!Number.isInteger(n) || n < min)
    throw new ValidationError(`Invalid parameter at '${name}'. Expected integer >= ${min}${name === 'limit' ? ' or -1' : ''}, received: ${String(value)}`);
  return n;
}

/** Where a list starts and how many rows it wants (Infinity: every match), from Strapi's top-level pagination params. */
export function window(params: DocumentParams): { start: number; wanted: number } {
  const page = integerParam(params, 'page', 1);
  const pageSize = integerParam(params, 'pageSize', 1);
  const start = integerParam(params, 'start', 0);
  const limit = integerParam(params, 'limit', 1);
  if ((page !== undefined || pageSize !== undefined) && (start !== undefined || limit !== undefined)) {
    throw new ValidationError(
      'Invalid pagination parameters. Cannot use both page-based (page, pageSize) and offset-based (start, limit) pagination in the same query.',
    );
  }
  if (page !== undefined || pageSize !== undefined) {
    const size = pageSize ?? 25;
    return { start: ((page ?? 1) - 1) * size, wanted: size };
  }
  return { start: start ?? 0, wanted: limit === undefined || limit === -1 ? Infinity : limit };
}

/** `'title:desc'`, `['a.b:asc']`, `{ a: 'desc' }`… → the query engine's `orderBy`: `[{ title: 'desc' }, { a: { b: 'asc' } }]`. */
export function orderByOf(sort: unknown): unknown {
  const one = (item: unknown): unknown => {
    if (typeof item !== 'string') return item;
    const [path, order = 'asc'] = item.split(':');
    return path!.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), order.toLowerCase());
  };
  return Array.isArray(sort) ? sort.map(one) : typeof sort === 'string' ? sort.split(',').map((s) => one(s.trim())) : [sort];
}

/**
 * The reads of Strapi's document service, through the document middlewares and read
 * lifecycles. Params are the caller's to keep: the middlewares see a copy.
 */
export class DocumentReads {
  /** Checked plans by type, params and grants, until a settings write (grants, locales): a plan is also where its SQL is kept compiled. */
  private plans: ChangeCache<string, ReadQuery>;

  constructor(
    private hooks: DocumentHooks,
    private registry: Registry,
    private locales: Locales,
    private runner: PlanRunner,
    db: Database,
  ) {
    this.plans = ChangeCache.settings(db, 500);
  }

  /** Every match (or the window `start`/`limit`, `page`/`pageSize` asks for), as the document service answers: the documents only. */
  findMany(ct: ContentType, params: DocumentParams = {}, options: DocumentReadOptions = {}): Promise<Row[]> {
    return this.through('findMany', ct, params, (p) =>
      this.lifecycle('FindMany', ct, p, async (q) => {
        const { start, wanted } = window(q);
        const from = currentWrite()?.tx;
        const rows: Row[] = [];
        for (let at = start, left = wanted; left > 0; ) {
          const size = Math.min(READ_PAGE, left);
          const { data } = await this.runner.findMany(ct, await this.plan(ct, q, { start: at, limit: size, withCount: false }, options), from);
          for (const row of data) rows.push(row);
          if (data.length < size) break;
          at += size;
          left -= size;
        }
        return rows;
      }),
    );
  }

  /** The first match, or null. */
  findFirst(ct: ContentType, params: DocumentParams = {}, options: DocumentReadOptions = {}): Promise<Row | null> {
    return this.through('findFirst', ct, params, (p) =>
      this.lifecycle('FindOne', ct, p, async (q) => {
        const { start } = window(q);
        const { data } = await this.runner.findMany(ct, await this.plan(ct, q, { start, limit: 1, withCount: false }, options), currentWrite()?.tx);
        return data[0] ?? null;
      }),
    );
  }

  /** One document's version (`documentId`; a single type's without one), or null. */
  findOne(ct: ContentType, params: DocumentParams = {}, options: DocumentReadOptions = {}): Promise<Row | null> {
    return this.through('findOne', ct, params, (p) => {
      if (ct.kind === 'collectionType' && isEmpty(p.documentId)) return Promise.resolve(null);
      return this.lifecycle('FindOne', ct, p, async (q) => {
        const plan = await this.plan(ct, q, { start: 0, limit: 1, withCount: false }, options);
        return this.runner.findOne(ct, isEmpty(q.documentId) ? undefined : String(q.documentId), plan, currentWrite()?.tx);
      });
    });
  }

  /** How many documents' versions match. */
  count(ct: ContentType, params: DocumentParams = {}, options: DocumentReadOptions = {}): Promise<number> {
    return this.through('count', ct, params, (p) =>
      this.lifecycle('Count', ct, p, async (q) => {
        const counting = { ...q, fields: ['documentId'], populate: undefined, sort: undefined };
        const { pagination } = await this.runner.findMany(
          ct,
          await this.plan(ct, counting, { start: 0, limit: 1, withCount: true }, options),
          currentWrite()?.tx,
        );
        return pagination.total ?? 0;
      }),
    );
  }

  /** The document middlewares, on a copy of the caller's params. */
  private through<T>(action: DocumentAction, ct: ContentType, params: DocumentParams, run: (p: DocumentParams) => Promise<T>): Promise<T> {
    return this.hooks.around(action, ct, { ...(params ?? {}) }, run);
  }

  /**
   * The read lifecycle around a read of document-service params `p`: the handlers see (and may
   * change) the query engine's params; the read runs with what they leave.
   */
  private async lifecycle<T>(action: ReadLifecycle, ct: ContentType, p: DocumentParams, run: (p: DocumentParams) => Promise<T>): Promise<T> {
    if (!this.hooks.listensTo(ct)) return run(p);
    const defaultLocale = await this.locales.defaultCode();
    const lookup: Record<string, unknown> = {};
    if (ct.draftAndPublish) lookup.publishedAt = p.status === 'published' ? { $notNull: true } : { $null: true };
    if (ct.localized && p.locale !== '*') lookup.locale = isEmpty(p.locale) ? defaultLocale : p.locale;
    if (!isEmpty(p.documentId)) lookup.documentId = p.documentId;
    const query: LifecycleEvent['params'] = { where: { ...lookup, ...(isObject(p.filters) ? p.filters : {}) } };
    if (Array.isArray(p.fields)) query.select = ['id', 'documentId', ...p.fields.filter((f: string) => f !== 'id' && f !== 'documentId')];
    if (!isEmpty(p.sort)) query.orderBy = orderByOf(p.sort);
    if (!isEmpty(p.populate)) query.populate = p.populate;
    if (action === 'FindMany') {
      const { start, wanted } = window(p);
      if (start) query.offset = start;
      if (wanted !== Infinity) query.limit = wanted;
    }
    return this.hooks.aroundRead(action, ct, query, (q) => {
      // The lookup's own keys, left as they were, are the status and locale again; anything else filters.
      const filters: Record<string, unknown> = { ...(isObject(q.where) ? q.where : {}) };
      for (const [key, value] of Object.entries(lookup)) if (JSON.stringify(filters[key]) === JSON.stringify(value)) delete filters[key];
      const next: DocumentParams = {
        documentId: p.documentId,
        status: p.status,
        locale: p.locale,
        _q: p._q,
        filters: Object.keys(filters).length ? filters : undefined,
      };
      if (Array.isArray(q.select)) next.fields = (q.select as string[]).filter((f) => f !== 'id' && f !== 'documentId');
      if (q.orderBy !== undefined) next.sort = q.orderBy;
      if (q.populate !== undefined) next.populate = q.populate;
      if (action === 'FindMany') {
        if (q.offset !== undefined) next.start = q.offset;
        if (q.limit !== undefined) next.limit = q.limit;
      } else if (!isEmpty(p.start)) next.start = p.start;
      return run(next);
    });
  }

  /** The checked plan of document-service params `p` for one statement's window. */
  private async plan(
    ct: ContentType,
    p: DocumentParams,
    pagination: { start: number; limit: number; withCount: boolean },
    options: DocumentReadOptions,
  ): Promise<ReadQuery> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(p)) if (DOCUMENT_READ_PARAMETERS.has(key) && key !== 'pagination' && value !== undefined) out[key] = value;
    if (ct.draftAndPublish) out.status = p.status === 'published' ? 'published' : 'draft';
    else delete out.status;
    const limits = { defaultLimit: Math.max(pagination.limit, 1), maxLimit: Math.max(pagination.limit, 1) };
    const build = async () =>
      buildReadPlan(this.registry, ct, { ...out, pagination } as PlanParams, {
        defaultLocale: await this.locales.defaultCode(),
        limits,
        canRead: options.canRead,
        inheritPublicationFilter: options.inheritPublicationFilter,
      });
    // `_q` plans are made each time (their search is tuned per read), as the REST routes do.
    if (out._q !== undefined || (options.canRead && options.canReadKey === undefined)) return build();
    let key: string;
    try {
      key = `${ct.uid}\n${options.canReadKey ?? '*'}${options.inheritPublicationFilter ? '+' : ''}\n${pagination.start},${pagination.limit},${pagination.withCount}\n${JSON.stringify(out)}`;
    } catch {
      return build();
    }
    return key.length > PLAN_KEY_LIMIT ? build() : this.plans.get(key, build);
  }
}
