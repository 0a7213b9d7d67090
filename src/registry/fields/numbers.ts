/**
 * Numbers and booleans. Integers are 32-bit (the PostgreSQL column is), bigintegers travel
 * as strings of digits (a JS number would round them past 2^53), booleans are stored as
 * 0/1 on both engines so rows read the same everywhere.
 */
import { Type } from '@sinclair/typebox';
import type { ScalarAttribute } from '../types';
import { INVALID, type ScalarField } from './field';
import { range, scalarField, type ScalarSpec } from './scalar';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INTEGER_TEXT = /^-?\d+$/;

const TRUE_WORDS = new Set(['true', 't', '1']);
const FALSE_WORDS = new Set(['false', 'f', '0']);

/** Numeric strings become numbers, as yup's non-strict mode does; anything else is left for the check. */
const toNumber = (value: unknown) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value);

const integer: ScalarSpec = {
  columnType: { sqlite: 'INTEGER', postgres: 'INTEGER' },
  typeName: 'number',
  indexable: true,
  schema: (a, mode) => Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...range(a, mode) }),
  normalise: toNumber,
  filterValue: (raw) => (INTEGER_TEXT.test(raw.trim()) ? Number(raw) : INVALID),
};

const biginteger: ScalarSpec = {
  columnType: { sqlite: 'INTEGER', postgres: 'BIGINT' },
  indexable: true,
  readAsText: true,
  schema: () => Type.String({ pattern: '^-?[0-9]+$' }),
  patternMessage: (label) => `${label} must be an integer`,
  normalise: (value) => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value),
  toColumn: (value) => BigInt(value as string),
  fromColumn: (raw) => String(raw),
  filterValue: (raw) => (INTEGER_TEXT.test(raw.trim()) ? BigInt(raw.trim()) : INVALID),
};

const decimal: ScalarSpec = {
  columnType: { sqlite: 'REAL', postgres: 'DOUBLE PRECISION' },
  typeName: 'number',
  indexable: true,
  schema: (a, mode) => Type.Number(range(a, mode)),
  normalise: toNumber,
  filterValue(raw) {
    const n = Number(raw);
    return raw.trim() === '' || Number.isNaN(n) ? INVALID : n;
  },
};

const boolean: ScalarSpec = {
  columnType: { sqlite: 'INTEGER', postgres: 'INTEGER' },
  typeName: 'boolean',
  schema: () => Type.Boolean(),
  normalise: (value) => (value === 'true' ? true : value === 'false' ? false : value),
  toColumn: (value) => (value ? 1 : 0),
  fromColumn: (raw) => raw === 1 || raw === true || raw === '1',
  filterValue(raw) {
    const word = raw.toLowerCase();
    return TRUE_WORDS.has(word) ? 1 : FALSE_WORDS.has(word) ? 0 : INVALID;
  },
};

export function numberField(attribute: ScalarAttribute): ScalarField | undefined {
  switch (attribute.type) {
    case 'integer':
      return scalarField(attribute, integer);
    case 'biginteger':
      return scalarField(attribute, biginteger);
    case 'float':
    case 'decimal':
      return scalarField(attribute, decimal);
    case 'boolean':
      return scalarField(attribute, boolean);
    default:
      return undefined;
  }
}
