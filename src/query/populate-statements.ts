/**
 * The statements of populate: for a page of parent rows, one query per attribute and level
 * that reads every related row at once (`… IN (parents)`), never one per row. Each row
 * comes back with `__parent` (and `__locale` / `__order` where needed) naming its parent;
 * query/populate.ts runs these, groups the rows and attaches them.
 */
import type { Dialect } from '../db/dialect';
import { COMPONENT_OWNER as O, FILES_TABLE, LINK as L, MEDIA_LINKS, MORPH_LINK as M, VERSION as V, column, linkTableOf, tableOf } from '../db/layout';
import type { SqlValue } from '../db/database';
import { Sql, sql } from '../db/sql';
import type { AnyModel, Component, ContentType, MorphAttribute, Registry, RelationAttribute } from '../registry/types';
import { orderBy, whereSql } from './compile';
import { rowReader, type RowReader } from './row-reader';
import { inverseSourceScope, linkedVersion, statusCondition, type VersionScope } from './resolve';
import type { PopulateSpec } from './types';

/**
 * The statements of populate: for a page of parent rows, one query per attribute and level
 * that reads every related row at once (`… IN (parents)`), never one per row. Each row
 * comes back with `__parent` (and `__locale` / `__order` where needed) naming its parent;
 * query/populate.ts runs these, groups the rows and attaches them.
 */

/**
 * A name from the schema (a type's uid, an attribute's name) written into the text rather
 * than bound. SQLite marks a statement whose join compares a column with a bound text value
 * to be prepared again each time a value is bound, and bun:sqlite binds on every call: the
 * media read (files joined to their links, `relatedType = ?`) was prepared anew on every
 * request, and with it the whole UNION ALL of its level (8 KB of SQL, ~0.2 ms per request
 * on the bench's populate=*). These names never come from a request, and the text they make
 * is the same on every request, so the statement cache keeps one statement per shape.
 */
export const schemaName = (name: string): Sql => sql.text(name);

const where = (parts: Sql[]) => {
  const all = sql.and(parts);
  return all.isEmpty ? sql.empty : sql` WHERE ${all}`;
};

/** ` AND (condition)` after a WHERE already written, or nothing for no (or an empty) condition. */
const andAlso = (condition: Sql | undefined) => (!condition || condition.isEmpty ? sql.empty : sql` AND (${condition})`);

/**
 * A populate read in parts: its columns ([key, expression], in the order the row's keys come
 * back), what follows FROM (joins and WHERE) and its ORDER BY. `statement` renders it alone;
 * unionStatement runs several as one statement.
 */
export interface PopulateSelect {
  /** Kept per reader by the builders below (columnsOf): never changed. */
  columns: [string, Sql][];
  /** Built when read (getters in the builders below): a level's statement kept by populate.ts needs none of these three. */
  readonly body: Sql;
  readonly order: Sql;
  /** When `order` is just these expressions, ascending (the stored orders): a union sorts by them as columns. */
  readonly keys?: Sql[];
}

export interface PopulateRead {
  select: PopulateSelect;
  statement: Sql;
  reader: RowReader;
}

export function selectStatement(s: PopulateSelect): Sql {
  return sql`SELECT ${sql.join(s.columns.map(([name, expr]) => sql`${expr} AS ${sql.id(name)}`))} FROM ${s.body} ORDER BY ${s.order}`;
}

/** `statement` is built on first use: on SQLite a level's reads usually run as one union, which never needs it. */
const read = (select: PopulateSelect, reader: RowReader): PopulateRead => {
  let statement: Sql | undefined;
  return {
    select,
    reader,
    get statement() {
      return (statement ??= selectStatement(select));
    },
  };
};

/**
 * A read's columns (its `__` ones, then its reader's), made once per reader and kind of read:
 * they are the same on every request, and a level whose statements are kept (populate.ts)
 * needs only them, its sort keys' names and its reader from the reads it builds.
 */
