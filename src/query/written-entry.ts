/**
 * The answer to a create, built from what the write inserted instead of reading the row
 * back: the API answers a write with the version it produced, and without populate or
 * `fields` that is exactly the row's id, documentId, shown attribute values, timestamps and
 * locale. The values go to their column form and back through the same reader a read uses
 * (query/compile.ts rowReader), so the answer is the one a read would give, byte for byte:
 * columns hold what `toColumn` makes (no column has a default of its own, and the engines
 * return TEXT, INTEGER and REAL values as stored; big integers are read as text by both).
 * An update's answer is built the same way over the row it read before writing (`stored`).
 */
import { VERSION as V } from '../db/layout';
import { rowReader, type Row } from './row-reader';
import type { ReadQuery } from './types';
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
  /**
   * An update's row as it was read before the write (whole, as the engine returned it):
   * attributes the write did not set keep these stored values.
   */
  stored?: Record<string, unknown>;
}

/**
 * Whether an update's answer can be built from the row it read: a big integer the write did
 * not set came back from `SELECT *` as a JS number, possibly rounded, where a read CASTs it
 * to text; such a row is read back instead.
 */
export function answersFromStored(ct: ContentType, scalars: Record<string, unknown>): boolean {
  return visibleScalars(ct).every((field) => !field.readAsText || field.name in scalars);
}

/**
 * An updated draft as written: the row read before the update (`SELECT *`), the values the
 * update set, the new update time. Undefined when it must be read back (answersFromStored).
 * A publishing update answers with the draft's copy: the same values, its own id and publishedAt.
 */
export function updatedDraft(
  ct: ContentType,
  key: { documentId: string; locale: string },
  draft: { id: number; row: Record<string, unknown> },
  scalars: Record<string, unknown>,
  now: string,
): WrittenRow | undefined {
  if (!answersFromStored(ct, scalars)) return undefined;
  // Without draft & publish the one version keeps its publication time.
  const publishedAt = ct.draftAndPublish ? null : (draft.row[V.publishedAt] as string | null);
  return { rowId: draft.id, ...key, createdAt: draft.row[V.createdAt] as string, updatedAt: now, publishedAt, scalars, stored: draft.row };
}

/** The version as a read without populate or `fields` answers it. */
export function writtenEntry(ct: ContentType, row: WrittenRow): Row {
  const raw: Row = { id: row.rowId, documentId: row.documentId };
  for (const field of visibleScalars(ct)) {
    if (row.stored && !(field.name in row.scalars)) {
      raw[field.name] = row.stored[field.name] ?? null;
      continue;
    }
    const stored = field.toColumn(row.scalars[field.name]);
    // Big integers come back as text (the reader CASTs them); every other value as stored.
    raw[field.name] = field.readAsText && stored !== null ? String(stored) : stored;
  }
  raw.createdAt = row.createdAt;
  raw.updatedAt = row.updatedAt;
  raw.publishedAt = row.publishedAt;
  if (ct.localized) raw.locale = row.locale;
  return rowReader(ct).readInPlace(raw);
}

/** Whether a read-back with this query is answered by writtenEntry: no populate, no `fields`. */
export function answersQuery(query: ReadQuery): boolean {
  return query.fields === undefined && Object.keys(query.populate).length === 0;
}
