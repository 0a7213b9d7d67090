/**
 * The seed format: documents created through the document service, in the order given, so a
 * document may name one seeded before it by a local key instead of a documentId it cannot
 * know yet. startFolio({ seed }), `folio seed FILE.json` and the example content of a first
 * start all take it:
 *
 *   {
 *     authors:  [{ $key: 'jane', name: 'Jane' }],
 *     articles: [{ $key: 'hello', title: 'Hello', author: '$jane', cover: { $file: 'images/cover.png' } },
 *                { $document: '$hello', $locale: 'fr', title: 'Bonjour' }],
 *   }
 *
 * Keys are content types, named as everywhere: a plural API id (a single type's singular one),
 * a singular API id or a uid. Inside a relation value (shorthand, arrays, `connect` / `set` /
 * `disconnect`, `{ documentId }`, positions), any string `$name` is replaced by the documentId
 * of the item whose `$key` is `name`; other strings are documentIds (or row ids) as in a REST
 * write. Relations inside components and dynamic zones are resolved too. `$status: 'draft'`
 * and `$locale` set the write options of one item; `$document: '$name'` makes the item another
 * locale of that document (with `$locale`) instead of a new document. A media value may be
 * `{ $file: PATH, alternativeText?, caption? }` (or a list of them): the file is uploaded and
 * its id written, PATH read where the seed's `files` option says.
 */
import type { Actor } from '../actor';
import type { DocumentService, Written } from '../documents/service';
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
  /** `'$name'`: this item is another locale (`$locale`) of the document seeded as `name`, not a new document. */
  $document?: string;
};

/** By content type: a collection type's plural API id → items; a single type's singular API id → its one document. */
export type Seed = Record<string, SeedItem[] | SeedItem>;

/** A file a media value names (`{ $file: 'images/cover.png', alternativeText: '…' }`). */
export interface SeedFile {
  path: string;
  alternativeText?: string;
  caption?: string;
}

/** Where a seed's `$file`s go: stored before the documents are written, removed again if the seed fails. */
export interface SeedFiles {
  /** Stores the file and returns its id; what fails is said without the item (the seed names it). */
  upload(file: SeedFile): Promise<number>;
  remove(id: number): Promise<void>;
}

export interface SeedOptions {
  /** How messages begin: `startFolio`, the seed file's name… (default `seed`). */
  source?: string;
  /** The name of the seed itself in paths (`seed` → `seed.articles[0].author`; none → `articles[0].author`). */
  root?: string;
  /** Who writes (history and the audit log record it). */
  actor?: Actor;
  /** Uploads `$file`s; without it a `$file` is an error. */
  files?: SeedFiles;
}

const META_KEYS = new Set(['$key', '$status', '$locale', '$document']);
const REFERENCE = /^\$([A-Za-z0-9_.:-]+)$/;

/** An error naming where in the seed it comes from. */
class SeedError extends Error {}

/** Replaces `$name` strings anywhere in one relation value. */
function resolveReferences(value: unknown, keys: Map<string, string>, where: string): unknown {
  if (typeof value === 'string') {
    const match = REFERENCE.exec(value);
    if (!match) return value;
    const documentId = keys.get(match[1]!);
    if (!documentId) throw new SeedError(`${where}: "${value}" names no item seeded before it (give that item "$key": "${match[1]}")`);
    return documentId;
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, keys, where));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, keys, where)]));
  return value;
}

/** A media value with each `{ $file }` uploaded (its id pushed on `uploaded`) and replaced by its id. */
async function resolveFiles(value: unknown, options: SeedOptions, where: string, uploaded: number[]): Promise<unknown> {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, v] of value.entries()) out.push(await resolveFiles(v, options, `${where}[${i}]`, uploaded));
    return out;
  }
  if (!isObject(value) || !('$file' in value)) return value;
  const { $file, alternativeText, caption, ...rest } = value;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new SeedError(`${where}: unknown key "${extra}" beside $file (a file takes alternativeText and caption)`);
  if (typeof $file !== 'string' || !$file) throw new SeedError(`${where}: $file must be the path of a file`);
  for (const [name, text] of Object.entries({ alternativeText, caption })) {
    if (text !== undefined && typeof text !== 'string') throw new SeedError(`${where}: ${name} must be text`);
  }
  if (!options.files) throw new SeedError(`${where}: files cannot be uploaded here`);
  let id: number;
  try {
    id = await options.files.upload({ path: $file, alternativeText: alternativeText as string | undefined, caption: caption as string | undefined });
  } catch (error) {
    throw new SeedError(`${where}: ${(error as Error).message}`);
  }
  uploaded.push(id);
  return id;
}

