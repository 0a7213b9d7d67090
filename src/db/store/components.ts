/**
 * Component rows: each row of a component's table names its owner (a version row or a
 * parent component row: the owner's uid, id and field) and its place in that field.
 * The rules (replacing a field's value, copying trees) live in documents/components/rows.ts.
 */
import type { AnyModel, Component, ContentType, RelationAttribute, Registry } from '../../registry/types';
import type { Queryable } from '../database';
import { COMPONENT_ID as ROW_ID, COMPONENT_OWNER as O, LINK, linkTableOf, MEDIA_LINKS, tableOf, VERSION as V } from '../layout';
import { sql, type Sql } from '../sql';
import { columnTail, exactColumnTail, insertRow, scalarValues } from './columns';
import { statusIs, type VersionStatus } from './versions';

const id = (name: string) => sql.id(name);
/** The owner columns a copied row is written with, in order. */
const OWNER_COLUMNS = sql.join([O.type, O.id, O.field, O.order].map(id));

/** Where a component row sits: its owner row's type and id, the owner's field, the place in it. */
export interface ComponentOwner {
  type: string;
  id: number;
  field: string;
  order: number;
}

/** Inserts a component row with its attribute values (JSON form); returns its id. */
export function insertComponent(tx: Queryable, component: Component, owner: ComponentOwner, values: Record<string, unknown>): Promise<number> {
  return insertRow(
    tx,
    component,
    [
      [O.type, owner.type],
      [O.id, owner.id],
      [O.field, owner.field],
      [O.order, owner.order],
    ],
    values,
  );
}

const ownedBy = (ownerType: string, field: string, ownerIds: number[]): Sql =>
  sql`${id(O.type)} = ${ownerType} AND ${id(O.field)} = ${field} AND ${id(O.id)} IN (${sql.list(ownerIds)})`;

/** Which component table holds rows for which field of an owner (a dynamic zone has several). */
export interface ComponentSource {
  component: Component;
  field: string;
}

/** Bound values per statement, well under both engines' limits (SQLite 32,766, PostgreSQL 65,535). */
const PARAMETERS_PER_STATEMENT = 10_000;
/** SQLite caps a compound SELECT at 500 terms. */
const SOURCES_PER_STATEMENT = 100;

type OwnedRow = { s: number; i: number; p: number; o: number };

/** What the owner rows hold: component rows per source, and which rows hold media links. */
export interface OwnedParts {
  /** Ids of the component rows of each source, in owner and field order. */
  rows: number[][];
  /** The owner row of each of those rows (same shape as `rows`). */
  owners: number[][];
  /** Per relation attribute asked (`links`), the owner rows holding links of it. */
  linked: Set<number>[];
  /** Owner rows holding media links (asked with `ownerMedia`). */
  ownerMedia: Set<number>;
  /** Per source, its rows holding media links (asked for sources whose component has media fields). */
  componentMedia: Set<number>[];
}

const MEDIA = sql.id(MEDIA_LINKS.table);

/** `relatedType = … AND relatedId IN (…)`: the media links of some rows of one model. */
const mediaOf = (relatedType: string, rowIds: Sql) => sql`${id(MEDIA_LINKS.relatedType)} = ${relatedType} AND ${id(MEDIA_LINKS.relatedId)} IN (${rowIds})`;

/**
 * The rows several component fields of some owner rows hold, in one statement (UNION ALL over
 * the component tables) instead of one per table, and in the same statement which of the
 * owners (`ownerMedia`) and which component rows (sources in `withMedia`) hold media links, so
 * callers copy or delete only what exists. Many owners or terms are asked in chunks that keep
 * the bound values within both engines' limits.
 */
