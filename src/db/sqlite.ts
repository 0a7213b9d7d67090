/**
 * SQLite engine: one file, two connections.
 *
 * Writes go through a single connection, one at a time in `BEGIN IMMEDIATE` transactions,
 * so an `await` inside a transaction can never let another request's statement slip into
 * it; writers queued in the same turn of the event loop share one COMMIT, each in its own
 * savepoint (./group-commit.ts). Reads use a second connection: under WAL they see the last
 * committed state and never a transaction in progress.
 */
import { Database as BunDatabase, type Statement } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import type { Database, ExistingSchema, Queryable, RunResult, SqlValue, Statement as SqlStatement, TransactionOptions } from './database';
import { sqliteDialect } from './dialect';
import { GroupCommit } from './group-commit';
import { recentEnough } from './read-horizon';
import { Sql, sql } from './sql';
import { readSettingsVersion } from './store/settings';

const STATEMENT_CACHE_SIZE = 500;
/** Asked before every cached read of settings: built once. */
const DATA_VERSION = sql`PRAGMA data_version`;
/** Longer statement texts are prepared for one use and not kept. */
const STATEMENT_CACHE_MAX_TEXT = 32768;

function openConnection(path: string): BunDatabase {
  const db = new BunDatabase(path, { create: true, strict: true });
  // busy_timeout first: the other pragmas may already need the lock.
  db.run('PRAGMA busy_timeout = 10000');
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = NORMAL');
  db.run('PRAGMA foreign_keys = ON');
  db.run('PRAGMA temp_store = MEMORY');
  // 2 MiB of page cache per connection: the OS caches the file anyway, so a larger cache only
  // saves a copy from it; measured on the bench (#21), 8 MiB read no faster and held ~8 MiB more under writes.
  db.run('PRAGMA cache_size = -2000');
  // Gathers planner statistics where they are missing or stale (cheap, SQLite's advice for long-lived connections).
  // Housekeeping, and it may need the write lock: a connection opened while another process
  // writes (the CLI beside a busy server) must not fail for it; the statistics come another time.
  try {
    db.run('PRAGMA optimize = 0x10002');
  } catch {
    // busy: skipped
  }
  registerFunctions(db);
  return db;
}

/**
 * Folio's SQL functions. `folio_lower`: LOWER() folds ASCII only; filters promise
 * case-insensitivity for all of Unicode (numbers compare as their text, as LOWER() does
 * elsewhere). The `_q` index triggers call it too (db/search-index.ts), so any other program
 * writing to a content table must register it first (a plain sqlite3 shell can read, not write).
 */
export function registerFunctions(db: BunDatabase): void {
  db.function('folio_lower', { deterministic: true }, (value: string | number | null) => (value === null ? null : String(value).toLowerCase()));
}

/** The answer of a pragma, its statement finalized at once (nothing left to keep a closing connection open). */
function pragmaRow<T>(db: BunDatabase, text: string): T | undefined {
  const statement = db.prepare(text);
  try {
    return (statement.get() as T | null) ?? undefined;
  } finally {
    statement.finalize();
  }
}

/** One connection with its own statement cache (bun's built-in cache keeps only 20). */
class Connection implements Queryable {
  readonly dialect = sqliteDialect;
  private statements = new Map<string, Statement>();