/**
 * The data of one model with each value `at` changes (a relation's references, a media
 * value's files) replaced, through components and dynamic zones.
 */
async function mapModel(
  registry: Registry,
  model: AnyModel,
  data: Record<string, unknown>,
  where: string,
  at: (kind: 'relation' | 'media', value: unknown, path: string) => unknown | Promise<unknown>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const attribute = model.attributes[name];
    const path = `${where}.${name}`;
    const nested = async (uid: string | undefined, item: unknown, itemPath: string) => {
      const component = uid ? registry.component(uid) : undefined;
      // Anything unexpected goes on unchanged: the document service reports it with its own message.
      return component && isObject(item) ? mapModel(registry, component, item, itemPath, at) : item;
    };
    const each = async (items: unknown[], uidOf: (item: unknown) => string | undefined) => {
      const mapped: unknown[] = [];
      for (const [i, item] of items.entries()) mapped.push(await nested(uidOf(item), item, `${path}[${i}]`));
      return mapped;
    };
    if (attribute?.kind === 'relation' || attribute?.kind === 'media') out[name] = await at(attribute.kind, value, path);
    else if (attribute?.kind === 'component') {
      const uid = attribute.component;
      out[name] = Array.isArray(value) ? await each(value, () => uid) : await nested(uid, value, path);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[name] = await each(value, (v) => (isObject(v) && typeof v.__component === 'string' ? v.__component : undefined));
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

/** A content type by the name a seed gives it (any of its names; Strapi's own types are not seeded). */
function seedType(registry: Registry, name: string): ContentType | undefined {
  return registry.byRouteId(name) ?? registry.contentTypes.find((c) => !c.system && (c.uid === name || c.singularName === name || c.pluralName === name));
}

/** What a seed wrote: each `$key`'s documentId, and how many documents of each type (by plural API id; a single type's singular one). */
export interface SeedResult {
  keys: Record<string, string>;
  counts: Record<string, number>;
}

/** One item, checked, with what writing it needs. */
interface PlannedItem {
  ct: ContentType;
  where: string;
  key?: string;
  /** `$document`'s reference (`$name`): another locale of that document. */
  document?: string;
  status?: 'draft' | 'published';
  locale?: string;
  data: Record<string, unknown>;
}

/** Every item checked before anything is written: types, meta keys, `$key`s, references to items before. */
function plan(registry: Registry, seed: Seed, root: string): PlannedItem[] {
  if (!isObject(seed)) throw new SeedError(`${root || 'a seed'} must be an object of { [pluralApiId]: items }`);
  const keys = new Set<string>();
  const items: PlannedItem[] = [];
  for (const [routeId, given] of Object.entries(seed)) {
    const ct = seedType(registry, routeId);
    if (!ct) {
      const known = registry.contentTypes.filter((c) => !c.system).map((c) => (c.kind === 'collectionType' ? c.pluralName : c.singularName));
      throw new SeedError(`${root ? `${root} ` : ''}"${routeId}" is no content type's API id (known: ${known.join(', ')})`);
    }
    const single = ct.kind === 'singleType';
    if (single ? !isObject(given) && !Array.isArray(given) : !Array.isArray(given)) {
      throw new SeedError(`${root ? `${root} ` : ''}"${routeId}" must be ${single ? 'one object (a single type), or one per locale' : 'an array of objects'}`);
    }
    for (const [index, item] of (Array.isArray(given) ? given : [given]).entries()) {
      const where = `${root ? `${root}.` : ''}${Array.isArray(given) ? `${routeId}[${index}]` : routeId}`;
      if (!isObject(item)) throw new SeedError(`${where} must be an object`);
      const { $key, $status, $locale, $document } = item as SeedItem;
      const unknown = Object.keys(item).find((k) => k.startsWith('$') && !META_KEYS.has(k));
      if (unknown) throw new SeedError(`${where}: unknown key "${unknown}" (seed items take $key, $status, $locale, $document)`);
      if ($key !== undefined && (typeof $key !== 'string' || !REFERENCE.test(`$${$key}`)))
        throw new SeedError(`${where}: $key must be a name of letters, digits, _ . : -`);
      if ($key !== undefined && keys.has($key)) throw new SeedError(`${where}: $key "${$key}" is already used`);
      if ($status !== undefined && $status !== 'draft' && $status !== 'published') throw new SeedError(`${where}: $status must be "draft" or "published"`);
      if ($locale !== undefined && typeof $locale !== 'string') throw new SeedError(`${where}: $locale must be a locale code`);
      if ($document !== undefined) {
        if (single || typeof $document !== 'string' || !REFERENCE.test($document) || $locale === undefined) {
          throw new SeedError(`${where}: $document is "$name" of a document seeded before, with $locale (another locale of it)`);
        }
        if (!keys.has($document.slice(1)))
          throw new SeedError(`${where}.$document: "${$document}" names no item seeded before it (give that item "$key": "${$document.slice(1)}")`);
      }
      if ($key !== undefined) keys.add($key);
      const data = Object.fromEntries(Object.entries(item).filter(([k]) => !META_KEYS.has(k)));
      items.push({ ct, where, key: $key, document: $document, status: $status, locale: $locale, data });
    }
  }
  return items;
}

/** Creates the seed's documents in order. Throws at the first item that fails, naming it. */
export async function runSeed(registry: Registry, documents: DocumentService, seed: Seed, options: SeedOptions = {}): Promise<Record<string, string>> {
  return (await writeSeed(registry, documents, seed, options)).keys;
}

/**
 * Writes a seed all or nothing: every item is checked first; then its files are uploaded;
 * then every document is written in one transaction (a failure rolls them all back and
 * removes the files). The error names the item (and field) that failed.
 */
export async function writeSeed(registry: Registry, documents: DocumentService, seed: Seed, options: SeedOptions = {}): Promise<SeedResult> {
  const source = options.source ?? 'seed';
  const fail = (message: string, cause?: unknown) => new Error(`${source}: ${message}`, cause === undefined ? undefined : { cause });
  const uploaded: number[] = [];
  try {
    const items = plan(registry, seed, options.root ?? '');
    // Files first, outside the transaction (a retried transaction must not upload them twice).
    for (const item of items) {
      item.data = await mapModel(registry, item.ct, item.data, item.where, (kind, value, path) =>
        kind === 'media' ? resolveFiles(value, options, path, uploaded) : value,
      );
    }
    return await documents.pipeline.run({ actor: options.actor }, async (ctx) => {
      const keys = new Map<string, string>();
      const counts: Record<string, number> = {};
      for (const item of items) {
        const { ct, where } = item;
        const data = await mapModel(registry, ct, item.data, where, (kind, value, path) =>
          kind === 'relation' ? resolveReferences(value, keys, path) : value,
        );
        const documentId = item.document === undefined ? undefined : keys.get(item.document.slice(1))!;
        const writeOptions = { status: item.status, locale: item.locale, actor: options.actor, within: ctx };
        let written: Written | null;
        try {
          written =
            ct.kind === 'singleType'
              ? await documents.upsertSingle(ct, data, writeOptions)
              : documentId !== undefined
                ? await documents.update(ct, documentId, data, writeOptions)
                : await documents.create(ct, data, writeOptions);
        } catch (error) {
          throw fail(`${where}: ${describe(error)}`, error);
        }
        if (item.key !== undefined) keys.set(item.key, written!.documentId);
        if (ct.kind === 'singleType') counts[ct.singularName] = 1;
        else if (documentId === undefined) counts[ct.pluralName] = (counts[ct.pluralName] ?? 0) + 1;
      }
      return { keys: Object.fromEntries(keys), counts };
    });
  } catch (error) {
    for (const id of uploaded) await options.files?.remove(id).catch(() => {});
    throw error instanceof SeedError ? fail(error.message) : error;
  }
}
