/**
 * The SELECT list of a read and how a row becomes a response object, in Strapi's key order
 * (id, documentId, attributes…, createdAt, updatedAt, publishedAt, locale). Private and
 * password attributes are never selected. Whole rows' readers are built once per model;
 * readers of a client's `fields` are kept with the fields list they were built from (a kept
 * plan's: its next requests reuse them), and go when that list does.
 */
import { VERSION as V, column } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import { visibleScalars, type ScalarField } from '../registry/fields';
import type { AnyModel } from '../registry/types';

export type Row = Record<string, unknown>;

export interface RowReader {
  /** The selected columns, aliased by name. */
  columns: Sql;
  /** The same columns one by one, as [name, expression] (populate slots them into a UNION ALL). */
  parts: [string, Sql][];
  /**
   * A row as read → a new response object (JSON values for booleans, JSON text, big integers)
   * holding only the reader's columns: what else the statement selected (populate's
   * `__parent`, `__locale`, `__order`) stays behind.
   */
  read(row: Row): Row;
  /**
   * The same from a row whose column `parts[i]` is keyed `keys[i]` (a populate union's slots):
   * one object per row, instead of renaming the columns into one and converting into another.
   */
  readAt(row: Row, keys: readonly string[]): Row;
  /**
   * The same, converting the values in the row itself: for a row of a statement that selected
   * exactly `columns` (a list page, one document), which nothing else holds. A page of 25
   * articles cost ~4 µs less without a second object per row.
   */
  readInPlace(row: Row): Row;
}

/**
 * Readers of whole rows, per model and alias: the shape nearly every read uses, built once.
 * Keyed by the model object, so each installation's models have their own and they go
 * with it; readers limited by `fields` (the client's choice) are built per request.
 */
const wholeRowReaders = new WeakMap<AnyModel, Map<string, RowReader>>();
/** Readers limited by a `fields` list, by that list (never changed once parsed) and the alias. */
const fieldsReaders = new WeakMap<readonly string[], { model: AnyModel; byAlias: Map<string, RowReader> }>();

/** The reader of `model`'s rows aliased `alias`, limited to `fields` when given. */
export function rowReader(model: AnyModel, fields?: string[], alias = 't'): RowReader {
  if (fields) {
    let kept = fieldsReaders.get(fields);
    if (!kept || kept.model !== model) fieldsReaders.set(fields, (kept = { model, byAlias: new Map() }));
    let reader = kept.byAlias.get(alias);
    if (!reader) kept.byAlias.set(alias, (reader = buildReader(model, fields, alias)));
    return reader;
  }
  let byAlias = wholeRowReaders.get(model);
  if (!byAlias) wholeRowReaders.set(model, (byAlias = new Map()));
  let reader = byAlias.get(alias);
  if (!reader) byAlias.set(alias, (reader = buildReader(model, undefined, alias)));
  return reader;
}

function buildReader(model: AnyModel, fields: string[] | undefined, alias: string): RowReader {
  const wanted = fields ? new Set(fields) : undefined;
  const keep = (name: string) => !wanted || wanted.has(name);
  const names: string[] = [V.id];
  if (model.modelType === 'contentType') names.push(V.documentId);
  const scalars = visibleScalars(model).filter((f) => keep(f.name));
  names.push(...scalars.map((f) => f.name));
  if (model.modelType === 'contentType') {
    for (const n of [V.createdAt, V.updatedAt, V.publishedAt]) if (keep(n)) names.push(n);
    if (model.localized && keep(V.locale)) names.push(V.locale);
  }
  const converting = new Map<string, ScalarField>(scalars.filter((f) => f.converts).map((f) => [f.name, f]));
  // The converting field of each column, by position: no lookup by name per value.
  const fieldAt = names.map((n) => converting.get(n));
  const convertedColumns = names.flatMap((n, i) => (fieldAt[i] ? [[n, fieldAt[i]] as const] : []));
  const textual = new Set(scalars.filter((f) => f.readAsText).map((f) => f.name));
  // Big integers are read as text: a JS number would round them past 2^53.
  const parts = names.map((n): [string, Sql] => [n, textual.has(n) ? sql`CAST(${column(alias, n)} AS TEXT)` : column(alias, n)]);
  const columns = sql.join(names.map((n, i) => (textual.has(n) ? sql`${parts[i]![1]} AS ${sql.id(n)}` : parts[i]![1])));
  return {
    columns,
    parts,
    read(row) {
      const out: Row = {};
      for (let i = 0; i < names.length; i++) {
        const n = names[i]!;
        const field = fieldAt[i];
        out[n] = field ? field.fromColumn(row[n]) : row[n];
      }
      return out;
    },
    readInPlace(row) {
      for (const [name, field] of convertedColumns) row[name] = field.fromColumn(row[name]);
      return row;
    },
    readAt(row, keys) {
      const out: Row = {};
      for (let i = 0; i < names.length; i++) {
        const field = fieldAt[i];
        const value = row[keys[i]!];
        out[names[i]!] = field ? field.fromColumn(value) : value;
      }
      return out;
    },
  };
}
