/**
 * The answer to a create, built from what the write inserted instead of reading the row
 * back: the API answers a write with the version it produced, and without populate or
 * `fields` that is exactly the row's id, documentId, shown attribute values, timestamps and
 * locale. The values go to their column form and back through the same reader a read uses
 * (query/compile.ts rowReader), so the answer is the one a read would give, byte for byte:
 * columns hold what `toColumn` makes (no column has a default of its own, and the engines
 * return TEXT, INTEGER and REAL values as stored; big integers are read as text by both).
 */
import { rowReader, type Row } from '../query/compile';
import type { ReadQuery } from '../query/types';
import { visibleScalars } from '../registry/fields';
import type { ContentType } from '../registry/types';

export interface WrittenRow {
  rowId: number;
  documentId: string;
  locale: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** The attribute values written (JSON form, defaults applied); absent ones are stored as null. */
  scalars: Record<string, unknown>;
}

/** The version as a read without populate or `fields` answers it. */
export function writtenEntry(ct: ContentType, row: WrittenRow): Row {
  const raw: Row = { id: row.rowId, documentId: row.documentId };
  for (const field of visibleScalars(ct)) {
    const stored = field.toColumn(row.scalars[field.name]);
    // Big integers come back as text (the reader CASTs them); every other value as stored.
    raw[field.name] = field.readAsText && stored !== null ? String(stored) : stored;
  }
  raw.createdAt = row.createdAt;
  raw.updatedAt = row.updatedAt;
  raw.publishedAt = row.publishedAt;
  if (ct.localized) raw.locale = row.locale;
  return rowReader(ct).read(raw);
}

/** Whether a read-back with this query is answered by writtenEntry: no populate, no `fields`. */
export function answersQuery(query: ReadQuery): boolean {
  return query.fields === undefined && Object.keys(query.populate).length === 0;
}
