/**
 * The storage interface the rest of Folio talks to: async, so the PostgreSQL engine
 * (Bun.SQL, pooled, async transactions) and the SQLite engine (synchronous underneath)
 * sit behind one shape. Statements come from the builder (db/sql.ts), which renders each
 * engine's placeholders (`?` for SQLite, `$1…$n` for PostgreSQL).
 */
import type { Dialect } from './dialect';
import type { Sql } from './sql';

/**
 * A statement: a `Sql` fragment from the builder (db/sql.ts), which carries its own
 * parameters; every statement in src/ is one. Plain text with `?` placeholders and a
 * separate parameter list is accepted too, for tests and one-off tools that inspect a
 * database (PostgreSQL renumbers the placeholders).
 */
export type Statement = Sql | string;

export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/** What can run statements: the database itself, or an open transaction. */
export interface Queryable {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(statement: Statement, params?: SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(statement: Statement, params?: SqlValue[]): Promise<T | undefined>;
  run(statement: Statement, params?: SqlValue[]): Promise<RunResult>;
  /** Runs an INSERT into a table with an `id` column and returns the new id (engines differ in how). */
  insert(statement: Statement, params?: SqlValue[]): Promise<number>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * Inside a transaction: takes locks on these names, held until it commits or rolls back,
   * so writers that name the same thing run one after the other. `shared` names are taken
   * in shared mode: their holders run side by side and only wait for (or hold off) an
   * exclusive holder; a name in both lists is taken exclusively. One call takes its names
   * in an order every process shares, so two calls never wait on each other in a cycle; a
   * transaction should take everything it can name up front, in one call.
   * SQLite needs none (one writer at a time already): a no-op there.
   */
  lock(names: string[], shared?: string[]): Promise<void>;
}

/**
 * How a PostgreSQL write transaction keeps concurrent writers apart (SQLite has one writer
 * at a time and ignores this):
 *  - 'serializable' (default): PostgreSQL aborts a transaction that conflicts with another
 *    and it is retried; right without any thought, costly under contention;
 *  - 'read committed': every statement sees the latest commits and the transaction itself
 *    serialises what it must with `lock()`, so contention means waiting, not failing.
 */
export interface TransactionOptions {
  isolation?: 'serializable' | 'read committed';
}

/** Tables and indexes as the engine has them, names lower-cased. */
export interface ExistingSchema {
  columns: Map<string, Set<string>>;
  indexes: Set<string>;
  /** Table names as the engine spells them (the maps above are keyed lower-case). */
  tables: string[];
}

export interface Database extends Queryable {
  /** What tables, columns and indexes exist (schema sync compares against it). */
  schema(): Promise<ExistingSchema>;
  /**
   * A number that changes whenever anything (this process or another) commits, or
   * undefined when the engine cannot tell cheaply; small caches key on it. Within one turn
   * of the event loop the answer may be reused; `fresh` reads it again (a cache checking that
   * nothing committed while it read several statements).
   */
  changeMarker(options?: { fresh?: boolean }): Promise<number | undefined>;
  /**
   * A number that changes whenever roles, grants, API tokens, locales or users change (by
   * anyone: triggers keep it, migrations 0005 and 0013), or undefined when it cannot be read;
   * settings caches key on it. `fresh`: not this turn's answer (a check that must see a commit
   * another process made a moment ago).
   */
  settingsVersion(options?: { fresh?: boolean }): Promise<number | undefined>;
  /**
   * Calls `fn` soon after any commit by any process using this database, and returns the way to
   * stop; undefined when the engine has no such signal (SQLite: whoever waits for other
   * processes' writes looks again now and then). PostgreSQL: the notification every commit
   * sends (db/postgres.ts); a watcher may still be called when nothing it cares about changed.
   */
  watchCommits(fn: () => void): (() => void) | undefined;
  /** Runs `fn` while holding a lock shared by every process using this database. */
  exclusive<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one write transaction: everything it does commits together or not at all.
   * Writes are serialised; reads outside a transaction never see its uncommitted work.
   * A conflict that outlasts a few retries ends in ServiceUnavailableError (503), never a 500.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Number of statements executed so far (tests use it to prove queries are batched). */
  readonly statementCount: number;
  close(): void;
}
