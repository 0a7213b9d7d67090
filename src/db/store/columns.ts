/**
 * The attribute columns of a content or component row, as the compiled field model says:
 * a field with a column type on the engine is stored in the row's own table (relations,
 * media and components live elsewhere), and its values pass through the field's
 * `toColumn` / `fromColumn`. The version and component stores build on these.
 */
import type { Engine, ScalarField } from '../../registry/fields/field';
import type { AnyModel } from '../../registry/types';
import type { Queryable, SqlValue } from '../database';
import { tableOf } from '../layout';
import { sql, type Sql } from '../sql';

/** Fields stored in the model's own table, in declaration order. */
export function columnFields(model: AnyModel, engine: Engine): ScalarField[] {
  return Object.values(model.fields).filter((f): f is ScalarField => f.kind === 'scalar' && f.columnType(engine) !== undefined);
}

/** The columns of some fields, as identifiers (a copy lists them on both sides). */
export const columnsOf = (fields: readonly ScalarField[]): Sql[] => fields.map((f) => sql.id(f.name));

/**
 * `, "a", "b", …`: the columns of a model's stored fields after a leading comma (empty when it has
 * none), as copies list them after the system columns. Built once per model and engine, so its
 * text is rendered once. Keyed by the model object, not its uid: two installations in one
 * process have their own models, and so their own lists, even for one uid.
 */
const columnTails = new WeakMap<AnyModel, Partial<Record<Engine, Sql>>>();

export function columnTail(model: AnyModel, engine: Engine): Sql {
  let byEngine = columnTails.get(model);
  if (!byEngine) columnTails.set(model, (byEngine = {}));
  let tail = byEngine[engine];
  if (!tail) {
    const columns = columnsOf(columnFields(model, engine));
    byEngine[engine] = tail = columns.length ? sql`, ${sql.join(columns)}` : sql.empty;
  }
  return tail;
}

/**
 * `, "a", CAST("b" AS TEXT) AS "b", …`: the stored fields as columnTail lists them, fields read
 * as text (big integers: a JS number would round them past 2^53) cast, so `scalarValues` of
 * the row is exact. Built once per model and engine.
 */
const exactTails = new WeakMap<AnyModel, Partial<Record<Engine, Sql>>>();

export function exactColumnTail(model: AnyModel, engine: Engine): Sql {
  let byEngine = exactTails.get(model);
  if (!byEngine) exactTails.set(model, (byEngine = {}));
  let tail = byEngine[engine];
  if (!tail) {
    const columns = columnFields(model, engine).map((f) => (f.readAsText ? sql`CAST(${sql.id(f.name)} AS TEXT) AS ${sql.id(f.name)}` : sql.id(f.name)));
    byEngine[engine] = tail = columns.length ? sql`, ${sql.join(columns)}` : sql.empty;
  }
  return tail;
}

/** Column identifiers and stored values of JSON values by attribute name; names without a column are skipped. */
export function columnValues(model: AnyModel, values: Record<string, unknown>): { columns: Sql[]; values: SqlValue[] } {
  const columns: Sql[] = [];
  const stored: SqlValue[] = [];
  for (const [name, value] of Object.entries(values)) {
    const field = model.fields[name];
    if (field?.kind !== 'scalar') continue;
    columns.push(sql.id(name));
    stored.push(field.toColumn(value));
  }
  return { columns, values: stored };
}

/** The JSON value of every scalar attribute of a stored row (null for a missing row or column). */
export function scalarValues(model: AnyModel, row: Record<string, unknown> | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of Object.values(model.fields)) if (field.kind === 'scalar') values[field.name] = field.fromColumn(row?.[field.name]);
  return values;
}

/**
 * The JSON value of every scalar attribute of a row inserted with these JSON values, as
 * `scalarValues` reads it back (with `exactColumnTail`), without reading it: each value goes to
 * its column form and back (the engines return what was stored: TEXT, INTEGER and REAL values
 * as they are, big integers read as text); a value not given, or without a column, is null.
 */
export function insertedValues(model: AnyModel, engine: Engine, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of Object.values(model.fields)) {
    if (field.kind !== 'scalar') continue;
    const stored = field.columnType(engine) === undefined ? null : field.toColumn(values[field.name]);
    out[field.name] = field.fromColumn(field.readAsText && stored !== null ? String(stored) : stored);
  }
  return out;
}

/**
 * Inserts a row of a model: the system columns given (name → value, in order) and the
 * JSON values of its attributes. Returns the new row's id.
 */
export function insertRow(tx: Queryable, model: AnyModel, system: [string, SqlValue][], values: Record<string, unknown>): Promise<number> {
  const attributes = columnValues(model, values);
  const columns = [...system.map(([name]) => sql.id(name)), ...attributes.columns];
  const params = [...system.map(([, value]) => value), ...attributes.values];
  return tx.insert(sql`INSERT INTO ${tableOf(model)} (${sql.join(columns)}) VALUES (${sql.list(params)})`);
}
