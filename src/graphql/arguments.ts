/**
 * GraphQL arguments → the plan builder's parameters (query/plan-builder.ts): filters
 * (`{ title: { containsi: "x" }, or: [...] }` → `{ title: { $containsi: 'x' }, $or: [...] }`),
 * sort, pagination, status and locale, with Strapi's rules for each.
 */
import type { AnyModel, Registry } from '../registry/types';
import { isObject } from '../json';
import type { PlanParams, SortParam } from '../query/plan-builder';
import type { PublicationFilter } from '../query/types';

type Json = NonNullable<PlanParams['filters']>[string];

/** Operators of a scalar's filter input: every key becomes the `$` operator of the same name. */
function operators(input: unknown): Json {
  if (!isObject(input)) return input as Json;
  const out: Record<string, Json> = {};
  for (const [op, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[`$${op}`] = op === 'not' ? operators(value) : (value as Json);
  }
  return out;
}

/** A `…FiltersInput` value over `model` as document-service filters. */
export function filtersOf(registry: Registry, model: AnyModel, input: unknown): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (!isObject(input)) return out;
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') {
      out[`$${key}`] = (Array.isArray(value) ? value : [value]).map((v) => filtersOf(registry, model, v));
      continue;
    }
    if (key === 'not') {
      out.$not = filtersOf(registry, model, value);
      continue;
    }
    const attribute = model.attributes[key];
    if (attribute?.kind === 'relation') {
      out[key] = filtersOf(registry, attribute.targetType, value);
    } else if (attribute?.kind === 'component') {
      out[key] = filtersOf(registry, attribute.componentModel, value);
    } else if (key === 'localizations') {
      out[key] = filtersOf(registry, model, value);
    } else {
      out[key] = operators(value);
    }
  }
  return out;
}

/** `sort: ["title:desc", "author.name"]`; GraphQL's default `[]` means none (the link order stays). */
export function sortOf(sort: unknown): SortParam | undefined {
  if (sort === undefined || sort === null) return undefined;
  const list = (Array.isArray(sort) ? sort : [sort]).filter((s): s is string => typeof s === 'string' && s !== '');
  return list.length ? list : undefined;
}

export interface PaginationArg {
  page?: number | null;
  pageSize?: number | null;
  start?: number | null;
  limit?: number | null;
}

/** `pagination` without the nulls GraphQL allows; undefined when nothing was given. */
export function paginationOf(pagination: unknown): PlanParams['pagination'] {
  if (!isObject(pagination)) return undefined;
  const out: Record<string, number> = {};
  for (const key of ['page', 'pageSize', 'start', 'limit'] as const) {
    const value = (pagination as PaginationArg)[key];
    if (typeof value === 'number') out[key] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** `status: DRAFT | PUBLISHED` (PUBLISHED by default). */
export function statusOf(status: unknown): 'draft' | 'published' {
  return String(status ?? 'PUBLISHED').toUpperCase() === 'DRAFT' ? 'draft' : 'published';
}

/** The start and limit a nested list's pagination asks for (Strapi's withDefaultPagination), to slice populated lists. */
export function sliceOf(pagination: unknown, limits: { defaultLimit: number; maxLimit: number }): { start: number; limit: number } {
  const p = (isObject(pagination) ? pagination : {}) as PaginationArg;
  const clamp = (n: number) => (limits.maxLimit > 0 ? Math.min(n, limits.maxLimit) : n);
  if (typeof p.start === 'number' || typeof p.limit === 'number') {
    const start = Math.max(p.start ?? 0, 0);
    const raw = p.limit ?? limits.defaultLimit;
    const limit = raw === -1 ? (limits.maxLimit > 0 ? limits.maxLimit : Infinity) : clamp(Math.max(raw, 1));
    return { start, limit };
  }
  const pageSize = clamp(Math.max(p.pageSize ?? limits.defaultLimit, 1));
  const page = Math.max(p.page ?? 1, 1);
  return { start: (page - 1) * pageSize, limit: pageSize };
}

/**
 * `publicationFilter: MODIFIED` → `modified` (the document service's value), or the deprecated
 * `hasPublishedVersion` as Strapi maps it: true → `has-published-version-document`, false →
 * `never-published-document`. `publicationFilter` wins when both are given.
 */
export function publicationOf(args: { publicationFilter?: unknown; hasPublishedVersion?: unknown }): PublicationFilter | undefined {
  if (typeof args.publicationFilter === 'string') return args.publicationFilter.toLowerCase().replaceAll('_', '-') as PublicationFilter;
  if (typeof args.hasPublishedVersion === 'boolean') return args.hasPublishedVersion ? 'has-published-version-document' : 'never-published-document';
  return undefined;
}
