/**
 * PostgreSQL engine over Bun's built-in client (pooled). The same SQL the SQLite engine
 * runs arrives here with `?` placeholders, renumbered to `$1…$n`.
 *
 * Write transactions run SERIALIZABLE and are retried when PostgreSQL reports a
 * serialization failure or a unique-key race, so two instances writing the same list at
 * the same moment both succeed with a consistent result instead of answering 500.
 */
import { SQL } from 'bun';
import type { Database, ExistingSchema, Queryable, RunResult, SqlValue } from './database';
import { postgresDialect } from './dialect';

const RETRYABLE = new Set(['40001', '40P01', '23505']);
const INT8 = 20;
// Generous: under a burst of concurrent writes SERIALIZABLE aborts many, and each retry is cheap.
const MAX_ATTEMPTS = 30;

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

class PgQueryable implements Queryable {
  readonly dialect = postgresDialect;
  constructor(
    protected client: Client,
    protected counter: { count: number },
  ) {}

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    this.counter.count++;
    const result = await this.client.unsafe(pg(sql), params as never[]);
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

  async get<T>(sql: string, params: SqlValue[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
    this.counter.count++;
    const result = (await this.client.unsafe(pg(sql), params as never[])) as unknown as { count: number };
    return { changes: Number(result.count ?? 0), lastInsertRowid: 0 };
  }

  async insert(sql: string, params: SqlValue[] = []): Promise<number> {
    const row = await this.get<{ id: number }>(`${sql} RETURNING "id"`, params);
    return Number(row!.id);
  }

  async exec(sql: string): Promise<void> {
    this.counter.count++;
    await this.client.unsafe(sql);
  }
}

export class PostgresDatabase extends PgQueryable implements Database {
  private sql: SQL;

  constructor(readonly url: string) {
    const sql = new SQL(url, { max: 8, idleTimeout: 30 });
    super(sql, { count: 0 });
    this.sql = sql;
  }

  get statementCount() {
    return this.counter.count;
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.sql.begin('isolation level serializable', (tx) => fn(new PgQueryable(tx, this.counter)))) as T;
      } catch (error) {
        const code = (error as { errno?: string; code?: string }).errno ?? (error as { code?: string }).code;
        if (attempt >= MAX_ATTEMPTS || !code || !RETRYABLE.has(String(code))) throw error;
        // Back off exponentially (capped), with jitter, so competing writers spread out.
        await Bun.sleep(Math.random() * Math.min(200, 2 ** Math.min(attempt, 8)));
      }
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

  /** No cheap signal across instances: callers read settings afresh each time. */
  async changeMarker(): Promise<undefined> {
    return undefined;
  }

  async schema(): Promise<ExistingSchema> {
    const rows = await this.all<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()",
    );
    const columns = new Map<string, Set<string>>();
    for (const r of rows) {
      const key = r.table_name.toLowerCase();
      if (!columns.has(key)) columns.set(key, new Set());
      columns.get(key)!.add(r.column_name);
    }
    const indexes = await this.all<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()');
    return {
      columns,
      indexes: new Set(indexes.map((i) => i.indexname.toLowerCase())),
      tables: [...new Set(rows.map((r) => r.table_name))],
    };
  }

  close() {
    void this.sql.close();
  }
}
