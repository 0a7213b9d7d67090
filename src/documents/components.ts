/**
 * Component storage. Each component instance is a row of its component's table that
 * names its owner (content version row or parent component row), the owner's field
 * and its position. Writes replace a field's whole value, as in Strapi; copying a
 * version (publish, new locale) copies its component rows, recursively.
 */
import type { Queryable } from '../db/database';
import { componentIds, copyComponentRow, deleteComponents, insertComponent, orderedComponentIds } from '../db/store/components';
import type { AnyModel, Component, Registry } from '../registry/types';
import type { ComponentWrite, ModelWrite } from './input';
import { copyOwnedLinks, writeOwnedLinks, type LinkContext } from './links';
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

/** Writes the non-scalar parts of a model write (components, owned links, media) for one row. */
export async function writeOwnedParts(
  tx: Queryable,
  registry: Registry,
  model: AnyModel,
  rowId: number,
  input: ModelWrite,
  context: LinkContext,
  fresh = false,
): Promise<void> {
  for (const [field, value] of Object.entries(input.components)) {
    await replaceComponentField(tx, registry, model, rowId, field, value, context, fresh);
  }
  await writeOwnedLinks(tx, registry, model, rowId, input.relations, context);
  for (const [field, ids] of Object.entries(input.media)) {
    if (!fresh || ids.length) await writeMedia(tx, model, rowId, field, ids);
  }
}

/** Deletes the component rows (and everything they own) of some fields of some owner rows. */
export async function deleteComponentField(
  tx: Queryable,
  registry: Registry,
  owner: AnyModel,
  ownerIds: number[],
  field: string,
): Promise<void> {
  if (ownerIds.length === 0) return;
  for (const uid of componentUids(owner, field)) {
    const component = registry.component(uid)!;
    const ids = await componentIds(tx, component, owner.uid, field, ownerIds);
    if (ids.length === 0) continue;
    await deleteOwnedParts(tx, registry, component, ids);
    await deleteComponents(tx, component, owner.uid, field, ownerIds);
  }
}

/** Deletes what rows of a model own besides their own columns: components and media links. */
export async function deleteOwnedParts(tx: Queryable, registry: Registry, model: AnyModel, rowIds: number[]): Promise<void> {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
      await deleteComponentField(tx, registry, model, rowIds, attribute.name);
    }
  }
  await deleteMedia(tx, model, rowIds);
  // Owned relation links go with the rows themselves (ON DELETE CASCADE).
}

/** Copies every component row owned by `fromId` (recursively) to `toId`. */
export async function copyComponents(
  tx: Queryable,
  registry: Registry,
  owner: AnyModel,
  fromId: number,
  toId: number,
  fields?: string[],
): Promise<void> {
  for (const attribute of Object.values(owner.attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    if (fields && !fields.includes(attribute.name)) continue;
    for (const uid of componentUids(owner, attribute.name)) {
      const component = registry.component(uid) as Component;
      for (const rowId of await orderedComponentIds(tx, component, owner.uid, fromId, attribute.name)) {
        const newId = await copyComponentRow(tx, component, rowId, toId);
        await copyComponents(tx, registry, component, rowId, newId);
        await copyOwnedLinks(tx, component, rowId, newId);
        await copyMedia(tx, component, rowId, newId);
      }
    }
  }
}
