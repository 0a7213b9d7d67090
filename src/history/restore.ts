/**
 * What restoring a kept version writes: its content (query/content.ts) as an update
 * body for the model as it is now. What can no longer be written is left out and reported:
 * attributes the schema no longer has, relations and polymorphic links to documents that no
 * longer exist (in the linked locale), files deleted from the library, zone items of removed
 * components. Existence is read in one statement per target type and one for files.
 */
import type { Queryable } from '../db/database';
import { fileTypes } from '../db/store/media';
import { existingVersions } from '../db/store/versions';
import { isObject } from '../json';
import type { AnyModel, Registry } from '../registry/types';

type Body = Record<string, unknown>;

/** A part of the version that was not written back, and why. */
export interface LeftOut {
  /** Where it was, as Strapi labels fields (`seo.links[1]`, `tags[0]`). */
  path: string;
  reason: string;
}

type Target = { kind: 'document'; uid: string; documentId: string; locale?: string } | { kind: 'file'; id: number };

/** Decides whether a target is kept; `left` records what is not (the second pass). */
interface Walk {
  keep(target: Target): boolean;
  left?: LeftOut[];
}

const label = (path: string, name: string | number) => (typeof name === 'number' ? `${path}[${name}]` : path ? `${path}.${name}` : name);

function walk(registry: Registry, model: AnyModel, data: Body, path: string, w: Walk): Body {
  const out: Body = {};
  for (const [name, value] of Object.entries(data)) {
    const at = label(path, name);
    const attribute = model.attributes[name];
    if (!attribute) {
      w.left?.push({ path: at, reason: 'the attribute no longer exists' });
      continue;
    }
    switch (attribute.kind) {
      case 'scalar':
        if (attribute.type !== 'password') out[name] = value;
        break;
      case 'relation': {
        if (!attribute.owner) break;
        const keepOne = (item: unknown, i?: number) => {
          if (!isObject(item) || typeof item.documentId !== 'string') return false;
          const target: Target = { kind: 'document', uid: attribute.target, documentId: item.documentId, locale: item.locale as string | undefined };
          if (w.keep(target)) return true;
          w.left?.push({
            path: i === undefined ? at : label(at, i),
            reason: `${attribute.target} document "${item.documentId}"${item.locale ? ` (${item.locale})` : ''} no longer exists`,
          });
          return false;
        };
        if (Array.isArray(value))
          out[name] = attribute.toMany ? value.filter((item, i) => keepOne(item, i)) : (value.find((item, i) => keepOne(item, i)) ?? null);
        else out[name] = value !== null && value !== undefined && keepOne(value) ? (attribute.toMany ? [value] : value) : attribute.toMany ? [] : null;
        break;
      }
      case 'morph': {
        if (!attribute.owner) break;
        const items = Array.isArray(value) ? value : value == null ? [] : [value];
        const kept = items.filter((item, i) => {
          const where = Array.isArray(value) ? label(at, i) : at;
          if (!isObject(item) || typeof item.__type !== 'string' || typeof item.documentId !== 'string') return false;
          if (!registry.contentType(item.__type)) {
            w.left?.push({ path: where, reason: `the content type ${item.__type} no longer exists` });
            return false;
          }
          if (w.keep({ kind: 'document', uid: item.__type, documentId: item.documentId, locale: item.locale as string | undefined })) return true;
          w.left?.push({ path: where, reason: `${item.__type} document "${item.documentId}" no longer exists` });
          return false;
        });
        out[name] = attribute.toMany ? kept : (kept[0] ?? null);
        break;
      }
      case 'media': {
        const ids = (Array.isArray(value) ? value : value == null ? [] : [value]).filter((id): id is number => typeof id === 'number');
        const kept = ids.filter((id) => {
          if (w.keep({ kind: 'file', id })) return true;
          w.left?.push({ path: at, reason: `file ${id} no longer exists` });
          return false;
        });
        out[name] = attribute.multiple ? kept : (kept[0] ?? null);
        break;
      }
      case 'component': {
        const component = attribute.componentModel;
        if (attribute.repeatable)
          out[name] = (Array.isArray(value) ? value : []).filter(isObject).map((item, i) => walk(registry, component, item, label(at, i), w));
        else out[name] = isObject(value) ? walk(registry, component, value, at, w) : null;
        break;
      }
      case 'dynamiczone': {
        const items: Body[] = [];
        (Array.isArray(value) ? value : []).forEach((item, i) => {
          if (!isObject(item)) return;
          const component = attribute.componentModels.find((c) => c.uid === item.__component);
          if (!component) {
            w.left?.push({ path: label(at, i), reason: `the component ${String(item.__component)} is no longer allowed here` });
            return;
          }
          const { __component, ...rest } = item;
          items.push({ __component, ...walk(registry, component, rest, label(at, i), w) });
        });
        out[name] = items;
        break;
      }
    }
  }
  return out;
}

/** The update body restoring `data` on `model`, and what had to be left out. */
export async function restorableBody(db: Queryable, registry: Registry, model: AnyModel, data: Body): Promise<{ body: Body; leftOut: LeftOut[] }> {
  const documents = new Map<string, Set<string>>();
  const files = new Set<number>();
  walk(registry, model, data, '', {
    keep(target) {
      if (target.kind === 'file') files.add(target.id);
      else documents.set(target.uid, (documents.get(target.uid) ?? new Set()).add(target.documentId));
      return true;
    },
  });
  const existing = new Set<string>();
  for (const [uid, ids] of documents) {
    const ct = registry.contentType(uid);
    if (!ct) continue;
    for (const v of await existingVersions(db, ct, [...ids])) existing.add(`${uid}\u0000${v.documentId}\u0000${v.locale}`).add(`${uid}\u0000${v.documentId}`);
  }
  const foundFiles = new Set((await fileTypes(db, [...files])).map((f) => f.id));
  const leftOut: LeftOut[] = [];
  const body = walk(registry, model, data, '', {
    left: leftOut,
    keep: (target) =>
      target.kind === 'file'
        ? foundFiles.has(target.id)
        : existing.has(target.locale ? `${target.uid}\u0000${target.documentId}\u0000${target.locale}` : `${target.uid}\u0000${target.documentId}`),
  });
  return { body, leftOut };
}
