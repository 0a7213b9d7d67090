/**
 * Content of a Strapi 5 project → Folio's rows, ids kept:
 *  - version rows (Strapi keeps one row per document, locale and draft|published, as Folio);
 *  - component rows, owned through Strapi's `<table>_cmps` join rows (entity_id, cmp_id,
 *    component_type, field, order) → Folio's owner columns on the component row itself;
 *  - relation links: Strapi links version row to version row (`<table>_<attr>_lnk`, with
 *    `<target>_ord` / `<source>_ord` order columns); Folio links a source row to a target
 *    document (documentId + locale, the status following the reader), ordered by fractional
 *    keys made in Strapi's order on both sides;
 *  - media links (`files_related_mph`), same owners and fields, positions from 0.
 * Table and column names are Strapi's, long ones shortened as Strapi does (identifiers.ts).
 * Anything that cannot be mapped is a StrapiImportError naming the table and row.
 */
import { generateNKeysBetween } from 'fractional-indexing';
import type { SqlValue } from '../../db/database';
import { COMPONENT_OWNER as O, LINK, MEDIA_LINKS as M, MORPH_LINK, VERSION as V, wholeName } from '../../db/layout';
import { FILE_UID, ROLE_UID, USER_UID } from '../../registry/system-models';
import type { AnyModel, ContentType, MorphAttribute, RelationAttribute, Registry } from '../../registry/types';
import { componentsTable, linkColumns, linkTable, MORPH_TO_ONE, morphColumns, morphTable, tableName } from './identifiers';
import { isoTime, loose, StrapiImportError, type Row, type StrapiSource } from './source';
import { attributeValues } from './values';

/** Rows for one Folio table, with where they came from and what the source held. */
export interface TableRows {
  table: string;
  /** What the progress and summary lines call it (`articles`, `articles.tags links`). */
  label: string;
  rows: Record<string, SqlValue>[];
  /** Source rows left out on purpose (with the reason in `notes`). */
  skipped: number;
  notes: string[];
}

/** Strapi's table of a relation target (Strapi's own types have their own names). */
function strapiTableOf(registry: Registry, uid: string): string {
  if (uid === USER_UID) return 'up_users';
  if (uid === ROLE_UID) return 'up_roles';
  if (uid === FILE_UID) return 'files';
  const model = registry.get(uid);
  if (!model) throw new StrapiImportError(`unknown relation target ${uid}`);
  return tableName(wholeName(model.tableName));
}

/** documentId, locale and version of every row of a target table, by row id (read once per target). */
export type Targets = Map<number, { documentId: string; locale: string; status: 'draft' | 'published' }>;

export function targetsOf(source: StrapiSource, registry: Registry, uid: string, cache: Map<string, Targets>): Targets {
  let map = cache.get(uid);
  if (map) return map;
  const table = strapiTableOf(registry, uid);
  const localized = registry.contentType(uid)?.localized ?? false;
  map = new Map();
  for (const row of source.rows(table)) {
    map.set(Number(row.id), {
      documentId: String(row.document_id),
      locale: localized ? String(row.locale ?? '') : '',
      status: row.published_at === null || row.published_at === undefined ? 'draft' : 'published',
    });
  }
  cache.set(uid, map);
  return map;
}

/** Version rows of one content type. */
export function versionRows(source: StrapiSource, ct: ContentType): TableRows {
  const rows: Record<string, SqlValue>[] = [];
  const table = tableName(wholeName(ct.tableName));
  for (const row of source.rows(table)) {
    if (!row.document_id) throw new StrapiImportError(`${table} row ${row.id}: no document_id (is this a Strapi 5 database?)`);
    const createdAt = isoTime(row.created_at) ?? new Date(0).toISOString();
    // A type without draft & publish has only published versions (Strapi sets published_at on them too).
    const publishedAt = isoTime(row.published_at) ?? (ct.draftAndPublish ? null : createdAt);
    rows.push({
      [V.id]: Number(row.id),
      [V.documentId]: String(row.document_id),
      [V.locale]: ct.localized ? String(row.locale ?? '') : '',
      [V.createdAt]: createdAt,
      [V.updatedAt]: isoTime(row.updated_at) ?? createdAt,
      [V.publishedAt]: publishedAt,
      ...attributeValues(source, table, ct, row),
    });
  }
  return { table: ct.tableName, label: ct.tableName, rows, skipped: 0, notes: [] };
}

