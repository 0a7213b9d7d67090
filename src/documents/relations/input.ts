/**
 * Relation values of a write body: shorthand (`"documentId"`, `["documentId"]`, `null`),
 * longhand objects with a pinned locale or status, and connect / disconnect / set with
 * positions, parsed into operations with full paths for errors. As in Strapi 5, a target
 * may also be named by a row id (`2`, `"2"`, `{ id: 2 }`, a position anchor `{ before: 3 }`);
 * the document service maps ids to documentIds first (./row-ids.ts), so the link writer (./writer.ts) only ever
 * sees documentIds. Nothing touches the database here.
 */
import { ValidationError } from '../../errors';
import { unstorableText } from '../../text';
import { isObject } from '../../json';

/** An anchor's own `locale` / `status` (Strapi's position keys) pick which link it names. */
type AnchorPin = { locale?: string; status?: 'draft' | 'published' };
export type Position = (({ before: string } | { after: string }) & AnchorPin) | { start: true } | { end: true };

export interface RelationTarget {
  /** '' while the target is named by a row id only (`id`), until ./row-ids.ts maps it. */
  documentId: string;
  /** The row id given for the target (the row's documentId must match a documentId given beside it). */
  id?: number;
  locale?: string;
  status?: 'draft' | 'published';
  position?: Position;
}

export type RelationWrite = { op: 'set'; targets: RelationTarget[] } | { op: 'patch'; connect: RelationTarget[]; disconnect: RelationTarget[] };

/** `['seo', 'items', 0, 'title']` → `seo.items[0].title`, as Strapi labels fields in messages. */
export const label = (path: (string | number)[]) =>
  path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');

const POSITION_KEYS = ['before', 'after', 'start', 'end'] as const;
const STATUSES = ['draft', 'published'];

/**
 * A row id as Strapi takes one: a non-negative integer, or a string of digits (Strapi's
 * `parseInt` check; Folio's documentIds always start with a letter, so none is mistaken).
 */
export function rowId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) return Number(value);
  return undefined;
}

function readPosition(position: unknown, bad: (why: string) => ValidationError, storable: (name: string, v: unknown) => void): Position {
  if (!isObject(position)) throw bad('position must be an object');
  const { locale, status, ...anchors } = position;
  const keys = Object.keys(anchors);
  if (keys.length !== 1 || !POSITION_KEYS.includes(keys[0] as never)) {
    throw bad('position must have exactly one of before, after, start, end');
  }
  const key = keys[0] as (typeof POSITION_KEYS)[number];
  const anchor = anchors[key];
  if (key === 'start' || key === 'end') {
    if (anchor !== true) throw bad(`position.${key} must be true`);
    if (locale !== undefined || status !== undefined) throw bad(`position.${key} takes no locale or status`);
    return { [key]: true } as Position;
  }
  if ((typeof anchor !== 'string' || anchor === '') && rowId(anchor) === undefined) throw bad(`position.${key} must be a documentId or a row id`);
  storable(`position.${key}`, anchor);
  storable('position.locale', locale);
  if (locale !== undefined && typeof locale !== 'string') throw bad('position.locale must be a string');
  if (status !== undefined && !STATUSES.includes(status as string)) throw bad('position.status must be "draft" or "published"');
  return position as Position;
}

function readTarget(element: unknown, at: (string | number)[], allowPosition: boolean): RelationTarget {
  const bad = (why: string) => new ValidationError(`Invalid relation at ${label(at)}: ${why}`, { path: at });
  // Ids and locales end up in SQL parameters, where PostgreSQL text refuses NUL.
  const storable = (name: string, v: unknown) => {
    const why = typeof v === 'string' ? unstorableText(v) : undefined;
    if (why) throw bad(`${name} ${why}`);
  };
  storable('documentId', element);
  const shortId = rowId(element);
  if (shortId !== undefined) return { documentId: '', id: shortId };
  if (typeof element === 'string' && element !== '') return { documentId: element };
  if (!isObject(element)) throw bad('expected a documentId string, a row id or an object with a documentId or an id');
  storable('documentId', element.documentId);
  storable('locale', element.locale);
  const { documentId, id, locale, status, position, ...rest } = element;
  const extra = Object.keys(rest);
  if (extra.length) throw bad(`unknown key ${extra[0]}`);
  if (documentId === undefined && id === undefined) throw bad('expected a documentId or an id');
  if (documentId !== undefined && (typeof documentId !== 'string' || documentId === '')) throw bad('documentId must be a non-empty string');
  if (id !== undefined && rowId(id) === undefined) throw bad('id must be a row id (a non-negative integer)');
  if (locale !== undefined && typeof locale !== 'string') throw bad('locale must be a string');
  if (status !== undefined && !STATUSES.includes(status as string)) throw bad('status must be "draft" or "published"');
  const target: RelationTarget = { documentId: (documentId as string | undefined) ?? '' };
  if (id !== undefined) target.id = rowId(id);
  if (locale !== undefined) target.locale = locale as string;
  if (status !== undefined) target.status = status as 'draft' | 'published';
  if (position !== undefined) {
    if (!allowPosition) throw bad('position is only allowed in connect');
    target.position = readPosition(position, bad, storable);
  }
  return target;
}

