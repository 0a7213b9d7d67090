/**
 * The statements of populate: for a page of parent rows, one query per attribute and level
 * that reads every related row at once (`… IN (parents)`), never one per row. Each row
 * comes back with `__parent` (and `__locale` / `__order` where needed) naming its parent;
 * documents/populate.ts runs these, groups the rows and attaches them.
 */
import type { Dialect } from '../db/dialect';
import { COMPONENT_OWNER as O, FILES_TABLE, LINK as L, MEDIA_LINKS, MORPH_LINK as M, VERSION as V, column, linkTableOf, tableOf } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { AnyModel, Component, ContentType, MorphAttribute, Registry, RelationAttribute } from '../registry/types';
import { orderBy, rowReader, whereSql, type RowReader } from './compile';
import { inverseSourceScope, linkedVersion, statusCondition, type VersionScope } from './resolve';
import type { PopulateSpec } from './types';

/**
 * The statements of populate: for a page of parent rows, one query per attribute and level
 * that reads every related row at once (`… IN (parents)`), never one per row. Each row
 * comes back with `__parent` (and `__locale` / `__order` where needed) naming its parent;
 * documents/populate.ts runs these, groups the rows and attaches them.
 */

const where = (parts: Sql[]) => {
  const all = sql.and(parts);
  return all.isEmpty ? sql.empty : sql` WHERE ${all}`;
};

/** Targets of an owning relation for parent rows `ids` (links name documents; the reader's version is picked here). */
export function owningRelationStatement(
  dialect: Dialect, registry: Registry, attribute: RelationAttribute, ids: number[], spec: PopulateSpec, scope: VersionScope,
): { statement: Sql; reader: RowReader } {
  return linkedTargetsStatement(dialect, registry, registry.contentType(attribute.target)!, linkTableOf(attribute), ids, spec, scope);
}

/**
 * Targets of one type that a polymorphic (morphTo) attribute of parent rows `ids` links to,
 * each with its place in its parent's list (`__order`), so several types' rows interleave.
 */
export function morphTargetsStatement(
  dialect: Dialect, registry: Registry, attribute: MorphAttribute, target: ContentType, ids: number[], spec: PopulateSpec, scope: VersionScope,
): { statement: Sql; reader: RowReader } {
  return linkedTargetsStatement(dialect, registry, target, linkTableOf(attribute), ids, spec, scope, {
    select: sql`${column('l', M.position)} AS __order, `,
    where: sql`${column('l', M.targetType)} = ${target.uid}`,
  });
}

/** The target types a polymorphic attribute of parent rows `ids` links to. */
export function morphTypesStatement(attribute: MorphAttribute, ids: number[]): Sql {
  return sql`SELECT DISTINCT ${sql.id(M.targetType)} AS t FROM ${linkTableOf(attribute)} WHERE ${sql.id(M.sourceId)} IN (${sql.list(ids)})`;
}

/** Target versions reached through the link rows of `links` (relation and polymorphic link tables share these columns). */
function linkedTargetsStatement(
  dialect: Dialect, registry: Registry, target: ContentType, links: Sql, ids: number[], spec: PopulateSpec, scope: VersionScope,
  extra: { select?: Sql; where?: Sql } = {},
): { statement: Sql; reader: RowReader } {
  const reader = rowReader(target, spec.fields, 't');
  const order = spec.sort?.length ? orderBy(registry, target, spec.sort, scope) : column('l', L.position);
  const filters = spec.filters ? whereSql(dialect, registry, target, spec.filters, scope) : sql.empty;
  const statement = sql`SELECT ${column('l', L.sourceId)} AS __parent, ${extra.select ?? sql.empty}${reader.columns} FROM ${links} l
      JOIN ${tableOf(target)} t ON ${linkedVersion(target, scope.status, 'l', 't')}${where([sql`${column('l', L.sourceId)} IN (${sql.list(ids)})`, extra.where ?? sql.empty, filters])}
      ORDER BY ${column('l', L.sourceId)}, ${order}`;
  return { statement, reader };
}

/**
 * Sources of an inverse relation: the links belong to the target's rows and point at these
 * documents, in each parent version's locale (a list over every locale holds several).
 */
export function inverseRelationStatement(
  dialect: Dialect, registry: Registry, parent: ContentType, attribute: RelationAttribute,
  documentIds: string[], locales: string[], spec: PopulateSpec, scope: VersionScope,
): { statement: Sql; reader: RowReader } {
  const target = registry.contentType(attribute.target)!;
  return linkingSourcesStatement(dialect, registry, parent, target, linkTableOf(attribute), documentIds, locales, spec, scope, {
    order: column('l', L.inversePosition),
  });
}

/** Sources of a morphOne / morphMany side: rows of its target whose morphTo links name these documents of `parent`. */
export function morphSourcesStatement(
  dialect: Dialect, registry: Registry, parent: ContentType, attribute: MorphAttribute,
  documentIds: string[], locales: string[], spec: PopulateSpec, scope: VersionScope,
): { statement: Sql; reader: RowReader } {
  const target = registry.contentType(attribute.target!)!;
  // No inverse order is kept for polymorphic links: the sources come in the order they linked.
  return linkingSourcesStatement(dialect, registry, parent, target, linkTableOf(attribute), documentIds, locales, spec, scope, {
    order: column('l', M.id),
    where: sql`${column('l', M.targetType)} = ${parent.uid}`,
  });
}