/**
 * Component rows of every component, each with its owner taken from the owners' `_cmps`
 * join tables. A component row no owner names (Strapi leaves some behind) is skipped.
 */
export function componentRows(source: StrapiSource, registry: Registry, owners: AnyModel[]): TableRows[] {
  const ownerOf = new Map<string, Map<number, { type: string; id: number; field: string; order: number }>>();
  for (const owner of owners) {
    const join = componentsTable(wholeName(owner.tableName));
    if (!source.has(join)) continue;
    const joins = source.rows(join);
    // Dynamic zones mix component types in one order: positions count within (owner row, field).
    const byField = new Map<string, Row[]>();
    for (const j of joins) {
      const key = `${j.entity_id}\0${j.field}`;
      byField.set(key, [...(byField.get(key) ?? []), j]);
    }
    for (const list of byField.values()) {
      list.sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0) || Number(a.id) - Number(b.id));
      list.forEach((j, order) => {
        const uid = String(j.component_type);
        if (!registry.component(uid)) throw new StrapiImportError(`${join} row ${j.id}: unknown component ${uid}`);
        if (!(String(j.field) in owner.attributes)) throw new StrapiImportError(`${join} row ${j.id}: ${owner.uid} has no attribute "${j.field}"`);
        let map = ownerOf.get(uid);
        if (!map) ownerOf.set(uid, (map = new Map()));
        map.set(Number(j.cmp_id), { type: owner.uid, id: Number(j.entity_id), field: String(j.field), order });
      });
    }
  }
  return registry.components.map((component) => {
    const out: TableRows = { table: component.tableName, label: component.tableName, rows: [], skipped: 0, notes: [] };
    const table = tableName(wholeName(component.tableName));
    if (!source.has(table)) return out;
    for (const row of source.rows(table)) {
      const owner = ownerOf.get(component.uid)?.get(Number(row.id));
      if (!owner) {
        out.skipped++;
        continue;
      }
      out.rows.push({
        id: Number(row.id),
        [O.type]: owner.type,
        [O.id]: owner.id,
        [O.field]: owner.field,
        [O.order]: owner.order,
        ...attributeValues(source, table, component, row),
      });
    }
    if (out.skipped) out.notes.push(`${out.skipped} ${table} row(s) no entry owns were left out`);
    return out;
  });
}

const snake = (name: string) => name.replace(/-/g, '_');
export const byOrder = (column: string | undefined) => (a: Row, b: Row) =>
  (column ? Number(a[column] ?? Number.MAX_SAFE_INTEGER) - Number(b[column] ?? Number.MAX_SAFE_INTEGER) : 0) || Number(a.id) - Number(b.id);

/** Fractional keys for rows grouped by `key`, in each group's order. */
export function keysFor(rows: Row[], key: (r: Row) => string, order: (a: Row, b: Row) => number): Map<Row, string> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const out = new Map<Row, string>();
  for (const list of groups.values()) {
    list.sort(order);
    const keys = generateNKeysBetween(null, null, list.length);
    list.forEach((r, i) => out.set(r, keys[i]!));
  }
  return out;
}

