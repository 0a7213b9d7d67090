/**
 * A read request in Folio's own terms, after the REST parameters have been checked and
 * every name resolved: the read plan. query/parse.ts makes it, query/*.ts compile it to
 * SQL, query/read.ts and populate.ts run it. Nothing in a plan can fail any more.
 */
import type { ColumnValue, ScalarField } from '../registry/fields';

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

/** Whether the caller may read a content type: populate, filters and sort only go through those. */
export type CanRead = (uid: string) => boolean;

export type TextOperator =
  | '$eqi'
  | '$nei'
  | '$contains'
  | '$notContains'
  | '$containsi'
  | '$notContainsi'
  | '$startsWith'
  | '$startsWithi'
  | '$endsWith'
  | '$endsWithi';

/**
 * A checked filter tree over one model (query/filters.ts parses it, query/where.ts compiles
 * it): values are already what the column stores, names already resolved to fields.
 */
export type Condition =
  | { kind: 'and' | 'or'; parts: Condition[] }
  | { kind: 'not'; part: Condition }
  | { kind: 'compare'; field: ScalarField; op: '=' | '<>' | '<' | '<=' | '>' | '>='; value: ColumnValue }
  | { kind: 'in'; field: ScalarField; negate: boolean; values: ColumnValue[] }
  | { kind: 'between'; field: ScalarField; low: ColumnValue; high: ColumnValue }
  | { kind: 'null'; field: ScalarField; isNull: boolean }
  | { kind: 'text'; field: ScalarField; op: TextOperator; value: string }
  /**
   * `_q`: `value` is a case-insensitive substring of one of `text` (served by the search index,
   * db/search-index.ts, when it is long enough) or of `others` (id and numbers, read as text).
   */
  | {
      kind: 'search';
      value: string;
      text: ScalarField[];
      others: ScalarField[];
      /** PostgreSQL: the trigrams its indexes should look up (db/search-grams.ts), chosen by the reader from a sample. */
      grams?: string[];
    }
  /** A related row (relation target or component) matches `condition`; `none`: no related row does (or, without a condition, exists). */
  | { kind: 'related'; name: string; none: boolean; condition?: Condition }
  /** Strapi 5's `publicationFilter` (draft & publish types): how a version stands beside the document's other status (compile.ts publicationSql). */
  | { kind: 'publication'; mode: PublicationFilter };

/**
 * Strapi 5's `publicationFilter` values (@strapi/utils publication-filter): which versions of
 * the reader's status to keep by their counterpart of the other status, in the same locale or
 * (`-document`) in any locale.
 */
export type PublicationFilter =
  | 'never-published'
  | 'has-published-version'
  | 'modified'
  | 'unmodified'
  | 'never-published-document'
  | 'has-published-version-document'
  | 'published-without-draft'
  | 'published-with-draft';

export const PUBLICATION_FILTERS: readonly PublicationFilter[] = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
];

export interface PopulateSpec {
  /**
   * The attribute this entry reads when its key is another name: the plan builder's aliases
   * (GraphQL's `first: tags(sort: …) last: tags(filters: …)`, one read of `tags` each).
   * Without it the key names the attribute.
   */
  attribute?: string;
  fields?: string[];
  sort?: SortItem[];
  filters?: Condition;
  populate?: PopulateMap;
  /** `{ count: true }`: answer `{ count: n }` instead of the items. */
  count?: boolean;
  /** Dynamic zones: per component uid; morphTo sides: per content type uid (only those types are populated). */
  on?: Record<string, PopulateSpec>;
  /** A morphTo side: the types the caller may read (undefined: every type). */
  types?: string[];
}

/** Attribute name → how to populate it. */
export type PopulateMap = Record<string, PopulateSpec>;

export interface ReadQuery {
  status: Status;
  /**
   * The listed rows are of either status (the query engine's reads, strapi.db.query: rows, not
   * documents): no status condition on them. Populated relations still reach `status`'s versions.
   */
  everyStatus?: boolean;
  /** Locale code, or '*' for every locale (lists only, or when the filters choose the locale). */
  locale: string;
  /** `filters[locale]` without a `locale` parameter: the filters pick the versions, no default locale applies. */
  localeInFilters?: boolean;
  fields?: string[];
  filters?: Condition;
  sort: SortItem[];
  pagination: Pagination;
  populate: PopulateMap;
  /** Whether the caller may read a content type; populate, filters and sort only go through those. */
  canRead?: CanRead;
}
