/**
 * REST query parameters (already nested by `qs`) → ReadQuery, with Strapi's checks:
 * every unknown or forbidden key is a 400 `Invalid key …` naming the parameter.
 */
import { PaginationError, ValidationError } from '../errors';
import type { AnyModel, ContentType, Registry } from '../registry/types';
import { isSelectable } from '../registry/fields';
import { FILE_MODEL } from '../registry/file-model';
import { checkFilters, newFilterBudget, parseFilters, type FilterBudget } from './filters';
import { REQUEST_LIMITS as L, limitExceeded, paginationOutOfRange } from './limits';
import type { CanRead, Pagination, PopulateMap, PopulateSpec, ReadQuery, SortItem, Status } from './types';

export interface QueryLimits {
  defaultLimit: number;
  maxLimit: number;
}

export const DEFAULT_LIMITS: QueryLimits = { defaultLimit: 25, maxLimit: 100 };

const TOP_LEVEL = new Set(['filters', 'sort', 'fields', 'populate', 'status', 'locale', 'pagination']);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalidParameter(name: string, expected: string, received: unknown): ValidationError {
  return new ValidationError(`Invalid parameter at '${name}'. Expected ${expected}, received: ${String(received)}`);
}

/** `status`: published (default) or draft; anything else is refused rather than guessed. */
export function parseStatus(raw: unknown): Status {
  if (raw === undefined || raw === null || raw === '') return 'published';
  if (raw === 'published' || raw === 'draft') return raw;
  throw invalidParameter('status', "'published' or 'draft'", raw);
}

/** `locale`: a code, `*`, or absent (then the default locale). */
export function parseLocale(raw: unknown, defaultLocale: string): string {
  if (raw === undefined || raw === null || raw === '') return defaultLocale;
  if (typeof raw !== 'string') throw invalidParameter('locale', 'a locale code', JSON.stringify(raw));
  return raw;
}

/** An integer (else a ValidationError, as before), and a safe one: past 2^53 a number no longer counts rows. */
function toInteger(name: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw invalidParameter(name, 'an integer', value);
  if (!Number.isSafeInteger(n)) throw paginationOutOfRange(name, 'a safe integer', value);
  return n;
}

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false };

export function parsePagination(raw: unknown, limits: QueryLimits = DEFAULT_LIMITS): Pagination {
  if (raw === undefined) return { mode: 'page', start: 0, limit: limits.defaultLimit, withCount: true };
  if (!isObject(raw)) throw invalidParameter('pagination', 'an object', JSON.stringify(raw));
  for (const key of Object.keys(raw)) {
    if (!['page', 'pageSize', 'start', 'limit', 'withCount'].includes(key)) {
      throw ValidationError.invalidKey(key, 'query', { param: 'pagination' });
    }
  }
  let withCount = true;
  if (raw.withCount !== undefined) {
    const word = BOOLEAN_WORDS[String(raw.withCount)];
    if (word === undefined) throw new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
    withCount = word;
  }
  const pageMode = raw.page !== undefined || raw.pageSize !== undefined;
  const offsetMode = raw.start !== undefined || raw.limit !== undefined;
  if (pageMode && offsetMode) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  const clamp = (n: number) => Math.min(Math.max(n, 1), limits.maxLimit);
  if (offsetMode) {
    const start = raw.start === undefined ? 0 : Math.max(toInteger('start', raw.start), 0);
    if (start > L.paginationOffset) throw paginationOutOfRange('start', `an integer <= ${L.paginationOffset}`, raw.start);
    let limit = raw.limit === undefined ? limits.defaultLimit : toInteger('limit', raw.limit);
    // -1 means "no limit", which the maximum caps; 0 and other negatives become 1.
    limit = limit === -1 ? limits.maxLimit : clamp(limit);
    return { mode: 'offset', start, limit, withCount };
  }
  const page = raw.page === undefined ? 1 : toInteger('page', raw.page);
  if (page < 0) throw paginationOutOfRange('page', 'an integer >= 0', raw.page);
  const pageSize = clamp(raw.pageSize === undefined ? limits.defaultLimit : toInteger('pageSize', raw.pageSize));
  // Page 0 is page 1, as in Strapi (start = max((page - 1) * pageSize, 0)).
  const start = (Math.max(page, 1) - 1) * pageSize;
  if (start > L.paginationOffset) throw paginationOutOfRange('page', `a page that starts within the first ${L.paginationOffset} entries`, raw.page);
  return { mode: 'page', start, limit: pageSize, withCount };
}

