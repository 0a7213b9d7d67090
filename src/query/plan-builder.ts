/**
 * The typed plan builder: Strapi document-service-style parameters (as project code passes
 * them to `strapi.documents(uid).findMany(params)`) → a checked ReadQuery, for callers that
 * are not a REST query string: GraphQL (src/graphql/), and later the events outbox and
 * project code.
 *
 *   buildReadPlan(registry, contentType, {
 *     filters: { title: { $containsi: 'x' }, author: { name: { $eq: 'Ann' } }, $or: [...] },
 *     sort: ['title:asc'] | 'title:desc' | { title: 'asc' } | [{ author: { name: 'desc' } }],
 *     pagination: { page: 2, pageSize: 10 } | { start: 0, limit: 20 },   // limit -1: up to maxLimit
 *     fields: ['title', 'slug'],
 *     populate: { tags: { filters: {...}, sort: [...], fields: [...], populate: {...} },
 *                 blocks: { on: { 'shared.quote': true } }, cover: true } | ['author'] | '*',
 *     status: 'draft' | 'published',
 *     locale: 'fr' | '*',
 *   }, { defaultLocale: 'en', limits, canRead });
 *
 * Values are typed (numbers, booleans, strings; null for `$null`-style checks) rather than
 * query-string text. Everything is checked exactly as REST's parameters are (the same
 * readers: filters.ts, fields-sort.ts, populate-params.ts, parse.ts), with the same errors:
 * an unknown key, a relation the caller may not read in filters or sort, a value a column
 * cannot hold, or a request past the limits is a ValidationError (400) before anything runs;
 * a populated relation the caller may not read is left out.
 */
import { ValidationError } from '../errors';
import { isObject } from '../json';
import type { ContentType, Registry } from '../registry/types';
import { DEFAULT_LIMITS, READ_PARAMETERS, parseReadQuery, type QueryLimits } from './parse';
import type { CanRead, ReadQuery } from './types';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

/** A populate tree: `'*'`, a list of attribute paths, or attribute → `true` / nested options. */
export type PopulateParam = string | string[] | { [attribute: string]: boolean | '*' | PopulateOptions };

export interface PopulateOptions {
  fields?: string[];
  filters?: Record<string, Json>;
  sort?: SortParam;
  populate?: PopulateParam;
  /** Dynamic zones: options per component uid; morphTo sides: per content type uid. */
  on?: Record<string, boolean | PopulateOptions>;
  count?: boolean;
}

export type SortParam = string | string[] | Record<string, Json> | Record<string, Json>[];

export interface PlanParams {
  filters?: Record<string, Json>;
  sort?: SortParam;
  pagination?: { page?: number; pageSize?: number; start?: number; limit?: number; withCount?: boolean };
  fields?: string[];
  populate?: PopulateParam;
  status?: 'draft' | 'published';
  /** A locale code, or `*` for every locale (lists). Without it: the default locale. */
  locale?: string;
  /** Strapi's `_q` search. */
  _q?: string;
}

export interface PlanOptions {
  defaultLocale: string;
  limits?: QueryLimits;
  /** Whether the caller may read a type: filters and sort through others are refused, populate leaves them out. */
  canRead?: CanRead;
}

/** Drops keys whose value is undefined (an absent optional parameter), keeping everything else as given. */
function defined<T extends object>(params: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

export function buildReadPlan(registry: Registry, ct: ContentType, params: PlanParams, options: PlanOptions): ReadQuery {
  if (!isObject(params)) throw new ValidationError('Invalid parameters: expected an object');
  for (const key of Object.keys(params)) if (!READ_PARAMETERS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  return parseReadQuery(registry, ct, defined(params), options.defaultLocale, options.limits ?? DEFAULT_LIMITS, options.canRead);
}
