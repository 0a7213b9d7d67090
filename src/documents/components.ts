/**
 * Component storage. Each component instance is a row of its component's table that
 * names its owner (content version row or parent component row), the owner's field
 * and its position. Writes replace a field's whole value, as in Strapi; copying a
 * version (publish, new locale) copies its component rows, recursively.
 */
import type { Queryable } from '../db/database';
import { copyComponentRow, copyComponentRows, deleteComponentRows, insertComponent, ownedParts, type ComponentSource } from '../db/store/components';
import type { AnyModel, Component, Registry } from '../registry/types';
import type { ComponentWrite, ModelWrite } from './input';
import { copyOwnedLinks, writeNewLinks, writeOwnedLinks, type LinkContext } from './links';
import { writeMorphLinks } from './morph-links';
import { copyMedia, deleteMedia, writeMedia } from './media';

/** Component uids a component or dynamic-zone attribute may hold. */
export function componentUids(model: AnyModel, field: string): string[] {
  const attribute = model.attributes[field];
  if (attribute?.kind === 'component') return [attribute.component];
  if (attribute?.kind === 'dynamiczone') return attribute.components;
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
    const component = registry.component(item.uid)!;
    const id = await insertComponent(tx, component, { type: owner.uid, id: ownerId, field, order }, item.input.scalars);
    await writeOwnedParts(tx, registry, component, id, item.input, context, true);
  }
}

/**
 * Writes the non-scalar parts of a model write (components, owned links, media) for one row.
 * A row inserted by this write (`fresh`) owns nothing yet: its links are written without
 * reading any list, and `linkCopies` (rows inserted beside it, a published copy) get the
 * same links in the same statements.
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
): Promise<void> {
  for (const [field, value] of Object.entries(input.components)) {
    await replaceComponentField(tx, registry, model, rowId, field, value, context, fresh);
  }
  if (fresh) await writeNewLinks(tx, registry, model, [rowId, ...linkCopies], input.relations, context);
  else await writeOwnedLinks(tx, registry, model, rowId, input.relations, context);
  if (Object.keys(input.morphs).length) await writeMorphLinks(tx, registry, model, rowId, input.morphs, context);
  for (const [field, ids] of Object.entries(input.media)) {
    if (!fresh || ids.length) await writeMedia(tx, model, rowId, field, ids);
  }
}

/** Whether rows of a model may hold media links (a model without media attributes has none). */
const hasMedia = (model: AnyModel) => Object.values(model.attributes).some((a) => a.kind === 'media');

/** Whether rows of a component hold nested components. */
const nests = (component: Component) => Object.values(component.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone');

/** Whether rows of a component own relation links (copied with them; deleted with them by ON DELETE CASCADE). */
const ownsLinks = (component: Component) => Object.values(component.attributes).some((a) => a.kind === 'relation' && a.owner);

/** The (component table, field) pairs of some component and dynamic-zone fields of a model (all of them when undefined). */
function sourcesOf(registry: Registry, owner: AnyModel, fields?: string[]): ComponentSource[] {
  const sources: ComponentSource[] = [];
  for (const attribute of Object.values(owner.attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    if (fields && !fields.includes(attribute.name)) continue;
    for (const uid of componentUids(owner, attribute.name)) sources.push({ component: registry.component(uid) as Component, field: attribute.name });
  }
  return sources;
}

/** What one read tells about some owner rows (./store/components.ts `ownedParts`), with the media questions this model needs. */
function readParts(tx: Queryable, owner: AnyModel, ownerIds: number[], sources: ComponentSource[]) {
  return ownedParts(tx, owner.uid, ownerIds, sources, { ownerMedia: hasMedia(owner), withMedia: (source) => hasMedia(source.component) });
}

/**
 * Deletes the component rows (and everything they own) of some fields of some owner rows:
 * one read finds the rows of every field and table (and which hold media links), then each
 * table that has some is cleared. Returns the owner rows holding media links, when the read
 * asked (undefined: no read, nothing known).
 */
async function deleteComponentFields(tx: Queryable, registry: Registry, owner: AnyModel, ownerIds: number[], fields?: string[]): Promise<Set<number> | undefined> {
  const sources = sourcesOf(registry, owner, fields);
  if (ownerIds.length === 0 || sources.length === 0) return undefined;
  const parts = await readParts(tx, owner, ownerIds, sources);
  for (let i = 0; i < sources.length; i++) {
    const ids = parts.rows[i]!;
    if (ids.length === 0) continue;
    const { component } = sources[i]!;
    if (nests(component)) await deleteOwnedParts(tx, registry, component, ids);
    else if (parts.componentMedia[i]!.size) await deleteMedia(tx, component, [...parts.componentMedia[i]!]);
    await deleteComponentRows(tx, component, ids);
  }
  return parts.ownerMedia;
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
  const sources = sourcesOf(registry, owner, fields);
  if (sources.length === 0) return undefined;
  const parts = await readParts(tx, owner, [fromId], sources);
  for (let i = 0; i < sources.length; i++) {
    const ids = parts.rows[i]!;
    if (ids.length === 0) continue;
    const { component, field } = sources[i]!;
    const media = parts.componentMedia[i]!;
    if (!nests(component) && !ownsLinks(component) && media.size === 0) {
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
  return hasMedia(owner) ? parts.ownerMedia.size > 0 : false;
}
