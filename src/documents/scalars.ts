/**
 * Scalar attribute values: the TypeBox schema each type is checked against, the
 * Strapi-style message for each failed check, and the conversions between JSON values
 * and database columns.
 */
import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import type { ScalarAttribute } from '../registry/types';
import { isEmail, unstorableText } from '../text';
import { checkBlocks, type Path } from '../registry/fields/blocks';

// TypeBox ships no formats of its own. isEmail caps the length before its pattern runs, so a
// 160,000-character value is refused at once instead of being matched.
FormatRegistry.Set('email', isEmail);

const UID = '^[A-Za-z0-9-_.~]*$';
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Draft writes skip required, unique, minimum and format checks (as Strapi); maximums always apply. */
export type CheckMode = 'draft' | 'published';

/** The JSON Schema of an attribute's non-null value under a mode (also used for OpenAPI). */
export function scalarSchema(attribute: ScalarAttribute, mode: CheckMode): TSchema {
  const strict = mode === 'published';
  const lengths = {
    ...(attribute.maxLength !== undefined ? { maxLength: attribute.maxLength } : {}),
    ...(strict && attribute.minLength !== undefined ? { minLength: attribute.minLength } : {}),
  };
  const range = {
    ...(attribute.max !== undefined ? { maximum: attribute.max } : {}),
    ...(strict && attribute.min !== undefined ? { minimum: attribute.min } : {}),
  };
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return Type.String({ ...lengths, ...(strict && attribute.regex ? { pattern: attribute.regex } : {}) });
    case 'email':
      return Type.String({ ...lengths, ...(strict ? { format: 'email' } : {}) });
    case 'uid':
      return Type.String({ ...lengths, pattern: attribute.regex ?? UID });
    case 'enumeration':
      return Type.Union((attribute.enum ?? []).map((v) => Type.Literal(v)));
    case 'integer':
      // 32-bit, as the column is on PostgreSQL; biginteger is for larger values.
      return Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...range });
    case 'float':
    case 'decimal':
      return Type.Number(range);
    case 'biginteger':
      return Type.String({ pattern: '^-?[0-9]+$' });
    case 'boolean':
      return Type.Boolean();
    case 'date':
      return Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
    case 'time':
      return Type.String({ pattern: '^\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?$' });
    case 'datetime':
    case 'timestamp':
      return Type.String();
    case 'blocks':
      return Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true }));
    case 'json':
      return Type.Unknown();
  }
}

const compiled = new Map<string, TypeCheck<TSchema>>();

function checkerFor(attribute: ScalarAttribute, mode: CheckMode, owner: string): TypeCheck<TSchema> {
  const key = `${owner}\0${attribute.name}\0${mode}`;
  let check = compiled.get(key);
  if (!check) {
    check = TypeCompiler.Compile(scalarSchema(attribute, mode));
    compiled.set(key, check);
  }
  return check;
}

const TYPE_NAMES: Partial<Record<ScalarAttribute['type'], string>> = {
  integer: 'number',
  float: 'number',
  decimal: 'number',
  boolean: 'boolean',
  blocks: 'array',
};

/** yup's wording for a value of the wrong type; Strapi clients may show it verbatim. */
export function typeMessage(label: string, attribute: ScalarAttribute, value: unknown): string {
  const shown = value === null || value === undefined ? 'null' : JSON.stringify(value);
  return `${label} must be a \`${TYPE_NAMES[attribute.type] ?? 'string'}\` type, but the final value was: \`${shown}\`.`;
}

function messageFor(label: string, attribute: ScalarAttribute, error: ValueError, value: unknown): string {
  const s = error.schema as Record<string, unknown>;
  switch (error.type) {
    case ValueErrorType.StringMaxLength:
      return `${label} must be at most ${s.maxLength} characters`;
    case ValueErrorType.StringMinLength:
      return `${label} must be at least ${s.minLength} characters`;
    case ValueErrorType.StringPattern:
      if (attribute.type === 'date') return `${label} must be a valid date (YYYY-MM-DD)`;
      if (attribute.type === 'time') return `${label} must be a valid time (HH:mm:ss.SSS)`;
      if (attribute.type === 'biginteger') return `${label} must be an integer`;
      return `${label} must match the following: "/${s.pattern}/"`;
    case ValueErrorType.StringFormat:
      return `${label} must be a valid email`;
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `${label} must be greater than or equal to ${s.minimum}`;
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `${label} must be less than or equal to ${s.maximum}`;
    case ValueErrorType.Integer:
      return typeof value === 'number' ? `${label} must be an integer` : typeMessage(label, attribute, value);
    case ValueErrorType.Union:
      if (attribute.type === 'enumeration') {
        // Strapi lists null among the allowed values of an optional enumeration, hence the trailing ", ".
        return `${label} must be one of the following values: ${(attribute.enum ?? []).join(', ')}${attribute.required ? '' : ', '}`;
      }
      return typeMessage(label, attribute, value);
    default:
      return typeMessage(label, attribute, value);
  }
}