  constructor(
    readonly raw: BunDatabase,
    private counter: { count: number },
  ) {}

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Re-insert to keep the map in least-recently-used order.
      this.statements.delete(sql);
      this.statements.set(sql, statement);
    } else {
      statement = this.raw.prepare(sql);
      // A statement this long comes from an unusual request (a 200-key filter): caching it
      // would let a few such requests hold megabytes, and it is unlikely to come again.
      if (sql.length > STATEMENT_CACHE_MAX_TEXT) {
        this.counter.count++;
        return statement;
      }
      this.statements.set(sql, statement);
      if (this.statements.size > STATEMENT_CACHE_SIZE) {
        const oldest = this.statements.keys().next().value as string;
        this.statements.get(oldest)?.finalize();
        this.statements.delete(oldest);
      }
    }
    this.counter.count++;
    return statement;
  }

  /** The prepared statement and its parameters, from builder SQL or legacy text. */
  private bind(statement: SqlStatement, params: SqlValue[] = []): [Statement, SqlValue[]] {
    if (statement instanceof Sql) {
      const compiled = statement.compile('question');
      return [this.prepare(compiled.text), compiled.params];
    }
    return [this.prepare(statement), params];
  }

  allSync<T>(statement: SqlStatement, params?: SqlValue[]): T[] {
    const [prepared, values] = this.bind(statement, params);
    return prepared.all(...(values as never[])) as T[];
  }

  async all<T>(statement: SqlStatement, params?: SqlValue[]): Promise<T[]> {
    return this.allSync<T>(statement, params);
  }

  async get<T>(statement: SqlStatement, params?: SqlValue[]): Promise<T | undefined> {
    const [prepared, values] = this.bind(statement, params);
    return (prepared.get(...(values as never[])) as T | null) ?? undefined;
  }

  async run(statement: SqlStatement, params?: SqlValue[]): Promise<RunResult> {
    const [prepared, values] = this.bind(statement, params);
    const result = prepared.run(...(values as never[]));
    return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
  }

  async insert(statement: SqlStatement, params?: SqlValue[]): Promise<number> {
    return (await this.run(statement, params)).lastInsertRowid;
  }

  async exec(sql: string): Promise<void> {
    this.counter.count++;
    this.raw.exec(sql);
  }

  /** Nothing to take: every write transaction already holds the file's one write lock (BEGIN IMMEDIATE). */
  async lock(_names: string[], _shared?: string[]): Promise<void> {}

  private closed = false;

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    this.raw.close();
  }
}

/**
 * Checkpoints off the request path. SQLite's own checkpoint runs inside the COMMIT that
 * crosses `wal_autocheckpoint` pages, so every few hundred writes one request paid 5–10 ms
 * copying the WAL into the database (bun:sqlite is synchronous: the whole event loop waited).
 * The serving writer turns that off and a worker thread with its own connection runs a
 * PASSIVE checkpoint every CHECKPOINT_INTERVAL_MS: it never waits for readers or the writer,
 * copies what it can, and once it has caught up the next write starts the WAL from the top
 * again, so the WAL stays bounded by what is written in about one interval (and its file is
 * truncated to JOURNAL_SIZE_LIMIT when reset). Source text rather than a module file, so the
 * compiled binary carries it; if the thread cannot start, autocheckpoint comes back on.
 */
const CHECKPOINT_INTERVAL_MS = 500;
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
const AUTOCHECKPOINT_PAGES = 1000;
const CHECKPOINTER = `
import { Database } from 'bun:sqlite';
let db;
let timer;
self.onmessage = ({ data }) => {
  if (data.stop) {
    // Between two checkpoints (this thread runs one at a time): the connection closes, then the
    // closing thread, waiting on the flag, is told.
    clearInterval(timer);
    try {
      db?.close();
    } catch {}
    db = undefined;
    const flag = new Int32Array(data.stop);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    return;
  }
  db = new Database(data.path);
  timer = setInterval(() => {
    try {
      postMessage(db.query('PRAGMA wal_checkpoint(PASSIVE)').get());
    } catch (error) {
      postMessage({ error: String(error) });
    }
  }, data.intervalMs);
};
`;
/** How long close() waits for the checkpoint worker to close its connection. */
const CHECKPOINTER_STOP_MS = 5000;

/** What the background checkpoints have done so far (tests and diagnostics read it). */
export interface CheckpointStats {
  /** Checkpoints run by the worker. */
  runs: number;
  /** Frames of the WAL and how many of them were in the database after the last run. */
  log: number;
  checkpointed: number;
}

export class SqliteDatabase implements Database {
  readonly dialect = sqliteDialect;
  private counter = { count: 0 };
  private writer: Connection;
  private reader: Connection;
  private writes: GroupCommit;
  private checkpointer: Worker | undefined;
  private checkpointStarted = false;
  readonly checkpoints: CheckpointStats = { runs: 0, log: 0, checkpointed: 0 };
  /** The settings version last read, and the data_version it was read at. */
  private settings: { dataVersion: number; version: number | undefined } | undefined;

