/**
 * Component storage. Each component instance is a row of its component's table that
 * names its owner (content version row or parent component row), the owner's field
 * and its position. Writes replace a field's whole value, as in Strapi; copying a
 * version (publish, new locale) copies its component rows, recursively.
 */
import type { Queryable } from '../db/database';
import { COMPONENT_OWNER_COLUMNS as O } from '../db/schema-sync';
import type { AnyModel, Component, Registry } from '../registry/types';
import type { ComponentWrite, ModelWrite } from './input';
import { toColumn } from './scalars';
import { copyOwnedLinks, writeOwnedLinks, type LinkContext } from './links';
import { copyMedia, deleteMedia, writeMedia } from './media';

/** Component uids a component or dynamic-zone attribute may hold. */
export function componentUids(model: AnyModel, field: string): string[] {
  const attribute = model.attributes[field];
  if (attribute?.kind === 'component') return [attribute.component];
  if (attribute?.kind === 'dynamiczone') return attribute.components;
  return [];
}

/** Inserts a model's scalar columns plus the given extra columns; returns the new row id. */
export async function insertRow(
  tx: Queryable,
  model: AnyModel,
  extra: Record<string, string | number | null>,
  scalars: Record<string, unknown>,
): Promise<number> {
  const q = tx.dialect.quote;
  const names = Object.keys(extra);
  const values: (string | number | bigint | null)[] = Object.values(extra);
  for (const [name, value] of Object.entries(scalars)) {
    const attribute = model.attributes[name];
    if (attribute?.kind !== 'scalar') continue;
    names.push(name);
    values.push(toColumn(attribute, value));
  }
  return tx.insert(`INSERT INTO ${q(model.tableName)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`, values);
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
    const id = await insertRow(
      tx,
      component,
      { [O.type]: owner.uid, [O.id]: ownerId, [O.field]: field, [O.order]: order },
      item.input.scalars,
    );
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
  const q = tx.dialect.quote;
  for (const uid of componentUids(owner, field)) {
    const component = registry.component(uid)!;
    const marks = ownerIds.map(() => '?').join(', ');
    const where = `${q(O.type)} = ? AND ${q(O.field)} = ? AND ${q(O.id)} IN (${marks})`;
    const rows = await tx.all<{ id: number }>(`SELECT id FROM ${q(component.tableName)} WHERE ${where}`, [
      owner.uid,
      field,
      ...ownerIds,
    ]);
    if (rows.length === 0) continue;
    await deleteOwnedParts(tx, registry, component, rows.map((r) => r.id));
    await tx.run(`DELETE FROM ${q(component.tableName)} WHERE ${where}`, [owner.uid, field, ...ownerIds]);
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
  const q = tx.dialect.quote;
  for (const attribute of Object.values(owner.attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    if (fields && !fields.includes(attribute.name)) continue;
    for (const uid of componentUids(owner, attribute.name)) {
      const component = registry.component(uid) as Component;
      const columns = Object.values(component.attributes)
        .filter((a) => tx.dialect.columnType(a))
        .map((a) => q(a.name));
      const rows = await tx.all<{ id: number }>(
        `SELECT id FROM ${q(component.tableName)} WHERE ${q(O.type)} = ? AND ${q(O.id)} = ? AND ${q(O.field)} = ? ORDER BY ${q(O.order)}`,
        [owner.uid, fromId, attribute.name],
      );
      for (const row of rows) {
        const copied = [q(O.type), q(O.id), q(O.field), q(O.order), ...columns].join(', ');
        const newId = await tx.insert(
          `INSERT INTO ${q(component.tableName)} (${copied}) SELECT ${q(O.type)}, ?, ${q(O.field)}, ${q(O.order)}${
            columns.length ? ', ' + columns.join(', ') : ''
          } FROM ${q(component.tableName)} WHERE id = ?`,
          [toId, row.id],
        );
        await copyComponents(tx, registry, component, row.id, newId);
        await copyOwnedLinks(tx, component, row.id, newId);
        await copyMedia(tx, component, row.id, newId);
      }
    }
  }
}