/** `fields=a,b`, `fields[0]=a`, `fields=*`: scalar attributes only. */
export function parseFields(model: AnyModel, raw: unknown, path: string | null = null): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : isObject(raw) ? Object.values(raw) : [raw];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw invalidParameter('fields', 'a string or an array of strings', JSON.stringify(item));
    for (const name of item.split(',').map((s) => s.trim())) if (name) names.push(name);
  }
  if (names.includes('*')) return undefined;
  for (const name of names) {
    if (!isSelectable(model, name)) throw ValidationError.invalidKey(name, 'query', { path, param: 'fields' });
  }
  return names;
}

const ORDER = /^(asc|desc)$/i;

/** Every sort form Strapi accepts, through to-one relations and components. */
export function parseSort(registry: Registry, model: AnyModel, raw: unknown, canRead?: CanRead): SortItem[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const items: SortItem[] = [];
  const seen = new Set<string>();
  let joins = 0;
  const addPath = (path: string[], order: string) => {
    if (!ORDER.test(order)) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    // Each key through a relation is a subquery per row: a repeated key would redo one that can
    // no longer change the order, so the first occurrence wins and the others are dropped.
    const key = path.join('.');
    if (seen.has(key)) return;
    if (path.length > L.sortPathDepth) throw limitExceeded('sort', `a sort path may have at most ${L.sortPathDepth} segments`, L.sortPathDepth);
    if (seen.size >= L.sortKeys) throw limitExceeded('sort', `at most ${L.sortKeys} distinct sort keys are allowed`, L.sortKeys);
    checkSortPath(registry, model, path, canRead);
    // Every step through a relation or component is a nested subquery per row, and many of them
    // cost more than their sum in SQLite's sorter (56 steps: 60 ms on 100 articles).
    joins += path.length - 1;
    if (joins > L.sortJoins) throw limitExceeded('sort', `sort keys may pass through at most ${L.sortJoins} relations and components in all`, L.sortJoins);
    seen.add(key);
    items.push({ path, order: order.toLowerCase() as 'asc' | 'desc' });
  };
  const fromString = (s: string) => {
    for (const part of s.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [field, order = 'asc', ...rest] = part.split(':');
      if (rest.length) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
      addPath(field!.split('.'), order);
    }
  };
  const fromObject = (o: Raw, prefix: string[]) => {
    for (const [key, value] of Object.entries(o)) {
      if (typeof value === 'string') addPath([...prefix, key], value);
      else if (isObject(value)) fromObject(value, [...prefix, key]);
      else throw new ValidationError(`Invalid sort parameter at ${[...prefix, key].join('.')}`);
    }
  };
  const walk = (value: unknown) => {
    if (typeof value === 'string') fromString(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      // qs turns sort[0]=a (past arrayLimit) or sort[title]=desc into objects: tell them apart.
      if (Object.keys(value).every((k) => /^\d+$/.test(k))) Object.values(value).forEach(walk);
      else fromObject(value, []);
    } else throw new ValidationError('Invalid sort parameter');
  };
  walk(raw);
  return items;
}

function checkSortPath(registry: Registry, model: AnyModel, path: string[], canRead?: CanRead) {
  let current: AnyModel = model;
  path.forEach((name, i) => {
    const last = i === path.length - 1;
    // Strapi names the whole path for attributes that exist but may not be used, the parent otherwise.
    const known = !!current.attributes[name];
    const errorPath = known ? path.slice(0, i + 1).join('.') : i === 0 ? null : path.slice(0, i).join('.');
    const invalid = () => ValidationError.invalidKey(name, 'query', { path: errorPath, param: 'sort' });
    if (last) {
      if (!isSelectable(current, name)) throw invalid();
      return;
    }
    const attribute = current.attributes[name];
    if (attribute?.kind === 'relation' && !attribute.toMany && !attribute.private && (!canRead || canRead(attribute.target))) {
      current = registry.contentType(attribute.target)!;
    }
    else if (attribute?.kind === 'component' && !attribute.repeatable) current = registry.component(attribute.component)!;
    else throw invalid();
  });
}

const POPULATE_KEYS = new Set(['fields', 'sort', 'filters', 'populate', 'count', 'on']);

/** What one request's populate may still add, and what nested filters and sorts need. */
interface PopulateContext {
  registry: Registry;
  canRead?: CanRead;
  /** Entries added so far (each costs a query per level); capped at REQUEST_LIMITS.populateNodes. */
  nodes: number;
  filters: FilterBudget;
}

