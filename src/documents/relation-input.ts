/**
 * Relation values of a write body: shorthand (`"documentId"`, `["documentId"]`, `null`),
 * longhand objects with a pinned locale or status, and connect / disconnect / set with
 * positions, parsed into operations with full paths for errors. Nothing touches the
 * database here; documents/links.ts applies the operations.
 */
import { ValidationError } from '../errors';
import type { RelationAttribute } from '../registry/types';
import { unstorableText } from '../text';

export type Position = { before: string } | { after: string } | { start: true } | { end: true };

export interface RelationTarget {
  documentId: string;
  locale?: string;
  status?: 'draft' | 'published';
  position?: Position;
}

export type RelationWrite =
  | { op: 'set'; targets: RelationTarget[] }
  | { op: 'patch'; connect: RelationTarget[]; disconnect: RelationTarget[] };

/** `['seo', 'items', 0, 'title']` → `seo.items[0].title`, as Strapi labels fields in messages. */
export const label = (path: (string | number)[]) =>
  path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const POSITION_KEYS = ['before', 'after', 'start', 'end'] as const;

function readTarget(element: unknown, at: (string | number)[], allowPosition: boolean): RelationTarget {
  const bad = (why: string) => new ValidationError(`Invalid relation at ${label(at)}: ${why}`, { path: at });
  // Ids and locales end up in SQL parameters, where PostgreSQL text refuses NUL.
  const storable = (name: string, v: unknown) => {
    const why = typeof v === 'string' ? unstorableText(v) : undefined;
    if (why) throw bad(`${name} ${why}`);
  };
  storable('documentId', element);
  if (typeof element === 'string' && element !== '') return { documentId: element };
  if (!isObject(element)) throw bad('expected a documentId string or an object with a documentId');
  storable('documentId', element.documentId);
  storable('locale', element.locale);
  const { documentId, locale, status, position, ...rest } = element;
  const extra = Object.keys(rest);
  if (extra.length) throw bad(`unknown key ${extra[0]}`);
  if (typeof documentId !== 'string' || documentId === '') throw bad('documentId must be a non-empty string');
  if (locale !== undefined && typeof locale !== 'string') throw bad('locale must be a string');
  if (status !== undefined && status !== 'draft' && status !== 'published') throw bad('status must be "draft" or "published"');
  const target: RelationTarget = { documentId };
  if (locale !== undefined) target.locale = locale as string;
  if (status !== undefined) target.status = status as 'draft' | 'published';
  if (position !== undefined) {
    if (!allowPosition) throw bad('position is only allowed in connect');
    if (!isObject(position)) throw bad('position must be an object');
    const keys = Object.keys(position);
    if (keys.length !== 1 || !POSITION_KEYS.includes(keys[0] as never)) {
      throw bad('position must have exactly one of before, after, start, end');
    }
    const key = keys[0] as (typeof POSITION_KEYS)[number];
    const anchor = position[key];
    if ((key === 'before' || key === 'after') && (typeof anchor !== 'string' || anchor === '')) throw bad(`position.${key} must be a documentId`);
    storable(`position.${key}`, anchor);
    if ((key === 'start' || key === 'end') && anchor !== true) throw bad(`position.${key} must be true`);
    target.position = position as Position;
  }
  return target;
}

function readTargets(value: unknown, at: (string | number)[], allowPosition: boolean): RelationTarget[] {
  if (!Array.isArray(value)) return [readTarget(value, at, allowPosition)];
  return value.map((element, i) => readTarget(element, [...at, i], allowPosition));
}

/** Parses shorthand (`"id"`, `["id"]`, `null`), longhand objects and connect/disconnect/set. */
export function readRelation(attribute: RelationAttribute, value: unknown, at: (string | number)[]): RelationWrite {
  if (value === null) return { op: 'set', targets: [] };
  if (isObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    const keys = Object.keys(value).filter((k) => k !== 'options');
    const unknown = keys.find((k) => !['connect', 'disconnect', 'set'].includes(k));
    if (unknown) throw new ValidationError(`Invalid relation at ${label(at)}: unknown key ${unknown}`, { path: at });
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
