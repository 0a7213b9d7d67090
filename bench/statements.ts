/**
 * SQL statements per request, counted in-process and deterministically: the same requests
 * the load scenarios send go through the Elysia app (no HTTP server, no load generator) over
 * a copy of the bench's data dir, a few times to warm the caches, then once more while the
 * instance's db counts (`db.statementCount`, which both engines keep, BEGIN/COMMIT excluded)
 * and records the statement texts (a wrapper, as bench/sql-profile.ts does, for the listing).
 *
 *   bun bench/statements.ts DATA_DIR SCENARIOS_JSON     prints { [key]: { count, statements } }
 *
 * SCENARIOS_JSON: a file holding [{ key, requests: [{ method, path, body? }] }] (run.ts writes it).
 * A write scenario's measured request is one it has not sent yet (the next in its rotation), so
 * a create counts what a create costs, not a replay.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveConfig } from '../src/config';
import { createApp } from '../src/app';
import { openInstance } from '../src/instance';
import type { LoadRequest } from './load';

export interface StatementCount {
  /** Statements one request ran (the db's own counter). */
  count: number;
  /** Their texts, in order, whitespace collapsed (for whoever wants to cut them down). */
  statements: string[];
}

const WARMUP = 3;

type Method = 'all' | 'get' | 'run' | 'exec';
type Runner = Record<Method, (sql: unknown, params?: unknown[]) => Promise<unknown>>;

const text = (statement: unknown): string => {
  const raw =
    typeof statement === 'string'
      ? statement
      : ((statement as { compile?: (style: string) => { text: string } }).compile?.('question').text ?? String(statement));
  return raw.replace(/\s+/g, ' ').trim();
};

/**
 * Records the texts of what a connection runs. SQLite's two connections (reader, writer) are
 * wrapped rather than the db, so the engine's own cache checks (PRAGMA data_version) are listed
 * too and an insert (which runs through run) is listed once. A db without them (PostgreSQL)
 * still gets its count, from the counter, with no listing.
 */
function record(target: Runner, seen: { on: boolean; list: string[] }): void {
  for (const method of ['all', 'get', 'run', 'exec'] as const) {
    const original = target[method].bind(target);
    target[method] = (statement, params) => {
      if (seen.on) seen.list.push(text(statement));
      return original(statement, params);
    };
  }
}

export async function countStatements(dataDir: string, scenarios: { key: string; requests: LoadRequest[] }[]): Promise<Record<string, StatementCount>> {
  // The answer cache off: what building each answer runs (a kept answer runs one pragma).
  const instance = await openInstance({
    ...resolveConfig({ data: dataDir, contentTypes: resolve(import.meta.dir, '../content-types') }),
    databaseUrl: undefined,
    answerCacheBytes: 0,
  });
  const app = createApp(instance);
  const seen = { on: false, list: [] as string[] };
  const connections = instance.db as unknown as { reader?: Runner; writer?: Runner };
  for (const connection of [connections.reader, connections.writer]) if (connection) record(connection, seen);
  const send = async (r: LoadRequest) => {
    const response = await app.handle(
      new Request(`http://localhost${r.path}`, { method: r.method, headers: r.body === undefined ? {} : { 'content-type': 'application/json' }, body: r.body }),
    );
    const body = await response.text();
    if (response.status < 200 || response.status >= 300) throw new Error(`${r.method} ${r.path} -> ${response.status}: ${body.slice(0, 300)}`);
  };
  const counts: Record<string, StatementCount> = {};
  try {
    for (const scenario of scenarios) {
      const at = (i: number) => scenario.requests[i % scenario.requests.length]!;
      for (let i = 0; i < WARMUP; i++) await send(at(i));
      seen.list = [];
      seen.on = true;
      const before = instance.db.statementCount;
      await send(at(WARMUP));
      const count = instance.db.statementCount - before;
      seen.on = false;
      counts[scenario.key] = { count, statements: seen.list };
    }
  } finally {
    instance.close();
  }
  return counts;
}

if (import.meta.main) {
  const [dataDir, file] = process.argv.slice(2);
  if (!dataDir || !file) {
    console.error('usage: bun bench/statements.ts DATA_DIR SCENARIOS_JSON');
    process.exit(2);
  }
  console.log(JSON.stringify(await countStatements(dataDir, JSON.parse(readFileSync(file, 'utf8')))));
}
