/**
 * Dates and times, stored as ISO text so they sort as text on both engines: `date`
 * (YYYY-MM-DD), `time` (HH:mm:ss.SSS), `datetime` and `timestamp` (full ISO instants).
 * What is accepted and answered follows Strapi 5's database fields (packages/core/database
 * src/fields): a time needs its seconds, a datetime or timestamp may be given as unix
 * milliseconds, and a timestamp is answered as unix milliseconds in a string (date-fns 'T').
 */
import { Type } from '@sinclair/typebox';
import type { ScalarAttribute } from '../types';
import { INVALID, type ScalarField } from './field';
import { scalarField, TEXT_COLUMN, type ScalarSpec } from './scalar';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Strapi's TIME_REGEX: hours 00–23, minutes and seconds required, up to 3 fraction digits. */
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?$/;
/**
 * Unix milliseconds as text. Strapi tries parseISO first, which reads 4, 6, 7 and 8 digits as
 * a basic ISO date (2024, 202405, 2024122, 20240501), and date-fns 'T' only after that; every
 * other run of digits is milliseconds ("0" is the epoch). 15 digits stay within a Date's range.
 */
const isMillis = (text: string) => /^-?\d{1,15}$/.test(text) && !/^\d{4}$|^\d{6,8}$/.test(text);

/** Whether a YYYY-MM-DD string names a day the calendar has (2023-02-29 does not; Date would roll it over). */
function realDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** An instant given as an ISO string, unix milliseconds (a number or digits), or undefined. */
function toInstant(value: unknown): Date | undefined {
  let parsed: Date;
  if (typeof value === 'number') parsed = Number.isFinite(value) ? new Date(value) : new Date(NaN);
  else if (typeof value === 'string') parsed = isMillis(value) ? new Date(Number(value)) : new Date(value);
  else return undefined;
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

const date: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String({ pattern: DAY.source }),
  patternMessage: (label) => `${label} must be a valid date (YYYY-MM-DD)`,
  normalise: (value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value),
  precheck: (value, label) => (typeof value === 'string' && DAY.test(value) && !realDay(value) ? `${label} must be a valid date (YYYY-MM-DD)` : undefined),
  filterValue(raw) {
    const day = /^\d{4}-\d{2}-\d{2}/.exec(raw)?.[0];
    return day && realDay(day) ? day : INVALID;
  },
};

/** `HH:mm:ss` or `HH:mm:ss.S…` → `HH:mm:ss.SSS`; anything else is left for the check. */
const fullTime = (value: string) => {
  const [hms, fraction = ''] = value.split('.');
  return `${hms}.${fraction.padEnd(3, '0')}`;
};

const time: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String({ pattern: TIME.source }),
  patternMessage: (label) => `${label} must be a valid time (HH:mm:ss.SSS)`,
  normalise: (value) => (typeof value === 'string' && TIME.test(value) ? fullTime(value) : value),
  filterValue: (raw) => (TIME.test(raw) ? fullTime(raw) : INVALID),
};

/** A datetime is answered as stored (toISOString form). */
const datetime: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String(),
  normalise: (value) => toInstant(value)?.toISOString() ?? value,
  precheck: (value, label) =>
    (typeof value === 'string' || typeof value === 'number') && !toInstant(value) ? `${label} must be a valid date-time` : undefined,
  filterValue: (raw) => toInstant(raw)?.toISOString() ?? INVALID,
};

/** Stored like a datetime; answered as Strapi's TimestampField.fromDB does: unix milliseconds, as a string. */
const timestamp: ScalarSpec = {
  ...datetime,
  fromColumn(raw) {
    const ms = Date.parse(String(raw));
    return Number.isNaN(ms) ? null : String(ms);
  },
};

export function dateField(attribute: ScalarAttribute): ScalarField | undefined {
  switch (attribute.type) {
    case 'date':
      return scalarField(attribute, date);
    case 'time':
      return scalarField(attribute, time);
    case 'datetime':
      return scalarField(attribute, datetime);
    case 'timestamp':
      return scalarField(attribute, timestamp);
    default:
      return undefined;
  }
}