/**
 * Brings a JSON value to the attribute's canonical form before it is checked: numeric
 * strings for numbers (as yup's non-strict mode does), any parseable date-time to ISO.
 * Leaves values it cannot convert alone so the check reports them.
 */
export function normaliseScalar(attribute: ScalarAttribute, value: unknown): unknown {
  switch (attribute.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    case 'biginteger':
      return typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'date':
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
      return value;
    case 'time':
      if (typeof value === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) {
        const [hm, ms = '000'] = value.length > 5 ? value.split('.') : [`${value}:00`];
        return `${hm.length === 5 ? `${hm}:00` : hm}.${ms.padEnd(3, '0')}`;
      }
      return value;
    case 'datetime':
    case 'timestamp': {
      if (typeof value !== 'string' && typeof value !== 'number') return value;
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date.toISOString();
    }
    default:
      return value;
  }
}

/** A failed check: the message, and where inside the value it failed (`[]`: the value itself). */
export interface ScalarProblem {
  message: string;
  path: Path;
  value: unknown;
}

/** Checks a non-null normalised value; returns the first failed check. */
export function checkScalar(
  owner: string,
  attribute: ScalarAttribute,
  value: unknown,
  mode: CheckMode,
  label: string,
): ScalarProblem | undefined {
  if (attribute.type === 'blocks') {
    // Node by node, with a path into the value (Strapi's blocks rules; see blocks.ts).
    return Array.isArray(value) ? checkBlocks(value, label) : { message: typeMessage(label, attribute, value), path: [], value };
  }
  const message = scalarMessage(owner, attribute, value, mode, label);
  return message === undefined ? undefined : { message, path: [], value };
}

/** Types stored as text whose schema carries the attribute's lengths. */
const TEXT_TYPES = new Set<ScalarAttribute['type']>(['string', 'text', 'richtext', 'password', 'email', 'uid']);

function scalarMessage(owner: string, attribute: ScalarAttribute, value: unknown, mode: CheckMode, label: string): string | undefined {
  if (typeof value === 'string') {
    // JSON values are stored as JSON text, where NUL and lone surrogates are escapes that
    // read back exactly; every other string is stored as text, which cannot hold them.
    const why = attribute.type === 'json' ? undefined : unstorableText(value);
    if (why) return `${label} ${why}`;
    // Lengths first, so a pattern (the schema's own regex included) never runs over a value
    // longer than the attribute allows, however the pattern behaves on long input.
    if (TEXT_TYPES.has(attribute.type) && attribute.maxLength !== undefined && value.length > attribute.maxLength) return `${label} must be at most ${attribute.maxLength} characters`;
  }
  if ((attribute.type === 'datetime' || attribute.type === 'timestamp') && typeof value === 'string') {
    if (Number.isNaN(new Date(value).getTime())) return `${label} must be a valid date-time`;
  }
  if (attribute.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    if (Number.isNaN(new Date(`${value}T00:00:00Z`).getTime())) return `${label} must be a valid date (YYYY-MM-DD)`;
  }
  const check = checkerFor(attribute, mode, owner);
  if (check.Check(value)) return undefined;
  const first = check.Errors(value).First();
  return first ? messageFor(label, attribute, first, value) : typeMessage(label, attribute, value);
}

/** JSON value → column value. */
export function toColumn(attribute: ScalarAttribute, value: unknown): string | number | bigint | null {
  if (value === null || value === undefined) return null;
  switch (attribute.type) {
    case 'boolean':
      return value ? 1 : 0;
    case 'json':
    case 'blocks':
      return JSON.stringify(value);
    case 'biginteger':
      return BigInt(value as string);
    default:
      return value as string | number;
  }
}

/** Column value → JSON value (the inverse of toColumn). */
export function fromColumn(attribute: ScalarAttribute, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (attribute.type) {
    case 'boolean':
      return raw === 1 || raw === true || raw === '1';
    case 'json':
    case 'blocks':
      return typeof raw === 'string' ? JSON.parse(raw) : raw;
    case 'biginteger':
      return String(raw);
    default:
      return raw;
  }
}
