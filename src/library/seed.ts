/**
 * startFolio()'s `seed`: documents created through the document service, in the order given,
 * so a document may name one seeded before it by a local key instead of a documentId it
 * cannot know yet:
 *
 *   seed: {
 *     authors:  [{ $key: 'jane', name: 'Jane' }],
 *     articles: [{ title: 'Hello', author: '$jane' }],
 *   }
 *
 * Inside a relation value (shorthand, arrays, `connect` / `set` / `disconnect`, `{ documentId }`,
 * positions), any string `$name` is replaced by the documentId of the item whose `$key` is
 * `name`; other strings are documentIds (or row ids) as in a REST write. Relations inside
 * components and dynamic zones are resolved too. `$status: 'draft'` and `$locale` set the
 * write options of one item.
 */
import type { DocumentService } from '../documents/service';
import { FolioError } from '../errors';
import { isObject } from '../json';
import type { AnyModel, ContentType, Registry } from '../registry/types';

export type SeedItem = Record<string, unknown> & {
  /** A name later items use as `'$name'` in relation values (and `seeded[name]` holds the documentId). */
  $key?: string;
  /** `'draft'` creates only the draft (types with draft & publish); published by default. */
  $status?: 'draft' | 'published';
  /** The locale to write (types with i18n); the default locale otherwise. */
  $locale?: string;
};

/** By route id: a collection type's plural API id → items; a single type's singular API id → its one document. */
export type Seed = Record<string, SeedItem[] | SeedItem>;

const META_KEYS = new Set(['$key', '$status', '$locale']);
const REFERENCE = /^\$([A-Za-z0-9_.:-]+)$/;

/** Replaces `$name` strings anywhere in one relation value. */
function resolveReferences(value: unknown, keys: Map<string, string>, where: string): unknown {
  if (typeof value === 'string') {
    const match = REFERENCE.exec(value);
    if (!match) return value;
    const documentId = keys.get(match[1]!);
    if (!documentId) throw new Error(`startFolio: ${where}: "${value}" names no item seeded before it (give that item "$key": "${match[1]}")`);
    return documentId;
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, keys, where));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, keys, where)]));
  return value;
}

/** The data of one model with every relation reference resolved, through components and dynamic zones. */
function resolveModel(registry: Registry, model: AnyModel, data: Record<string, unknown>, keys: Map<string, string>, where: string) {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const attribute = model.attributes[name];
    const path = `${where}.${name}`;
    const nested = (uid: string | undefined, item: unknown) => {
      const component = uid ? registry.component(uid) : undefined;
      // Anything unexpected goes on unchanged: the document service reports it with its own message.
      return component && isObject(item) ? resolveModel(registry, component, item, keys, path) : item;
    };
    if (attribute?.kind === 'relation') out[name] = resolveReferences(value, keys, path);
    else if (attribute?.kind === 'component') {
      out[name] = Array.isArray(value) ? value.map((v) => nested(attribute.component, v)) : nested(attribute.component, value);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[name] = value.map((v) => nested(isObject(v) && typeof v.__component === 'string' ? v.__component : undefined, v));
    } else out[name] = value;
  }
  return out;
}

/** A write's failure as one line: the message, and each field error's path (details of a ValidationError). */
function describe(error: unknown): string {
  if (!(error instanceof FolioError)) return (error as Error)?.message ?? String(error);
  const errors = (error.details as { errors?: { path?: unknown[]; message?: string }[] } | undefined)?.errors;
  const fields = Array.isArray(errors) && errors.length > 1 ? ` (${errors.map((e) => `${(e.path ?? []).join('.')}: ${e.message}`).join('; ')})` : '';
  return `${error.name}: ${error.message}${fields}`;
}

/** Creates the seed's documents in order; returns each `$key`'s documentId. Throws at the first item that fails, naming it. */
export async function runSeed(registry: Registry, documents: DocumentService, seed: Seed): Promise<Record<string, string>> {
  if (!isObject(seed)) throw new Error('startFolio: seed must be an object of { [pluralApiId]: items }');
  const keys = new Map<string, string>();
  for (const [routeId, given] of Object.entries(seed)) {
    const ct: ContentType | undefined = registry.byRouteId(routeId);
    if (!ct) {
      const known = registry.contentTypes.map((c) => (c.kind === 'collectionType' ? c.pluralName : c.singularName));
      throw new Error(`startFolio: seed "${routeId}" is no content type's API id (known: ${known.join(', ')})`);
    }
    const single = ct.kind === 'singleType';
    if (single ? !isObject(given) : !Array.isArray(given)) {
      throw new Error(`startFolio: seed "${routeId}" must be ${single ? 'one object (a single type)' : 'an array of objects'}`);
    }
    const items = (single ? [given] : given) as unknown[];
    for (const [index, item] of items.entries()) {
      const where = single ? `seed.${routeId}` : `seed.${routeId}[${index}]`;
      if (!isObject(item)) throw new Error(`startFolio: ${where} must be an object`);
      const { $key, $status, $locale } = item as SeedItem;
      const unknown = Object.keys(item).find((k) => k.startsWith('$') && !META_KEYS.has(k));
      if (unknown) throw new Error(`startFolio: ${where}: unknown key "${unknown}" (seed items take $key, $status, $locale)`);
      if ($key !== undefined && (typeof $key !== 'string' || !REFERENCE.test(`$${$key}`))) {
        throw new Error(`startFolio: ${where}: $key must be a name of letters, digits, _ . : -`);
      }
      if ($key !== undefined && keys.has($key)) throw new Error(`startFolio: ${where}: $key "${$key}" is already used`);
      const data = Object.fromEntries(Object.entries(item).filter(([k]) => !META_KEYS.has(k)));
      const options = { status: $status, locale: $locale };
      const resolved = resolveModel(registry, ct, data, keys, where);
      try {
        const written = single ? await documents.upsertSingle(ct, resolved, options) : await documents.create(ct, resolved, options);
        if ($key !== undefined) keys.set($key, written.documentId);
      } catch (error) {
        throw new Error(`startFolio: ${where}: ${describe(error)}`, { cause: error });
      }
    }
  }
  return Object.fromEntries(keys);
}
