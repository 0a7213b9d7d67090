/**
 * Which statements a database had in flight together: wraps a real Database's reads and, for
 * the transactions it opens, the transaction's statements, and records for each statement
 * sent (its text) the texts of those already sent and not yet answered. Nothing is timed.
 */
import type { Database, Queryable } from '../../src/db/database';

type Method = (...args: unknown[]) => Promise<unknown>;
const STATEMENT_METHODS = ['all', 'get', 'run', 'insert'] as const;

export interface Sent {
  text: string;
  /** Texts of the statements in flight when this one was sent. */
  beside: string[];
}

export async function inFlightDuring<T>(database: Database, action: () => Promise<T>): Promise<{ result: T; sent: Sent[] }> {
  const pending = new Set<{ text: string }>();
  const sent: Sent[] = [];
  const wrap = (target: Record<string, Method>, name: string) => {
    const original = target[name]!;
    target[name] = (...args: unknown[]) => {
      const statement = { text: String(args[0]) };
      sent.push({ text: statement.text, beside: [...pending].map((p) => p.text) });
      pending.add(statement);
      return original.apply(target, args).finally(() => pending.delete(statement));
    };
    return () => void (target[name] = original);
  };
  const db = database as unknown as Record<string, Method>;
  const restore = [wrap(db, 'all'), wrap(db, 'get')];
  const transaction = database.transaction;
  database.transaction = (fn, options) =>
    transaction.call(
      database,
      (tx: Queryable) => {
        for (const name of STATEMENT_METHODS) wrap(tx as unknown as Record<string, Method>, name);
        return fn(tx);
      },
      options,
    ) as never;
  try {
    return { result: await action(), sent };
  } finally {
    for (const undo of restore) undo();
    database.transaction = transaction;
  }
}
