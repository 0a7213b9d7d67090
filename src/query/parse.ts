/**
 * REST query parameters (already nested by `qs`) → ReadQuery, with Strapi's checks:
 * every unknown or forbidden key is a 400 `Invalid key …` naming the parameter.
 * `fields` and `sort` are read in fields-sort.ts, `populate` in populate-params.ts.
 */
import { PaginationError, ValidationError } from '../errors';
import type { ContentType, Registry } from '../registry/types';
import { scalarFieldOf } from '../registry/fields';
import { isObject } from '../json';
import { BOOLEAN_WORDS, invalidParameter, parseFields, parseSort, type Raw } from './fields-sort';
import { checkFilters, newFilterBudget, parseFilters } from './filters';
import { REQUEST_LIMITS as L, paginationOutOfRange } from './limits';
import { parsePopulate } from './populate-params';
import { searchableFields, searchedTextFields } from '../db/search-index';
import type { CanRead, Condition, Pagination, ReadQuery, Status } from './types';

export { parseFields, parseSort } from './fields-sort';
export { parsePopulate, targetModel } from './populate-params';

export interface QueryLimits {
  defaultLimit: number;
  maxLimit: number;
}

export const DEFAULT_LIMITS: QueryLimits = { defaultLimit: 25, maxLimit: 100 };

/** The top-level parameters of a read (find, findOne). */
export const READ_PARAMETERS: ReadonlySet<string> = new Set(['filters', 'sort', 'fields', 'populate', 'status', 'locale', 'pagination', '_q']);
/** The top-level parameters of a write (create, update, delete): the answer's shape and the version written. */
export const WRITE_PARAMETERS: ReadonlySet<string> = new Set(['fields', 'populate', 'status', 'locale']);

/**
 * Strapi's `rest.strictParams`. Strict (Folio's default, and the newest Strapi generator's):
 * an unknown top-level parameter is a 400 `Invalid key`. Not strict (FOLIO_STRICT_PARAMS=false,
 * Strapi's own default and most existing projects'): unknown top-level parameters, such as the
 * cache busters in `?v=2&_=1700000000`, are left out before anything reads them. The known
 * ones are validated the same way in both modes.
 */
export function checkParameters(raw: Raw, known: ReadonlySet<string>, strict: boolean): Raw {
  if (!strict) return Object.fromEntries(Object.entries(raw).filter(([key]) => known.has(key)));
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
  }
  return raw;
}

/** `status`: published (default) or draft; anything else is refused rather than guessed. */
export function parseStatus(raw: unknown): Status {
  if (raw === undefined || raw === null || raw === '') return 'published';
  if (raw === 'published' || raw === 'draft') return raw;
  throw invalidParameter('status', "'published' or 'draft'", raw);
}

/**
 * A locale code is a language tag (`en`, `pt-BR`, `zh-Hans-CN`, `es-419`); RFC 5646 asks
 * implementations to take tags of 35 characters, and nothing longer is a real one.
 */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
export const MAX_LOCALE_LENGTH = 35;

/** `locale`: a language tag, `*`, or absent (then the default locale); anything else is a 400. */
export function parseLocale(raw: unknown, defaultLocale: string): string {
  if (raw === undefined || raw === null || raw === '') return defaultLocale;
  if (typeof raw !== 'string') throw invalidParameter('locale', 'a locale code', JSON.stringify(raw));
  if (raw === '*') return raw;
  if (raw.length > MAX_LOCALE_LENGTH || !LANGUAGE_TAG.test(raw)) {
    const shown = raw.length > MAX_LOCALE_LENGTH ? `${raw.slice(0, MAX_LOCALE_LENGTH)}…` : raw;
    throw invalidParameter('locale', `a language tag of at most ${MAX_LOCALE_LENGTH} characters (e.g. en, pt-BR) or *`, shown);
  }
  return raw;
}

/**
 * Whether the filters choose the locale themselves: a `locale` key at their top level, or in
 * one of their top-level `$and` clauses. Then no default locale is added (Strapi's i18n rule:
 * an official demo looks pages up by `filters[slug]` + `filters[locale]` without `locale`).
 */
