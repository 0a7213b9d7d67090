/**
 * Component rows: each row of a component's table names its owner (a version row or a
 * parent component row: the owner's uid, id and field) and its place in that field.
 * The rules (replacing a field's value, copying trees) live in documents/components.ts.
 */
import type { Component } from '../../registry/types';
import type { Queryable } from '../database';
import { COMPONENT_ID as ROW_ID, COMPONENT_OWNER as O, tableOf } from '../layout';
import { sql, type Sql } from '../sql';
import { columnFields, columnsOf, insertRow } from './columns';

const id = (name: string) => sql.id(name);

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

/** Ids of the rows of one component held by a field of some owner rows. */
export async function componentIds(tx: Queryable, component: Component, ownerType: string, field: string, ownerIds: number[]): Promise<number[]> {
  if (ownerIds.length === 0) return [];
  const rows = await tx.all<Record<string, number>>(sql`SELECT ${id(ROW_ID)} FROM ${tableOf(component)} WHERE ${ownedBy(ownerType, field, ownerIds)}`);
  return rows.map((r) => r[ROW_ID]!);
}

/** Ids of the rows of one component held by a field of one owner row, in order. */
export async function orderedComponentIds(tx: Queryable, component: Component, ownerType: string, ownerId: number, field: string): Promise<number[]> {
  const rows = await tx.all<Record<string, number>>(
    sql`SELECT ${id(ROW_ID)} FROM ${tableOf(component)} WHERE ${id(O.type)} = ${ownerType} AND ${id(O.id)} = ${ownerId} AND ${id(O.field)} = ${field} ORDER BY ${id(O.order)}`,
  );
  return rows.map((r) => r[ROW_ID]!);
}

/** Deletes the rows of one component held by a field of some owner rows (their own columns only). */
export async function deleteComponents(tx: Queryable, component: Component, ownerType: string, field: string, ownerIds: number[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await tx.run(sql`DELETE FROM ${tableOf(component)} WHERE ${ownedBy(ownerType, field, ownerIds)}`);
}

/** Copies one component row's own columns to a new row of another owner (same type, field and place). */
export function copyComponentRow(tx: Queryable, component: Component, rowId: number, toOwnerId: number): Promise<number> {
  const columns = columnsOf(columnFields(component, tx.dialect.name));
  const target = [id(O.type), id(O.id), id(O.field), id(O.order), ...columns];
  const source = [id(O.type), sql`${toOwnerId}`, id(O.field), id(O.order), ...columns];
  return tx.insert(
    sql`INSERT INTO ${tableOf(component)} (${sql.join(target)}) SELECT ${sql.join(source)} FROM ${tableOf(component)} WHERE ${id(ROW_ID)} = ${rowId}`,
  );
}
