/**
 * Strapi 5's conditional fields: `"conditions": { "visible": <JSON Logic> }` on an attribute,
 * evaluated on the values beside it (the entry's, or the component's). An attribute whose
 * condition is false is hidden: Strapi's validator skips it entirely (not required, no length,
 * format or range check) and its value, when one is sent, is stored all the same.
 *
 * This is the JSON Logic that Strapi's content-type builder writes and json-logic-js evaluates:
 * `var` (dotted paths, a default), `==` `!=` (loose), `===` `!==`, `!` `!!`, `and` `or` (JSON
 * Logic truthiness: an empty array is false), `in` (an element of an array, or a substring),
 * `<` `<=` `>` `>=`, `if`. A schema using any other operator starts with a warning and the
 * attribute is treated as always visible (checked as if it had no condition).
 */
import { isObject } from '../json';

export type JsonLogic = unknown;

const OPERATORS = new Set(['var', '==', '!=', '===', '!==', '!', '!!', 'and', 'or', 'in', '<', '<=', '>', '>=', 'if']);

/** JSON Logic's truthiness: as JavaScript's, except that an empty array is false. */
const truthy = (value: unknown): boolean => (Array.isArray(value) && value.length === 0 ? false : !!value);

/** An operation is an object with exactly one key (JSON Logic's rule); anything else is a value. */
function operation(rule: unknown): [string, unknown[]] | undefined {
  if (!isObject(rule)) return undefined;
  const keys = Object.keys(rule);
  if (keys.length !== 1) return undefined;
  const args = rule[keys[0]!];
  return [keys[0]!, Array.isArray(args) ? args : [args]];
}

function lookup(data: unknown, path: unknown, fallback: unknown): unknown {
  if (path === undefined || path === null || path === '') return data;
  let value: unknown = data;
  for (const part of String(path).split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return fallback;
    value = (value as Record<string, unknown>)[part];
    if (value === undefined) return fallback;
  }
  return value;
}

/** Evaluates a rule on `data`. Unknown operators never reach here (unsupportedOperator is checked at load). */
export function evaluate(rule: unknown, data: Record<string, unknown>): unknown {
  if (Array.isArray(rule)) return rule.map((r) => evaluate(r, data));
  const op = operation(rule);
  if (!op) return rule;
  const [name, raw] = op;
  if (!OPERATORS.has(name)) return rule;
  // Short-circuiting operators evaluate their arguments themselves.
  if (name === 'and' || name === 'or') {
    let last: unknown;
    for (const arg of raw) {
      last = evaluate(arg, data);
      if (name === 'and' ? !truthy(last) : truthy(last)) return last;
    }
    return last;
  }
  if (name === 'if') {
    let i = 0;
    for (; i + 1 < raw.length; i += 2) if (truthy(evaluate(raw[i], data))) return evaluate(raw[i + 1], data);
    return i < raw.length ? evaluate(raw[i], data) : null;
  }
  const args = raw.map((a) => evaluate(a, data));
  const [a, b, c] = args as [any, any, any];
  switch (name) {
    case 'var':
      return lookup(data, a, b === undefined ? null : b);
    // Loose equality is what json-logic-js applies ("1" == 1, null == undefined).
    case '==':
      // biome-ignore lint/suspicious/noDoubleEquals: JSON Logic's == is JavaScript's loose equality
      return a == b;
    case '!=':
      // biome-ignore lint/suspicious/noDoubleEquals: JSON Logic's != is JavaScript's loose inequality
      return a != b;
    case '===':
      return a === b;
    case '!==':
      return a !== b;
    case '!':
      return !truthy(a);
    case '!!':
      return truthy(a);
    case 'in':
      return typeof b === 'string' || Array.isArray(b) ? (b as unknown[]).indexOf(a) !== -1 : false;
    case '<':
      return c === undefined ? a < b : a < b && b < c;
    case '<=':
      return c === undefined ? a <= b : a <= b && b <= c;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
  return rule;
}

/** The first operator of a rule Folio does not evaluate, if any (reported when the schema loads). */
export function unsupportedOperator(rule: unknown): string | undefined {
  if (Array.isArray(rule)) {
    for (const r of rule) {
      const found = unsupportedOperator(r);
      if (found) return found;
    }
    return undefined;
  }
  const op = operation(rule);
  if (!op) return undefined;
  if (!OPERATORS.has(op[0])) return op[0];
  return unsupportedOperator(op[1]);
}

/** Whether an attribute with this `visible` rule shows (and is checked) given the values beside it. */
export function isVisible(visible: JsonLogic, siblings: Record<string, unknown>): boolean {
  return truthy(evaluate(visible, siblings));
}
