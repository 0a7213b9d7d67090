/**
 * A checked Condition (query/filters.ts) → SQL. Relations and components are followed
 * through the path resolver, so a document matches when any related row matches, lists
 * never repeat a document and `total` counts documents.
 */
import type { Dialect } from '../db/dialect';
import { column } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { AnyModel, Registry } from '../registry/types';
import { hopThrough, type VersionScope } from './resolve';
import type { Condition } from './types';

interface Walk {
  dialect: Dialect;
  registry: Registry;
  scope: VersionScope;
  aliases: number;
}

/** The WHERE condition of `condition` over rows of `model` aliased `alias`. */
export function whereSql(dialect: Dialect, registry: Registry, model: AnyModel, condition: Condition, scope: VersionScope, alias = 't'): Sql {
  return compile({ dialect, registry, scope, aliases: 0 }, model, alias, condition);
}

// Numbers read as their text for text operators: PostgreSQL has no strpos() or right() on numbers.
const NUMERIC = new Set(['integer', 'biginteger', 'float', 'decimal', 'boolean']);

function compile(w: Walk, model: AnyModel, alias: string, c: Condition): Sql {
  switch (c.kind) {
    case 'and':
      return sql.and(c.parts.map((p) => compile(w, model, alias, p)));
    case 'or':
      return sql.or(c.parts.map((p) => compile(w, model, alias, p)));
    case 'not':
      return sql.not(compile(w, model, alias, c.part));
    case 'related':
      return related(w, model, alias, c);
  }
  const col = column(alias, c.field.name);
  switch (c.kind) {
    case 'compare':
      return sql`${col} ${sql.raw(c.op)} ${c.value}`;
    case 'null':
      return c.isNull ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    case 'in':
      if (c.values.length === 0) return sql.raw(c.negate ? '1 = 1' : '1 = 0');
      return c.negate ? sql`${col} NOT IN (${sql.list(c.values)})` : sql`${col} IN (${sql.list(c.values)})`;
    case 'between':
      return sql`${col} BETWEEN ${c.low} AND ${c.high}`;
    case 'text':
      return textCondition(w.dialect, NUMERIC.has(c.field.type) ? sql`CAST(${col} AS TEXT)` : col, col, c.op, c.value);
  }
}

/** `$contains`, `$startsWith`, `$endsWith`, `$eqi` and their negated and case-insensitive forms. */
function textCondition(dialect: Dialect, text: Sql, col: Sql, op: Extract<Condition, { kind: 'text' }>['op'], value: string): Sql {
  const ci = op.endsWith('i');
  const hay = ci ? dialect.lower(col) : text;
  const needle = ci ? dialect.lower(sql`${value}`) : sql`${value}`;
  switch (op) {
    case '$eqi':
      return sql`${hay} = ${needle}`;
    case '$nei':
      return sql`${hay} <> ${needle}`;
    case '$contains':
    case '$containsi':
      return sql`${dialect.position(hay, needle)} > 0`;
    case '$notContains':
    case '$notContainsi':
      return sql`NOT (${dialect.position(hay, needle)} > 0)`;
    case '$startsWith':
    case '$startsWithi':
      return sql`${dialect.position(hay, needle)} = 1`;
    case '$endsWith':
    case '$endsWithi':
      // Every value ends with the empty string.
      if (value === '') return sql`${col} IS NOT NULL`;
      return sql`${dialect.suffix(hay, sql`${value.length}`)} = ${needle}`;
  }
}

/**
 * "The row has a related row matching". On SQLite this is `key IN (SELECT …)`, a subquery
 * that does not depend on the outer row, so SQLite runs it once per statement into a
 * temporary index (as a correlated EXISTS it ran once per row: 200 relation conditions took
 * seconds on 100 articles). PostgreSQL keeps EXISTS, which its planner turns into a
 * semi-join (and NOT EXISTS into an anti-join, where NOT IN over a large subquery would not be).
 */
function related(w: Walk, model: AnyModel, alias: string, c: Extract<Condition, { kind: 'related' }>): Sql {
  const inner = `f${++w.aliases}`;
  const hop = hopThrough(w.registry, model, c.name, w.scope, inner)!;
  const condition = c.condition ? compile(w, hop.to, inner, c.condition) : sql.empty;
  const where = sql.and([hop.where, condition]);
  const outer = hop.parentValues(alias);
  if (w.dialect.name === 'sqlite') {
    const keys = sql.join(hop.parentKeys);
    const list = outer.length > 1 ? sql`(${sql.join(outer)})` : outer[0]!;
    const subquery = sql`SELECT ${keys} FROM ${hop.from}${where.isEmpty ? sql.empty : sql` WHERE ${where}`}`;
    return c.none ? sql`${list} NOT IN (${subquery})` : sql`${list} IN (${subquery})`;
  }
  const correlated = sql.and([...hop.parentKeys.map((key, i) => sql`${key} = ${outer[i]!}`), where]);
  const exists = sql`EXISTS (SELECT 1 FROM ${hop.from} WHERE ${correlated})`;
  return c.none ? sql`NOT ${exists}` : exists;
}
