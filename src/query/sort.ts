/**
 * `sort` → ORDER BY. A path through to-one relations or single components sorts by a
 * correlated subquery, so each document still appears once; `id` is always the last key
 * so pages are stable.
 */
import type { Dialect } from '../db/dialect';
import { COMPONENT_OWNER_COLUMNS as O } from '../db/schema-sync';
import type { AnyModel, ContentType, Registry } from '../registry/types';
import { linkedVersion, localeCondition, statusCondition, and, type Fragment } from './sql';
import type { SortItem, Status } from './types';

export interface SortScope {
  status: Status;
  locale: string;
}

export function orderBy(dialect: Dialect, registry: Registry, model: AnyModel, sort: SortItem[], scope: SortScope, alias = 't'): Fragment {
  const q = dialect.quote;
  let counter = 0;
  const params: Fragment['params'] = [];

  /** SQL for the value at `path`, starting from the row `from` of `current`. */
  const valueOf = (current: AnyModel, from: string, path: string[]): string => {
    const [head, ...rest] = path;
    if (rest.length === 0) return `${from}.${q(head!)}`;
    const attribute = current.attributes[head!]!;
    const inner = `s${++counter}`;
    if (attribute.kind === 'component') {
      const component = registry.component(attribute.component)!;
      params.push(current.uid, head!);
      return `(SELECT ${valueOf(component, inner, rest)} FROM ${q(component.tableName)} ${inner} WHERE ${inner}.${q(O.type)} = ? AND ${inner}.${q(O.field)} = ? AND ${inner}.${q(O.id)} = ${from}.${q('id')} ORDER BY ${inner}.${q(O.order)} LIMIT 1)`;
    }
    if (attribute.kind !== 'relation') throw new Error(`Cannot sort through ${head}`);
    const target = registry.contentType(attribute.target)!;
    const link = `${inner}l`;
    if (attribute.owner) {
      return `(SELECT ${valueOf(target, inner, rest)} FROM ${q(attribute.linkTable)} ${link} JOIN ${q(target.tableName)} ${inner} ON ${linkedVersion(dialect, target, scope.status, link, inner)} WHERE ${link}.${q('sourceId')} = ${from}.${q('id')} ORDER BY ${link}.${q('position')} LIMIT 1)`;
    }
    const parent = current as ContentType;
    const extra = and([statusCondition(dialect, target, scope.status, inner), localeCondition(dialect, target, scope.locale, inner)]);
    const value = valueOf(target, inner, rest);
    params.push(...extra.params);
    return `(SELECT ${value} FROM ${q(attribute.linkTable)} ${link} JOIN ${q(target.tableName)} ${inner} ON ${inner}.${q('id')} = ${link}.${q('sourceId')} WHERE ${link}.${q('targetDocumentId')} = ${from}.${q('documentId')} AND ${link}.${q('targetLocale')} = ${parent.localized ? `${from}.${q('locale')}` : "''"}${extra.sql ? ` AND ${extra.sql}` : ''} ORDER BY ${link}.${q('inversePosition')} LIMIT 1)`;
  };

  // Empty values first when ascending, on both engines (PostgreSQL's default is the opposite).
  const parts = sort.map((item) => `${valueOf(model, alias, item.path)} ${item.order === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`);
  // `id ASC` breaks ties as Strapi does; an index on (locale, column) still feeds the rows
  // in order, and the engine sorts only within runs of equal values.
  if (!sort.some((s) => s.path.length === 1 && s.path[0] === 'id')) parts.push(`${alias}.${q('id')} ASC`);
  return { sql: parts.join(', '), params };
}
