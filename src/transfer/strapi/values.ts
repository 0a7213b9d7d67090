/**
 * Strapi's stored values → the JSON values Folio's fields take. Strapi on SQLite keeps
 * booleans as 0/1, JSON and blocks as text, date-times as epoch milliseconds; the field then
 * turns the JSON value into Folio's column value (registry/fields), so both engines get what
 * a REST write would have stored.
 */
import type { SqlValue } from '../../db/database';
import type { AnyModel } from '../../registry/types';
import { isoTime, StrapiImportError, type Row, type StrapiSource } from './source';

function jsonValue(type: string, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case 'boolean':
      return raw === 1 || raw === true || raw === '1' || raw === 't' || raw === 'true';
    case 'json':
    case 'blocks':
      return typeof raw === 'string' ? JSON.parse(raw) : raw;
    case 'datetime':
    case 'timestamp':
      return isoTime(raw);
    case 'date':
      return typeof raw === 'number' ? new Date(raw).toISOString().slice(0, 10) : raw;
    case 'biginteger':
      return String(raw);
    case 'integer':
    case 'float':
    case 'decimal':
      return typeof raw === 'string' ? Number(raw) : raw;
    default:
      return raw;
  }
}

/** The attribute columns of one Strapi row as Folio stores them (by attribute name). */
export function attributeValues(source: StrapiSource, table: string, model: AnyModel, row: Row): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  for (const field of Object.values(model.fields)) {
    if (field.kind !== 'scalar') continue;
    const column = source.column(table, field.name);
    if (column === undefined) continue;
    try {
      const value = jsonValue(field.type, row[column]);
      out[field.name] = value === null ? null : (field.toColumn(field.normalise(value)) as SqlValue);
    } catch (error) {
      throw new StrapiImportError(
        `${table} row ${row.id}: column ${column} (${model.uid}.${field.name}, ${field.type}) cannot be read: ${(error as Error).message}`,
      );
    }
  }
  return out;
}
