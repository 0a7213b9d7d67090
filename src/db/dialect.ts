/**
 * What differs between SQL engines, in one place. Domain code builds SQL through these
 * helpers instead of writing engine-specific text.
 */
import { column, SEARCH, VERSION } from './layout';
import { ftsPhrase, indexable } from './search-index';
import { sql, type Sql } from './sql';

/** `_q` over one model's rows, as query/compile.ts describes it; the engine chooses the index. */
export interface SearchInput {
  /** What was searched, as sent. */
  value: string;
  /** The alias of the searched rows, and their table (name, and as an identifier). */
  alias: string;
  tableName: string;
  table: Sql;
  /** The text columns searched (the search index covers them), and whether id or numbers are searched too. */
  text: string[];
  hasOthers: boolean;
  /**
   * The rows searched are published versions of a type with draft & publish: in SQLite's
   * index (db/search-index.ts) such a version may share its draft's entry, when its text
   * columns equal the draft's (a draft always has its own).
   */
  sharedEntries: boolean;
  /** PostgreSQL: the rare trigrams db/search-grams.ts chose for the index to look up. */
  grams?: string[];
  /** Reading every row: the `$containsi` test of the other fields, and of the text fields. */
  scanOthers(): Sql[];
  scanText(): Sql[];
}

/** A row of the outer query has (`none`: has no) related row in `from` matching `where`. */
export interface SemiJoinInput {
  /** The outer row's values the related rows point back to, and the related rows' columns holding them. */
  outer: Sql[];
  keys: Sql[];
  from: Sql;
  where: Sql;
  none: boolean;
}

export interface Dialect {
  name: 'sqlite' | 'postgres';
  /** Primary key column definition. */
  idColumn: string;
  /** Type of order keys: text compared byte by byte. */
  orderKeyType: string;
  /** Type of system text columns (documentId, locale, timestamps), sorted byte by byte. */
  textType: string;
  /** Type of system floating-point columns (a file's size). */
  realType: string;
  /** The current UTC time as ISO-8601 text with milliseconds (`2024-01-02T03:04:05.678Z`), as JS writes it. */
  nowText: string;
  /** `INSERT INTO target rows` that skips rows clashing with the unique key `conflict` (a parenthesised column list). */
  insertIgnoring(target: string, rows: string, conflict: string): string;
  /** Lower-cases for all of Unicode (SQLite's LOWER folds ASCII only). */
  lower(expression: Sql): Sql;
  /** 1-based position of `needle` in `haystack`, 0 when absent (case-sensitive, no wildcards). */
  position(haystack: Sql, needle: Sql): Sql;
  /** The last `length` characters of `expression`. */
  suffix(expression: Sql, length: Sql): Sql;
  /**
   * Whether Queryable.lock takes anything: false on SQLite, whose one writer at a time already
   * serialises writes, so a write need not compute the names of what it would lock.
   */
  takesLocks: boolean;
  /**
   * Whether `_q` chooses which trigrams to look up from samples of the searched tables
   * (db/search-grams.ts: PostgreSQL's trigram indexes); SQLite's FTS5 index needs none.
   */
  searchSamples: boolean;
  /**
   * Whether several instances may share this database: then the installation's secrets and
   * the rate-limit counters live in it (PostgreSQL); otherwise in the data folder and memory.
   */
  sharedByInstances: boolean;
  /** Whether a populate level's reads go out as one UNION ALL (a statement costs more than its rows). */
  unionReads: boolean;
  /** From which offset a page is read as a deferred join (ids first, then the rows). */
  deferredPageFrom: number;
  /** `_q`: through the search index when it can serve the search, else reading the rows. */
  search(input: SearchInput): Sql;
  /** Whether a related row exists (query/compile.ts related()): the form the engine's planner handles best. */
  semiJoin(input: SemiJoinInput): Sql;
}

/**
 * SQLite: the FTS5 table holds each attribute folded by folio_lower (db/sqlite.ts), so a
 * search long enough for its trigrams is looked up there; shorter ones, and those that also
 * look at id or numbers, read the rows.
 */
function sqliteSearch(s: SearchInput): Sql {
  const folded = s.value.toLowerCase();
  if (s.hasOthers || s.text.length === 0 || !indexable(folded)) return sql.or([...s.scanOthers(), ...s.scanText()]);
  const fts = sql.id(SEARCH.ftsTable(s.tableName));
  const match = sql`${fts} MATCH ${ftsPhrase(folded)}`;
  if (!s.sharedEntries) return sql`${column(s.alias, VERSION.id)} IN (SELECT rowid FROM ${fts} WHERE ${match})`;
  // Each matching row, and the published versions that share a matching draft's entry: those
  // of its document and locale whose text columns hold the same values (~1.5 µs a match more:
  // drafts, which always have their own entry, are read without).
  const [d, x] = [`${s.alias}_qd`, `${s.alias}_qx`];
  const same = (name: string) => sql`${column(x, name)} IS ${column(d, name)}`;
  const shares = sql.and([sql`${column(d, VERSION.publishedAt)} IS NULL`, sql`${column(x, VERSION.publishedAt)} IS NOT NULL`, ...s.text.map(same)]);
  return sql`${column(s.alias, VERSION.id)} IN (SELECT ${column(x, VERSION.id)} FROM ${fts} JOIN ${s.table} ${sql.id(d)} ON ${column(d, VERSION.id)} = ${fts}.rowid JOIN ${s.table} ${sql.id(x)} ON ${column(x, VERSION.documentId)} = ${column(d, VERSION.documentId)} AND ${column(x, VERSION.locale)} = ${column(d, VERSION.locale)} WHERE ${match} AND (${column(x, VERSION.id)} = ${column(d, VERSION.id)} OR ${shares}))`;
}

