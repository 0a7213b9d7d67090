/**
 * Strapi's query-engine params (`strapi.db.query(uid).findMany({ where, select, orderBy,
 * populate, limit, offset, _q })`) → a checked read plan over rows, not documents: rows of
 * either status and every locale unless `where` names them (`publishedAt`, `locale`), as the
 * query engine reads them. The plan builder (plan-builder.ts) checks everything as for
 * document-service params: `where` takes the filters' operators ($eq, $in, $and, $or, $not,
 * relation paths…), `select` scalar attributes, `orderBy` Strapi's forms, `populate` the query
 * engine's nested `select` / `where` / `orderBy` / `populate` (or the document service's
 * `fields` / `filters` / `sort`).
 */
import { ValidationError } from '../errors';
import { isObject } from '../json';
import type { ContentType, Registry } from '../registry/types';
import { buildReadPlan, type PlanParams, type PopulateParam } from './plan-builder';
import type { CanRead, ReadQuery, Status } from './types';

type Obj = Record<string, unknown>;

/** The query engine's params a read takes. */
export interface RowParams {
  where?: Obj;
  filters?: Obj;
  select?: string | string[];
  orderBy?: unknown;
  populate?: unknown;
  limit?: number;
  offset?: number;
  _q?: string;
}

/** `orderBy`: `'title'`, `'title:desc'`, `{ title: 'desc' }`, `[{ author: { name: 'asc' } }, 'id']` → the plan's sort. */
function sortOf(orderBy: unknown): PlanParams['sort'] {
  if (orderBy === undefined || orderBy === null) return undefined;
  const list = Array.isArray(orderBy) ? orderBy : [orderBy];
  return list.map((item) => (typeof item === 'string' && !item.includes(':') ? `${item}:asc` : item)) as PlanParams['sort'];
}

/** `select` without the keys every row has anyway (a plan's rows always carry id and documentId). */
export function selectOf(select: unknown): string[] | undefined {
  if (select === undefined || select === null || select === '*') return undefined;
  const list = (Array.isArray(select) ? select : [select])
    .flatMap((s) => String(s).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.includes('*')) return undefined;
  return list;
}

/** The query engine's populate (select/where/orderBy at each level) → the plan builder's (fields/filters/sort). */
function populateOf(populate: unknown): PopulateParam | undefined {
  if (populate === undefined || populate === null || populate === false) return undefined;
  if (populate === true) return '*';
  if (typeof populate === 'string' || Array.isArray(populate)) return populate as PopulateParam;
  if (!isObject(populate)) throw new ValidationError('Invalid populate: expected a list, an object or true');
  const out: Obj = {};
  for (const [name, value] of Object.entries(populate)) {
    if (value === false) continue;
    if (!isObject(value)) {
      out[name] = value;
      continue;
    }
    const nested: Obj = {};
    for (const [key, option] of Object.entries(value)) {
      if (key === 'select') {
        const fields = selectOf(option);
        if (fields) nested.fields = fields.filter((f) => f !== 'id' && f !== 'documentId');
      } else if (key === 'where') nested.filters = option;
      else if (key === 'orderBy') nested.sort = sortOf(option);
      else if (key === 'populate') nested.populate = populateOf(option);
      else nested[key] = option;
    }
    out[name] = nested;
  }
  return out as PopulateParam;
}

export interface RowPlanOptions {
  defaultLocale: string;
  /** The rows one statement reads (the plan's page). */
  window: { start: number; limit: number; withCount?: boolean };
  canRead?: CanRead;
  /** Read only rows of this status, populated relations reaching versions of it (else rows of either status; populate reaches drafts). */
  status?: Status;
}

/** A plan of rows of `ct` as the query engine reads them. */
export function buildRowPlan(registry: Registry, ct: ContentType, params: RowParams, options: RowPlanOptions): ReadQuery {
  if (!isObject(params)) throw new ValidationError('Invalid parameters: expected an object');
  const where = params.where ?? params.filters;
  if (where !== undefined && !isObject(where)) throw new ValidationError('Invalid where: expected an object');
  const fields = selectOf(params.select)?.filter((f) => f !== 'id' && f !== 'documentId');
  const { limit } = options.window;
  const plan = buildReadPlan(
    registry,
    ct,
    {
      ...(where && Object.keys(where).length ? { filters: where as PlanParams['filters'] } : {}),
      ...(fields ? { fields } : {}),
      ...(params.orderBy !== undefined ? { sort: sortOf(params.orderBy) } : {}),
      ...(params.populate !== undefined ? { populate: populateOf(params.populate) } : {}),
      ...(typeof params._q === 'string' ? { _q: params._q } : {}),
      ...(ct.draftAndPublish ? { status: options.status ?? 'draft' } : {}),
      locale: '*',
      pagination: { start: options.window.start, limit, withCount: options.window.withCount ?? false },
    },
    { defaultLocale: options.defaultLocale, limits: { defaultLimit: limit, maxLimit: limit }, canRead: options.canRead },
  );
  if (!options.status) plan.everyStatus = true;
  // `locale: '*'` lists every locale; a `where` on locale picks some (no default locale applies).
  plan.localeInFilters = ct.localized ? true : plan.localeInFilters;
  return plan;
}