/** The links of one owning relation attribute. */
export function linkRows(source: StrapiSource, registry: Registry, model: AnyModel, attribute: RelationAttribute, cache: Map<string, Targets>): TableRows {
  const out: TableRows = {
    table: attribute.linkTable,
    label: `${model.uid === USER_UID ? 'users' : model.tableName}.${attribute.name} links`,
    rows: [],
    skipped: 0,
    notes: [],
  };
  const owner = model.uid === USER_UID ? 'up_users' : tableName(wholeName(model.tableName));
  // Strapi's name first; a loose match finds names whose snake case differs (`posts2` → `posts_2`).
  const want = loose(`${owner}_${attribute.name}_lnk`);
  const exact = linkTable(owner, attribute.name);
  const table = source.has(exact) ? exact : [...source.tables].find((t) => loose(t) === want);
  if (!table) {
    throw new StrapiImportError(`no link table for ${model.uid}.${attribute.name} in the Strapi database (expected ${exact})`);
  }
  const columns = source.columns(table);
  const target = attribute.targetType;
  const targetName = snake(target?.singularName ?? attribute.target.split('.').pop()!);
  const ownerName = 'singularName' in model ? (model as ContentType).singularName : (model as { name: string }).name;
  const named = linkColumns(ownerName, targetName);
  const has = (c: string) => columns.includes(c);
  const targetColumn = [named.target, `inv_${targetName}_id`, `${targetName}_id`].find(has);
  const sourceColumn =
    has(named.source) && named.source !== targetColumn ? named.source : columns.find((c) => c !== 'id' && c.endsWith('_id') && c !== targetColumn);
  if (!targetColumn || !sourceColumn) throw new StrapiImportError(`${table}: cannot tell its source and target columns (${columns.join(', ')})`);
  const orderColumn = [named.order, `${targetName}_ord`].find(has);
  const inverseColumn =
    has(named.inverseOrder) && named.inverseOrder !== orderColumn ? named.inverseOrder : columns.find((c) => c.endsWith('_ord') && c !== orderColumn);
  const targets = targetsOf(source, registry, attribute.target, cache);
  const links = source.rows(table).filter((r) => {
    if (targets.has(Number(r[targetColumn]))) return true;
    out.skipped++;
    return false;
  });
  if (out.skipped) out.notes.push(`${out.skipped} ${table} row(s) pointing at a missing ${attribute.target} row were left out`);
  const targetKey = (r: Row) => {
    const t = targets.get(Number(r[targetColumn]))!;
    return `${t.documentId}\0${t.locale}`;
  };
  // Strapi links a source without draft & publish to both versions of a target that has it;
  // Folio links to the document (the reader's status picks the version): one link, first in order.
  const kept: Row[] = [];
  const seen = new Set<string>();
  let merged = 0;
  for (const r of [...links].sort(byOrder(orderColumn))) {
    const unique = `${r[sourceColumn]}\0${targetKey(r)}`;
    if (seen.has(unique)) merged++;
    else {
      seen.add(unique);
      kept.push(r);
    }
  }
  if (merged) {
    out.skipped += merged;
    out.notes.push(`${merged} ${table} row(s) linking a source to another version of a document it already links were merged into one link`);
  }
  kept.sort((a, b) => Number(a.id) - Number(b.id));
  const positions = keysFor(kept, (r) => String(r[sourceColumn]), byOrder(orderColumn));
  const inverse = keysFor(kept, targetKey, byOrder(inverseColumn));
  for (const r of kept) {
    const t = targets.get(Number(r[targetColumn]))!;
    out.rows.push({
      [LINK.id]: Number(r.id),
      [LINK.sourceId]: Number(r[sourceColumn]),
      [LINK.targetDocumentId]: t.documentId,
      [LINK.targetLocale]: t.locale,
      [LINK.targetStatus]: '',
      [LINK.position]: positions.get(r)!,
      [LINK.inversePosition]: inverse.get(r)!,
    });
  }
  return out;
}

/**
 * The links of one morphToOne / morphToMany attribute: Strapi keeps a morphToMany in
 * `<table>_<attr>_mph` (owner row id, target row id and type uid, order) and a morphToOne in the
 * owner's `target_id` / `target_type` columns. Each becomes a link to the target's document,
 * pinned to the version of the row Strapi names when the target has draft & publish: Strapi's
 * morph links name rows, not documents (a draft comment may name a published tag, and Strapi
 * answers that row), so the pin keeps every answer. Links to types or rows gone are left out.
 */
