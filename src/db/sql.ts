/**
 * The one way Folio writes SQL: a tagged template that keeps text and values together.
 *
 *   sql`SELECT ${sql.id('t', 'title')} FROM ${sql.id(table)} t WHERE t.${sql.id('id')} = ${id}`
 *
 * An interpolated value becomes a bound parameter; an interpolated `Sql` is spliced in
 * with its own parameters; identifiers go through `sql.id`; raw text only through
 * `sql.raw`, by explicit call. Because a placeholder and its parameter are recorded in
 * the same step (as Kysely's `appendValue` does), text and parameters cannot drift apart,
 * whatever order fragments are assembled in. `compile` renders the placeholders of an
 * engine: `?` for SQLite, `$1…$n` for PostgreSQL.
 */
import type { SqlValue } from './database';

export type PlaceholderStyle = 'question' | 'numbered';

export interface CompiledSql {
  text: string;
  params: SqlValue[];
}

export class Sql {
  /**
   * `strings.length === values.length + 1`; a value sits between two strings. Nested
   * fragments are flattened when built, so compiling is one pass.
   */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly SqlValue[],
  ) {}

  /** True for a fragment with no text at all (an empty AND list, an absent condition). */
  get isEmpty(): boolean {
    return this.values.length === 0 && this.strings[0] === '';
  }

  /** The statement text with the engine's placeholders, and its parameters in order. */
  compile(style: PlaceholderStyle): CompiledSql {
    if (style === 'question') return { text: this.strings.join('?'), params: this.values as SqlValue[] };
    let text = this.strings[0]!;
    for (let i = 1; i < this.strings.length; i++) text += `$${i}${this.strings[i]}`;
    return { text, params: this.values as SqlValue[] };
  }

  /** Readable form for error messages and tests: `?` placeholders. */
  toString(): string {
    return this.strings.join('?');
  }
}

type Part = Sql | SqlValue;

/** Builds a fragment from a template: Sql parts are spliced, anything else becomes a parameter. */
function build(strings: readonly string[], parts: readonly Part[]): Sql {
  const outStrings: string[] = [strings[0]!];
  const outValues: SqlValue[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part instanceof Sql) {
      outStrings[outStrings.length - 1] += part.strings[0]!;
      for (let j = 0; j < part.values.length; j++) {
        outValues.push(part.values[j]!);
        outStrings.push(part.strings[j + 1]!);
      }
      outStrings[outStrings.length - 1] += strings[i + 1]!;
    } else {
      if (part === undefined) throw new TypeError('sql: undefined interpolated (use null for NULL)');
      outValues.push(part);
      outStrings.push(strings[i + 1]!);
    }
  }
  return new Sql(outStrings, outValues);
}

const EMPTY = new Sql([''], []);

/** Quotes one identifier part: double quotes, doubled inside (both engines accept this). */
function quoteIdentifier(name: string): string {
  if (name.includes('\u0000')) throw new TypeError('sql.id: identifiers cannot contain NUL');
  return `"${name.replace(/"/g, '""')}"`;
}

export interface SqlTag {
  (strings: TemplateStringsArray, ...parts: Part[]): Sql;
  /** A quoted identifier; several parts make a qualified name: `sql.id('t', 'title')` → `"t"."title"`. */
  id(...names: string[]): Sql;
  /** Text taken as is. Only for text Folio itself produced (keywords, operators, DDL types), never caller input. */
  raw(text: string): Sql;
  /** Fragments joined by a separator (default `, `); empty fragments are kept (use `and`/`or` to drop them). */
  join(parts: readonly Sql[], separator?: Sql | string): Sql;
  /** One parameter per value, comma-separated: `IN (${sql.list(ids)})`. */
  list(values: readonly SqlValue[]): Sql;
  /** Conditions joined by AND, each parenthesised when there are several; empty ones are dropped. */
  and(parts: readonly Sql[]): Sql;
  /** Conditions joined by OR; no condition at all matches nothing (`1 = 0`). */
  or(parts: readonly Sql[]): Sql;
  /** NOT of a condition; an empty condition (always true) becomes `NOT (1 = 1)`. */
  not(part: Sql): Sql;
  /** The fragment with no text. */
  readonly empty: Sql;
}

export const sql: SqlTag = Object.assign((strings: TemplateStringsArray, ...parts: Part[]) => build(strings, parts), {
  id: (...names: string[]) => new Sql([names.map(quoteIdentifier).join('.')], []),
  raw: (text: string) => new Sql([text], []),
  join(parts: readonly Sql[], separator: Sql | string = ', '): Sql {
    if (parts.length === 0) return EMPTY;
    const sep = typeof separator === 'string' ? new Sql([separator], []) : separator;
    const pieces: Sql[] = [];
    parts.forEach((p, i) => {
      if (i > 0) pieces.push(sep);
      pieces.push(p);
    });
    return build(['', ...pieces.map(() => '')], pieces);
  },
  list(values: readonly SqlValue[]): Sql {
    if (values.length === 0) throw new TypeError('sql.list: an empty list has no SQL form (handle it before, e.g. 1 = 0)');
    return new Sql(['', ...values.slice(1).map(() => ', '), ''], [...values]);
  },
  and(parts: readonly Sql[]): Sql {
    const used = parts.filter((p) => !p.isEmpty);
    if (used.length <= 1) return used[0] ?? EMPTY;
    return sql.join(used.map((p) => sql`(${p})`), ' AND ');
  },
  or(parts: readonly Sql[]): Sql {
    if (parts.length === 0) return sql.raw('1 = 0');
    if (parts.length === 1 && !parts[0]!.isEmpty) return parts[0]!;
    return sql.join(parts.map((p) => sql`(${p.isEmpty ? sql.raw('1 = 1') : p})`), ' OR ');
  },
  not: (part: Sql) => sql`NOT (${part.isEmpty ? sql.raw('1 = 1') : part})`,
  empty: EMPTY,
});
