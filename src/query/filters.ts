/**
 * `filters` → SQL WHERE. Relations and components are followed with EXISTS subqueries,
 * so a document matches when any related row matches, lists never repeat a document and
 * `total` counts documents. Values are coerced by attribute type; one that cannot be
 * is a 400, never a 500.
 */
import type { SqlValue } from '../db/database';
import type { Dialect } from '../db/dialect';
import { COMPONENT_OWNER_COLUMNS as O } from '../db/schema-sync';
import { ValidationError } from '../errors';
import { selectableFields } from '../registry/fields';
import type { AnyModel, ContentType, Registry, ScalarType } from '../registry/types';
import { REQUEST_LIMITS as L, limitExceeded } from './limits';
import { and, linkedVersion, localeCondition, statusCondition, type Fragment } from './sql';
import type { FilterNode, Status } from './types';

export const OPERATORS = new Set([
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains',
  '$containsi', '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith',
  '$endsWithi', '$not', '$and', '$or',
]);

export interface FilterScope {
  status: Status;
  locale: string;
  /** Whether the caller may read a content type (filters through others are refused). */
  canRead?: (uid: string) => boolean;
}

interface Walk {
  dialect: Dialect;
  registry: Registry;
  scope: FilterScope;
  aliases: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [v]);

const TRUE_WORDS = new Set(['true', 't', '1']);
const FALSE_WORDS = new Set(['false', 'f', '0']);

/** What a request's filter trees may still hold (REQUEST_LIMITS); shared by the root and populate filters. */
export interface FilterBudget {
  nodes: number;
  values: number;
}

export const newFilterBudget = (): FilterBudget => ({ nodes: 0, values: 0 });

const isScalar = (v: unknown) => typeof v !== 'object' || v === null;
const isIndexKeyed = (v: Record<string, unknown>) => {
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
};

/**
 * Refuses a filter tree past the request limits before any SQL is built: every key and list
 * item is a node, a list of plain values (`$in`) counts its values instead. Linear in the
 * tree, so checking never costs more than the parsing that produced it.
 */
export function checkFilters(tree: unknown, budget: FilterBudget = newFilterBudget()): void {
  const countValues = (n: number) => {
    budget.values += n;
    if (budget.values > L.filterValues) throw limitExceeded('filters', `at most ${L.filterValues} values are allowed`, L.filterValues);
  };
  const walk = (node: unknown, depth: number) => {
    if (isScalar(node)) return countValues(1);
    if (depth > L.filterDepth) throw limitExceeded('filters', `filters may nest at most ${L.filterDepth} levels deep`, L.filterDepth);
    const object = node as Record<string, unknown>;
    const children = Array.isArray(node) ? node : Object.values(object);
    if ((Array.isArray(node) || isIndexKeyed(object)) && children.every(isScalar)) {
      if (children.length > L.filterListValues) {
        throw limitExceeded('filters', `a list may hold at most ${L.filterListValues} values`, L.filterListValues);
      }
      return countValues(children.length);
    }
    for (const child of children) {
      if (++budget.nodes > L.filterNodes) throw limitExceeded('filters', `at most ${L.filterNodes} keys are allowed`, L.filterNodes);
      walk(child, depth + 1);
    }
  };
  walk(tree, 1);
}

/** Compiles a filter tree over a content type whose rows are aliased `t`. */
export function compileFilters(dialect: Dialect, registry: Registry, ct: ContentType, filters: FilterNode, scope: FilterScope): Fragment {
  // Callers that did not parse a whole request (the upload list) get the limits here.
  checkFilters(filters);
  return compileNode({ dialect, registry, scope, aliases: 0 }, ct, 't', filters, []);
}

function invalidKey(key: string, path: string[]) {
  return ValidationError.invalidKey(key, 'query', { path: path.length ? path.join('.') : null, param: 'filters' });
}

function compileNode(w: Walk, model: AnyModel, alias: string, node: unknown, path: string[]): Fragment {
  if (!isObject(node)) {
    if (Array.isArray(node)) return or(node.map((n) => compileNode(w, model, alias, n, path)));
    throw new ValidationError(`Invalid filters at ${path.join('.') || 'root'}: expected an object`);
  }
  const parts: Fragment[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and') parts.push(and(asList(value).map((v) => compileNode(w, model, alias, v, path))));
    else if (key === '$or') parts.push(or(asList(value).map((v) => compileNode(w, model, alias, v, path))));
    else if (key === '$not') parts.push(not(compileNode(w, model, alias, value, path)));
    else if (key.startsWith('$')) {
      if (OPERATORS.has(key)) throw new ValidationError('Only $and, $or and $not can only be used as root level operators');
      throw invalidKey(key, path);
    } else parts.push(compileField(w, model, alias, key, value, path));
  }
  return and(parts);
}