export function morphRows(source: StrapiSource, registry: Registry, model: AnyModel, attribute: MorphAttribute, cache: Map<string, Targets>): TableRows {
  const out: TableRows = { table: attribute.linkTable, label: `${model.tableName}.${attribute.name} links`, rows: [], skipped: 0, notes: [] };
  const owner = tableName(wholeName(model.tableName));
  let table = owner;
  let links: Row[];
  let columns = { source: 'id', target: MORPH_TO_ONE.target, type: MORPH_TO_ONE.type, order: undefined as string | undefined };
  if (attribute.toMany) {
    table = morphTable(owner, attribute.name);
    if (!source.has(table)) throw new StrapiImportError(`no link table for ${model.uid}.${attribute.name} in the Strapi database (expected ${table})`);
    columns = { ...morphColumns((model as ContentType).singularName ?? model.uid, attribute.name), order: 'order' };
    links = source.rows(table);
  } else {
    // A morphToOne without a link leaves the columns empty (or absent, in an archive).
    links = source.rows(owner).filter((r) => r[MORPH_TO_ONE.target] !== null && r[MORPH_TO_ONE.target] !== undefined);
  }
  const kept: { row: Row; type: string; target: NonNullable<ReturnType<Targets['get']>>; status: string }[] = [];
  const seen = new Set<string>();
  for (const r of links) {
    const type = String(r[columns.type]);
    const targetModel = registry.contentType(type);
    const target = targetModel ? targetsOf(source, registry, type, cache).get(Number(r[columns.target])) : undefined;
    if (!targetModel || !target) {
      out.skipped++;
      continue;
    }
    const status = targetModel.draftAndPublish ? target.status : '';
    const unique = `${r[columns.source]}\0${type}\0${target.documentId}\0${target.locale}\0${status}`;
    if (seen.has(unique)) continue;
    seen.add(unique);
    kept.push({ row: r, type, target, status });
  }
  if (out.skipped) out.notes.push(`${out.skipped} ${table} link(s) to a type or row that no longer exists were left out`);
  const positions = keysFor(
    kept.map((k) => k.row),
    (r) => String(r[columns.source]),
    byOrder(columns.order),
  );
  kept.forEach(({ row, type, target, status }, i) =>
    out.rows.push({
      [MORPH_LINK.id]: attribute.toMany ? Number(row.id) : i + 1,
      [MORPH_LINK.sourceId]: Number(row[columns.source]),
      [MORPH_LINK.targetType]: type,
      [MORPH_LINK.targetDocumentId]: target.documentId,
      [MORPH_LINK.targetLocale]: target.locale,
      [MORPH_LINK.targetStatus]: status,
      [MORPH_LINK.position]: positions.get(row)!,
    }),
  );
  return out;
}

/** Media links of every content type and component (Strapi names owners by uid, as Folio). */
export function mediaRows(source: StrapiSource, registry: Registry): TableRows {
  const out: TableRows = { table: M.table, label: 'media links', rows: [], skipped: 0, notes: [] };
  if (!source.has('files_related_mph')) return out;
  const all = source.rows('files_related_mph');
  const kept = all.filter((r) => {
    const model = registry.get(String(r.related_type));
    if (model?.attributes[String(r.field)]?.kind === 'media') return true;
    out.skipped++;
    return false;
  });
  if (out.skipped) out.notes.push(`${out.skipped} files_related_mph row(s) naming no media attribute of the schemas were left out`);
  const positions = new Map<string, Row[]>();
  for (const r of kept) {
    const key = `${r.related_type}\0${r.related_id}\0${r.field}`;
    positions.set(key, [...(positions.get(key) ?? []), r]);
  }
  for (const list of positions.values()) {
    list.sort(byOrder('order'));
    list.forEach((r, position) =>
      out.rows.push({
        id: Number(r.id),
        [M.fileId]: Number(r.file_id),
        [M.relatedType]: String(r.related_type),
        [M.relatedId]: Number(r.related_id),
        [M.field]: String(r.field),
        [M.position]: position,
      }),
    );
  }
  out.rows.sort((a, b) => Number(a.id) - Number(b.id));
  return out;
}

/** Every content row of the project, in an order that satisfies Folio's foreign keys. */
export function contentPlan(source: StrapiSource, registry: Registry): TableRows[] {
  const plan: TableRows[] = [];
  for (const ct of registry.contentTypes) {
    if (!source.has(tableName(wholeName(ct.tableName))))
      throw new StrapiImportError(`the Strapi database has no table ${tableName(wholeName(ct.tableName))} for ${ct.uid}`);
    plan.push(versionRows(source, ct));
  }
  const owners: AnyModel[] = [...registry.contentTypes, ...registry.components];
  plan.push(...componentRows(source, registry, owners));
  const cache = new Map<string, Targets>();
  const user = registry.contentType(USER_UID);
  for (const model of [...owners, ...(user ? [user] : [])]) {
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'relation' && attribute.owner) plan.push(linkRows(source, registry, model, attribute, cache));
      if (attribute.kind === 'morph' && attribute.owner) plan.push(morphRows(source, registry, model, attribute, cache));
    }
  }
  return plan;
}
