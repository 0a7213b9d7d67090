/**
 * What every scalar field shares: the checks in the order that keeps them cheap (text
 * that cannot be stored, lengths before any pattern, then the compiled schema), yup's
 * messages, and defaults each attribute family overrides in its own file.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { unstorableText } from '../../text';
import type { ScalarAttribute } from '../types';
import type { INVALID, CheckMode, ColumnValue, Engine, FieldProblem, ScalarField } from './field';

/** What a family of scalar types says about itself; everything optional has a default. */
export interface ScalarSpec {
  columnType: Record<Engine, string>;
  /** The JSON type named in yup's "must be a `…` type" message. */
  typeName?: 'string' | 'number' | 'boolean' | 'array';
  schema(attribute: ScalarAttribute, mode: CheckMode): TSchema;
  normalise?(value: unknown): unknown;
  toColumn?(value: unknown): ColumnValue;
  fromColumn?(raw: unknown): unknown;
  readAsText?: boolean;
  /** Front ends filter and sort on it, so it gets an index (long text, JSON and booleans do not). */
  indexable?: boolean;
  filterValue?(raw: string): ColumnValue | typeof INVALID;
  /** A check the schema cannot express (a date that parses but does not exist); runs before the schema. */
  precheck?(value: unknown, label: string): string | undefined;
  /** Replaces the schema check (blocks are checked node by node). */
  checkValue?(value: unknown, label: string, field: ScalarField): FieldProblem | undefined;
  /** The message for a failed pattern, when the pattern is the type's own rather than the schema's `regex`. */
  patternMessage?(label: string): string;
}

/** Text types whose schema carries the attribute's lengths: lengths are checked before any pattern. */
const LENGTH_FIRST = new Set(['string', 'text', 'richtext', 'password', 'email', 'uid']);

export const TEXT_COLUMN: Record<Engine, string> = { sqlite: 'TEXT', postgres: 'TEXT COLLATE "C"' };

export function scalarField(attribute: ScalarAttribute, spec: ScalarSpec): ScalarField {
  const compiled: Partial<Record<CheckMode, TypeCheck<TSchema>>> = {};
  const typeName = spec.typeName ?? 'string';

  const field: ScalarField = {
    kind: 'scalar',
    name: attribute.name,
    type: attribute.type,
    attribute,
    columnType: (engine) => spec.columnType[engine],
    visible: !attribute.private && attribute.type !== 'password',
    indexed: (spec.indexable === true || attribute.unique) && !attribute.private && attribute.type !== 'password',
    readAsText: spec.readAsText === true,
    converts: spec.fromColumn !== undefined,
    toColumn: (value) => (value === null || value === undefined ? null : spec.toColumn ? spec.toColumn(value) : (value as ColumnValue)),
    fromColumn: (raw) => (raw === null || raw === undefined ? null : spec.fromColumn ? spec.fromColumn(raw) : raw),
    normalise: (value) => (spec.normalise ? spec.normalise(value) : value),
    schema: (mode) => spec.schema(attribute, mode),
    typeMessage(label, value) {
      const shown = value === null || value === undefined ? 'null' : JSON.stringify(value);
      return `${label} must be a \`${typeName}\` type, but the final value was: \`${shown}\`.`;
    },
    filterValue: (raw) => (spec.filterValue ? spec.filterValue(raw) : raw),
    check(value, mode, label) {
      if (spec.checkValue) return spec.checkValue(value, label, field);
      const message = messageOf(value, mode, label);
      return message === undefined ? undefined : { message, path: [], value };
    },
  };

  function messageOf(value: unknown, mode: CheckMode, label: string): string | undefined {
    if (typeof value === 'string') {
      // JSON values are stored as JSON text, where NUL and lone surrogates are escapes that
      // read back exactly; every other string is stored as text, which cannot hold them.
      const why = attribute.type === 'json' ? undefined : unstorableText(value);
      if (why) return `${label} ${why}`;
      // Lengths first, so a pattern (the schema's own regex included) never runs over a value
      // longer than the attribute allows, however the pattern behaves on long input.
      if (LENGTH_FIRST.has(attribute.type) && attribute.maxLength !== undefined && value.length > attribute.maxLength) {
        return `${label} must be at most ${attribute.maxLength} characters`;
      }
    }
    const early = spec.precheck?.(value, label);
    if (early) return early;
    const check = (compiled[mode] ??= TypeCompiler.Compile(spec.schema(attribute, mode)));
    if (check.Check(value)) return undefined;
    const first = check.Errors(value).First();
    return first ? messageFor(label, first, value) : field.typeMessage(label, value);
  }

  function messageFor(label: string, error: ValueError, value: unknown): string {
    const s = error.schema as Record<string, unknown>;
    switch (error.type) {
      case ValueErrorType.StringMaxLength:
        return `${label} must be at most ${s.maxLength} characters`;
      case ValueErrorType.StringMinLength:
        return `${label} must be at least ${s.minLength} characters`;
      case ValueErrorType.StringPattern:
        return spec.patternMessage ? spec.patternMessage(label) : `${label} must match the following: "/${s.pattern}/"`;
      case ValueErrorType.StringFormat:
        return `${label} must be a valid email`;
      case ValueErrorType.NumberMinimum:
      case ValueErrorType.IntegerMinimum:
        return `${label} must be greater than or equal to ${s.minimum}`;
      case ValueErrorType.NumberMaximum:
      case ValueErrorType.IntegerMaximum:
        return `${label} must be less than or equal to ${s.maximum}`;
      case ValueErrorType.Integer:
        return typeof value === 'number' ? `${label} must be an integer` : field.typeMessage(label, value);
      case ValueErrorType.Union:
        if (attribute.type === 'enumeration') {
          // Strapi lists null among the allowed values of an optional enumeration, hence the trailing ", ".
          return `${label} must be one of the following values: ${(attribute.enum ?? []).join(', ')}${attribute.required ? '' : ', '}`;
        }
        return field.typeMessage(label, value);
      default:
        return field.typeMessage(label, value);
    }
  }

  return field;
}

/** Lengths for text schemas: maximums always, minimums only when publishing. */
export function lengths(attribute: ScalarAttribute, mode: CheckMode) {
  return {
    ...(attribute.maxLength !== undefined ? { maxLength: attribute.maxLength } : {}),
    ...(mode === 'published' && attribute.minLength !== undefined ? { minLength: attribute.minLength } : {}),
  };
}

/** Ranges for number schemas: maximums always, minimums only when publishing. */
export function range(attribute: ScalarAttribute, mode: CheckMode) {
  return {
    ...(attribute.max !== undefined ? { maximum: attribute.max } : {}),
    ...(mode === 'published' && attribute.min !== undefined ? { minimum: attribute.min } : {}),
  };
}
