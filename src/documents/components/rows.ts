/**
 * Component storage. Each component instance is a row of its component's table that
 * names its owner (content version row or parent component row), the owner's field
 * and its position. Writes replace a field's whole value, as in Strapi; copying a
 * version (publish, new locale) copies its component rows, recursively.
 */
import type { Queryable } from '../../db/database';
import {
  copyComponentRow,
  copyComponentRows,
  deleteComponentRows,
  insertComponent,
  ownedParts,
  type ComponentSource,
  type OwnedParts,
} from '../../db/store/components';
import type { AnyModel, Component, ContentType, Registry, RelationAttribute } from '../../registry/types';
import type { ComponentWrite, ModelWrite } from '../write/input';
import { copyOwnedLinks } from '../relations/copy';
import { type InsertedLinks, type LinkContext, type PrefetchedLinks, writeLinks } from '../relations/writer';
import { copyMedia, deleteMedia, writeMedia } from '../write/media';

/** Component uids a component or dynamic-zone attribute may hold. */
export function componentsOf(model: AnyModel, field: string): Component[] {
  const attribute = model.attributes[field];
  if (attribute?.kind === 'component') return [attribute.componentModel];
  if (attribute?.kind === 'dynamiczone') return attribute.componentModels;
  return [];
}

/** Replaces the value of one component/dynamic-zone field of an owner row. */
export async function replaceComponentField(
  tx: Queryable,
  registry: Registry,
  owner: AnyModel,
  ownerId: number,
  field: string,
  value: ComponentWrite | ComponentWrite[] | null,
  context: LinkContext,
  fresh = false,
): Promise<void> {
  // A row inserted in this very write owns nothing yet: no need to look for old components.
  if (!fresh) await deleteComponentField(tx, registry, owner, [ownerId], field);
  const items = value === null ? [] : Array.isArray(value) ? value : [value];
  for (let order = 0; order < items.length; order++) {
    const item = items[order]!;
    const { component } = item;
    const id = await insertComponent(tx, component, { type: owner.uid, id: ownerId, field, order }, item.input.scalars);
    await writeOwnedParts(tx, registry, component, id, item.input, context, true);
  }
}

/**
 * Writes the non-scalar parts of a model write (components, owned links, media) for one row.
 * A row inserted by this write (`fresh`) owns nothing yet: its links are written without
 * reading any list, and `linkCopies` (rows inserted beside it, a published copy) get the
 * same links in the same statements. Answers the relation link rows it inserted.
 */
export async function writeOwnedParts(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  rowId: number,
  input: ModelWrite,
  context: LinkContext,
  fresh = false,
  linkCopies: number[] = [],
  /** The new links' reads, sent before the row was inserted (../relations/writer.ts prefetchLinks). */
  prefetched?: PrefetchedLinks,
): Promise<InsertedLinks> {
  for (const [field, value] of Object.entries(input.components)) {
    await replaceComponentField(tx, registry, model, rowId, field, value, context, fresh);
  }
  const source = { rowIds: [rowId, ...linkCopies], fresh, relations: input.relations, morphs: input.morphs };
  const links = await writeLinks(tx, registry, model, [source], context, { prefetched });
  for (const [field, ids] of Object.entries(input.media)) {
    if (!fresh || ids.length) await writeMedia(tx, model, rowId, field, ids);
  }
  return links;
}

/** Whether rows of a model may hold media links (a model without media attributes has none). */
const hasMedia = (model: AnyModel) => Object.values(model.attributes).some((a) => a.kind === 'media');

