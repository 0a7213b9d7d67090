/**
 * The one path resolver: how to reach, from rows of a model, the rows one attribute leads
 * to — the target versions of a relation (owning or inverse side), the rows of a component
 * (nested too) or of a dynamic zone's components. Filters wrap a hop in EXISTS, sort in a
 * scalar subquery, populate in a batched `IN (…)` query; all three get the same joins here.
 */
import { COMPONENT_OWNER as O, LINK as L, VERSION as V, column, linkTableOf, tableOf } from '../db/layout';
import { sql, type Sql } from '../db/sql';
import type { AnyModel, Component, ContentType, RelationAttribute } from '../registry/types';
import type { Status } from './types';

/** Which versions a reader sees: its status and locale ('*' = every locale). */
export interface VersionScope {
  status: Status;
  locale: string;
}

/** Rows of a status: drafts have no publishedAt. Types without draft & publish have only published rows. */
export function statusCondition(ct: ContentType, status: Status, alias: string): Sql {
  if (!ct.draftAndPublish) return sql.empty;
  return status === 'draft' ? sql`${column(alias, V.publishedAt)} IS NULL` : sql`${column(alias, V.publishedAt)} IS NOT NULL`;
}

/** Rows of a locale ('*' = all). Types without i18n ignore the locale. */
export function localeCondition(ct: ContentType, locale: string, alias: string): Sql {
  if (!ct.localized || locale === '*') return sql.empty;
  return sql`${column(alias, V.locale)} = ${locale}`;
}

/** The versions a reader of `scope` sees among rows aliased `alias`. */
export function versionScope(ct: ContentType, scope: VersionScope, alias: string): Sql {
  return sql.and([statusCondition(ct, scope.status, alias), localeCondition(ct, scope.locale, alias)]);
}

/**
 * The versions of an inverse side's sources (the rows holding the links) a reader sees: its
 * status, and its locale only when the parent is localized too. The links of a parent
 * without i18n come from every locale of their sources (a tag linked from an article's `en`
 * and `fr` versions lists both, each with its own locale); a localized parent's links
 * already name its locale.
 */
export function inverseSourceScope(parent: ContentType, source: ContentType, scope: VersionScope, alias: string): Sql {
  return sql.and([statusCondition(source, scope.status, alias), parent.localized ? localeCondition(source, scope.locale, alias) : sql.empty]);
}

/**
 * Joins a link row `l` to the target version `t` a reader of `status` should see: links
 * name documents, so the version is picked here, at read time. A pinned link (`targetStatus`
 * 'draft' / 'published', Strapi's link to that one row) reaches that version; `readerOnly`
 * (what populate shows) keeps it for readers of that status only, as Strapi shows a link to
 * a draft row to draft readers alone. Filters and sorts go through a pinned link whatever
 * the reader's status, as Strapi's joins do.
 */
export function linkedVersion(target: ContentType, status: Status, l: string, t: string, readerOnly = false): Sql {
  const same = sql`${column(t, V.documentId)} = ${column(l, L.targetDocumentId)} AND ${column(t, V.locale)} = ${column(l, L.targetLocale)}`;
  if (!target.draftAndPublish) return same;
  const draft = sql`${column(t, V.publishedAt)} IS NULL`;
  const published = sql`${column(t, V.publishedAt)} IS NOT NULL`;
  const pin = column(l, L.targetStatus);
  if (readerOnly) return sql`${same} AND ${pin} IN ('', ${status}) AND ${status === 'draft' ? draft : published}`;
  return sql`${same} AND ((${pin} = '' AND ${status === 'draft' ? draft : published}) OR (${pin} = 'draft' AND ${draft}) OR (${pin} = 'published' AND ${published}))`;
}

/**
 * One step from a parent row to the rows an attribute leads to. `from` and `where` select
 * the reachable rows (aliased `inner`); `parentKeys` are the columns of those rows that
 * name their parent, to be matched with `parentValues(outer)` of a parent aliased `outer`
 * (correlated subqueries) or with lists of parent values (batched populate).
 */
export interface Hop {
  to: AnyModel;
  from: Sql;
  where: Sql;
  parentKeys: Sql[];
  parentValues(outer: string): Sql[];
  /** The reachable rows in their stored order (the first is "the" value of a to-one path). */
  order: Sql;
}

/** The condition tying a hop's rows to a parent row aliased `outer`. */
export function correlate(hop: Hop, outer: string): Sql {
  const values = hop.parentValues(outer);
  return sql.and([hop.where, ...hop.parentKeys.map((key, i) => sql`${key} = ${values[i]!}`)]);
}

/** Rows of one component reachable from a parent's field. */
export function componentHop(owner: AnyModel, field: string, component: Component, inner: string): Hop {
  return {
    to: component,
    from: sql`${tableOf(component)} ${sql.id(inner)}`,
    where: sql`${column(inner, O.type)} = ${owner.uid} AND ${column(inner, O.field)} = ${field}`,
    parentKeys: [column(inner, O.id)],
    parentValues: (outer) => [column(outer, V.id)],
    order: column(inner, O.order),
  };
}

/**
 * Target versions of a relation. Owning side: the parent's link rows name the targets.
 * Inverse side: the targets' link rows name the parent document in the parent's locale,
 * and the targets are filtered to the reader's status and locale.
 */
export function relationHop(owner: AnyModel, attribute: RelationAttribute, scope: VersionScope, inner: string): Hop {
  const target = attribute.targetType;
  const link = `${inner}l`;
  const links = sql`${linkTableOf(attribute)} ${sql.id(link)}`;
  if (attribute.owner) {
    return {
      to: target,
      from: sql`${links} JOIN ${tableOf(target)} ${sql.id(inner)} ON ${linkedVersion(target, scope.status, link, inner)}`,
      where: sql.empty,
      parentKeys: [column(link, L.sourceId)],
      parentValues: (outer) => [column(outer, V.id)],
      order: column(link, L.position),
    };
  }
  const parent = owner as ContentType;
  return {
    to: target,
    from: sql`${links} JOIN ${tableOf(target)} ${sql.id(inner)} ON ${column(inner, V.id)} = ${column(link, L.sourceId)}`,
    where: inverseSourceScope(parent, target, scope, inner),
    parentKeys: [column(link, L.targetDocumentId), column(link, L.targetLocale)],
    parentValues: (outer) => [column(outer, V.documentId), parent.localized ? column(outer, V.locale) : sql`''`],
    order: column(link, L.inversePosition),
  };
}

/**
 * Every version of the parent's document, itself included, in any status and locale: what
 * Strapi's `localizations` relation reaches in filters (it joins on the documentId).
 */
export function localizationsHop(ct: ContentType, inner: string): Hop {
  return {
    to: ct,
    from: sql`${tableOf(ct)} ${sql.id(inner)}`,
    where: sql.empty,
    parentKeys: [column(inner, V.documentId)],
    parentValues: (outer) => [column(outer, V.documentId)],
    order: column(inner, V.id),
  };
}

/** The hop through a relation, a (single or repeatable) component attribute or `localizations`; undefined for anything else. */
export function hopThrough(owner: AnyModel, name: string, scope: VersionScope, inner: string): Hop | undefined {
  const attribute = owner.attributes[name];
  if (attribute?.kind === 'relation') return relationHop(owner, attribute, scope, inner);
  if (attribute?.kind === 'component') return componentHop(owner, name, attribute.componentModel, inner);
  if (!attribute && name === 'localizations' && owner.modelType === 'contentType' && owner.localized) return localizationsHop(owner, inner);
  return undefined;
}
