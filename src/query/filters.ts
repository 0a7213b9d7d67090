/**
 * `filters` (as `qs` nested them) → a checked Condition tree. Everything a filter can get
 * wrong is found here, at parse time, before any SQL exists or anything is written: unknown
 * or private keys, relations the caller may not read, values a column cannot hold, trees
 * past the request limits. where.ts turns the tree into SQL.
 */
import { ValidationError } from '../errors';
import { INVALID, scalarFieldOf, type ColumnValue, type ScalarField } from '../registry/fields';
import type { AnyModel, ComponentAttribute, Registry } from '../registry/types';
import { REQUEST_LIMITS as L, limitExceeded } from './limits';
import type { CanRead, Condition, TextOperator } from './types';
import { isObject } from '../json';

export const OPERATORS = new Set([
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
  '$not',
  '$and',
  '$or',
]);

const TEXT_OPERATORS = new Set<string>([
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
const COMPARISONS = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' } as const;

type Raw = Record<string, unknown>;
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [v]);
const isIndexKeyed = (v: Raw) => {
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
};
const isScalar = (v: unknown) => typeof v !== 'object' || v === null;

const TRUE_WORDS = new Set(['true', 't', '1']);
const FALSE_WORDS = new Set(['false', 'f', '0']);

/** What a request's filter trees may still hold (REQUEST_LIMITS); shared by the root and populate filters. */
export interface FilterBudget {
  nodes: number;
  values: number;
}

export const newFilterBudget = (): FilterBudget => ({ nodes: 0, values: 0 });

/**
 * Refuses a filter tree past the request limits before it is read: every key and list item
 * is a node, a list of plain values (`$in`) counts its values instead. Linear in the tree.
 */
export function checkFilters(tree: unknown, budget: FilterBudget = newFilterBudget()): void {
  const countValues = (n: number) => {
    budget.values += n;
    if (budget.values > L.filterValues) throw limitExceeded('filters', `at most ${L.filterValues} values are allowed`, L.filterValues);
  };
  const walk = (node: unknown, depth: number) => {
    if (isScalar(node)) return countValues(1);
    if (depth > L.filterDepth) throw limitExceeded('filters', `filters may nest at most ${L.filterDepth} levels deep`, L.filterDepth);
    const object = node as Raw;
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

interface Walk {
  registry: Registry;
  canRead?: CanRead;
}

/** Parses a filter tree over `model` (checked against the limits first, with checkFilters). */
export function parseFilters(registry: Registry, model: AnyModel, tree: Raw, canRead?: CanRead): Condition {
  return parseNode({ registry, canRead }, model, tree, []);
}

function invalidKey(key: string, path: string[]) {
  return ValidationError.invalidKey(key, 'query', { path: path.length ? path.join('.') : null, param: 'filters' });
}

const all = (parts: Condition[]): Condition => (parts.length === 1 ? parts[0]! : { kind: 'and', parts });
const any = (parts: Condition[]): Condition => ({ kind: 'or', parts });

function parseNode(w: Walk, model: AnyModel, node: unknown, path: string[]): Condition {
  if (!isObject(node)) {
    if (Array.isArray(node)) return any(node.map((n) => parseNode(w, model, n, path)));
    throw new ValidationError(`Invalid filters at ${path.join('.') || 'root'}: expected an object`);
  }
  const parts: Condition[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$and') parts.push(all(asList(value).map((v) => parseNode(w, model, v, path))));
    else if (key === '$or') parts.push(any(asList(value).map((v) => parseNode(w, model, v, path))));
    else if (key === '$not') parts.push({ kind: 'not', part: parseNode(w, model, value, path) });
    else if (key.startsWith('$')) {
      if (OPERATORS.has(key)) throw new ValidationError('Only $and, $or and $not can only be used as root level operators');
      throw invalidKey(key, path);
    } else parts.push(parseKey(w, model, key, value, path));
  }
  return all(parts);
}

function parseKey(w: Walk, model: AnyModel, key: string, value: unknown, path: string[]): Condition {
  const attribute = model.attributes[key];
  const here = [...path, key];
  if (attribute?.kind === 'relation' || attribute?.kind === 'component') {
    if (attribute.private) throw invalidKey(key, path);
    if (attribute.kind === 'relation' && w.canRead && !w.canRead(attribute.target)) {
      throw ValidationError.invalidKey(key, 'query', { path: here.join('.'), param: 'filters' });
    }
    return parseRelated(w, model, key, value, here);
  }
  if (key === 'localizations' && !attribute && model.modelType === 'contentType' && model.localized) {
    // Strapi's `localizations` relation: any version of the document (itself included), any status.
    return parseRelated(w, model, key, value, here);
  }
  const field = scalarFieldOf(model, key);
  if (!field || (!field.visible && attribute)) {
    // Strapi names the path for attributes that exist but may not be used (private, password).
    throw attribute ? ValidationError.invalidKey(key, 'query', { path: here.join('.'), param: 'filters' }) : invalidKey(key, path);
  }
  if (!isObject(value)) return parseOperator(field, Array.isArray(value) ? '$in' : '$eq', value, here);
  const parts: Condition[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (op === '$not') parts.push({ kind: 'not', part: isObject(operand) ? parseOperators(field, operand, here) : parseOperator(field, '$eq', operand, here) });
    else if (op === '$and' || op === '$or') {
      const subs = asList(operand).map((o) => (isObject(o) ? parseOperators(field, o, here) : parseOperator(field, '$eq', o, here)));
      parts.push(op === '$and' ? all(subs) : any(subs));
    } else if (OPERATORS.has(op)) parts.push(parseOperator(field, op, operand, here));
    else throw invalidKey(op, here);
  }
  return all(parts);
}

function parseOperators(field: ScalarField, ops: Raw, path: string[]): Condition {
  return all(
    Object.entries(ops).map(([op, v]): Condition => {
      if (!OPERATORS.has(op) || op === '$and' || op === '$or') throw invalidKey(op, path);
      if (op === '$not') return { kind: 'not', part: isObject(v) ? parseOperators(field, v, path) : parseOperator(field, '$eq', v, path) };
      return parseOperator(field, op, v, path);
    }),
  );
}

/** A query-string value as the column stores it; a 400 when it cannot be. */
function coerce(field: ScalarField, value: unknown, path: string[]): ColumnValue {
  if (value === null) return null;
  const raw = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  const coerced = typeof raw === 'string' ? field.filterValue(raw) : INVALID;
  if (coerced === INVALID) {
    const type = field.name === 'id' ? 'id' : field.type;
    throw new ValidationError(`Invalid value for ${path.join('.')}: ${JSON.stringify(value)} is not a valid ${type}`, {
      key: path.at(-1),
      path: path.join('.'),
      source: 'query',
      param: 'filters',
    });
  }
  return coerced;
}

function truthy(value: unknown, path: string[]): boolean {
  if (value === null || value === undefined || value === '') return false;
  const s = String(value).toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  throw new ValidationError(`Invalid value for ${path.join('.')}: expected true or false`);
}

function parseOperator(field: ScalarField, op: string, value: unknown, path: string[]): Condition {
  const text = (v: unknown): string => {
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'string') throw new ValidationError(`Invalid value for ${path.join('.')}: expected a string`);
    return v;
  };
  // A list given to a single-value operator means "any of them".
  const multi = !['$in', '$notIn', '$between', '$null', '$notNull'].includes(op);
  if (multi && (Array.isArray(value) || (isObject(value) && isIndexKeyed(value)))) {
    return any(asList(value).map((v) => parseOperator(field, op, v, path)));
  }
  // Past qs's arrayLimit (100) a list arrives as an object keyed by index.
  if (isObject(value) && isIndexKeyed(value)) value = Object.values(value);
  if (isObject(value)) throw new ValidationError(`Invalid value for ${path.join('.')}: expected a value for ${op}`);
  switch (op) {
    case '$eq':
    case '$ne': {
      const v = coerce(field, value, path);
      if (v === null) return { kind: 'null', field, isNull: op === '$eq' };
      return { kind: 'compare', field, op: op === '$eq' ? '=' : '<>', value: v };
    }
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte':
      return { kind: 'compare', field, op: COMPARISONS[op], value: coerce(field, value, path) };
    case '$in':
    case '$notIn':
      return { kind: 'in', field, negate: op === '$notIn', values: asList(value).map((v) => coerce(field, v, path)) };
    case '$between': {
      const values = asList(value);
      if (values.length !== 2) throw new ValidationError(`Invalid value for ${path.join('.')}: $between expects two values`);
      return { kind: 'between', field, low: coerce(field, values[0], path), high: coerce(field, values[1], path) };
    }
    case '$null':
    case '$notNull':
      return { kind: 'null', field, isNull: truthy(value, path) === (op === '$null') };
    default:
      if (!TEXT_OPERATORS.has(op)) throw new ValidationError(`Invalid operator ${op}`);
      // $eqi / $nei against null mean "is (not) null", as $eq / $ne do.
      if (value === null && (op === '$eqi' || op === '$nei')) return { kind: 'null', field, isNull: op === '$eqi' };
      return { kind: 'text', field, op: op as TextOperator, value: text(value) };
  }
}

/** Filters through a relation or component: a related row matches (operators on the link itself: `$null`). */
function parseRelated(w: Walk, model: AnyModel, key: string, value: unknown, path: string[]): Condition {
  const attribute = model.attributes[key];
  const target = !attribute ? model : attribute.kind === 'relation' ? attribute.targetType : (attribute as ComponentAttribute).componentModel;
  // Operators straight on a relation (`filters[author][$null]=true`) speak about the link itself.
  if (isObject(value)) {
    const ops = Object.entries(value).filter(([k]) => k === '$null' || k === '$notNull');
    if (ops.length) {
      const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== '$null' && k !== '$notNull'));
      const parts: Condition[] = ops.map(([op, v]) => ({ kind: 'related', name: key, none: op === '$null' ? truthy(v, path) : !truthy(v, path) }));
      if (Object.keys(rest).length) parts.push(parseRelated(w, model, key, rest, path));
      return all(parts);
    }
  }
  const node =
    isObject(value) && Object.keys(value).some((k) => k.startsWith('$') && k !== '$and' && k !== '$or' && k !== '$not')
      ? { id: value }
      : isObject(value) || Array.isArray(value)
        ? value
        : { id: value };
  return { kind: 'related', name: key, none: false, condition: parseNode(w, target, node, path) };
}
