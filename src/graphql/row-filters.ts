/**
 * A `…FiltersInput` value tested on rows held in memory, for Strapi's fields whose rows Folio
 * does not keep as documents (a role's permissions): the same operators as the query core
 * applies in SQL (`eq`, `containsi`, `in`, `between`, `null`, …, and `and` / `or` / `not`),
 * an object-valued field (a permission's `role`) tested with the nested filters. And `sort`
 * (`"action:desc"`) over the same rows.
 */
type Row = Record<string, unknown>;
type Filters = Record<string, unknown>;

const lower = (v: unknown) => String(v).toLowerCase();
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = text(a);
  const y = text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether `value` passes every operator of a scalar's filter input. */
function holds(value: unknown, operators: Filters): boolean {
  for (const [op, operand] of Object.entries(operators)) {
    if (operand === undefined) continue;
    const present = value !== null && value !== undefined;
    let ok: boolean;
    switch (op) {
      case 'and':
        ok = (operand as Filters[]).every((o) => holds(value, o));
        break;
      case 'or':
        ok = (operand as Filters[]).some((o) => holds(value, o));
        break;
      case 'not':
        ok = !holds(value, operand as Filters);
        break;
      case 'eq':
        ok = operand === null ? !present : present && compare(value, operand) === 0;
        break;
      case 'ne':
        ok = operand === null ? present : !present || compare(value, operand) !== 0;
        break;
      case 'eqi':
        ok = present && lower(value) === lower(operand);
        break;
      case 'nei':
        ok = present && lower(value) !== lower(operand);
        break;
      case 'gt':
        ok = present && compare(value, operand) > 0;
        break;
      case 'gte':
        ok = present && compare(value, operand) >= 0;
        break;
      case 'lt':
        ok = present && compare(value, operand) < 0;
        break;
      case 'lte':
        ok = present && compare(value, operand) <= 0;
        break;
      case 'startsWith':
        ok = present && text(value).startsWith(text(operand));
        break;
      case 'endsWith':
        ok = present && text(value).endsWith(text(operand));
        break;
      case 'contains':
        ok = present && text(value).includes(text(operand));
        break;
      case 'notContains':
        ok = present && !text(value).includes(text(operand));
        break;
      case 'containsi':
        ok = present && lower(value).includes(lower(operand));
        break;
      case 'notContainsi':
        ok = present && !lower(value).includes(lower(operand));
        break;
      case 'null':
        ok = operand ? !present : present;
        break;
      case 'notNull':
        ok = operand ? present : !present;
        break;
      case 'in':
        ok = present && (operand as unknown[]).some((o) => compare(value, o) === 0);
        break;
      case 'notIn':
        ok = present && !(operand as unknown[]).some((o) => compare(value, o) === 0);
        break;
      case 'between': {
        const [low, high] = operand as unknown[];
        ok = present && compare(value, low) >= 0 && compare(value, high) <= 0;
        break;
      }
      default:
        ok = true;
    }
    if (!ok) return false;
  }
  return true;
}

/** Whether `row` matches a `…FiltersInput` value. */
export function rowMatches(row: Row, filters: unknown): boolean {
  if (!filters || typeof filters !== 'object') return true;
  for (const [key, value] of Object.entries(filters as Filters)) {
    if (value === undefined || value === null) continue;
    let ok: boolean;
    if (key === 'and') ok = (value as Filters[]).every((f) => rowMatches(row, f));
    else if (key === 'or') ok = (value as Filters[]).some((f) => rowMatches(row, f));
    else if (key === 'not') ok = !rowMatches(row, value);
    else {
      const field = row[key];
      ok = field && typeof field === 'object' && !Array.isArray(field) ? rowMatches(field as Row, value) : holds(field, value as Filters);
    }
    if (!ok) return false;
  }
  return true;
}

/** `rows` in the order `sort` (`["action:desc", "createdAt"]`) asks, a stable sort; unchanged without one. */
export function sortRows<T extends Row>(rows: T[], sort: string[] | undefined): T[] {
  if (!sort?.length) return rows;
  const keys = sort.map((s) => {
    const [path = '', order = 'asc'] = s.split(':');
    return { path: path.split('.'), sign: order.toLowerCase() === 'desc' ? -1 : 1 };
  });
  const at = (row: Row, path: string[]) => path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Row)[k] : undefined), row);
  return [...rows].sort((a, b) => {
    for (const { path, sign } of keys) {
      const c = compare(at(a, path), at(b, path));
      if (c) return c * sign;
    }
    return 0;
  });
}
