/**
 * PostgreSQL engine over Bun's built-in client (pooled). The same SQL the SQLite engine
 * runs arrives here with `?` placeholders, renumbered to `$1…$n`.
 *
 * Write transactions run SERIALIZABLE unless the caller asks for READ COMMITTED and
 * serialises its own writes with `lock()` (transaction-scoped advisory locks), as the
 * document service does: under contention those wait their turn instead of aborting. A
 * deadlock, serialization failure or unique-key race is retried a few times; one that
 * outlasts the retries, or a lock not granted within the lock timeout, is a 503, never a 500.
 */
import { createHash } from 'node:crypto';
import { SQL } from 'bun';
import { ServiceUnavailableError } from '../errors';
import type { Database, ExistingSchema, Queryable, RunResult, SqlValue, Statement, TransactionOptions } from './database';
import { postgresDialect } from './dialect';
import { SYSTEM } from './layout';
import { Sql, sql as sqlTag } from './sql';
import { recentEnough } from './read-horizon';
import { readMarkers, type Markers } from './store/settings';

// serialization_failure, deadlock_detected, unique_violation (two writers inserting one key).
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const LOCK_NOT_AVAILABLE = '55P03';
const IN_FAILED_TRANSACTION = '25P02';

/**
 * What every commit sends right after its COMMIT, in the same message (so it runs only when
 * the COMMIT did, and the write is acknowledged only once it has run): the change marker
 * (migration 0022) advances and its new value is notified on the channel every serving
 * instance listens to. Not inside the write's transaction: a transaction that NOTIFYs holds
 * PostgreSQL's cluster-wide notify lock from its pre-commit through its commit's WAL flush,
 * so notifying writers commit one at a time (measured with 16 writers on this machine: 2,400
 * commits/s without, 230–560 with). Its own transaction commits asynchronously (it carries no
 * data: nothing to flush), so it holds that lock for microseconds. Before migration 0022 the
 * sequence is missing and only the notification goes out.
 */
const BUMP = `BEGIN; SET LOCAL synchronous_commit TO off; SELECT pg_notify('${SYSTEM.changes}', COALESCE(nextval(to_regclass('${SYSTEM.changes}'))::text, '')); COMMIT`;
/**
 * A transaction's COMMIT with the bump. `SELECT 1` first: in a transaction a caught error has
 * aborted, PostgreSQL answers COMMIT with a silent ROLLBACK and would run the bump after it; the
 * SELECT fails there instead, and the message stops before anything is notified.
 */
const COMMIT_AND_BUMP = `SELECT 1; COMMIT; ${BUMP}`;
const INT8 = 20;
const MAX_ATTEMPTS = 6;
// Generous next to a write's few milliseconds: only a stuck holder makes a writer wait this long.
const LOCK_TIMEOUT_MS = 5000;

/** The advisory lock key of a name: 64 bits of its SHA-256, the same in every process. */
export function lockKey(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0);
}

/** `?` → `$n`, leaving quoted strings and identifiers alone. */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else out += ch === '?' ? `$${++n}` : ch;
  }
  return out;
}

const texts = new Map<string, string>();
function pg(sql: string): string {
  let text = texts.get(sql);
  if (text === undefined) {
    text = numberPlaceholders(sql);
    if (texts.size > 2000) texts.clear();
    texts.set(sql, text);
  }
  return text;
}

type Client = Pick<SQL, 'unsafe'>;

/** Statement text with `$n` placeholders and its parameters, from builder SQL or legacy `?` text. */
function bind(statement: Statement, params: SqlValue[] = []): [string, SqlValue[]] {
  if (statement instanceof Sql) {
    const compiled = statement.compile('numbered');
    return [compiled.text, compiled.params];
  }
  return [pg(statement), params];
}

/** What every queryable of one database shares: the statement count, and where each text is reported. */
interface Statements {
  count: number;
  /** Messages that carry no statement of Folio's: a BEGIN sent alone, COMMIT, ROLLBACK. */
  control: number;
  /** Called with every statement text before it runs (the database bounds how many it prepares). */
  seen(text: string): void;
}

