/**
 * Request limits: how large a query string may make one request's work. Each is far past
 * what a real front end sends, and each keeps the worst request of its kind well under
 * 100 ms of event-loop time on the example data (test/query/stall-and-memory.test.ts).
 * Beyond a limit the answer is a 400 naming the parameter, never a slow 200 or a 500.
 * docs/rest-api.md ("Request limits") lists them.
 */
import { PaginationError, ValidationError } from '../errors';

export const REQUEST_LIMITS = {
  /** `key=value` pairs in one query string (qs's own default; past it qs would silently drop the rest). */
  queryParameters: 1000,
  /** Distinct sort keys in one `sort` (a repeated key counts once: the first occurrence wins). */
  sortKeys: 20,
  /** Segments of one sort path (`author.mentor.name` has 3). */
  sortPathDepth: 5,
  /** Relations and components passed through by all sort keys together (`author.mentor.name` passes 2). */
  sortJoins: 20,
  /** Keys and list items in all of a request's filter trees together (root and populate filters). */
  filterNodes: 200,
  /** Nesting of a filter tree, counted in objects from `filters` down. */
  filterDepth: 10,
  /** Values in one list (`$in`, `$notIn`, or a list given to another operator). */
  filterListValues: 1000,
  /** Values in all of a request's filter trees together. */
  filterValues: 2000,
  /** Nesting of populate (`populate[author][populate][mentor]` is 2 levels). */
  populateDepth: 8,
  /** Relations, components, media and dynamic-zone components populated by one request. */
  populateNodes: 100,
  /**
   * Entries (documents, components, files) a populated response may hold. Populated targets
   * are shared between parents, so articles → author → articles → author… multiplies the
   * response without multiplying the queries; this caps what is serialised.
   */
  responseEntries: 10_000,
  /** The offset a page may start at: past it, a page number is surely a mistake or a probe. */
  paginationOffset: 1_000_000_000,
} as const;

/** A 400 for a query past a limit: the message names the parameter, details say which limit. */
export function limitExceeded(param: string, message: string, limit: number, extra: Record<string, unknown> = {}): ValidationError {
  return new ValidationError(`Invalid ${param} parameter: ${message}`, { param, limit, ...extra });
}

/** A pagination value out of range (not a safe integer, or a page past the last allowed offset). */
export function paginationOutOfRange(name: string, expected: string, received: unknown): PaginationError {
  return new PaginationError(`Invalid '${name}' parameter. Expected ${expected}, received: ${String(received)}`);
}