/** Whether rows of a component hold nested components. */
const nests = (component: Component) => Object.values(component.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone');

/** Whether rows of a component own relation links (copied with them; deleted with them by ON DELETE CASCADE). */
const ownsLinks = (component: Component) => Object.values(component.attributes).some((a) => a.kind === 'relation' && a.owner);

/** The (component table, field) pairs of some component and dynamic-zone fields of a model (all of them when undefined). */
function sourcesOf(owner: AnyModel, fields?: string[]): ComponentSource[] {
  const sources: ComponentSource[] = [];
  for (const attribute of Object.values(owner.attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    if (fields && !fields.includes(attribute.name)) continue;
    for (const component of componentsOf(owner, attribute.name)) sources.push({ component, field: attribute.name });
  }
  return sources;
}

/** What one read tells about some owner rows (./store/components.ts `ownedParts`), with the media questions this model needs. */
function readParts(tx: Queryable, owner: AnyModel, ownerIds: number[], sources: ComponentSource[], links: RelationAttribute[] = []) {
  return ownedParts(tx, owner.uid, ownerIds, sources, { ownerMedia: hasMedia(owner), withMedia: (source) => hasMedia(source.component) }, links);
}

/**
 * Deletes the component rows (and everything they own) of some fields of some owner rows:
 * one read finds the rows of every field and table (and which hold media links), then each
 * table that has some is cleared. Returns the owner rows holding media links, when the read
 * asked (undefined: no read, nothing known).
 */
async function deleteComponentFields(
  tx: Queryable,
  registry: Registry,
  owner: AnyModel,
  ownerIds: number[],
  fields?: string[],
): Promise<Set<number> | undefined> {
  const sources = sourcesOf(owner, fields);
  if (ownerIds.length === 0 || sources.length === 0) return undefined;
  const parts = await readParts(tx, owner, ownerIds, sources);
  await deleteRowsOf(tx, registry, sources, parts, () => true);
  return parts.ownerMedia;
}

/** Deletes the component rows of `parts` whose owner passes `mine`, with everything they own. */
async function deleteRowsOf(tx: Queryable, registry: Registry, sources: ComponentSource[], parts: OwnedParts, mine: (ownerId: number) => boolean) {
  for (let i = 0; i < sources.length; i++) {
    const ids = parts.rows[i]!.filter((_, j) => mine(parts.owners[i]![j]!));
    if (ids.length === 0) continue;
    const { component } = sources[i]!;
    const media = ids.filter((rowId) => parts.componentMedia[i]!.has(rowId));
    if (nests(component)) await deleteOwnedParts(tx, registry, component, ids);
    else if (media.length) await deleteMedia(tx, component, media);
    await deleteComponentRows(tx, component, ids);
  }
}

/** Deletes the component rows (and everything they own) of one field of some owner rows. */
export async function deleteComponentField(tx: Queryable, registry: Registry, owner: AnyModel, ownerIds: number[], field: string): Promise<void> {
  await deleteComponentFields(tx, registry, owner, ownerIds, [field]);
}

/** Deletes what rows of a model own besides their own columns: components and media links. */
export async function deleteOwnedParts(tx: Queryable, registry: Registry, model: AnyModel, rowIds: number[]): Promise<void> {
  const media = await deleteComponentFields(tx, registry, model, rowIds);
  // The read above says whether any row holds media links; without it, delete blindly.
  if (hasMedia(model) && (media === undefined || media.size > 0)) await deleteMedia(tx, model, rowIds);
  // Owned relation links go with the rows themselves (ON DELETE CASCADE).
}

/**
 * Copies every component row owned by `fromId` (recursively) to `toId`. One read finds the
 * rows of every field (and which hold media links); a table whose rows own nothing else is
 * copied in one statement, the others row by row (their parts need each new row's id).
 * Returns whether `fromId` itself holds media links, when the read asked (undefined: unknown).
 */
export async function copyComponents(
  tx: Queryable,
  registry: Registry,
  owner: AnyModel,
  fromId: number,
  toId: number,
  fields?: string[],
): Promise<boolean | undefined> {
  const sources = sourcesOf(owner, fields);
  if (sources.length === 0) return undefined;
  const parts = await readParts(tx, owner, [fromId], sources);
  await copyRowsOf(tx, registry, owner, sources, parts, fromId, toId);
  return hasMedia(owner) ? parts.ownerMedia.size > 0 : false;
}

/** Copies the component rows of `parts` that `fromId` owns to `toId`, recursively. */
async function copyRowsOf(tx: Queryable, registry: Registry, owner: AnyModel, sources: ComponentSource[], parts: OwnedParts, fromId: number, toId: number) {
  for (let i = 0; i < sources.length; i++) {
    const ids = parts.rows[i]!.filter((_, j) => parts.owners[i]![j] === fromId);
    if (ids.length === 0) continue;
    const { component, field } = sources[i]!;
    const media = parts.componentMedia[i]!;
    if (!nests(component) && !ownsLinks(component) && !ids.some((rowId) => media.has(rowId))) {
      await copyComponentRows(tx, component, owner.uid, field, fromId, toId);
      continue;
    }
    for (const rowId of ids) {
      const newId = await copyComponentRow(tx, component, rowId, toId);
      if (nests(component)) await copyComponents(tx, registry, component, rowId, newId);
      if (ownsLinks(component)) await copyOwnedLinks(tx, component, rowId, newId);
      if (media.has(rowId)) await copyMedia(tx, component, rowId, newId);
    }
  }
}

/**
 * Replaces version rows (`oldIds`) by a copy of another (`fromId`; publish, discard draft):
 * ONE read tells what the old rows and the source hold (components per table, media links,
 * and which link tables have the source's rows), so only tables with rows are touched. The
 * old rows' components and media go, then the rows (their links go with them: ON DELETE
 * CASCADE), then `insertRow` makes the new row and its components, links and media are copied.
 * Returns the new row's id.
 */
export async function replaceWithCopy(
  tx: Queryable,
  registry: Registry,
  owner: ContentType,
  fromId: number,
  oldIds: number[],
  insertRow: () => Promise<number>,
  deleteRows: () => Promise<void>,
): Promise<number> {
  const sources = sourcesOf(owner);
  const relations = Object.values(owner.attributes).filter((a): a is RelationAttribute => a.kind === 'relation' && a.owner);
  const parts = await readParts(tx, owner, [fromId, ...oldIds], sources, relations);
  const old = new Set(oldIds);
  await deleteRowsOf(tx, registry, sources, parts, (ownerId) => old.has(ownerId));
  if (oldIds.some((rowId) => parts.ownerMedia.has(rowId))) await deleteMedia(tx, owner, oldIds);
  await deleteRows();
  const toId = await insertRow();
  await copyRowsOf(tx, registry, owner, sources, parts, fromId, toId);
  // Polymorphic links are not in the read: their fields are always copied (one statement each, when the type has any).
  const linked = relations.filter((_, k) => parts.linked[k]!.has(fromId)).map((a) => a.name);
  const morphs = Object.values(owner.attributes)
    .filter((a) => a.kind === 'morph' && a.owner)
    .map((a) => a.name);
  if (linked.length || morphs.length) await copyOwnedLinks(tx, owner, fromId, toId, registry, [...linked, ...morphs]);
  if (parts.ownerMedia.has(fromId)) await copyMedia(tx, owner, fromId, toId);
  return toId;
}