const or = (parts: Fragment[]): Fragment => {
  if (parts.length === 0) return { sql: '1 = 0', params: [] };
  return { sql: parts.map((p) => `(${p.sql || '1 = 1'})`).join(' OR '), params: parts.flatMap((p) => p.params) };
};
const not = (part: Fragment): Fragment => ({ sql: `NOT (${part.sql || '1 = 1'})`, params: part.params });

function scalarTypeOf(model: AnyModel, name: string): ScalarType | 'id' | 'datetime' {
  if (name === 'id') return 'id';
  if (name === 'createdAt' || name === 'updatedAt' || name === 'publishedAt') return 'datetime';
  const attribute = model.attributes[name];
  return attribute?.kind === 'scalar' ? attribute.type : 'string';
}

function compileField(w: Walk, model: AnyModel, alias: string, key: string, value: unknown, path: string[]): Fragment {
  const attribute = model.attributes[key];
  const here = [...path, key];
  if (attribute?.kind === 'relation' || attribute?.kind === 'component') {
    if (attribute.private) throw invalidKey(key, path);
    return compileNested(w, model, alias, key, value, here);
  }
  if (!selectableFields(model).has(key)) {
    // Strapi names the path for attributes that exist but may not be used (private, password).
    throw model.attributes[key] ? ValidationError.invalidKey(key, 'query', { path: here.join('.'), param: 'filters' }) : invalidKey(key, path);
  }
  const column = `${alias}.${w.dialect.quote(key)}`;
  const type = scalarTypeOf(model, key);
  if (!isObject(value)) return compileOperator(w, column, type, Array.isArray(value) ? '$in' : '$eq', value, here);
  const parts: Fragment[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$not') parts.push(not(isObject(operand) ? compileOperators(w, column, type, operand, here) : compileOperator(w, column, type, '$eq', operand, here)));
    else if (op === '$and' || op === '$or') {
      const subs = asList(operand).map((o) => (isObject(o) ? compileOperators(w, column, type, o, here) : compileOperator(w, column, type, '$eq', o, here)));
      parts.push(op === '$and' ? and(subs) : or(subs));
    } else if (OPERATORS.has(op)) parts.push(compileOperator(w, column, type, op, operand, here));
    else throw invalidKey(op, here);
  }
  return and(parts);
}

function compileOperators(w: Walk, column: string, type: ReturnType<typeof scalarTypeOf>, ops: Record<string, unknown>, path: string[]): Fragment {
  return and(Object.entries(ops).map(([op, v]): Fragment => {
    if (!OPERATORS.has(op) || op === '$and' || op === '$or') throw invalidKey(op, path);
    if (op === '$not') return not(isObject(v) ? compileOperators(w, column, type, v, path) : compileOperator(w, column, type, '$eq', v, path));
    return compileOperator(w, column, type, op, v, path);
  }));
}

