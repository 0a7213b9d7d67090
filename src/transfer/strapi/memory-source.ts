/**
 * Strapi's tables held in memory, for the sources that cannot be queried row by row while the
 * mapping runs: a `strapi export` archive (its rows are made from entities and links) and a
 * PostgreSQL database (read whole up front, as Bun.SQL answers asynchronously and the
 * mapping reads synchronously). The mapping holds every row it writes anyway.
 */
import { findColumn, StrapiImportError, type Row } from './source';

export abstract class MemorySource {
  readonly tables = new Set<string>();
  private data = new Map<string, Row[]>();
  private declared = new Map<string, string[]>();
  private columnCache = new Map<string, string[]>();

  /** `what` starts the error for a missing table ("The archive", "The Strapi database"). */
  protected constructor(private readonly what: string) {}

  /** The rows of a table, made empty on first use; `columns` are the ones it has even without rows. */
  protected table(name: string, columns?: string[]): Row[] {
    let rows = this.data.get(name);
    if (!rows) {
      this.data.set(name, (rows = []));
      this.tables.add(name);
    }
    if (columns) this.declared.set(name, columns);
    return rows;
  }

  has(table: string): boolean {
    return this.tables.has(table);
  }

  columns(table: string): string[] {
    let list = this.columnCache.get(table);
    if (!list) {
      const names = new Set(this.declared.get(table) ?? ['id']);
      for (const row of this.data.get(table) ?? []) for (const key of Object.keys(row)) names.add(key);
      this.columnCache.set(table, (list = [...names]));
    }
    return list;
  }

  /** The column of an attribute (`publishDate` → `publish_date`), or undefined. */
  column(table: string, name: string): string | undefined {
    return findColumn(this.columns(table), name);
  }

  /** Rows in id order; rows made without an id (0: join and link rows of an archive) are numbered in the order read. */
  rows(table: string): Row[] {
    const rows = this.data.get(table);
    if (!rows) throw new StrapiImportError(`${this.what} has no table "${table}"`);
    if (rows.some((r) => r.id === 0)) rows.forEach((r, i) => (r.id = i + 1));
    return [...rows].sort((a, b) => Number(a.id) - Number(b.id));
  }
}