export async function ownedParts(
  tx: Queryable,
  ownerType: string,
  ownerIds: number[],
  sources: readonly ComponentSource[],
  media: { ownerMedia?: boolean; withMedia?: (source: ComponentSource) => boolean } = {},
  /** Owning-side relations whose link tables are asked which owners hold links (a copy skips the empty ones). */
  links: readonly RelationAttribute[] = [],
): Promise<OwnedParts> {
  const n = sources.length;
  // Terms by their index s: 0..n-1 component rows, n the owners' media links, n+1+k source k's media links.
  const terms: { s: number; select: (owners: number[]) => Sql }[] = sources.map(({ component, field }, k) => ({
    s: k,
    select: (owners) =>
      sql`SELECT ${sql.raw(String(k))} AS s, ${id(ROW_ID)} AS i, ${id(O.id)} AS p, ${id(O.order)} AS o FROM ${tableOf(component)} WHERE ${ownedBy(ownerType, field, owners)}`,
  }));
  const link = (s: number, where: Sql) =>
    sql`SELECT ${sql.raw(String(s))} AS s, ${id(MEDIA_LINKS.relatedId)} AS i, 0 AS p, 0 AS o FROM ${MEDIA} WHERE ${where}`;
  if (media.ownerMedia) terms.push({ s: n, select: (owners) => link(n, mediaOf(ownerType, sql.list(owners))) });
  sources.forEach((source, k) => {
    if (!media.withMedia?.(source)) return;
    const rowsOf = (owners: number[]) => sql`SELECT ${id(ROW_ID)} FROM ${tableOf(source.component)} WHERE ${ownedBy(ownerType, source.field, owners)}`;
    terms.push({ s: n + 1 + k, select: (owners) => link(n + 1 + k, mediaOf(source.component.uid, rowsOf(owners))) });
  });
  // After every media term: s = 2n + 1 + k for relation k, one row per owner holding its links (the source index answers).
  const linkBase = 2 * n + 1;
  const sourceId = id(LINK.sourceId);
  links.forEach((attribute, k) => {
    const s = sql.raw(String(linkBase + k));
    terms.push({
      s: linkBase + k,
      select: (owners) =>
        sql`SELECT ${s} AS s, ${sourceId} AS i, 0 AS p, 0 AS o FROM ${linkTableOf(attribute)} WHERE ${sourceId} IN (${sql.list(owners)}) GROUP BY ${sourceId}`,
    });
  });
  const rows: OwnedRow[] = [];
  const idsPerStatement = PARAMETERS_PER_STATEMENT / 2;
  for (let first = 0; first < ownerIds.length; first += idsPerStatement) {
    const owners = ownerIds.slice(first, first + idsPerStatement);
    const perStatement = Math.max(1, Math.min(SOURCES_PER_STATEMENT, Math.floor(PARAMETERS_PER_STATEMENT / (owners.length + 3))));
    for (let start = 0; start < terms.length; start += perStatement) {
      const selects = terms.slice(start, start + perStatement).map((term) => term.select(owners));
      for (const row of await tx.all<OwnedRow>(sql.join(selects, ' UNION ALL '))) rows.push(row);
    }
  }
  // Ordered here, not by the statement: an ORDER BY over a compound SELECT costs SQLite a
  // temporary b-tree per term, ten times the read itself.
  rows.sort((a, b) => Number(a.s) - Number(b.s) || Number(a.p) - Number(b.p) || Number(a.o) - Number(b.o));
  const parts: OwnedParts = {
    rows: sources.map(() => []),
    owners: sources.map(() => []),
    linked: links.map(() => new Set()),
    ownerMedia: new Set(),
    componentMedia: sources.map(() => new Set()),
  };
  for (const row of rows) {
    const s = Number(row.s);
    if (s < n) {
      parts.rows[s]!.push(Number(row.i));
      parts.owners[s]!.push(Number(row.p));
    } else if (s >= linkBase) parts.linked[s - linkBase]!.add(Number(row.i));
    else if (s === n) parts.ownerMedia.add(Number(row.i));
    else parts.componentMedia[s - n - 1]!.add(Number(row.i));
  }
  return parts;
}

