/**
 * What differs between SQL engines, in one place. Domain code builds SQL through these
 * helpers instead of writing engine-specific text.
 */
import type { Attribute } from '../registry/types';

export interface Dialect {
  name: 'sqlite' | 'postgres';
  /** Quotes an identifier (table or column name). */
  quote(identifier: string): string;
  /** Column type for a scalar attribute, or undefined when the attribute has no column. */
  columnType(attribute: Attribute): string | undefined;
  /** Primary key column definition. */
  idColumn: string;
  /** Type of order keys: text compared byte by byte. */
  orderKeyType: string;
  /** Lower-cases for all of Unicode (SQLite's LOWER folds ASCII only). */
  lower(expression: string): string;
  /** 1-based position of `needle` in `haystack`, 0 when absent (case-sensitive, no wildcards). */
  position(haystack: string, needle: string): string;
  /** The last `length` characters of `expression`. */
  suffix(expression: string, length: string): string;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quote,
  idColumn: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  orderKeyType: 'TEXT',
  lower: (expression) => `folio_lower(${expression})`,
  position: (haystack, needle) => `instr(${haystack}, ${needle})`,
  suffix: (expression, length) => `substr(${expression}, -(${length}))`,
  columnType(attribute) {
    if (attribute.kind !== 'scalar') return undefined;
    switch (attribute.type) {
      case 'integer':
      case 'biginteger':
      case 'boolean':
        return 'INTEGER';
      case 'float':
      case 'decimal':
        return 'REAL';
      default:
        return 'TEXT';
    }
  },
};