function filtersChooseLocale(filters: unknown): boolean {
  if (!isObject(filters)) return false;
  if ('locale' in filters) return true;
  const and = filters.$and;
  const clauses = Array.isArray(and) ? and : isObject(and) ? Object.values(and) : [];
  return clauses.some((clause) => isObject(clause) && 'locale' in clause);
}

/** An integer (else a ValidationError, as before), and a safe one: past 2^53 a number no longer counts rows. */
function toInteger(name: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw invalidParameter(name, 'an integer', value);
  if (!Number.isSafeInteger(n)) throw paginationOutOfRange(name, 'a safe integer', value);
  return n;
}

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

const SEARCHED_NUMBERS = new Set(['integer', 'biginteger', 'float', 'decimal']);

/**
 * `_q`: Strapi's search (database/src/query/helpers/search.ts), a case-insensitive substring
 * of `id` or of any text attribute, and of the number attributes when `_q` reads as a number,
 * combined with the filters. Private and password attributes are never searched: a match
 * would reveal what they hold. `id` is left out when `_q` has anything but digits, as its text
 * never matches then: the text attributes alone can use the search index.
 */
export function parseSearch(contentType: ContentType, raw: unknown): Condition | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') throw invalidParameter('_q', 'a string', JSON.stringify(raw));
  const numeric = raw.trim() !== '' && Number.isFinite(Number(raw));
  const others = [
    ...(/^[0-9]+$/.test(raw) ? [scalarFieldOf(contentType, 'id')!] : []),
    ...(numeric ? searchableFields(contentType).filter((f) => SEARCHED_NUMBERS.has(f.type)) : []),
  ];
  return { kind: 'search', value: raw, text: searchedTextFields(contentType), others };
}

/**
 * The whole query string of a list or get request. Unknown top-level keys are refused here;
 * a route that ignores them (strictParams off) leaves them out first (checkParameters).
 */
export function parseReadQuery(
  registry: Registry,
  contentType: ContentType,
  raw: Raw,
  defaultLocale: string,
  limits: QueryLimits = DEFAULT_LIMITS,
  canRead?: CanRead,
): ReadQuery {
  checkParameters(raw, READ_PARAMETERS, true);
  if (raw.filters !== undefined && !isObject(raw.filters)) throw new ValidationError('Invalid filters parameter: expected an object');
  // One budget for the root filters and every populate filter: together they make the request's SQL.
  const filterBudget = newFilterBudget();
  if (raw.filters !== undefined) checkFilters(raw.filters as Raw, filterBudget);
  const locale = parseLocale(raw.locale, defaultLocale);
  // With `filters[locale]` and no `locale` parameter, the filters pick the versions: every locale is in scope.
  const localeInFilters = contentType.localized && (raw.locale === undefined || raw.locale === null || raw.locale === '') && filtersChooseLocale(raw.filters);
  const search = parseSearch(contentType, raw._q);
  return {
    status: parseStatus(raw.status),
    // Kept for types without i18n too: populated localized targets use it.
    locale: localeInFilters ? '*' : locale,
    ...(localeInFilters ? { localeInFilters: true } : {}),
    fields: parseFields(contentType, raw.fields),
    sort: parseSort(contentType, raw.sort, canRead),
    pagination: parsePagination(raw.pagination, limits),
    populate: parsePopulate(registry, contentType, raw.populate, [], canRead, filterBudget),
    // Last, as when filters were checked while compiling: a request with several mistakes names the same one.
    filters: withSearch(search, raw.filters === undefined ? undefined : parseFilters(registry, contentType, raw.filters as Raw, canRead)),
    canRead,
  };
}

/** `_q` and `filters` together: both must hold. */
function withSearch(search: Condition | undefined, filters: Condition | undefined): Condition | undefined {
  return search && filters ? { kind: 'and', parts: [search, filters] } : (search ?? filters);
}
