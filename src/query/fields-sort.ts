/**
 * `fields` and `sort` (already nested by `qs`), for the root of a read and for populated
 * entries: scalar attributes only, sort paths through to-one relations and components the
 * caller may read. Every unknown or forbidden key is a 400 `Invalid key …`.
 */
import { ValidationError } from '../errors';
import type { AnyModel } from '../registry/types';
import { isSelectable } from '../registry/fields';
import { REQUEST_LIMITS as L, limitExceeded } from './limits';
import type { CanRead, SortItem } from './types';
import { isObject } from '../json';

export type Raw = Record<string, unknown>;

export const BOOLEAN_WORDS: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false };

export function invalidParameter(name: string, expected: string, received: unknown): ValidationError {
  return new ValidationError(`Invalid parameter at '${name}'. Expected ${expected}, received: ${String(received)}`);
}

/** `fields=a,b`, `fields[0]=a`, `fields=*`: scalar attributes only. */
export function parseFields(model: AnyModel, raw: unknown, path: string | null = null): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : isObject(raw) ? Object.values(raw) : [raw];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw invalidParameter('fields', 'a string or an array of strings', JSON.stringify(item));
    for (const name of item.split(',').map((s) => s.trim())) if (name) names.push(name);
  }
  if (names.includes('*')) return undefined;
  for (const name of names) {
    // Strapi names a private attribute's own path, and no path for a name it does not know.
    const hidden = model.attributes[name]?.kind === 'scalar';
    if (!isSelectable(model, name)) throw ValidationError.invalidKey(name, 'query', { path: hidden ? name : path, param: 'fields' });
  }
  return names;
}

const ORDER = /^(asc|desc)$/i;

/** Every sort form Strapi accepts, through to-one relations and components. */
export function parseSort(model: AnyModel, raw: unknown, canRead?: CanRead): SortItem[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const items: SortItem[] = [];
  const seen = new Set<string>();
  let joins = 0;
  const addPath = (path: string[], order: string) => {
    if (!ORDER.test(order)) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
    // Each key through a relation is a subquery per row: a repeated key would redo one that can
    // no longer change the order, so the first occurrence wins and the others are dropped.
    const key = path.join('.');
    if (seen.has(key)) return;
    if (path.length > L.sortPathDepth) throw limitExceeded('sort', `a sort path may have at most ${L.sortPathDepth} segments`, L.sortPathDepth);
    if (seen.size >= L.sortKeys) throw limitExceeded('sort', `at most ${L.sortKeys} distinct sort keys are allowed`, L.sortKeys);
    checkSortPath(model, path, canRead);
    // Every step through a relation or component is a nested subquery per row, and many of them
    // cost more than their sum in SQLite's sorter (56 steps: 60 ms on 100 articles).
    joins += path.length - 1;
    if (joins > L.sortJoins) throw limitExceeded('sort', `sort keys may pass through at most ${L.sortJoins} relations and components in all`, L.sortJoins);
    seen.add(key);
    items.push({ path, order: order.toLowerCase() as 'asc' | 'desc' });
  };
  const fromString = (s: string) => {
    for (const part of s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [field, order = 'asc', ...rest] = part.split(':');
      if (rest.length) throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
      addPath(field!.split('.'), order);
    }
  };
  const fromObject = (o: Raw, prefix: string[]) => {
    for (const [key, value] of Object.entries(o)) {
      if (typeof value === 'string') addPath([...prefix, key], value);
      else if (isObject(value)) fromObject(value, [...prefix, key]);
      else throw new ValidationError(`Invalid sort parameter at ${[...prefix, key].join('.')}`);
    }
  };
  const walk = (value: unknown) => {
    if (typeof value === 'string') fromString(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      // qs turns sort[0]=a (past arrayLimit) or sort[title]=desc into objects: tell them apart.
      if (Object.keys(value).every((k) => /^\d+$/.test(k))) Object.values(value).forEach(walk);
      else fromObject(value, []);
    } else throw new ValidationError('Invalid sort parameter');
  };
  walk(raw);
  return items;
}

function checkSortPath(model: AnyModel, path: string[], canRead?: CanRead) {
  let current: AnyModel = model;
  path.forEach((name, i) => {
    const last = i === path.length - 1;
    // Strapi names the whole path for attributes that exist but may not be used, the parent otherwise.
    const known = !!current.attributes[name];
    const errorPath = known ? path.slice(0, i + 1).join('.') : i === 0 ? null : path.slice(0, i).join('.');
    const invalid = () => ValidationError.invalidKey(name, 'query', { path: errorPath, param: 'sort' });
    if (last) {
      if (!isSelectable(current, name)) throw invalid();
      return;
    }
    const attribute = current.attributes[name];
    if (attribute?.kind === 'relation' && !attribute.toMany && !attribute.private && (!canRead || canRead(attribute.target))) {
      current = attribute.targetType;
    } else if (attribute?.kind === 'component' && !attribute.repeatable) current = attribute.componentModel;
    else throw invalid();
  });
}