/** Converts a query-string value to what the column stores; throws 400 when it cannot. */
function coerce(type: ReturnType<typeof scalarTypeOf>, value: unknown, path: string[]): SqlValue {
  const fail = () => new ValidationError(`Invalid value for ${path.join('.')}: ${JSON.stringify(value)} is not a valid ${type}`, {
    key: path.at(-1), path: path.join('.'), source: 'query', param: 'filters',
  });
  if (value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') value = String(value);
  if (typeof value !== 'string') throw fail();
  switch (type) {
    case 'id':
    case 'integer':
      if (!/^-?\d+$/.test(value.trim())) throw fail();
      return Number(value);
    case 'biginteger':
      if (!/^-?\d+$/.test(value.trim())) throw fail();
      return BigInt(value.trim());
    case 'float':
    case 'decimal': {
      const n = Number(value);
      if (value.trim() === '' || Number.isNaN(n)) throw fail();
      return n;
    }
    case 'boolean':
      if (TRUE_WORDS.has(value.toLowerCase())) return 1;
      if (FALSE_WORDS.has(value.toLowerCase())) return 0;
      throw fail();
    case 'date': {
      const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
      if (!day || Number.isNaN(new Date(`${day}T00:00:00Z`).getTime())) throw fail();
      return day;
    }
    case 'datetime':
    case 'timestamp': {
      const date = new Date(value);
      if (Number.isNaN(date.getTime())) throw fail();
      return date.toISOString();
    }
    default:
      return value;
  }
}

const NON_TEXT = new Set<ReturnType<typeof scalarTypeOf>>(['id', 'integer', 'biginteger', 'float', 'decimal', 'boolean']);

function truthy(value: unknown, path: string[]): boolean {
  if (value === null || value === undefined || value === '') return false;
  const s = String(value).toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  throw new ValidationError(`Invalid value for ${path.join('.')}: expected true or false`);
}

function compileOperator(w: Walk, column: string, type: ReturnType<typeof scalarTypeOf>, op: string, value: unknown, path: string[]): Fragment {
  const lower = w.dialect.lower;
  const text = (v: unknown): string => {
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'string') throw new ValidationError(`Invalid value for ${path.join('.')}: expected a string`);
    return v;
  };
  // A list given to a single-value operator means "any of them".
  const multi = !['$in', '$notIn', '$between', '$null', '$notNull'].includes(op);
  if (multi && (Array.isArray(value) || (isObject(value) && Object.keys(value).every((k) => /^\d+$/.test(k))))) {
    return or(asList(value).map((v) => compileOperator(w, column, type, op, v, path)));
  }
  // Past qs's arrayLimit (100) a list arrives as an object keyed by index.
  if (isObject(value) && Object.keys(value).every((k) => /^\d+$/.test(k))) value = Object.values(value);
  if (isObject(value)) throw new ValidationError(`Invalid value for ${path.join('.')}: expected a value for ${op}`);
  const one = (sql: string, ...params: SqlValue[]): Fragment => ({ sql, params });
  // Text operators read a number as its text; PostgreSQL has no strpos() or right() on numbers.
  const asText = NON_TEXT.has(type) ? `CAST(${column} AS TEXT)` : column;
  switch (op) {
    case '$eq': {
      const v = coerce(type, value, path);
      return v === null ? one(`${column} IS NULL`) : one(`${column} = ?`, v);
    }
    case '$ne': {
      const v = coerce(type, value, path);
      return v === null ? one(`${column} IS NOT NULL`) : one(`${column} <> ?`, v);
    }
    case '$eqi':
      return value === null ? one(`${column} IS NULL`) : one(`${lower(column)} = ${lower('?')}`, text(value));
    case '$nei':
      return value === null ? one(`${column} IS NOT NULL`) : one(`${lower(column)} <> ${lower('?')}`, text(value));
    case '$lt': return one(`${column} < ?`, coerce(type, value, path));
    case '$lte': return one(`${column} <= ?`, coerce(type, value, path));
    case '$gt': return one(`${column} > ?`, coerce(type, value, path));
    case '$gte': return one(`${column} >= ?`, coerce(type, value, path));
    case '$in':
    case '$notIn': {
      const values = asList(value).map((v) => coerce(type, v, path));
      if (values.length === 0) return one(op === '$in' ? '1 = 0' : '1 = 1');
      return one(`${column} ${op === '$in' ? '' : 'NOT '}IN (${values.map(() => '?').join(', ')})`, ...values);
    }
    case '$between': {
      const values = asList(value);
      if (values.length !== 2) throw new ValidationError(`Invalid value for ${path.join('.')}: $between expects two values`);
      return one(`${column} BETWEEN ? AND ?`, coerce(type, values[0], path), coerce(type, values[1], path));
    }
    case '$null':
      return one(`${column} IS ${truthy(value, path) ? '' : 'NOT '}NULL`);
    case '$notNull':
      return one(`${column} IS ${truthy(value, path) ? 'NOT ' : ''}NULL`);
    case '$contains':
    case '$notContains':
    case '$containsi':
    case '$notContainsi': {
      const ci = op.endsWith('i');
      const [hay, needle] = ci ? [lower(column), lower('?')] : [asText, '?'];
      const sql = `${w.dialect.position(hay, needle)} > 0`;
      return one(op.startsWith('$not') ? `NOT (${sql})` : sql, text(value));
    }
    case '$startsWith':
    case '$startsWithi': {
      const ci = op.endsWith('i');
      const [hay, needle] = ci ? [lower(column), lower('?')] : [asText, '?'];
      return one(`${w.dialect.position(hay, needle)} = 1`, text(value));
    }
    case '$endsWith':
    case '$endsWithi': {
      const v = text(value);
      if (v === '') return one(`${column} IS NOT NULL`);
      const ci = op.endsWith('i');
      const [hay, needle] = ci ? [lower(column), lower('?')] : [asText, '?'];
      return one(`${w.dialect.suffix(hay, '?')} = ${needle}`, v.length, v);
    }
    default:
      throw new ValidationError(`Invalid operator ${op}`);
  }
}

