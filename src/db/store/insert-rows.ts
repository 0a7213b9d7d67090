/**
 * Multi-row INSERTs from one flat list of values: the statement text is `?` placeholders
 * kept by shape (table, columns, row count), the values go beside it. Used by the bulk
 * creates (./bulk.ts) and by what a write appends for each document it wrote (content
 * history, ./history.ts; the audit log, ./audit.ts). Rows are inserted in the order given.
 * Statements are cut to PARAMETERS_PER_STATEMENT bound values: under SQLite's 32,766 and
 * PostgreSQL's 65,535, and short enough (text under 32 KiB) for SQLite's statement cache to
 * keep the full-size one, which every batch repeats.
 */
import type { Queryable, SqlValue } from '../database';
import { sql, type Sql } from '../sql';

export const PARAMETERS_PER_STATEMENT = 8000;

/**
 * Statement texts by shape (table, columns, row count): the builder renders the head once, and
 * the text is `?` placeholders for the rows. The values go beside it as one flat list: a batch
 * binds ~20,000 values, and assembling a fragment per row and rendering it again each time was
 * a tenth of an import's time. The engines take text with `?` placeholders and a parameter
 * list (database.ts `Statement`; PostgreSQL renumbers, and caches the renumbered text).
 */
const TEXTS_KEPT = 200;
const texts = new Map<string, string>();

export function insertText(head: string, columns: number, rows: number, returning: string): string {
  const key = `${rows}\0${head}\0${returning}`;
  let text = texts.get(key);
  if (text === undefined) {
    const row = `(${'?, '.repeat(columns - 1)}?)`;
    text = `${head}${`${row}, `.repeat(rows - 1)}${row}${returning}`;
    if (texts.size >= TEXTS_KEPT) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** `INSERT INTO table (columns) VALUES `, as text (insertText appends the rows' placeholders). */
export const insertHead = (table: Sql, columns: Sql[]) => sql`INSERT INTO ${table} (${sql.join(columns)}) VALUES `.compile('question').text;

/**
 * Inserts rows given as one flat list of values (`columns.length` per row, in order), in as few
 * statements as the limit allows; returns what `returning` selects.
 */
export async function insertRows(tx: Queryable, table: Sql, columns: Sql[], values: SqlValue[], returning?: Sql): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const width = columns.length;
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / width)) * width;
  const head = insertHead(table, columns);
  const tail = returning ? ` RETURNING ${returning.compile('question').text}` : '';
  for (let start = 0; start < values.length; start += perStatement) {
    const chunk = values.slice(start, start + perStatement);
    const text = insertText(head, width, chunk.length / width, tail);
    if (returning) out.push(...(await tx.all<Record<string, unknown>>(text, chunk)));
    else await tx.run(text, chunk);
  }
  return out;
}
