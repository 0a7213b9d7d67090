/**
 * The SELECT list of a read and how a row becomes a response object, in Strapi's key order
 * (id, documentId, attributes…, createdAt, updatedAt, publishedAt, locale). Private and
 * password attributes are never selected. Built per request from the model's fields: it
 * costs microseconds, and keeping nothing means nothing grows with the shapes clients send.
 */
import { VERSION as V, column } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import { visibleScalars, type ScalarField } from '../registry/fields';
import type { AnyModel } from '../registry/types';

export type Row = Record<string, unknown>;

export interface RowReader {
  /** The selected columns, aliased by name. */
  columns: Sql;
  /** A row as read → the response object (JSON values for booleans, JSON text, big integers). */
  read(row: Row): Row;
}

/** The reader of `model`'s rows aliased `alias`, limited to `fields` when given. */
export function rowReader(model: AnyModel, fields?: string[], alias = 't'): RowReader {
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
  const textual = new Set(scalars.filter((f) => f.readAsText).map((f) => f.name));
  // Big integers are read as text: a JS number would round them past 2^53.
  const columns = sql.join(names.map((n) => (textual.has(n) ? sql`CAST(${column(alias, n)} AS TEXT) AS ${sql.id(n)}` : column(alias, n))));
  return {
    columns,
    read(row) {
      if (converting.size === 0) return row;
      const out: Row = {};
      for (const n of names) {
        const field = converting.get(n);
        out[n] = field ? field.fromColumn(row[n]) : row[n];
      }
      return out;
    },
  };
}