/**
 * PostgreSQL: LIKE over the ICU-folded column, the expression the pg_trgm indexes are built on;
 * `%`, `_` and `\` are escaped, so the pattern is the literal text. With `grams` the indexes look
 * up only those rare trigrams, the exact test runs on the rows they find, and the page is read
 * from that id list.
 */
function postgresSearch(this: Dialect, s: SearchInput): Sql {
  if (s.grams && !s.hasOthers && s.text.length > 0) {
    const inner = `${s.alias}_q`;
    const needle = this.lower(sql`${s.value}`);
    const hit = (name: string) => {
      const folded = this.lower(column(inner, name));
      // The trigrams are lowercase ASCII letters and digits: nothing to escape in the pattern.
      return sql.and([...s.grams!.map((gram) => sql`${folded} LIKE ${`%${gram}%`}`), sql`${this.position(folded, needle)} > 0`]);
    };
    return sql`${column(s.alias, VERSION.id)} = ANY(ARRAY(SELECT ${column(inner, VERSION.id)} FROM ${s.table} ${sql.id(inner)} WHERE ${sql.or(s.text.map(hit))}))`;
  }
  const pattern = this.lower(sql`${`%${s.value.replace(/[\\%_]/g, '\\$&')}%`}`);
  return sql.or([...s.scanOthers(), ...s.text.map((name) => sql`${this.lower(column(s.alias, name))} LIKE ${pattern}`)]);
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  idColumn: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  orderKeyType: 'TEXT',
  textType: 'TEXT',
  realType: 'REAL',
  nowText: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  insertIgnoring: (target, rows) => `INSERT OR IGNORE INTO ${target}\n${rows}`,
  lower: (expression) => sql`folio_lower(${expression})`,
  position: (haystack, needle) => sql`instr(${haystack}, ${needle})`,
  suffix: (expression, length) => sql`substr(${expression}, -(${length}))`,
  takesLocks: false,
  searchSamples: false,
  sharedByInstances: false,
  unionReads: true,
  deferredPageFrom: Infinity,
  search: sqliteSearch,
  // IN over a non-correlated subquery: SQLite runs a correlated EXISTS once per row.
  semiJoin: ({ outer, keys, from, where, none }) => {
    const list = outer.length > 1 ? sql`(${sql.join(outer)})` : outer[0]!;
    const subquery = sql`SELECT ${sql.join(keys)} FROM ${from}${where.isEmpty ? sql.empty : sql` WHERE ${where}`}`;
    return none ? sql`${list} NOT IN (${subquery})` : sql`${list} IN (${subquery})`;
  },
};

/**
 * PostgreSQL: text compares byte by byte (`COLLATE "C"`) so sorts and order keys match
 * SQLite's; case folding goes through ICU so it covers all of Unicode whatever the
 * database's locale; booleans stay 0/1 integers so rows read the same on both engines.
 */
export const postgresDialect: Dialect = {
  name: 'postgres',
  idColumn: 'INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
  orderKeyType: 'TEXT COLLATE "C"',
  textType: 'TEXT COLLATE "C"',
  realType: 'DOUBLE PRECISION',
  nowText: `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  insertIgnoring: (target, rows, conflict) => `INSERT INTO ${target}\n${rows}\nON CONFLICT ${conflict} DO NOTHING`,
  lower: (expression) => sql`lower(CAST(${expression} AS TEXT) COLLATE "und-x-icu")`,
  position: (haystack, needle) => sql`strpos(${haystack}, ${needle})`,
  suffix: (expression, length) => sql`right(${expression}, ${length})`,
  takesLocks: true,
  searchSamples: true,
  sharedByInstances: true,
  unionReads: false,
  deferredPageFrom: 1000,
  search: postgresSearch,
  // EXISTS, which its planner turns into a semi-join (NOT EXISTS into an anti-join).
  semiJoin: ({ outer, keys, from, where, none }) => {
    const correlated = sql.and([...keys.map((key, i) => sql`${key} = ${outer[i]!}`), where]);
    const found = sql`EXISTS (SELECT 1 FROM ${from} WHERE ${correlated})`;
    return none ? sql`NOT ${found}` : found;
  },
};