class PgQueryable implements Queryable {
  readonly dialect = postgresDialect;
  constructor(
    protected client: Client,
    protected counter: Statements,
  ) {}

  /** What a statement waits for first (a transaction's BEGIN); undefined: nothing. */
  protected ready(): Promise<unknown> | undefined {
    return undefined;
  }

  async all<T>(statement: Statement, params?: SqlValue[]): Promise<T[]> {
    this.counter.count++;
    const [text, values] = bind(statement, params);
    this.counter.seen(text);
    await this.ready();
    const result = await this.client.unsafe(text, values as never[]);
    const rows = Array.from(result as Iterable<Record<string, unknown>>);
    // int8 (COUNT, BIGINT ids) arrives as text; ids and counts come back as numbers, as on SQLite.
    const int8 = ((result as { columns?: { name: string; type: number }[] }).columns ?? []).filter((c) => c.type === INT8).map((c) => c.name);
    if (int8.length) {
      for (const row of rows) {
        for (const name of int8) {
          const value = row[name];
          if (typeof value === 'string' && Number.isSafeInteger(Number(value))) row[name] = Number(value);
        }
      }
    }
    return rows as T[];
  }

  async get<T>(statement: Statement, params?: SqlValue[]): Promise<T | undefined> {
    return (await this.all<T>(statement, params))[0];
  }

  async run(statement: Statement, params?: SqlValue[]): Promise<RunResult> {
    this.counter.count++;
    const [text, values] = bind(statement, params);
    this.counter.seen(text);
    await this.ready();
    const result = (await this.client.unsafe(text, values as never[])) as unknown as { count: number };
    return { changes: Number(result.count ?? 0), lastInsertRowid: 0 };
  }

  async insert(statement: Statement, params?: SqlValue[]): Promise<number> {
    const returning = statement instanceof Sql ? sqlTag`${statement} RETURNING "id"` : `${statement} RETURNING "id"`;
    const row = await this.get<{ id: number }>(returning, params);
    return Number(row!.id);
  }

  async exec(sql: string): Promise<void> {
    this.counter.count++;
    await this.ready();
    await this.client.unsafe(sql);
  }

  /** Outside a transaction a lock would be released at once: a caller doing that has a bug. */
  async lock(_names: string[], _shared?: string[]): Promise<void> {
    throw new Error('lock() is only meaningful inside a transaction');
  }
}

/**
 * An open transaction on a reserved connection: advisory locks live until it ends. Its BEGIN
 * is not sent on its own: it goes out with the first lock call as one simple-protocol
 * message (document writes lock before anything else), or just before the first other
 * statement. A write saves a round trip holding a pooled connection.
 */
class PgTransaction extends PgQueryable {
  private bounded = false;
  /** Sent with the first statement; null once sent. */
  private begin: string | null;
  private begun: Promise<unknown> | undefined;

  constructor(
    client: Client,
    counter: Statements,
    private lockTimeoutMs: number,
    isolation: string,
  ) {
    super(client, counter);
    this.begin = `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}`;
  }

  protected override ready(): Promise<unknown> | undefined {
    if (this.begin !== null) {
      this.counter.control++;
      this.begun = this.client.unsafe(this.begin);
      this.begin = null;
    }
    return this.begun;
  }

  /** Whether anything was sent: a transaction that ran no statement has nothing to commit or roll back. */
  get started() {
    return this.begin === null;
  }

