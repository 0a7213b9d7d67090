/**
 * The storage interface the rest of Folio talks to. It is async so that a PostgreSQL
 * engine (Bun.SQL, pooled, async transactions) can sit behind it later; the SQLite
 * engine answers synchronously underneath.
 *
 * SQL is written with `?` placeholders and double-quoted identifiers, which both
 * engines accept once the dialect renumbers placeholders (`$1…$n` for PostgreSQL).
 */
import type { Dialect } from './dialect';

export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/** What can run statements: the database itself, or an open transaction. */
export interface Queryable {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<RunResult>;
  /** Runs an INSERT into a table with an `id` column and returns the new id (engines differ in how). */
  insert(sql: string, params?: SqlValue[]): Promise<number>;
  /** Several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
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
   * undefined when the engine cannot tell cheaply; small caches key on it.
   */
  changeMarker(): Promise<number | undefined>;
  /** Runs `fn` while holding a lock shared by every process using this database. */
  exclusive<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` as one write transaction: everything it does commits together or not at all.
   * Writes are serialised; reads outside a transaction never see its uncommitted work.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Number of statements executed so far (tests use it to prove queries are batched). */
  readonly statementCount: number;
  close(): void;
}