type Columns = [string, Sql][];
const columnsKept = {
  linked: new WeakMap<RowReader, Columns>(),
  linking: new WeakMap<RowReader, Columns>(),
  component: new WeakMap<RowReader, Columns>(),
  localizations: new WeakMap<RowReader, Columns>(),
};
function columnsOf(kind: keyof typeof columnsKept, reader: RowReader, meta: () => Columns): Columns {
  let columns = columnsKept[kind].get(reader);
  if (!columns) columnsKept[kind].set(reader, (columns = [...meta(), ...reader.parts]));
  return columns;
}
const mediaColumns = new WeakMap<readonly string[], Columns>();

/**
 * The parents' values a populate read binds (`IN (…)`), as a list fragment that remembers the
 * array it was made from: a level's statement kept by populate.ts (levelStatement) binds the
 * next page's parents where this page's stood, and finds them by that array, never by value.
 */
const parentSources = new WeakMap<Sql, readonly SqlValue[]>();
function parentList(values: readonly SqlValue[]): Sql {
  const list = sql.list(values);
  parentSources.set(list, values);
  return list;
}

/** Where a kept statement's parameter comes from: a fixed value, or the i-th of a level's parent lists. */
export type ParamSource = { value: SqlValue } | { list: number; at: number };

/**
 * A statement's parameters in placeholder order (as Sql.compile writes them), each either a
 * value of its own or a position in one of `lists` (the parents' arrays the reads were built
 * from, by identity): binding other parents' arrays of the same lengths gives the statement
 * those parents would have built.
 */
export function paramSources(statement: Sql, lists: readonly (readonly SqlValue[])[]): ParamSource[] {
  const out: ParamSource[] = [];
  const walk = (fragment: Sql) => {
    // A fragment whose text is known holds no value (Sql.compile keeps text only for those).
    if (fragment.text !== undefined) return;
    if (fragment.list) {
      const source = parentSources.get(fragment);
      const list = source ? lists.indexOf(source) : -1;
      fragment.items.forEach((value, at) => out.push(list >= 0 ? { list, at } : { value: value as SqlValue }));
      return;
    }
    for (const item of fragment.items) {
      if (item instanceof Sql) walk(item);
      else out.push({ value: item });
    }
  };
  walk(statement);
  return out;
}

/** The key of slot `k` in a union's rows. */
export const slotName = (k: number) => `c${k}`;

/**
 * The sort keys of a branch that a union must select besides its columns: a stored order's
 * keys that are not among them (a link's position; its parent, a component's parent and
 * order are columns already), or one ROW_NUMBER() for a client's sort. Each entry is the
 * key's column index, or -1 for a key of its own.
 */
function sortKeysOf(s: PopulateSelect): number[] {
  if (!s.keys) return [-1];
  return s.keys.map((key) => {
    const text = textOf(key);
    return s.columns.findIndex(([, expr]) => textOf(expr) === text);
  });
}

/** How many slots a branch fills in a union: its columns and the sort keys they do not hold. */
export function unionWidth(s: PopulateSelect): number {
  return s.columns.length + sortKeysOf(s).filter((k) => k < 0).length;
}

/**
 * What a statement more costs, as NULLs padded into a union's rows per branch: bun:sqlite
 * pays ~7.5 ns for a NULL slot in a row, and a branch finds ~25 rows for a page of 25; a
 * statement's lookup, binding and steps cost ~3-8 µs. Measured on the bench's `populate=*`
 * (one union 220 µs, two 193 µs, three 199 µs): two statements, not three.
 */
const STATEMENT_SLOTS = 40;

/**
 * A level's reads grouped into unions by width (indexes into `selects`, each group in order):
 * every row of a union carries its widest branch's slots, so the bench's `populate=*` (files
 * and articles 17-22 slots wide beside components and small targets 3-11 wide) padded each
 * row to 24 keys. Groups of branches close in width, cut where the padding they save outweighs
 * the statement they add (STATEMENT_SLOTS), the branches counted alike whatever rows they find.
 */