function linkingSourcesStatement(
  dialect: Dialect, registry: Registry, parent: ContentType, target: ContentType, links: Sql,
  documentIds: string[], locales: string[], spec: PopulateSpec, scope: VersionScope, extra: { order: Sql; where?: Sql },
): { statement: Sql; reader: RowReader } {
  const reader = rowReader(target, spec.fields, 't');
  // A link pinned to one status of a parent without draft & publish is read by that status only.
  const pinned = target.draftAndPublish || !parent.draftAndPublish ? sql.empty : sql`${column('l', L.targetStatus)} IN ('', ${scope.status})`;
  const order = spec.sort?.length ? orderBy(registry, target, spec.sort, scope) : extra.order;
  const conditions = [
    sql`${column('l', L.targetDocumentId)} IN (${sql.list(documentIds)})`,
    sql`${column('l', L.targetLocale)} IN (${sql.list(locales)})`,
    extra.where ?? sql.empty,
    pinned,
    inverseSourceScope(parent, target, scope, 't'),
    spec.filters ? whereSql(dialect, registry, target, spec.filters, scope) : sql.empty,
  ];
  const statement = sql`SELECT ${column('l', L.targetDocumentId)} AS __parent, ${column('l', L.targetLocale)} AS __locale, ${reader.columns} FROM ${links} l
      JOIN ${tableOf(target)} t ON ${column('t', V.id)} = ${column('l', L.sourceId)}${where(conditions)}
      ORDER BY ${order}`;
  return { statement, reader };
}

/** The locale of each of these rows (a list over every locale whose `fields` left `locale` out). */
export function rowLocalesStatement(ct: ContentType, ids: number[]): Sql {
  return sql`SELECT ${sql.id(V.id)}, ${sql.id(V.locale)} FROM ${tableOf(ct)} WHERE ${sql.id(V.id)} IN (${sql.list(ids)})`;
}

/**
 * Rows of one component held by `field` of these owner rows, in their stored order, or in
 * `sort` (`populate[<repeatable component>][sort]`) with the stored order breaking ties.
 */
export function componentStatement(
  registry: Registry, owner: AnyModel, field: string, component: Component, ids: number[], spec: PopulateSpec, scope: VersionScope,
): { statement: Sql; reader: RowReader } {
  const reader = rowReader(component, spec.fields, 't');
  const order = spec.sort?.length ? sql`${orderBy(registry, component, spec.sort, scope)}, ${column('t', O.order)}` : column('t', O.order);
  const statement = sql`SELECT ${column('t', O.id)} AS __parent, ${column('t', O.order)} AS __order, ${reader.columns} FROM ${tableOf(component)} t
      WHERE ${column('t', O.type)} = ${owner.uid} AND ${column('t', O.field)} = ${field} AND ${column('t', O.id)} IN (${sql.list(ids)})
      ORDER BY ${column('t', O.id)}, ${order}`;
  return { statement, reader };
}

/** Files of one media field of these owner rows, in order; `columns` of the file table. */
export function mediaStatement(owner: AnyModel, field: string, ids: number[], columns: readonly string[]): Sql {
  return sql`SELECT ${column('r', MEDIA_LINKS.relatedId)} AS __parent, ${sql.join(columns.map((c) => column('f', c)))} FROM ${sql.id(MEDIA_LINKS.table)} r
      JOIN ${sql.id(FILES_TABLE)} f ON ${column('f', 'id')} = ${column('r', MEDIA_LINKS.fileId)}
      WHERE ${column('r', MEDIA_LINKS.relatedType)} = ${owner.uid} AND ${column('r', MEDIA_LINKS.field)} = ${field} AND ${column('r', MEDIA_LINKS.relatedId)} IN (${sql.list(ids)})
      ORDER BY ${column('r', MEDIA_LINKS.relatedId)}, ${column('r', MEDIA_LINKS.position)}`;
}

/**
 * The other locales' versions of these documents, in the reader's status. With one version
 * per document on the page (the usual case) the page's own rows are left out in SQL rather
 * than read back only to be dropped; a list over every locale needs them as each other's.
 */
export function localizationsStatement(ct: ContentType, documentIds: string[], excludeIds: number[], spec: PopulateSpec, scope: VersionScope): { statement: Sql; reader: RowReader } {
  const reader = rowReader(ct, spec.fields, 't');
  const conditions = [
    sql`${column('t', V.documentId)} IN (${sql.list(documentIds)})`,
    excludeIds.length ? sql`${column('t', V.id)} NOT IN (${sql.list(excludeIds)})` : sql.empty,
    statusCondition(ct, scope.status, 't'),
  ];
  const statement = sql`SELECT ${column('t', V.documentId)} AS __parent, ${reader.columns} FROM ${tableOf(ct)} t${where(conditions)} ORDER BY ${column('t', V.id)}`;
  return { statement, reader };
}