  constructor(readonly path: string) {
    this.writer = new Connection(openConnection(path), this.counter);
    this.reader = new Connection(openConnection(path), this.counter);
    this.writes = new GroupCommit(this.writer.raw, () => (this.marker = undefined));
  }

  get statementCount() {
    return this.counter.count;
  }

  /** COMMITs so far: fewer than write transactions when queued writers shared one (tests read it). */
  get commitCount() {
    return this.writes.commits;
  }

  all<T>(statement: SqlStatement, params?: SqlValue[]) {
    return this.reader.all<T>(statement, params);
  }
  get<T>(statement: SqlStatement, params?: SqlValue[]) {
    return this.reader.get<T>(statement, params);
  }
  /** A lone write statement is its own transaction. */
  run(statement: SqlStatement, params?: SqlValue[]) {
    return this.transaction((tx) => tx.run(statement, params));
  }
  insert(statement: SqlStatement, params?: SqlValue[]) {
    return this.transaction((tx) => tx.insert(statement, params));
  }
  exec(sql: string) {
    return this.transaction((tx) => tx.exec(sql));
  }
  async lock(_names: string[], _shared?: string[]): Promise<void> {}

  /**
   * The reader connection's data_version moves when any other connection commits, which
   * includes this process's writer: one cheap pragma instead of re-reading settings.
   */
  async changeMarker(options?: { fresh?: boolean }): Promise<number> {
    if (this.marker !== undefined && !options?.fresh && recentEnough(this.markerAt)) return this.marker;
    this.markerAt = performance.now();
    const marker = (await this.reader.get<{ data_version: number }>(DATA_VERSION))!.data_version;
    // A fresh read replaces this turn's answer (its forgetting is already scheduled).
    const scheduled = this.marker !== undefined;
    this.marker = marker;
    if (scheduled) return marker;
    // Kept until this turn of the event loop ends: a read request (guard, locales, totals)
    // asks several caches in one turn, and one pragma answers them all. A commit here clears
    // it at once (transaction); a request that began after it was read reads it again
    // (./read-horizon.ts), so another process's commit acknowledged before it is seen.
    setImmediate(this.forgetMarker);
    return marker;
  }

  private marker: number | undefined;
  /** When it was read: a request that began later reads it again (./read-horizon.ts: another process may have committed meanwhile). */
  private markerAt = 0;
  private forgetMarker = () => {
    this.marker = undefined;
  };

  /**
   * No commit since the last read (data_version unchanged): the settings cannot have changed
   * either, and one pragma answers. Otherwise one read of the version row. data_version is
   * read first, so the version read after it is at least as new as what it is stored with.
   */
  async settingsVersion(options?: { fresh?: boolean }): Promise<number | undefined> {
    const dataVersion = await this.changeMarker(options);
    if (this.settings?.dataVersion === dataVersion) return this.settings.version;
    const version = await readSettingsVersion(this.reader);
    this.settings = { dataVersion, version };
    return version;
  }

  /** No signal from other processes' commits: their readers poll (this process's own commits are known to it). */
  watchCommits(_fn: () => void): undefined {
    return undefined;
  }