function readTargets(value: unknown, at: (string | number)[], allowPosition: boolean): RelationTarget[] {
  if (!Array.isArray(value)) return [readTarget(value, at, allowPosition)];
  return value.map((element, i) => readTarget(element, [...at, i], allowPosition));
}

/** Parses shorthand (`"id"`, `["id"]`, `null`), longhand objects and connect/disconnect/set. */
export function readRelation(value: unknown, at: (string | number)[]): RelationWrite {
  if (value === null) return { op: 'set', targets: [] };
  if (isObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    const keys = Object.keys(value).filter((k) => k !== 'options');
    const unknown = keys.find((k) => !['connect', 'disconnect', 'set'].includes(k));
    if (unknown) throw new ValidationError(`Invalid relation at ${label(at)}: unknown key ${unknown}`, { path: at });
    // Strapi's one option: `options: { strict: boolean }`.
    const options = value.options;
    if (options !== undefined && !(isObject(options) && Object.keys(options).every((k) => k === 'strict' && typeof options[k] === 'boolean'))) {
      throw new ValidationError(`Invalid relation at ${label(at)}.options: expected { strict: boolean }`, { path: [...at, 'options'] });
    }
    if ('set' in value && ('connect' in value || 'disconnect' in value)) {
      throw new ValidationError(`Invalid relation at ${label(at)}: set cannot be combined with connect or disconnect`, { path: at });
    }
    if ('set' in value) return { op: 'set', targets: value.set === null ? [] : readTargets(value.set, [...at, 'set'], false) };
    return {
      op: 'patch',
      connect: value.connect == null ? [] : readTargets(value.connect, [...at, 'connect'], true),
      disconnect: value.disconnect == null ? [] : readTargets(value.disconnect, [...at, 'disconnect'], false),
    };
  }
  return { op: 'set', targets: readTargets(value, at, false) };
}

/** What a row id stands for: its document, and the locale and status of that row ('' / undefined when the type has none). */
export interface RowTarget {
  documentId: string;
  locale?: string;
  status?: 'draft' | 'published';
}

/**
 * Rewrites the row ids of a raw relation value (in the same shapes readRelation takes) into
 * longhand targets: `2` → `{ documentId, locale, status }` of row 2, and anchors likewise.
 * A locale or status given beside an id wins over the row's (it says which version to link).
 * Values that are not ids are left as they are: readRelation judges them. `visit` sees every
 * id (with its path) and answers what it names; an id it does not answer is left as it is.
 */
export function mapRowIds(value: unknown, at: (string | number)[], visit: (id: number, at: (string | number)[]) => RowTarget | undefined): unknown {
  const anchor = (position: unknown, where: (string | number)[]) => {
    if (!isObject(position)) return position;
    for (const key of ['before', 'after'] as const) {
      const id = rowId(position[key]);
      if (id === undefined) continue;
      const row = visit(id, [...where, 'position', key]);
      if (!row) return position;
      const { documentId: _, ...pinned } = pins(row);
      return { ...pinned, ...position, [key]: row.documentId };
    }
    return position;
  };
  const element = (v: unknown, where: (string | number)[]): unknown => {
    const id = rowId(v);
    if (id !== undefined) {
      const row = visit(id, where);
      return row ? pins(row) : v;
    }
    if (!isObject(v)) return v;
    let out: Record<string, unknown> = v;
    const row = 'id' in v && rowId(v.id) !== undefined ? visit(rowId(v.id)!, where) : undefined;
    if (row) {
      const { id: given, ...rest } = v;
      if (rest.documentId !== undefined && rest.documentId !== row.documentId) {
        throw new ValidationError(`Invalid relation at ${label(where)}: id ${String(given)} is not a version of document "${String(rest.documentId)}"`, {
          path: where,
        });
      }
      out = { ...pins(row), ...rest, documentId: row.documentId };
    }
    return 'position' in out ? { ...out, position: anchor(out.position, where) } : out;
  };
  const elements = (v: unknown, where: (string | number)[]) => (Array.isArray(v) ? v.map((e, i) => element(e, [...where, i])) : element(v, where));
  if (isObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    const out: Record<string, unknown> = { ...value };
    for (const op of ['connect', 'disconnect', 'set'] as const) if (value[op] != null) out[op] = elements(value[op], [...at, op]);
    return out;
  }
  return value === null ? value : elements(value, at);
}

const pins = (row: RowTarget) => ({
  documentId: row.documentId,
  ...(row.locale ? { locale: row.locale } : {}),
  ...(row.status ? { status: row.status } : {}),
});
