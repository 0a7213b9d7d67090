/**
 * The compiled field model: one Field object per attribute, made once when the registry
 * loads, carrying everything that depends on the attribute's kind — its column type on
 * each engine, conversions to and from storage, the validation schema and messages,
 * how a query-string value is coerced for a filter, whether it is shown, sorted and
 * indexed. Everything else asks the field instead of switching on the attribute type.
 *
 * Fields belong to one registry (one installation): compiled checks are cached on the
 * field itself, so two installations with different schemas for one uid never share them.
 */
import type { TSchema } from '@sinclair/typebox';
import type { ComponentAttribute, DynamicZoneAttribute, MediaAttribute, MorphAttribute, RelationAttribute, ScalarAttribute, ScalarType } from '../types';

export type Engine = 'sqlite' | 'postgres';

/** Draft writes skip required, unique, minimum and format checks (as Strapi); maximums always apply. */
export type CheckMode = 'draft' | 'published';

/** What a column holds on either engine. */
export type ColumnValue = string | number | bigint | null;

/** Returned by `filterValue` for a query-string value the field cannot hold. */
export const INVALID: unique symbol = Symbol('invalid filter value');

/** A failed check: the message, and where inside the value it failed (`[]`: the value itself). */
export interface FieldProblem {
  message: string;
  path: (string | number)[];
  value: unknown;
}

export interface ScalarField {
  readonly kind: 'scalar';
  readonly name: string;
  readonly type: ScalarType;
  readonly attribute: ScalarAttribute;
  /** Column type on each engine (text compares byte by byte on both). */
  columnType(engine: Engine): string;
  /** Shown in responses and usable in fields, sort and filters (not private, not a password). */
  readonly visible: boolean;
  /** Gets a (locale, column) index so sorted and filtered pages read in order. */
  readonly indexed: boolean;
  /** Read back as text: 64-bit integers do not fit a JS number. */
  readonly readAsText: boolean;
  /** Whether `fromColumn` changes anything (readers skip the call otherwise). */
  readonly converts: boolean;
  /** JSON value → column value (null stays null). */
  toColumn(value: unknown): ColumnValue;
  /** Column value → JSON value; the inverse of toColumn. */
  fromColumn(raw: unknown): unknown;
  /** Brings a JSON value to its canonical form before the check (numeric strings, any date-time to ISO). */
  normalise(value: unknown): unknown;
  /** The JSON Schema of a non-null value under a mode (also used for OpenAPI). */
  schema(mode: CheckMode): TSchema;
  /** Checks a non-null normalised value; the first problem, or undefined. `label` names it in messages. */
  check(value: unknown, mode: CheckMode, label: string): FieldProblem | undefined;
  /** yup's wording for a value of the wrong type (Strapi clients may show it verbatim). */
  typeMessage(label: string, value: unknown): string;
  /** A query-string filter value → what the column stores, or INVALID. */
  filterValue(raw: string): ColumnValue | typeof INVALID;
}

interface Reference<K extends string, A> {
  readonly kind: K;
  readonly name: string;
  readonly attribute: A;
  /** Stored outside the owner's table (links, component rows, media links): no column. */
  columnType(engine: Engine): undefined;
}

/** Links to documents of another content type, in a link table. */
export type RelationField = Reference<'relation', RelationAttribute>;
/** Links naming documents of any content type (with their type), in a link table. */
export type MorphField = Reference<'morph', MorphAttribute>;
/** Files of the media library, in the media-link table. */
export type MediaField = Reference<'media', MediaAttribute>;
/** Rows of a component table owned by this row's field. */
export type ComponentField = Reference<'component', ComponentAttribute>;
/** Rows of several component tables owned by this row's field, in one order. */
export type DynamicZoneField = Reference<'dynamiczone', DynamicZoneAttribute>;

export type Field = ScalarField | RelationField | MorphField | MediaField | ComponentField | DynamicZoneField;