/**
 * Filters through a relation or component: "the row has a related row matching". On SQLite
 * this is `key IN (SELECT …)`, a subquery that does not depend on the outer row, so SQLite
 * runs it once per statement into a temporary index (as a correlated EXISTS it ran once per
 * row: 200 relation conditions took seconds on 100 articles). PostgreSQL keeps EXISTS, which
 * its planner turns into a semi-join (and NOT EXISTS into an anti-join, where NOT IN over a
 * large subquery would not be).
 */
function compileNested(w: Walk, model: AnyModel, alias: string, key: string, value: unknown, path: string[]): Fragment {
  const q = w.dialect.quote;
  const attribute = model.attributes[key]!;
  const inner = `f${++w.aliases}`;
  let from: string;
  /** The outer row's key and the subquery columns it equals. */
  let outer: string[];
  let keys: string[];
  /** Conditions on the related rows alone. */
  let scope: Fragment;
  let target: AnyModel;

  if (attribute.kind === 'component') {
    target = w.registry.component(attribute.component)!;
    from = `${q(target.tableName)} ${inner}`;
    outer = [`${alias}.${q('id')}`];
    keys = [`${inner}.${q(O.id)}`];
    scope = { sql: `${inner}.${q(O.type)} = ? AND ${inner}.${q(O.field)} = ?`, params: [model.uid, key] };
  } else if (attribute.kind === 'relation') {
    const targetType = w.registry.contentType(attribute.target)!;
    if (w.scope.canRead && !w.scope.canRead(targetType.uid)) {
      throw ValidationError.invalidKey(key, 'query', { path: path.join('.'), param: 'filters' });
    }
    target = targetType;
    const link = `${inner}l`;
    if (attribute.owner) {
      from = `${q(attribute.linkTable)} ${link} JOIN ${q(targetType.tableName)} ${inner} ON ${linkedVersion(w.dialect, targetType, w.scope.status, link, inner)}`;
      outer = [`${alias}.${q('id')}`];
      keys = [`${link}.${q('sourceId')}`];
      scope = { sql: '', params: [] };
    } else {
      const parent = model as ContentType;
      from = `${q(attribute.linkTable)} ${link} JOIN ${q(targetType.tableName)} ${inner} ON ${inner}.${q('id')} = ${link}.${q('sourceId')}`;
      outer = [`${alias}.${q('documentId')}`];
      keys = [`${link}.${q('targetDocumentId')}`];
      const parts: Fragment[] = [];
      if (parent.localized) {
        outer.push(`${alias}.${q('locale')}`);
        keys.push(`${link}.${q('targetLocale')}`);
      } else parts.push({ sql: `${link}.${q('targetLocale')} = ''`, params: [] });
      scope = and([...parts, statusCondition(w.dialect, targetType, w.scope.status, inner), localeCondition(w.dialect, targetType, w.scope.locale, inner)]);
    }
  } else throw invalidKey(key, path.slice(0, -1));

  const related = (condition: Fragment, none: boolean): Fragment => {
    if (w.dialect.name === 'sqlite') {
      const where = and([scope, condition]);
      const list = outer.length > 1 ? `(${outer.join(', ')})` : outer[0]!;
      return { sql: `${list} ${none ? 'NOT ' : ''}IN (SELECT ${keys.join(', ')} FROM ${from}${where.sql ? ` WHERE ${where.sql}` : ''})`, params: where.params };
    }
    const correlate = { sql: outer.map((o, i) => `${keys[i]} = ${o}`).join(' AND '), params: [] };
    const where = and([correlate, scope, condition]);
    return { sql: `${none ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${from} WHERE ${where.sql})`, params: where.params };
  };

  // Operators straight on a relation (`filters[author][$null]=true`) speak about the link itself.
  if (isObject(value)) {
    const ops = Object.entries(value).filter(([k]) => k === '$null' || k === '$notNull');
    if (ops.length) {
      const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== '$null' && k !== '$notNull'));
      const parts = ops.map(([op, v]) => related({ sql: '', params: [] }, op === '$null' ? truthy(v, path) : !truthy(v, path)));
      if (Object.keys(rest).length) parts.push(compileNested(w, model, alias, key, rest, path));
      return and(parts);
    }
  }
  const node = isObject(value) && Object.keys(value).some((k) => k.startsWith('$') && k !== '$and' && k !== '$or' && k !== '$not')
    ? { id: value }
    : isObject(value) || Array.isArray(value) ? value : { id: value };
  return related(compileNode(w, target, inner, node, path), false);
}
