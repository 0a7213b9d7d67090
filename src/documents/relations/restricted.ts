/**
 * Relations a caller may not write. Strapi's content API refuses a body that names a relation
 * whose target the caller may not `find` (`<target uid>.find`, as its throwRestrictedRelations
 * asks): 400 "Invalid key <attribute>", whatever the value (an id, a documentId, connect,
 * null, []), in components and dynamic zone entries too ("Invalid key buyer at line.buyer",
 * the path naming attributes without list indices), and nothing is written. A polymorphic
 * (morphTo) relation is refused when one of its elements names such a type in `__type`.
 *
 * Run on a request's `data` before the write. A key the input reader refuses anyway (unknown
 * anywhere in the tree) makes this step stand aside, so that error is answered first, as
 * Strapi answers unrecognised keys before restricted relations.
 */
import { ValidationError } from '../../errors';
import { isObject } from '../../json';
import { isDangling } from '../../registry/dangling-inverses';
import type { AnyModel, Registry } from '../../registry/types';

/** Whether the caller may write a relation to documents of `uid` (Strapi: holds `<uid>.find`). */
export type CanLink = (uid: string) => boolean;

/** Top-level keys of a content type's body that are no attribute but are read (and ignored) all the same. */
const READ_TOP_LEVEL = new Set(['locale', 'publishedAt']);

export function checkRestrictedRelations(registry: Registry, model: AnyModel, data: Record<string, unknown>, canLink: CanLink): void {
  let restricted: { key: string; path: string } | undefined;
  let unknown = false;

  const morphTypes = (value: unknown): string[] => {
    const elements = Array.isArray(value)
      ? value
      : isObject(value)
        ? [value.connect, value.set, value.disconnect].flatMap((list) => (Array.isArray(list) ? list : []))
        : [];
    // A single morphToOne element is an object with __type.
    if (isObject(value) && typeof value.__type === 'string') elements.push(value);
    return elements.flatMap((e) => (isObject(e) && typeof e.__type === 'string' ? [e.__type] : []));
  };

  const walk = (m: AnyModel, item: Record<string, unknown>, path: string[], top: boolean) => {
    for (const [key, value] of Object.entries(item)) {
      const attribute = m.attributes[key];
      if (!attribute) {
        const read = top ? READ_TOP_LEVEL.has(key) || isDangling(registry, m.uid, key) : key === '__component';
        if (!read) unknown = true;
        continue;
      }
      const here = [...path, key];
      if (attribute.kind === 'relation') {
        if (!restricted && !canLink(attribute.target)) restricted = { key, path: here.join('.') };
      } else if (attribute.kind === 'morph' && attribute.owner) {
        if (!restricted && morphTypes(value).some((uid) => !canLink(uid))) restricted = { key, path: here.join('.') };
      } else if (attribute.kind === 'component') {
        for (const entry of Array.isArray(value) ? value : [value]) if (isObject(entry)) walk(attribute.componentModel, entry, here, false);
      } else if (attribute.kind === 'dynamiczone' && Array.isArray(value)) {
        for (const entry of value) {
          if (!isObject(entry)) continue;
          const component = attribute.componentModels[attribute.components.indexOf(entry.__component as string)];
          if (component) walk(component, entry, here, false);
        }
      }
    }
  };

  walk(model, data, [], true);
  if (restricted && !unknown) throw ValidationError.invalidKey(restricted.key, 'body', { path: restricted.path });
}

/**
 * The same data without the relations the caller may not write, in components and dynamic zone
 * entries too: what Strapi's GraphQL mutations do (they sanitize the input rather than refuse
 * it), so the entry is written without those links.
 */
export function withoutRestrictedRelations(model: AnyModel, data: Record<string, unknown>, canLink: CanLink): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const attribute = model.attributes[key];
    if (attribute?.kind === 'relation' && !canLink(attribute.target)) continue;
    if (attribute?.kind === 'component' && value !== null && typeof value === 'object') {
      const component = attribute.componentModel;
      out[key] = Array.isArray(value)
        ? value.map((entry) => (isObject(entry) ? withoutRestrictedRelations(component, entry, canLink) : entry))
        : withoutRestrictedRelations(component, value as Record<string, unknown>, canLink);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[key] = value.map((entry) => {
        const component = isObject(entry) ? attribute.componentModels[attribute.components.indexOf(entry.__component as string)] : undefined;
        return component ? withoutRestrictedRelations(component, entry as Record<string, unknown>, canLink) : entry;
      });
    } else out[key] = value;
  }
  return out;
}
