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
  /** The text of a fragment without bound values, once appended somewhere (it holds no placeholder). */
  text?: string;

  /**
   * `texts.length === items.length + 1`: an item (a bound value, or a nested fragment) sits
   * between two texts. Nested fragments are kept by reference, not copied, so building a
   * statement costs its own parts only; `compile` walks the tree once, and a long-lived
   * constant fragment (a reader's column list) is walked only the first time.
   * `list` marks `sql.list(values)`: plain values joined by `, `, appended in one step.
   */
  constructor(
    readonly texts: readonly string[],
    readonly items: readonly Part[],
    readonly list = false,
  ) {
    if (items.length === 0) this.text = texts[0];
  }

  /** True for a fragment with no text at all (an empty AND list, an absent condition). */
  get isEmpty(): boolean {
    return this.items.length === 0 && this.texts[0] === '';
  }

  /**
   * The statement text with the engine's placeholders, and its parameters in order. Kept for
   * the last style asked: a statement reused from a plan (query/read.ts) compiles once.
   * The result is shared between callers: read it, never modify it.
   */
  compile(style: PlaceholderStyle): CompiledSql {
    if (this.compiled?.style === style) return this.compiled.result;
    const target: Output = { text: '', params: [], numbered: style === 'numbered' };
    append(this, target);
    const result = { text: target.text, params: target.params };
    this.compiled = { style, result };
    return result;
  }
  private compiled?: { style: PlaceholderStyle; result: CompiledSql };

  /** The bound values, in placeholder order. */
  get values(): SqlValue[] {
    return this.compile('question').params;
  }

  /** Readable form for error messages and tests: `?` placeholders. */
  toString(): string {
    return this.compile('question').text;
  }
}

interface Output {
  text: string;
  params: SqlValue[];
  numbered: boolean;
}

/** Appends a fragment's text and values, depth first (fragments nest as deep as filters do: a few levels). */
function append(fragment: Sql, target: Output): void {
  if (fragment.text !== undefined) {
    target.text += fragment.text;
    return;
  }
  const { texts, items } = fragment;
  if (fragment.list) {
    const start = target.params.length;
    for (const item of items) target.params.push(item as SqlValue);
    if (!target.numbered) target.text += '?, '.repeat(items.length - 1) + '?';
    else target.text += items.map((_, i) => `$${start + i + 1}`).join(', ');
    return;
  }
  const before = target.text.length;
  const bound = target.params.length;
  target.text += texts[0]!;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item instanceof Sql) append(item, target);
    else {
      target.params.push(item);
      target.text += target.numbered ? `$${target.params.length}` : '?';
    }
    target.text += texts[i + 1]!;
  }
  // No value below: the text is the same every time (a reader's column list); keep it.
  if (target.params.length === bound) fragment.text = target.text.slice(before);
}

type Part = Sql | SqlValue;

/**
 * Builds a fragment from a template: Sql parts are kept as nested fragments, anything else
 * becomes a parameter. Empty fragments are dropped here, so `isEmpty` stays exact, and a
 * template that is one fragment alone is that fragment.
 */
function build(strings: readonly string[], parts: readonly Part[]): Sql {
  if (parts.length === 1 && strings[0] === '' && strings[1] === '' && parts[0] instanceof Sql) return parts[0];
  const texts: string[] = [strings[0]!];
  const items: Part[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined) throw new TypeError('sql: undefined interpolated (use null for NULL)');
    if (part instanceof Sql && part.items.length === 0 && part.texts[0] === '') {
      texts[texts.length - 1] += strings[i + 1]!;
      continue;
    }
    items.push(part);
    texts.push(strings[i + 1]!);
  }
  return new Sql(texts, items);
}

const EMPTY = new Sql([''], []);

/**
 * Identifiers already quoted, as fragments. Names come from schemas and from Folio's own
 * code (tables, columns, aliases), never from request input, so the set is small; the cap
 * only guards against a caller that breaks that rule.
 */
const identifiers = new Map<string, Map<string, Sql>>();
const IDENTIFIER_CACHE_SIZE = 10_000;

/** Quotes one identifier part: double quotes, doubled inside (both engines accept this). */
function quoteIdentifier(name: string): string {
  if (name.includes('\u0000')) throw new TypeError('sql.id: identifiers cannot contain NUL');
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteText(value: string): string {
  if (value.includes('\u0000')) throw new TypeError('sql.text: text cannot contain NUL');
  return `'${value.replace(/'/g, "''")}'`;
}

function identifier(names: string[]): Sql {
  // Keyed part by part (one map per first name): no joined key string to build and hash.
  let byFirst = identifiers.get(names[0]!);
  if (!byFirst) {
    if (identifiers.size >= IDENTIFIER_CACHE_SIZE) identifiers.clear();
    identifiers.set(names[0]!, (byFirst = new Map()));
  }
  const rest = names.length === 1 ? '' : names.length === 2 ? names[1]! : names.slice(1).join('\u0000');
  let fragment = byFirst.get(rest);
  if (!fragment) {
    fragment = new Sql([names.map(quoteIdentifier).join('.')], []);
    if (byFirst.size >= IDENTIFIER_CACHE_SIZE) byFirst.clear();
    byFirst.set(rest, fragment);
  }
  return fragment;
}

export interface SqlTag {
  (strings: TemplateStringsArray, ...parts: Part[]): Sql;
  /** A quoted identifier; several parts make a qualified name: `sql.id('t', 'title')` → `"t"."title"`. */
  id(...names: string[]): Sql;
  /** Text taken as is. Only for text Folio itself produced (keywords, operators, DDL types), never caller input. */
  raw(text: string): Sql;
  /**
   * A string literal written into the text (`'it''s'`), not bound: for values from the schema
   * that a statement must carry in its text (a trigger's body; a value whose binding costs a
   * re-prepare), never caller input.
   */
  text(value: string): Sql;
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
  id: (...names: string[]) => identifier(names),
  raw: (text: string) => new Sql([text], []),
  text: (value: string) => new Sql([quoteText(value)], []),
  join(parts: readonly Sql[], separator: Sql | string = ', '): Sql {
    if (parts.length === 0) return EMPTY;
    if (parts.length === 1) return parts[0]!;
    if (typeof separator === 'string') return new Sql(['', ...parts.slice(1).map(() => separator), ''], parts);
    const items: Part[] = [];
    parts.forEach((p, i) => {
      if (i > 0) items.push(separator);
      items.push(p);
    });
    return new Sql(['', ...items.map(() => '')], items);
  },
  list(values: readonly SqlValue[]): Sql {
    if (values.length === 0) throw new TypeError('sql.list: an empty list has no SQL form (handle it before, e.g. 1 = 0)');
    return new Sql(['', ...values.slice(1).map(() => ', '), ''], [...values], true);
  },
  and(parts: readonly Sql[]): Sql {
    const used = parts.filter((p) => !p.isEmpty);
    if (used.length <= 1) return used[0] ?? EMPTY;
    return sql.join(
      used.map((p) => sql`(${p})`),
      ' AND ',
    );
  },
  or(parts: readonly Sql[]): Sql {
    if (parts.length === 0) return sql.raw('1 = 0');
    if (parts.length === 1 && !parts[0]!.isEmpty) return parts[0]!;
    return sql.join(
      parts.map((p) => sql`(${p.isEmpty ? sql.raw('1 = 1') : p})`),
      ' OR ',
    );
  },
  not: (part: Sql) => sql`NOT (${part.isEmpty ? sql.raw('1 = 1') : part})`,
  empty: EMPTY,
});