  override async lock(names: string[], shared: string[] = []): Promise<void> {
    // key → exclusive?; sorted by key, so that two calls never wait on each other in a cycle.
    const modes = new Map<bigint, boolean>(shared.map((name) => [lockKey(name), false]));
    for (const name of names) modes.set(lockKey(name), true);
    if (modes.size === 0) return;
    const rows = [...modes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, exclusive]) => `('${key}'::bigint, ${exclusive})`);
    this.counter.count++;
    // The keys are numbers computed here, so they can be written inline (quoted: -2^63 has no
    // positive twin); VALUES yields (and so locks) them in order. The timeout also bounds
    // every row-lock wait that follows.
    const bound = this.bounded ? '' : `SET LOCAL lock_timeout = ${Math.max(1, Math.round(this.lockTimeoutMs))}; `;
    const begin = this.begin === null ? '' : `${this.begin}; `;
    if (this.begin === null) await this.begun;
    this.begin = null;
    const text = `${begin}${bound}SELECT CASE WHEN x THEN pg_advisory_xact_lock(k) ELSE pg_advisory_xact_lock_shared(k) END FROM (VALUES ${rows.join(', ')}) AS v(k, x)`;
    const locked = this.client.unsafe(text);
    // Statements issued meanwhile wait for this one (it carries the BEGIN).
    this.begun ??= locked.catch(() => {});
    await locked;
    this.bounded = true;
  }
}

const sqlState = (error: unknown): string | undefined => {
  const e = error as { errno?: unknown; code?: unknown } | null;
  const code = e?.errno ?? e?.code;
  return code === undefined || code === null ? undefined : String(code);
};

/**
 * Distinct statement texts one pool may run before it is replaced. Bun's client prepares
 * every distinct text on each connection and keeps it for the connection's life (so does the
 * server), and callers control how many distinct texts there are (fields, filters and sort
 * shapes): a fresh pool every so many bounds that memory; ordinary use never reaches it.
 */
const PREPARED_PER_POOL = 2000;

const openPool = (url: string) => new SQL(url, { max: 8, idleTimeout: 30 });

export class PostgresDatabase extends PgQueryable implements Database {
  private sql: SQL;
  private lockTimeoutMs: number;
  private prepared = new Set<string>();
  /**
   * Transactions begun again after a retryable conflict, by SQLSTATE: a write that waits on
   * locks never lands here, so under ordinary contention these stay 0 (tests and the
   * benchmark read them to prove it).
   */
  readonly retries = new Map<string, number>();

  /** `lockTimeoutMs`: how long a write waits for a lock before giving up with a 503. */
  constructor(
    readonly url: string,
    options: { lockTimeoutMs?: number; preparedPerPool?: number } = {},
  ) {
    const sql = openPool(url);
    const budget = options.preparedPerPool ?? PREPARED_PER_POOL;
    super(sql, { count: 0, control: 0, seen: (text) => this.notePrepared(text, budget) });
    this.sql = sql;
    this.lockTimeoutMs = options.lockTimeoutMs ?? LOCK_TIMEOUT_MS;
  }

  /** Counts a statement text; past the budget, later statements go to a fresh pool and the old one closes once idle. */
  private notePrepared(text: string, budget: number) {
    if (this.prepared.has(text)) return;
    this.prepared.add(text);
    if (this.prepared.size <= budget) return;
    const old = this.sql;
    this.sql = openPool(this.url);
    this.client = this.sql;
    this.prepared = new Set([text]);
    // close() lets queries and transactions already running on the old pool finish.
    void old.close().catch(() => {});
  }

  get statementCount() {
    return this.counter.count;
  }