  /** One file, and each step already runs in an IMMEDIATE transaction: nothing more to lock. */
  exclusive<T>(_key: number, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async schema(): Promise<ExistingSchema> {
    const tables = await this.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table'`);
    const columns = new Map<string, Set<string>>();
    for (const { name } of tables) {
      const info = await this.all<{ name: string }>(sql`PRAGMA table_info(${sql.id(name)})`);
      columns.set(name.toLowerCase(), new Set(info.map((c) => c.name)));
    }
    const indexes = await this.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'index'`);
    return { columns, indexes: new Set(indexes.map((i) => i.name.toLowerCase())), tables: tables.map((t) => t.name) };
  }

  /** Started with the first write: commands that only read never start a thread. */
  private startCheckpointer() {
    this.checkpointStarted = true;
    try {
      const worker = new Worker(URL.createObjectURL(new Blob([CHECKPOINTER], { type: 'application/javascript' })));
      worker.unref();
      worker.onmessage = ({ data }) => {
        if (typeof data?.log !== 'number') return;
        this.checkpoints.runs++;
        this.checkpoints.log = data.log;
        this.checkpoints.checkpointed = data.checkpointed;
      };
      worker.onerror = () => this.stopCheckpointer(true);
      worker.postMessage({ path: this.path, intervalMs: CHECKPOINT_INTERVAL_MS });
      this.checkpointer = worker;
      this.writer.raw.run(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
      this.writer.raw.run('PRAGMA wal_autocheckpoint = 0');
    } catch {
      this.stopCheckpointer(true);
    }
  }

  /**
   * Stops the worker; `fallBack` hands checkpoints back to SQLite's own (in the commit). Waits
   * (synchronously) until its connection is closed: terminate() alone ends the thread later, and
   * a connection still open then keeps the WAL from being checkpointed into the file and removed
   * when this process closes its own. False when the worker did not answer in time.
   */
  private stopCheckpointer(fallBack: boolean): boolean {
    const worker = this.checkpointer;
    this.checkpointer = undefined;
    let stopped = true;
    if (worker) {
      const flag = new Int32Array(new SharedArrayBuffer(4));
      try {
        worker.postMessage({ stop: flag.buffer });
        stopped = Atomics.wait(flag, 0, 0, CHECKPOINTER_STOP_MS) !== 'timed-out';
      } catch {
        stopped = false;
      }
      worker.terminate();
    }
    if (fallBack) this.writer.raw.run(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    return stopped;
  }

  /**
   * Isolation options are PostgreSQL's concern: one IMMEDIATE transaction at a time is
   * serializable already. The writes of one event-loop turn share a commit (./group-commit.ts).
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    if (!this.checkpointStarted) this.startCheckpointer();
    return this.writes.run(() => fn(this.writer));
  }

  close() {
    this.checkpointStarted = true;
    this.writes.flush();
    this.stopCheckpointer(false);
    // The reader first: a connection holding no snapshot lets the checkpoint copy everything.
    this.reader.close();
    try {
      this.writer.raw.run('PRAGMA optimize');
      this.writer.raw.run('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      // Closing must not fail because housekeeping did: the WAL stays beside the file, and
      // whoever opens it next reads the file and its WAL together.
    }
    this.writer.close();
  }

  /**
   * Closes, leaving the whole database in its main file, so the file can be moved on its own
   * (a restore or an import builds a file beside the installation and renames it into place;
   * SQLite reads a WAL by the file's name, so a WAL left behind would be lost with the rename,
   * and with it every write it holds). The WAL is checkpointed whole and then given up
   * (journal_mode DELETE, which SQLite grants only to the one connection left): each step's
   * answer is checked, and anything short of a lone, complete file throws. Closed either way.
   */
  closeToOneFile(): void {
    this.checkpointStarted = true;
    let problem: string | undefined;
    try {
      this.writes.flush();
      const stopped = this.stopCheckpointer(false);
      if (this.writer.raw.inTransaction) problem = 'a write transaction is still open';
      else if (!stopped) problem = 'the checkpoint thread did not stop';
      this.reader.close();
      if (!problem) {
        const checkpoint = pragmaRow<{ busy: number; log: number; checkpointed: number }>(this.writer.raw, 'PRAGMA wal_checkpoint(TRUNCATE)');
        if (checkpoint?.busy !== 0 || checkpoint.log !== checkpoint.checkpointed) {
          problem = `the WAL could not be checkpointed (${JSON.stringify(checkpoint)})`;
        } else {
          const mode = pragmaRow<{ journal_mode: string }>(this.writer.raw, 'PRAGMA journal_mode = DELETE')?.journal_mode;
          if (mode !== 'delete') problem = `the database stayed in journal mode ${mode}`;
        }
      }
    } catch (error) {
      problem = (error as Error).message;
    } finally {
      this.reader.close();
      this.writer.close();
    }
    if (!problem && existsSync(`${this.path}-wal`)) problem = 'its WAL file is still there';
    if (problem) throw new Error(`Could not close ${this.path} as one complete file: ${problem}`);
  }
}