export function unionGroups(selects: PopulateSelect[]): number[][] {
  const widths = selects.map(unionWidth);
  const order = selects.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const n = order.length;
  // best[i]: the cost of grouping the i narrowest; from[i]: where its last group starts.
  const best = [0];
  const from = [0];
  for (let i = 1; i <= n; i++) {
    best[i] = Infinity;
    for (let j = 0; j < i; j++) {
      const width = widths[order[i - 1]!]!;
      let padding = 0;
      for (let k = j; k < i; k++) padding += width - widths[order[k]!]!;
      const cost = best[j]! + STATEMENT_SLOTS + padding;
      if (cost < best[i]!) {
        best[i] = cost;
        from[i] = j;
      }
    }
  }
  const groups: number[][] = [];
  for (let i = n; i > 0; i = from[i]!) groups.unshift(order.slice(from[i]!, i).sort((a, b) => a - b));
  return groups;
}

/** A union of reads and, per branch, the keys of its rows' sort keys (for orderUnionRows). */
export interface Union {
  statement: Sql;
  keys: string[][];
}

/**
 * Several populate reads as one statement (SQLite: its columns take any type row by row, so
 * the branches share slots `c0…cn`, padded with NULL; PostgreSQL would need every slot typed
 * alike across branches). Each row says its branch (`__b`) and carries its sort keys: a
 * stored order's own keys (ascending), read from the slots that hold them or from slots
 * `__o0…` of their own, or for a client's sort, whose directions vary, ROW_NUMBER() over it.
 * The caller puts each branch in order by them (orderUnionRows): an ORDER BY over the whole
 * union made SQLite sort every wide row and cost more than the separate statements it replaces.
 */
export function unionStatement(selects: PopulateSelect[]): Union {
  const sortKeys = selects.map(sortKeysOf);
  const width = Math.max(...selects.map((s) => s.columns.length));
  const extra = Math.max(...sortKeys.map((ks) => ks.filter((k) => k < 0).length));
  const keys: string[][] = [];
  const branches = selects.map((s, b) => {
    const slots: string[] = [];
    const own: string[] = [];
    const names: string[] = [];
    // A client's sort may hold values (a component's owner type): it stays a fragment.
    const numbered = s.keys ? sql.empty : sql`ROW_NUMBER() OVER (ORDER BY ${s.order}) AS __o0, `;
    sortKeys[b]!.forEach((k, i) => {
      if (k >= 0) return names.push(slotName(k));
      names.push(`__o${own.length}`);
      own.push(s.keys ? textOf(s.keys[i]!) : '');
    });
    keys.push(names);
    for (let k = s.keys ? 0 : 1; k < extra; k++) slots.push(`${own[k] ?? 'NULL'} AS __o${k}`);
    for (let k = 0; k < width; k++) slots.push(`${s.columns[k] ? textOf(s.columns[k]![1]) : 'NULL'} AS ${slotName(k)}`);
    return sql`SELECT ${sql.raw(`${b} AS __b, `)}${numbered}${sql.raw(slots.join(', '))} FROM ${s.body}`;
  });
  return { statement: sql.join(branches, ' UNION ALL '), keys };
}

/**
 * The text of a selected expression (columns, casts, a client's ORDER BY without values):
 * a union spells hundreds of them, and joining texts costs far less than compiling as many
 * fragments. Kept per fragment: a reader's columns live as long as their model.
 */
const texts = new WeakMap<Sql, string>();
function textOf(expr: Sql): string {
  let text = texts.get(expr);
  if (text === undefined) {
    const compiled = expr.compile('question');
    // Only value-free expressions may become text; none of a populate read's columns has a value.
    if (compiled.params.length > 0) throw new Error('a union column carries a bound value');
    texts.set(expr, (text = compiled.text));
  }
  return text;
}

/** SQLite's order of the sort keys a union selects: NULL, then numbers, then text (BINARY: code units, the keys are ASCII). */
function compareKey(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return (a as string) < (b as string) ? -1 : 1;
}

/**
 * The rows of a unionStatement, per branch, each in its own order by its sort keys (`keys`,
 * per branch, as unionStatement names them; a stable sort: ties stay as read). Rows already in
 * order (an index read in its own order usually is) are left as they are.
 */
