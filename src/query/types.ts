/**
 * A read request in Folio's own terms, after the REST parameters have been checked.
 * The documents layer executes it; the HTTP layer never builds SQL.
 */

export type Status = 'draft' | 'published';

export interface Pagination {
  /** How the client asked: page/pageSize, start/limit, or nothing (page mode). */
  mode: 'page' | 'offset';
  start: number;
  limit: number;
  withCount: boolean;
}

export interface SortItem {
  /** Attribute path: one name for a column, more to sort through to-one relations/components. */
  path: string[];
  order: 'asc' | 'desc';
}

/** A filter tree over one model (see filters.ts for the operators). */
export type FilterNode = Record<string, unknown>;

export interface PopulateSpec {
  fields?: string[];
  sort?: SortItem[];
  filters?: FilterNode;
  populate?: PopulateMap;
  /** `{ count: true }`: answer `{ count: n }` instead of the items. */
  count?: boolean;
  /** Dynamic zones: per component uid. */
  on?: Record<string, PopulateSpec>;
}

/** Attribute name → how to populate it. */
export type PopulateMap = Record<string, PopulateSpec>;

export interface ReadQuery {
  status: Status;
  /** Locale code, or '*' for every locale (lists only). */
  locale: string;
  fields?: string[];
  filters?: FilterNode;
  sort: SortItem[];
  pagination: Pagination;
  populate: PopulateMap;
  /** Whether the caller may read a content type; populate, filters and sort only go through those. */
  canRead?: (uid: string) => boolean;
}
