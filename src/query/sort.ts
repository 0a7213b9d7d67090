/**
 * `sort` → ORDER BY. A path through to-one relations or single components (nested too)
 * sorts by a correlated subquery through the path resolver, so each document still
 * appears once; `id` is always the last key so pages are stable.
 */
import { VERSION as V, column } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { AnyModel, Registry } from '../registry/types';
import { correlate, hopThrough, type VersionScope } from './resolve';
import type { SortItem } from './types';

export function orderBy(registry: Registry, model: AnyModel, sort: SortItem[], scope: VersionScope, alias = 't'): Sql {
  let counter = 0;

  /** The value at `path`, starting from the row aliased `from` of `current`. */
  const valueOf = (current: AnyModel, from: string, path: string[]): Sql => {
    const [head, ...rest] = path;
    if (rest.length === 0) return column(from, head!);
    const inner = `s${++counter}`;
    const hop = hopThrough(registry, current, head!, scope, inner)!;
    return sql`(SELECT ${valueOf(hop.to, inner, rest)} FROM ${hop.from} WHERE ${correlate(hop, from)} ORDER BY ${hop.order} LIMIT 1)`;
  };

  // Empty values first when ascending, on both engines (PostgreSQL's default is the opposite).
  const parts = sort.map((item) => sql`${valueOf(model, alias, item.path)} ${sql.raw(item.order === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST')}`);
  // `id ASC` breaks ties as Strapi does; an index on (locale, column) still feeds the rows
  // in order, and the engine sorts only within runs of equal values.
  if (!sort.some((s) => s.path.length === 1 && s.path[0] === 'id')) parts.push(sql`${column(alias, V.id)} ASC`);
  return sql.join(parts);
}