  /** Messages sent to the server, each a round trip: statements, and BEGIN / COMMIT / ROLLBACK. */
  get roundTrips() {
    return this.counter.count + this.counter.control;
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.attempt(fn, options.isolation ?? 'serializable');
        this.versionThisTurn = undefined;
        return result;
      } catch (error) {
        const code = sqlState(error);
        if (code === LOCK_NOT_AVAILABLE) throw new ServiceUnavailableError('The server is busy with other writes to the same content, please retry');
        if (!code || !RETRYABLE.has(code)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new ServiceUnavailableError('The write kept conflicting with concurrent writes, please retry');
        this.retries.set(code, (this.retries.get(code) ?? 0) + 1);
        // Back off exponentially with jitter, so competing writers spread out.
        await Bun.sleep(Math.random() * 5 * 2 ** attempt);
      }
    }
  }

  /** One try: `fn` on a reserved connection between BEGIN (see PgTransaction) and COMMIT, or ROLLBACK on any error. */
  private async attempt<T>(fn: (tx: Queryable) => Promise<T>, isolation: string): Promise<T> {
    const connection = await this.sql.reserve();
    const tx = new PgTransaction(connection, this.counter, this.lockTimeoutMs, isolation);
    try {
      const result = await fn(tx);
      if (tx.started) this.counter.control++;
      if (tx.started) {
        try {
          await connection.unsafe(COMMIT_AND_BUMP);
        } catch (error) {
          // A transaction an earlier (caught) error aborted: it rolls back, as its COMMIT would
          // have done silently, and nothing is notified.
          if (sqlState(error) !== IN_FAILED_TRANSACTION) throw error;
          await connection.unsafe('ROLLBACK');
        }
      }
      return result;
    } catch (error) {
      if (tx.started) this.counter.control++;
      if (tx.started) await connection.unsafe('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      connection.release();
    }
  }

  /** Holds a session-level advisory lock around `fn` (schema sync when instances start together). */
  async exclusive<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const reserved = await this.sql.reserve();
    try {
      await reserved.unsafe('SELECT pg_advisory_lock($1)', [key]);
      return await fn();
    } finally {
      await reserved.unsafe('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
      reserved.release();
    }
  }

  /**
   * The change marker (migration 0022): the sequence every commit advances right after it,
   * read with the settings version (see settingsVersion for how reads are shared). A read
   * that starts after a write was acknowledged sees its value moved, whichever instance wrote:
   * caches of data (answers, totals) keyed on it are forgotten as SQLite's are on
   * data_version. Undefined before the migration (nothing is kept).
   */
  async changeMarker(options?: { fresh?: boolean }): Promise<number | undefined> {
    return (await this.markers(options)).changes;
  }

  /**
   * The settings version, read with the change marker in one statement (instances share no
   * cheaper signal than reading them). Every request asks it once per settings cache, so
   * reads are shared, as SQLite shares its data_version pragma (db/sqlite.ts):
   *  - callers asking before the read is sent join it: it goes out at the end of the current
   *    turn of the event loop, after they asked, so a grant committed anywhere before a call
   *    is seen by it; a burst of requests costs one statement, not one per request;
   *  - the answer is kept until the turn it arrived in ends, so a request asking its caches
   *    one after the other reads it once; this database's own statements end the reuse at
   *    once; `fresh` joins the next read instead of this turn's answer;
   *  - a request never takes an answer whose read was sent before the request began
   *    (./read-horizon.ts): that read may have left before another instance's commit that was
   *    acknowledged before the request was sent (it happened: such an answer, arriving in the
   *    same batch of events as the request, served a kept answer from before the write).
   */
  async settingsVersion(options?: { fresh?: boolean }): Promise<number | undefined> {
    return (await this.markers(options)).settings;
  }

  private markers(options?: { fresh?: boolean }): Promise<Markers> {
    if (this.versionThisTurn && !options?.fresh && recentEnough(this.versionSentAt)) return this.versionThisTurn;
    if (!this.nextVersionRead) {
      let sentAt = 0;
      const read = new Promise<Markers>((resolve) =>
        setImmediate(() => {
          this.nextVersionRead = undefined;
          sentAt = performance.now();
          resolve(readMarkers(this));
        }),
      );
      // Registered first, so it runs before the callers' continuations.
      void read.then(() => {
        this.versionThisTurn = read;
        this.versionSentAt = sentAt;
        setImmediate(() => {
          if (this.versionThisTurn === read) this.versionThisTurn = undefined;
        });
      });
      this.nextVersionRead = read;
    }
    return this.nextVersionRead;
  }

  /** The settings version read waiting for the end of this turn, joined by every caller until it is sent. */
  private nextVersionRead: Promise<Markers> | undefined;
  /**
   * The last answer, while the turn it arrived in lasts, and when it was sent: a request that
   * began after that does not take it (./read-horizon.ts), since the read may predate a write
   * acknowledged before the request was sent.
   */
  private versionThisTurn: Promise<Markers> | undefined;
  private versionSentAt = 0;

  // This database's own statements (a settings write among them) end the reuse as they complete.
  // A write outside a transaction commits on its own: the change marker moves after it, before
  // it is acknowledged (a read answering a write's RETURNING, the rate limiter's upsert, changes
  // no content and moves nothing).
  override all<T>(statement: Statement, params?: SqlValue[]) {
    return this.forgetting(super.all<T>(statement, params));
  }
  override run(statement: Statement, params?: SqlValue[]) {
    return this.forgetting(this.bumped(super.run(statement, params)));
  }
  override insert(statement: Statement, params?: SqlValue[]) {
    return this.forgetting(this.bumped(super.insert(statement, params)));
  }
  override exec(text: string) {
    return this.forgetting(this.bumped(super.exec(text)));
  }
  private forgetting<T>(done: Promise<T>): Promise<T> {
    return done.finally(() => (this.versionThisTurn = undefined));
  }
  private async bumped<T>(done: Promise<T>): Promise<T> {
    const result = await done;
    this.counter.control++;
    // Its BEGIN … COMMIT needs one connection for the whole message (Bun refuses it on the pool).
    const connection = await this.sql.reserve();
    try {
      await connection.unsafe(BUMP);
    } finally {
      connection.release();
    }
    return result;
  }

  /**
   * Calls `fn` soon after every commit of any instance (the notification each commit sends
   * after it, see BUMP), and once more whenever the listening connection (re)subscribes, since
   * commits made while it was away sent nothing it heard. One connection listens, opened for the
   * first watcher and closed with the last. Returns the function that stops watching.
   */
  watchCommits(fn: () => void): () => void {
    this.watchers.add(fn);
    if (!this.listening) {
      const listener = new SQL(this.url, { max: 1, idleTimeout: 0 });
      const all = () => {
        for (const watcher of this.watchers) watcher();
      };
      this.listening = {
        listener,
        subscription: listener.listen(SYSTEM.changes, all, all).catch((error) => {
          // The database refused (or is unreachable): watchers keep their own timers.
          this.listening = undefined;
          void listener.close();
          this.onListenError?.(error);
          return undefined;
        }),
      };
    }
    return () => {
      this.watchers.delete(fn);
      if (this.watchers.size === 0) this.stopListening();
    };
  }

  /** Where a failed LISTEN is reported (the instance's logger). */
  onListenError?: (error: unknown) => void;
  private watchers = new Set<() => void>();
  private listening: { listener: SQL; subscription: Promise<{ unlisten(): Promise<void> } | undefined> } | undefined;

  private stopListening() {
    const listening = this.listening;
    this.listening = undefined;
    if (!listening) return;
    void listening.subscription.then(async (subscription) => {
      await subscription?.unlisten().catch(() => {});
      await listening.listener.close().catch(() => {});
    });
  }

  async schema(): Promise<ExistingSchema> {
    const rows = await this.all<{ table_name: string; column_name: string }>(
      sqlTag`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    const columns = new Map<string, Set<string>>();
    for (const r of rows) {
      const key = r.table_name.toLowerCase();
      if (!columns.has(key)) columns.set(key, new Set());
      columns.get(key)!.add(r.column_name);
    }
    const indexes = await this.all<{ indexname: string }>(sqlTag`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()`);
    return {
      columns,
      indexes: new Set(indexes.map((i) => i.indexname.toLowerCase())),
      tables: [...new Set(rows.map((r) => r.table_name))],
    };
  }

  close() {
    this.watchers.clear();
    this.stopListening();
    void this.sql.close();
  }
}