/** The rows one field of some owners holds, with their attribute values in JSON form (exact: big integers too), in owner and field order. */
export async function componentValues(
  tx: Queryable,
  component: Component,
  ownerType: string,
  ownerIds: number[],
  field: string,
): Promise<{ id: number; ownerId: number; order: number; values: Record<string, unknown> }[]> {
  if (ownerIds.length === 0) return [];
  const rows = await tx.all<Record<string, unknown>>(
    sql`SELECT ${id(ROW_ID)}, ${id(O.id)}, ${id(O.order)}${exactColumnTail(component, tx.dialect.name)} FROM ${tableOf(component)} WHERE ${ownedBy(ownerType, field, ownerIds)} ORDER BY ${id(O.id)}, ${id(O.order)}`,
  );
  return rows.map((row) => ({ id: Number(row[ROW_ID]), ownerId: Number(row[O.id]), order: Number(row[O.order]), values: scalarValues(component, row) }));
}

/** Deletes component rows by id (their own columns only). */
export async function deleteComponentRows(tx: Queryable, component: Component, rowIds: number[]): Promise<void> {
  if (rowIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${tableOf(component)} WHERE ${id(ROW_ID)} IN (${sql.list(rowIds)})`);
}

/**
 * Copies every row of one component a field of one owner holds to another owner, in one
 * statement (same places, kept in `__order`, which readers sort by): for components that own
 * nothing else, so no new id is needed.
 */
export async function copyComponentRows(
  tx: Queryable,
  component: Component,
  ownerType: string,
  field: string,
  fromId: number,
  toOwnerId: number,
): Promise<void> {
  const columns = columnTail(component, tx.dialect.name);
  await tx.run(
    sql`INSERT INTO ${tableOf(component)} (${OWNER_COLUMNS}${columns}) SELECT ${id(O.type)}, ${toOwnerId}, ${id(O.field)}, ${id(O.order)}${columns} FROM ${tableOf(component)} WHERE ${ownedBy(ownerType, field, [fromId])}`,
  );
}

/** Copies one component row's own columns to a new row of another owner (same type, field and place). */
export function copyComponentRow(tx: Queryable, component: Component, rowId: number, toOwnerId: number): Promise<number> {
  const columns = columnTail(component, tx.dialect.name);
  return tx.insert(
    sql`INSERT INTO ${tableOf(component)} (${OWNER_COLUMNS}${columns}) SELECT ${id(O.type)}, ${toOwnerId}, ${id(O.field)}, ${id(O.order)}${columns} FROM ${tableOf(component)} WHERE ${id(ROW_ID)} = ${rowId}`,
  );
}

/**
 * A subquery of the ids of `model`'s rows that belong to the versions of one status of `root`:
 * those versions themselves, or, for a component, the rows they own at any depth (through
 * component attributes and dynamic zones). Undefined when no row of `model` can belong to them.
 */
export function rowsUnder(
  registry: Registry,
  root: ContentType,
  status: VersionStatus,
  model: AnyModel,
  seen: ReadonlySet<string> = new Set(),
): Sql | undefined {
  if (model === root) return sql`SELECT ${id(V.id)} FROM ${tableOf(root)} WHERE ${statusIs(status)}`;
  if (model.modelType !== 'component' || seen.has(model.uid)) return undefined;
  const next = new Set(seen).add(model.uid);
  const owners: Sql[] = [];
  for (const owner of [root, ...registry.components]) {
    const holds = Object.values(owner.attributes).some(
      (a) => (a.kind === 'component' && a.component === model.uid) || (a.kind === 'dynamiczone' && a.components.includes(model.uid)),
    );
    const rows = holds ? rowsUnder(registry, root, status, owner, next) : undefined;
    if (rows) owners.push(sql`(${id(O.type)} = ${owner.uid} AND ${id(O.id)} IN (${rows}))`);
  }
  return owners.length ? sql`SELECT ${id(ROW_ID)} FROM ${tableOf(model)} WHERE ${sql.or(owners)}` : undefined;
}
