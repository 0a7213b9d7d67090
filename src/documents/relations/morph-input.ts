/**
 * Values of polymorphic relations in a write body. The morphTo side takes Strapi's form, an
 * item naming its type: `{ __type: "api::article.article", id: 3 }` (Strapi passes such items
 * to its database layer as they are), or `{ __type, documentId }`, with `locale` / `status`
 * as relation longhand takes them. `morphToMany` takes a list (which replaces the links) or
 * `{ connect, disconnect, set }`; `morphToOne` one item or null. The other side (morphOne /
 * morphMany) is read back from the morphTo side and takes no value. Nothing touches the
 * database here.
 */
import { ValidationError } from '../../errors';
import { isObject } from '../../json';
import type { MorphAttribute, Registry } from '../../registry/types';
import { unstorableText } from '../../text';
import { label, rowId } from './input';

export interface MorphTarget {
  /** Content type uid. */
  type: string;
  /** '' while the target is named by a row id only, until documents/relations/read.ts mapMorphRowIds maps it. */
  documentId: string;
  id?: number;
  locale?: string;
  status?: 'draft' | 'published';
}

export type MorphWrite = { op: 'set'; targets: MorphTarget[] } | { op: 'patch'; connect: MorphTarget[]; disconnect: MorphTarget[] };

type Path = (string | number)[];

const ITEM_KEYS = new Set(['__type', 'id', 'documentId', 'locale', 'status']);

function readItem(registry: Registry, element: unknown, at: Path): MorphTarget {
  const bad = (why: string) => new ValidationError(`Invalid relation at ${label(at)}: ${why}`, { path: at });
  if (!isObject(element)) throw bad('expected an object with __type and an id or a documentId');
  const extra = Object.keys(element).find((key) => !ITEM_KEYS.has(key));
  if (extra !== undefined) throw bad(`unknown key ${extra}`);
  const { __type: type, id, documentId, locale, status } = element;
  if (typeof type !== 'string' || type === '') throw bad('__type must name a content type (e.g. "api::article.article")');
  const target = registry.contentType(type);
  if (!target) throw bad(`__type "${type.slice(0, 200)}" is not a content type`);
  if (documentId === undefined && id === undefined) throw bad('expected a documentId or an id');
  if (documentId !== undefined && (typeof documentId !== 'string' || documentId === '')) throw bad('documentId must be a non-empty string');
  if (id !== undefined && rowId(id) === undefined) throw bad('id must be a row id (a non-negative integer)');
  if (locale !== undefined && typeof locale !== 'string') throw bad('locale must be a string');
  if (status !== undefined && status !== 'draft' && status !== 'published') throw bad('status must be "draft" or "published"');
  // Ids and locales end up in SQL parameters, where PostgreSQL text refuses NUL.
  for (const [name, v] of [
    ['documentId', documentId],
    ['locale', locale],
  ] as const) {
    const why = typeof v === 'string' ? unstorableText(v) : undefined;
    if (why) throw bad(`${name} ${why}`);
  }
  const out: MorphTarget = { type, documentId: (documentId as string | undefined) ?? '' };
  if (id !== undefined) out.id = rowId(id);
  if (locale !== undefined) out.locale = locale as string;
  if (status !== undefined) out.status = status as 'draft' | 'published';
  return out;
}

function readItems(registry: Registry, value: unknown, at: Path): MorphTarget[] {
  if (!Array.isArray(value)) throw new ValidationError(`Invalid relation at ${label(at)}: expected an array`, { path: at });
  return value.map((element, i) => readItem(registry, element, [...at, i]));
}

/** Parses the value of a polymorphic attribute (see the file comment). */
export function readMorph(registry: Registry, attribute: MorphAttribute, value: unknown, at: Path): MorphWrite {
  if (!attribute.owner) {
    throw new ValidationError(`${label(at)} is read from ${attribute.target}.${attribute.morphBy}: link the documents from there`, { path: at });
  }
  if (value === null) return { op: 'set', targets: [] };
  if (!attribute.toMany) return { op: 'set', targets: [readItem(registry, value, at)] };
  if (Array.isArray(value)) return { op: 'set', targets: readItems(registry, value, at) };
  if (!isObject(value)) throw new ValidationError(`Invalid relation at ${label(at)}: expected an array of { __type, id } items`, { path: at });
  const unknown = Object.keys(value).find((k) => k !== 'connect' && k !== 'disconnect' && k !== 'set');
  if (unknown !== undefined) throw new ValidationError(`Invalid relation at ${label(at)}: unknown key ${unknown}`, { path: at });
  if ('set' in value) {
    if ('connect' in value || 'disconnect' in value) {
      throw new ValidationError(`Invalid relation at ${label(at)}: set cannot be combined with connect or disconnect`, { path: at });
    }
    return { op: 'set', targets: value.set === null ? [] : readItems(registry, value.set, [...at, 'set']) };
  }
  return {
    op: 'patch',
    connect: value.connect == null ? [] : readItems(registry, value.connect, [...at, 'connect']),
    disconnect: value.disconnect == null ? [] : readItems(registry, value.disconnect, [...at, 'disconnect']),
  };
}