export function orderUnionRows<R extends Record<string, unknown>>(rows: R[], keys: readonly (readonly string[])[]): R[][] {
  const out: R[][] = Array.from({ length: keys.length }, () => []);
  for (const row of rows) out[row.__b as number]!.push(row);
  out.forEach((list, b) => {
    const names = keys[b]!;
    const compare = (x: R, y: R) => {
      for (const key of names) {
        const c = compareKey(x[key], y[key]);
        if (c !== 0) return c;
      }
      return 0;
    };
    for (let i = 1; i < list.length; i++) {
      if (compare(list[i - 1]!, list[i]!) > 0) {
        list.sort(compare);
        break;
      }
    }
  });
  return out;
}

/** Targets of an owning relation for parent rows `ids` (links name documents; the reader's version is picked here). */
export function owningRelationStatement(
  dialect: Dialect,
  registry: Registry,
  attribute: RelationAttribute,
  ids: number[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  return linkedTargetsStatement(dialect, registry, attribute.targetType, linkTableOf(attribute), ids, spec, scope);
}

/**
 * Targets of one type that a polymorphic (morphTo) attribute of parent rows `ids` links to,
 * each with its place in its parent's list (`__order`), so several types' rows interleave.
 */
export function morphTargetsStatement(
  dialect: Dialect,
  registry: Registry,
  attribute: MorphAttribute,
  target: ContentType,
  ids: number[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  return linkedTargetsStatement(dialect, registry, target, linkTableOf(attribute), ids, spec, scope, {
    select: [['__order', column('l', M.position)]],
    where: sql`${column('l', M.targetType)} = ${schemaName(target.uid)}`,
    // Strapi's morph links name one row and its populate shows that row to every reader (a
    // draft comment's mention of a published tag, a pin's item that is a draft).
    anyReader: true,
  });
}

/** The target types a polymorphic attribute of parent rows `ids` links to. */
export function morphTypesStatement(attribute: MorphAttribute, ids: number[]): Sql {
  return sql`SELECT DISTINCT ${sql.id(M.targetType)} AS t FROM ${linkTableOf(attribute)} WHERE ${sql.id(M.sourceId)} IN (${sql.list(ids)})`;
}

/** Target versions reached through the link rows of `links` (relation and polymorphic link tables share these columns). */
function linkedTargetsStatement(
  dialect: Dialect,
  registry: Registry,
  target: ContentType,
  links: Sql,
  ids: number[],
  spec: PopulateSpec,
  scope: VersionScope,
  extra: { select?: [string, Sql][]; where?: Sql; anyReader?: boolean } = {},
): PopulateRead {
  const reader = rowReader(target, spec.fields, 't');
  const sorted = !!spec.sort?.length;
  return read(
    {
      columns: extra.select
        ? [['__parent', column('l', L.sourceId)], ...extra.select, ...reader.parts]
        : columnsOf('linked', reader, () => [['__parent', column('l', L.sourceId)]]),
      get body() {
        const filters = spec.filters ? whereSql(dialect, registry, target, spec.filters, scope) : sql.empty;
        return sql`${links} l
      JOIN ${tableOf(target)} t ON ${linkedVersion(target, scope.status, 'l', 't', !extra.anyReader)}${where([sql`${column('l', L.sourceId)} IN (${parentList(ids)})`, extra.where ?? sql.empty, filters])}`;
      },
      get order() {
        return sql`${column('l', L.sourceId)}, ${sorted ? orderBy(target, spec.sort!, scope) : column('l', L.position)}`;
      },
      get keys() {
        return sorted ? undefined : [column('l', L.sourceId), column('l', L.position)];
      },
    },
    reader,
  );
}

/**
 * Sources of an inverse relation: the links belong to the target's rows and point at these
 * documents, in each parent version's locale (a list over every locale holds several).
 */
export function inverseRelationStatement(
  dialect: Dialect,
  registry: Registry,
  parent: ContentType,
  attribute: RelationAttribute,
  documentIds: string[],
  locales: string[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  const target = attribute.targetType;
  return linkingSourcesStatement(dialect, registry, parent, target, linkTableOf(attribute), documentIds, locales, spec, scope, {
    order: column('l', L.inversePosition),
  });
}

/** Sources of a morphOne / morphMany side: rows of its target whose morphTo links name these documents of `parent`. */
export function morphSourcesStatement(
  dialect: Dialect,
  registry: Registry,
  parent: ContentType,
  attribute: MorphAttribute,
  documentIds: string[],
  locales: string[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  const target = attribute.targetType!;
  // No inverse order is kept for polymorphic links: the sources come in the order they linked.
  return linkingSourcesStatement(dialect, registry, parent, target, linkTableOf(attribute), documentIds, locales, spec, scope, {
    order: column('l', M.id),
    where: sql`${column('l', M.targetType)} = ${schemaName(parent.uid)}`,
  });
}

function linkingSourcesStatement(
  dialect: Dialect,
  registry: Registry,
  parent: ContentType,
  target: ContentType,
  links: Sql,
  documentIds: string[],
  locales: string[],
  spec: PopulateSpec,
  scope: VersionScope,
  extra: { order: Sql; where?: Sql },
): PopulateRead {
  const reader = rowReader(target, spec.fields, 't');
  // A link pinned to one status of a parent without draft & publish is read by that status only.
  const pinned = target.draftAndPublish || !parent.draftAndPublish ? sql.empty : sql`${column('l', L.targetStatus)} IN ('', ${scope.status})`;
  const sorted = !!spec.sort?.length;
  return read(
    {
      columns: columnsOf('linking', reader, () => [
        ['__parent', column('l', L.targetDocumentId)],
        ['__locale', column('l', L.targetLocale)],
      ]),
      get body() {
        const conditions = [
          sql`${column('l', L.targetDocumentId)} IN (${parentList(documentIds)})`,
          sql`${column('l', L.targetLocale)} IN (${sql.list(locales)})`,
          extra.where ?? sql.empty,
          pinned,
          inverseSourceScope(parent, target, scope, 't'),
          spec.filters ? whereSql(dialect, registry, target, spec.filters, scope) : sql.empty,
        ];
        return sql`${links} l
      JOIN ${tableOf(target)} t ON ${column('t', V.id)} = ${column('l', L.sourceId)}${where(conditions)}`;
      },
      get order() {
        return sorted ? orderBy(target, spec.sort!, scope) : extra.order;
      },
      get keys() {
        return sorted ? undefined : [extra.order];
      },
    },
    reader,
  );
}

/** The locale of each of these rows (a list over every locale whose `fields` left `locale` out). */
export function rowLocalesStatement(ct: ContentType, ids: number[]): Sql {
  return sql`SELECT ${sql.id(V.id)}, ${sql.id(V.locale)} FROM ${tableOf(ct)} WHERE ${sql.id(V.id)} IN (${sql.list(ids)})`;
}

/**
 * Rows of one component held by `field` of these owner rows, in their stored order, or in
 * `sort` (`populate[<repeatable component>][sort]`) with the stored order breaking ties;
 * only those matching `filters` when given (GraphQL's `links(filters: …)`).
 */
export function componentStatement(
  dialect: Dialect,
  registry: Registry,
  owner: AnyModel,
  field: string,
  component: Component,
  ids: number[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  const reader = rowReader(component, spec.fields, 't');
  const sorted = !!spec.sort?.length;
  return read(
    {
      columns: columnsOf('component', reader, () => [
        ['__parent', column('t', O.id)],
        ['__order', column('t', O.order)],
      ]),
      get body() {
        const filters = andAlso(spec.filters && whereSql(dialect, registry, component, spec.filters, scope));
        return sql`${tableOf(component)} t
      WHERE ${column('t', O.type)} = ${schemaName(owner.uid)} AND ${column('t', O.field)} = ${schemaName(field)} AND ${column('t', O.id)} IN (${parentList(ids)})${filters}`;
      },
      get order() {
        const order = sorted ? sql`${orderBy(component, spec.sort!, scope)}, ${column('t', O.order)}` : column('t', O.order);
        return sql`${column('t', O.id)}, ${order}`;
      },
      get keys() {
        return sorted ? undefined : [column('t', O.id), column('t', O.order)];
      },
    },
    reader,
  );
}

/**
 * Files of one media field of these owner rows, in order (or in `filter.spec.sort`, the stored
 * order breaking ties); `columns` of the file table; only those matching `filter.spec.filters`
 * when given (`populate[gallery][filters]`, GraphQL's `gallery(filters: …)`).
 */
export function mediaSelect(
  owner: AnyModel,
  field: string,
  ids: number[],
  columns: readonly string[],
  filter?: { dialect: Dialect; registry: Registry; file: ContentType; spec: PopulateSpec; scope: VersionScope },
): PopulateSelect {
  const sorted = !!filter?.spec.sort?.length;
  let kept = mediaColumns.get(columns);
  if (!kept) mediaColumns.set(columns, (kept = [['__parent', column('r', MEDIA_LINKS.relatedId)], ...columns.map((c): [string, Sql] => [c, column('f', c)])]));
  return {
    columns: kept,
    get body() {
      const filters = andAlso(filter?.spec.filters && whereSql(filter.dialect, filter.registry, filter.file, filter.spec.filters, filter.scope, 'f'));
      return sql`${sql.id(MEDIA_LINKS.table)} r
      JOIN ${sql.id(FILES_TABLE)} f ON ${column('f', 'id')} = ${column('r', MEDIA_LINKS.fileId)}
      WHERE ${column('r', MEDIA_LINKS.relatedType)} = ${schemaName(owner.uid)} AND ${column('r', MEDIA_LINKS.field)} = ${schemaName(field)} AND ${column('r', MEDIA_LINKS.relatedId)} IN (${parentList(ids)})${filters}`;
    },
    get order() {
      return sorted
        ? sql`${column('r', MEDIA_LINKS.relatedId)}, ${orderBy(filter!.file, filter!.spec.sort!, filter!.scope, 'f')}, ${column('r', MEDIA_LINKS.position)}`
        : sql`${column('r', MEDIA_LINKS.relatedId)}, ${column('r', MEDIA_LINKS.position)}`;
    },
    get keys() {
      return sorted ? undefined : [column('r', MEDIA_LINKS.relatedId), column('r', MEDIA_LINKS.position)];
    },
  };
}

export const mediaStatement = (owner: AnyModel, field: string, ids: number[], columns: readonly string[]): Sql =>
  selectStatement(mediaSelect(owner, field, ids, columns));

/**
 * The other locales' versions of these documents, in the reader's status. With one version
 * per document on the page (the usual case) the page's own rows are left out in SQL rather
 * than read back only to be dropped; a list over every locale needs them as each other's.
 */
export function localizationsStatement(
  dialect: Dialect,
  registry: Registry,
  ct: ContentType,
  documentIds: string[],
  excludeIds: number[],
  spec: PopulateSpec,
  scope: VersionScope,
): PopulateRead {
  const reader = rowReader(ct, spec.fields, 't');
  const sorted = !!spec.sort?.length;
  return read(
    {
      columns: columnsOf('localizations', reader, () => [['__parent', column('t', V.documentId)]]),
      get body() {
        const conditions = [
          sql`${column('t', V.documentId)} IN (${parentList(documentIds)})`,
          excludeIds.length ? sql`${column('t', V.id)} NOT IN (${parentList(excludeIds)})` : sql.empty,
          statusCondition(ct, scope.status, 't'),
          // GraphQL's `localizations(filters: …, sort: …)`.
          spec.filters ? whereSql(dialect, registry, ct, spec.filters, { status: scope.status, locale: '*' }) : sql.empty,
        ];
        return sql`${tableOf(ct)} t${where(conditions)}`;
      },
      get order() {
        return sorted ? sql`${orderBy(ct, spec.sort!, { status: scope.status, locale: '*' })}, ${column('t', V.id)}` : column('t', V.id);
      },
      get keys() {
        return sorted ? undefined : [column('t', V.id)];
      },
    },
    reader,
  );
}
