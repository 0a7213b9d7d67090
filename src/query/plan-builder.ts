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
import type { AnyModel, ContentType, Registry } from '../registry/types';
import { DEFAULT_LIMITS, READ_PARAMETERS, parsePopulate, parseReadQuery, targetModel, type QueryLimits } from './parse';
import { PUBLICATION_FILTERS, type CanRead, type Condition, type PopulateMap, type PublicationFilter, type ReadQuery } from './types';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

/** A populate tree: `'*'`, a list of attribute paths, or attribute → `true` / nested options. */
export type PopulateParam = string | string[] | { [attribute: string]: boolean | '*' | PopulateOptions };

export interface PopulateOptions {
  /**
   * The attribute this entry reads, when its key is another name (an alias): `{ first: {
   * attribute: 'tags', sort: ['name'] }, last: { attribute: 'tags', sort: ['name:desc'] } }`
   * reads `tags` twice, each row getting `first` and `last`. GraphQL's aliases with different
   * arguments are batched this way.
   */
  attribute?: string;
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
  /**
   * Strapi 5's `publicationFilter` (draft & publish types): keep the versions of `status` whose
   * document has (or has not) a version of the other status, modified or not since (types.ts
   * PublicationFilter). Other types ignore it.
   */
  publicationFilter?: PublicationFilter;
}

export interface PlanOptions {
  defaultLocale: string;
  limits?: QueryLimits;
  /** Whether the caller may read a type: filters and sort through others are refused, populate leaves them out. */
  canRead?: CanRead;
  /**
   * Applies `publicationFilter` to populated relations too (and to `localizations`), at every
   * level and inside components, wherever the target has draft & publish: what Strapi's
   * GraphQL does for the relations under a root query that has one.
   */
  inheritPublicationFilter?: boolean;
}

/** Drops keys whose value is undefined (an absent optional parameter), keeping everything else as given. */
function defined<T extends object>(params: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

export function buildReadPlan(registry: Registry, ct: ContentType, params: PlanParams, options: PlanOptions): ReadQuery {
  if (!isObject(params)) throw new ValidationError('Invalid parameters: expected an object');
  const { publicationFilter, ...rest } = params as PlanParams;
  for (const key of Object.keys(rest)) if (!READ_PARAMETERS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  const aliased = hasAliases(rest.populate);
  const plan = parseReadQuery(
    registry,
    ct,
    defined({ ...rest, ...(aliased ? { populate: undefined } : {}) }),
    options.defaultLocale,
    options.limits ?? DEFAULT_LIMITS,
    options.canRead,
  );
  if (aliased) plan.populate = aliasedPopulate(registry, ct, rest.populate as Record<string, PopulateEntry>, [], options.canRead);
  if (publicationFilter === undefined || publicationFilter === null) return plan;
  if (!PUBLICATION_FILTERS.includes(publicationFilter)) {
    throw new ValidationError(`Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}.`, {
      source: 'query',
      param: 'publicationFilter',
    });
  }
  const condition: Condition = { kind: 'publication', mode: publicationFilter };
  if (ct.draftAndPublish) plan.filters = plan.filters ? { kind: 'and', parts: [plan.filters, condition] } : condition;
  if (options.inheritPublicationFilter) inheritPublication(ct, plan.populate, condition);
  return plan;
}

type PopulateEntry = boolean | '*' | PopulateOptions;

/** Whether a populate tree names an attribute under another key anywhere (object form only). */
function hasAliases(populate: unknown): boolean {
  if (!isObject(populate) || Array.isArray(populate)) return false;
  return Object.values(populate).some((entry) => {
    if (!isObject(entry)) return false;
    const options = entry as PopulateOptions;
    return (
      options.attribute !== undefined ||
      hasAliases(options.populate) ||
      Object.values(options.on ?? {}).some((sub) => isObject(sub) && hasAliases((sub as PopulateOptions).populate))
    );
  });
}

/**
 * A populate tree with aliases → a PopulateMap: each entry checked on its own as REST's
 * populate is (populate-params.ts), under its key, with the attribute it reads.
 */
function aliasedPopulate(registry: Registry, model: AnyModel, tree: Record<string, PopulateEntry>, path: string[], canRead?: CanRead): PopulateMap {
  const map: PopulateMap = {};
  for (const [key, entry] of Object.entries(tree)) {
    if (entry === false) continue;
    const options = isObject(entry) ? (entry as PopulateOptions) : undefined;
    const attribute = options?.attribute ?? key;
    const { attribute: _, populate, on, ...own } = options ?? {};
    // The entry without what nests in it, then what nests, each level on its own.
    const shallow = options
      ? defined({
          ...own,
          on:
            on &&
            Object.fromEntries(
              Object.entries(on).map(([uid, sub]) => [uid, isObject(sub) ? defined({ ...(sub as PopulateOptions), populate: undefined }) : sub]),
            ),
        })
      : entry;
    const spec = parsePopulate(registry, model, { [attribute]: shallow }, path, canRead)[attribute];
    if (!spec) continue;
    const target = targetModel(registry, model, attribute);
    if (populate !== undefined && target) {
      spec.populate =
        isObject(populate) && !Array.isArray(populate)
          ? aliasedPopulate(registry, target, populate as Record<string, PopulateEntry>, [...path, attribute], canRead)
          : parsePopulate(registry, target, populate, [...path, attribute], canRead);
    }
    for (const [uid, sub] of Object.entries(on ?? {})) {
      const nested = isObject(sub) ? (sub as PopulateOptions).populate : undefined;
      const component = registry.component(uid);
      if (nested !== undefined && component && spec.on?.[uid]) {
        spec.on[uid]!.populate =
          isObject(nested) && !Array.isArray(nested)
            ? aliasedPopulate(registry, component, nested as Record<string, PopulateEntry>, [...path, attribute], canRead)
            : parsePopulate(registry, component, nested, [...path, attribute], canRead);
      }
    }
    map[key] = attribute === key ? spec : { ...spec, attribute };
  }
  return map;
}

/** Adds `condition` to every populated relation (and `localizations`) under `model` whose target has draft & publish. */
function inheritPublication(model: AnyModel, populate: PopulateMap, condition: Condition) {
  for (const [key, spec] of Object.entries(populate)) {
    const name = spec.attribute ?? key;
    const attribute = model.attributes[name];
    const target: AnyModel | undefined =
      name === 'localizations' && !attribute
        ? model
        : attribute?.kind === 'relation'
          ? attribute.targetType
          : attribute?.kind === 'component'
            ? attribute.componentModel
            : undefined;
    if (attribute?.kind === 'dynamiczone') {
      for (const component of attribute.componentModels) {
        const sub = spec.on?.[component.uid];
        if (sub?.populate) inheritPublication(component, sub.populate, condition);
      }
      continue;
    }
    if (!target) continue;
    if (target.modelType === 'contentType' && target.draftAndPublish && !spec.count) {
      spec.filters = spec.filters ? { kind: 'and', parts: [spec.filters, condition] } : condition;
    }
    if (spec.populate) inheritPublication(target, spec.populate, condition);
  }
}