/** `populate=*`, `populate=a,b`, `populate[0]=a`, `populate=a.b`, object form with nested options. */
export function parsePopulate(
  registry: Registry,
  model: AnyModel,
  raw: unknown,
  path: string[] = [],
  canRead?: CanRead,
  filters: FilterBudget = newFilterBudget(),
): PopulateMap {
  return populateMap({ registry, canRead, nodes: 0, filters }, model, raw, path, 1);
}

/** Counts one populated entry at `depth` (1 = the requested type's own attributes). */
function countNode(ctx: PopulateContext, path: string[], depth: number) {
  if (depth > L.populateDepth) {
    throw limitExceeded('populate', `populate may nest at most ${L.populateDepth} levels deep`, L.populateDepth, { path: path.join('.') });
  }
  if (++ctx.nodes > L.populateNodes) {
    throw limitExceeded('populate', `at most ${L.populateNodes} relations, components and media may be populated in one request`, L.populateNodes);
  }
}

function populateMap(ctx: PopulateContext, model: AnyModel, raw: unknown, path: string[], depth: number): PopulateMap {
  const map: PopulateMap = {};
  if (raw === undefined || raw === null || raw === '' || raw === false || raw === 'false') return map;
  const { registry, canRead } = ctx;
  const populatable = Object.values(model.attributes).filter((a) => a.kind !== 'scalar');
  const invalid = (key: string) =>
    ValidationError.invalidKey(key, 'query', { path: [...path, key].join('.'), param: 'populate' });
  const add = (name: string, spec: PopulateSpec) => {
    if (!(name in map)) countNode(ctx, [...path, name], depth);
    map[name] = { ...map[name], ...spec };
    return map[name]!;
  };

  const addPath = (dotted: string) => {
    if (dotted === '*') {
      // `*` is never refused: it leaves out what the caller may not see.
      for (const a of populatable) {
        if (a.private || (a.kind === 'relation' && canRead && !canRead(a.target))) continue;
        if (!map[a.name]) add(a.name, {});
      }
      if (model.modelType === 'contentType' && model.localized && !map.localizations) add('localizations', {});
      return;
    }
    const [head, ...rest] = dotted.split('.');
    const spec = addAttribute(head!, {});
    if (rest.length) {
      const target = targetModel(registry, model, head!);
      if (!target) throw invalid(rest[0]!);
      spec.populate = { ...spec.populate, ...populateMap(ctx, target, rest.join('.'), [...path, head!], depth + 1) };
    }
  };
  const addAttribute = (name: string, spec: PopulateSpec): PopulateSpec => {
    const attribute = model.attributes[name];
    const isLocalizations = name === 'localizations' && model.modelType === 'contentType' && model.localized;
    if (!isLocalizations && (!attribute || attribute.kind === 'scalar' || attribute.private)) throw invalid(name);
    if (attribute?.kind === 'relation' && canRead && !canRead(attribute.target)) throw invalid(name);
    return add(name, spec);
  };

  if (typeof raw === 'string') raw.split(',').map((s) => s.trim()).filter(Boolean).forEach(addPath);
  else if (Array.isArray(raw)) raw.forEach((item) => (typeof item === 'string' ? addPath(item) : Object.assign(map, populateMap(ctx, model, item, path, depth))));
  else if (isObject(raw)) {
    const keys = Object.keys(raw);
    if (keys.length && keys.every((k) => /^\d+$/.test(k))) return populateMap(ctx, model, Object.values(raw), path, depth);
    for (const [name, value] of Object.entries(raw)) {
      if (value === false || value === 'false' || value === 'f' || value === '0') continue;
      if (value === true || value === 'true' || value === 't' || value === '1') {
        addAttribute(name, {});
        continue;
      }
      if (value === '*') {
        // `populate[x]=*` is `populate[x][populate]=*`: for a dynamic zone, each component's own
        // relations, media and components, as Strapi does.
        addAttribute(name, {});
        if (model.attributes[name]?.kind === 'dynamiczone') add(name, populateSpec(ctx, model, name, { populate: '*' }, [...path, name], depth));
        else add(name, { populate: populateMap(ctx, targetModel(registry, model, name) ?? model, '*', [...path, name], depth + 1) });
        continue;
      }
      if (!isObject(value)) throw invalid(name);
      addAttribute(name, {});
      add(name, populateSpec(ctx, model, name, value, [...path, name], depth));
    }
  } else throw invalid(String(raw));
  return map;
}

