/**
 * Reading rows back as Strapi documents: which columns to select, and how a row becomes
 * a response object with Strapi's key order (id, documentId, attributes…, createdAt,
 * updatedAt, publishedAt, locale). Private and password attributes are never selected.
 */
import type { Dialect } from '../db/dialect';
import { Lru } from '../lru';
import { visibleScalars } from '../registry/fields';
import type { AnyModel, ScalarAttribute } from '../registry/types';
import { fromColumn } from './scalars';

export type Row = Record<string, unknown>;

/** A compiled reader: the SELECT list for a model and a function turning a row into a document. */
export interface RowReader {
  columns: string;
  read(row: Row): Row;
}

/**
 * Readers of recent shapes. `fields` comes from the request, so the number of distinct keys is
 * the client's to choose: the cache is bounded (a reader is ~3 KB) and keyed by the set of
 * fields, since order and repeats do not change the reader.
 */
export const READER_CACHE_SIZE = 500;
const readers = new Lru<string, RowReader>(READER_CACHE_SIZE);
// Models are keyed by identity, not uid: two registries (tests, a reload) may define one uid differently.
const modelIds = new WeakMap<AnyModel, number>();
let nextModelId = 0;
const modelId = (model: AnyModel) => {
  let id = modelIds.get(model);
  if (id === undefined) modelIds.set(model, (id = ++nextModelId));
  return id;
};

/**
 * Builds (and caches) the reader for a model and an optional `fields` selection.
 * `alias` prefixes columns (`t."title"`) for queries that join.
 */
export function rowReader(dialect: Dialect, model: AnyModel, fields?: string[], alias = 't'): RowReader {
  const key = `${dialect.name}\0${modelId(model)}\0${alias}\0${fields ? [...new Set(fields)].sort().join(',') : '*'}`;
  const cached = readers.get(key);
  if (cached) return cached;

  const q = dialect.quote;
  const wanted = fields ? new Set(fields) : undefined;
  const keep = (name: string) => !wanted || wanted.has(name);
  const names: string[] = ['id'];
  if (model.modelType === 'contentType') names.push('documentId');
  const scalars = visibleScalars(model).filter((a) => keep(a.name));
  names.push(...scalars.map((a) => a.name));
  if (model.modelType === 'contentType') {
    for (const n of ['createdAt', 'updatedAt', 'publishedAt']) if (keep(n)) names.push(n);
    if (model.localized && keep('locale')) names.push('locale');
  }

  const converters = new Map<string, ScalarAttribute>();
  for (const a of scalars) {
    if (a.type === 'boolean' || a.type === 'json' || a.type === 'blocks' || a.type === 'biginteger') converters.set(a.name, a);
  }
  const columns = names
    .map((n) => {
      const attribute = converters.get(n);
      // Read big integers as text: a JS number would round them past 2^53.
      if (attribute?.type === 'biginteger') return `CAST(${alias}.${q(n)} AS TEXT) AS ${q(n)}`;
      return `${alias}.${q(n)}`;
    })
    .join(', ');

  const reader: RowReader = {
    columns,
    read(row) {
      if (converters.size === 0) return row;
      const out: Row = {};
      for (const n of names) {
        const attribute = converters.get(n);
        out[n] = attribute ? fromColumn(attribute, row[n]) : row[n];
      }
      return out;
    },
  };
  readers.set(key, reader);
  return reader;
}
