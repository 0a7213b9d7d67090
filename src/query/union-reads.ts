/**
 * Independent reads of one step, each a few expressions over some rows: on engines where a
 * statement costs more than its rows (SQLite: `dialect.unionReads`) they go out as one UNION
 * ALL, the branches sharing slots `c0…cn` (padded with NULL: SQLite's columns take any type
 * row by row) and told apart by `__b`; elsewhere each is its own statement and all are sent at
 * once, so PostgreSQL's client pipelines them on the transaction's connection. Rows come back
 * per read as lists of values in no particular order: callers sort what they need sorted (an
 * ORDER BY over a compound SELECT costs SQLite a temporary b-tree per term).
 */
import type { Queryable } from '../db/database';
import { sql, type Sql } from '../db/sql';

export interface Branch {
  /** The expressions read, in order (values only by position: no bound value among them). */
  columns: Sql[];
  /** `table WHERE …`: what follows FROM. */
  from: Sql;
  /** How many values `from` binds (a statement's total is kept under the engines' limits). */
  bound: number;
}

/** SQLite allows 32,766 bound values per statement and 500 terms per compound SELECT. */
const UNION_MAX_VALUES = 20_000;
const UNION_MAX_TERMS = 100;

const slot = (k: number) => `c${k}`;

/** A branch's SELECT: its columns in slots, after its tag (in a union) and before the union's NULL padding. */
function selectOf(branch: Branch, tag?: number, padding = ''): Sql {
  const columns = branch.columns.map((c, k) => sql`${c} AS ${sql.raw(slot(k))}`);
  const head = tag === undefined ? sql.empty : sql.raw(`${tag} AS __b, `);
  return sql`SELECT ${head}${sql.join(columns)}${sql.raw(padding)} FROM ${branch.from}`;
}

const valuesOf = (row: Record<string, unknown>, width: number): unknown[] => {
  const values = new Array<unknown>(width);
  for (let k = 0; k < width; k++) values[k] = row[slot(k)];
  return values;
};

/** Each branch's rows (lists of its columns' values), in the branches' order. */
export async function readBranches(tx: Queryable, branches: Branch[]): Promise<unknown[][][]> {
  const out: unknown[][][] = branches.map(() => []);
  if (branches.length === 0) return out;
  if (!tx.dialect.unionReads || branches.length === 1) {
    await Promise.all(
      branches.map(async (branch, b) => {
        for (const row of await tx.all<Record<string, unknown>>(selectOf(branch))) out[b]!.push(valuesOf(row, branch.columns.length));
      }),
    );
    return out;
  }
  for (let first = 0; first < branches.length; ) {
    let last = first + 1;
    let bound = branches[first]!.bound;
    while (last < branches.length && last - first < UNION_MAX_TERMS && bound + branches[last]!.bound <= UNION_MAX_VALUES) bound += branches[last++]!.bound;
    if (last - first === 1) {
      const branch = branches[first]!;
      for (const row of await tx.all<Record<string, unknown>>(selectOf(branch))) out[first]!.push(valuesOf(row, branch.columns.length));
    } else {
      const batch = branches.slice(first, last);
      const width = Math.max(...batch.map((b) => b.columns.length));
      const selects = batch.map((branch, i) => {
        const padding = Array.from({ length: width - branch.columns.length }, (_, k) => `, NULL AS ${slot(branch.columns.length + k)}`).join('');
        return selectOf(branch, first + i, padding);
      });
      for (const row of await tx.all<Record<string, unknown>>(sql.join(selects, ' UNION ALL '))) {
        const b = Number(row.__b);
        out[b]!.push(valuesOf(row, branches[b]!.columns.length));
      }
    }
    first = last;
  }
  return out;
}