/** The options of one populated attribute at `depth`: its own fields, sort, filters, count, and what it populates. */
function populateSpec(ctx: PopulateContext, model: AnyModel, name: string, raw: Raw, path: string[], depth: number): PopulateSpec {
  const { registry } = ctx;
  const attribute = model.attributes[name];
  const target = targetModel(registry, model, name);
  const spec: PopulateSpec = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!POPULATE_KEYS.has(key)) throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
    if (key === 'on') {
      if (attribute?.kind !== 'dynamiczone' || !isObject(value)) {
        throw new ValidationError(`Using fragments is not permitted to populate "${name}" in "${model.uid}"`);
      }
      spec.on = {};
      for (const [uid, sub] of Object.entries(value)) {
        if (!attribute.components.includes(uid)) throw ValidationError.invalidKey(uid, 'query', { path: path.join('.'), param: 'populate' });
        countNode(ctx, [...path, uid], depth);
        const component = registry.component(uid)!;
        spec.on[uid] = sub === true || sub === 'true' ? {} : isObject(sub) ? nestedOptions(ctx, component, sub, [...path, uid], depth) : {};
      }
      continue;
    }
    if (key === 'populate' && attribute?.kind === 'dynamiczone') {
      // A dynamic zone takes `populate=*` only: every component's own relations, media and components.
      if (value !== '*') throw new ValidationError(`Invalid nested population query detected for "${name}": only populate=* or on fragments are allowed`);
      spec.on = {};
      for (const uid of attribute.components) {
        countNode(ctx, [...path, uid], depth);
        spec.on[uid] = { populate: populateMap(ctx, registry.component(uid)!, '*', [...path, uid], depth + 1) };
      }
      continue;
    }
    if (key === 'count') {
      const word = BOOLEAN_WORDS[String(value)];
      if (word === undefined) throw new ValidationError(`Invalid populate count for "${name}": expected a boolean`);
      spec.count = word;
      continue;
    }
    if (!target) throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
    Object.assign(spec, nestedOptions(ctx, target, { [key]: value }, path, depth));
  }
  return spec;
}

/** fields, sort, filters, populate and count for the entries of `target` populated at `depth`. */
function nestedOptions(ctx: PopulateContext, target: AnyModel, raw: Raw, path: string[], depth: number): PopulateSpec {
  const spec: PopulateSpec = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'fields') spec.fields = parseFields(target, value, path.join('.'));
    else if (key === 'sort') spec.sort = parseSort(ctx.registry, target, value, ctx.canRead);
    else if (key === 'filters') {
      if (!isObject(value)) throw new ValidationError(`Invalid filters parameter at ${path.join('.')}: expected an object`);
      checkFilters(value, ctx.filters);
      spec.filters = parseFilters(ctx.registry, target, value, ctx.canRead);
    } else if (key === 'populate') spec.populate = populateMap(ctx, target, value, path, depth + 1);
    else if (key === 'count') spec.count = BOOLEAN_WORDS[String(value)] ?? false;
    else throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'populate' });
  }
  return spec;
}

/** The model an attribute leads to (relation target, component), if it is a single model. */
export function targetModel(registry: Registry, model: AnyModel, name: string): AnyModel | undefined {
  const attribute = model.attributes[name];
  if (name === 'localizations' && model.modelType === 'contentType') return model;
  if (attribute?.kind === 'relation') return registry.contentType(attribute.target);
  if (attribute?.kind === 'component') return registry.component(attribute.component);
  if (attribute?.kind === 'media') return FILE_MODEL;
  return undefined;
}

/** The whole query string of a list or get request. */
export function parseReadQuery(
  registry: Registry,
  contentType: ContentType,
  raw: Raw,
  defaultLocale: string,
  limits: QueryLimits = DEFAULT_LIMITS,
  canRead?: CanRead,
): ReadQuery {
  for (const key of Object.keys(raw)) {
    if (!TOP_LEVEL.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  }
  if (raw.filters !== undefined && !isObject(raw.filters)) throw new ValidationError('Invalid filters parameter: expected an object');
  // One budget for the root filters and every populate filter: together they make the request's SQL.
  const filterBudget = newFilterBudget();
  if (raw.filters !== undefined) checkFilters(raw.filters as Raw, filterBudget);
  return {
    status: parseStatus(raw.status),
    // Kept for types without i18n too: populated localized targets use it.
    locale: parseLocale(raw.locale, defaultLocale),
    fields: parseFields(contentType, raw.fields),
    sort: parseSort(registry, contentType, raw.sort, canRead),
    pagination: parsePagination(raw.pagination, limits),
    populate: parsePopulate(registry, contentType, raw.populate, [], canRead, filterBudget),
    // Last, as when filters were checked while compiling: a request with several mistakes names the same one.
    filters: raw.filters === undefined ? undefined : parseFilters(registry, contentType, raw.filters as Raw, canRead),
    canRead,
  };
}
