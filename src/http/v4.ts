/**
 * The previous (v4) response shape, for clients that send `Strapi-Response-Format: v4`:
 * each document becomes `{ id, documentId, attributes }`, relations and media are wrapped
 * in `{ data }`, components and dynamic-zone items stay flat (their relations wrapped).
 */
import type { AnyModel, Registry } from '../registry/types';

type Doc = Record<string, unknown>;

export const wantsV4 = (request: Request) => request.headers.get('strapi-response-format')?.toLowerCase() === 'v4';

function wrapEntry(registry: Registry, model: AnyModel | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return { data: null };
  if (Array.isArray(value)) return { data: value.map((item) => entry(registry, model, item as Doc)) };
  // A populated count (`populate[x][count]=true`) is an entry of its own in v4: `{ data: { attributes: { count } } }`.
  if (typeof value === 'object' && 'count' in (value as Doc) && Object.keys(value as Doc).length === 1) return { data: { attributes: value } };
  return { data: entry(registry, model, value as Doc) };
}

/** A document (or file) as `{ id, documentId, attributes }`. */
function entry(registry: Registry, model: AnyModel | undefined, doc: Doc): Doc {
  // A polymorphic relation's items name their own type.
  if (!model && typeof doc.__type === 'string') model = registry.contentType(doc.__type);
  const { id, documentId, ...rest } = doc;
  return { id, documentId, attributes: model ? fields(registry, model, rest) : rest };
}

/** Rewrites the populated keys of an object of `model`. */
function fields(registry: Registry, model: AnyModel, doc: Doc): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(doc)) {
    const attribute = model.attributes[key];
    if (key === 'localizations') out[key] = wrapEntry(registry, model, value);
    else if (attribute?.kind === 'relation') out[key] = wrapEntry(registry, attribute.targetType, value);
    else if (attribute?.kind === 'morph') out[key] = wrapEntry(registry, attribute.targetType, value);
    else if (attribute?.kind === 'media') out[key] = wrapEntry(registry, undefined, value);
    else if (attribute?.kind === 'component') {
      const component = attribute.componentModel;
      out[key] = Array.isArray(value) ? value.map((v) => fields(registry, component, v as Doc)) : value && fields(registry, component, value as Doc);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[key] = value.map((item) => {
        const component = registry.component((item as Doc).__component as string);
        return component ? fields(registry, component, item as Doc) : item;
      });
    } else out[key] = value;
  }
  return out;
}

export function toV4(registry: Registry, model: AnyModel, data: Doc | Doc[] | null): unknown {
  if (data === null) return null;
  return Array.isArray(data) ? data.map((d) => entry(registry, model, d)) : entry(registry, model, data);
}
