/**
 * Dates and times, stored as ISO text so they sort as text on both engines: `date`
 * (YYYY-MM-DD), `time` (HH:mm:ss.SSS), `datetime` and `timestamp` (full ISO instants).
 */
import { Type } from '@sinclair/typebox';
import type { ScalarAttribute } from '../types';
import { INVALID, type ScalarField } from './field';
import { scalarField, TEXT_COLUMN, type ScalarSpec } from './scalar';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/** Whether a YYYY-MM-DD string names a day the calendar has (2023-02-29 does not; Date would roll it over). */
function realDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const date: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String({ pattern: DAY.source }),
  patternMessage: (label) => `${label} must be a valid date (YYYY-MM-DD)`,
  normalise: (value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value),
  precheck: (value, label) =>
    typeof value === 'string' && DAY.test(value) && !realDay(value) ? `${label} must be a valid date (YYYY-MM-DD)` : undefined,
  filterValue(raw) {
    const day = /^\d{4}-\d{2}-\d{2}/.exec(raw)?.[0];
    return day && realDay(day) ? day : INVALID;
  },
};

const time: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String({ pattern: TIME.source }),
  patternMessage: (label) => `${label} must be a valid time (HH:mm:ss.SSS)`,
  normalise(value) {
    if (typeof value !== 'string' || !TIME.test(value)) return value;
    const [hm, ms = '000'] = value.length > 5 ? value.split('.') : [`${value}:00`];
    return `${hm!.length === 5 ? `${hm}:00` : hm}.${ms.padEnd(3, '0')}`;
  },
};

const instant: ScalarSpec = {
  columnType: TEXT_COLUMN,
  indexable: true,
  schema: () => Type.String(),
  normalise(value) {
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    const parsed = new Date(value);
    return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
  },
  precheck: (value, label) =>
    typeof value === 'string' && Number.isNaN(new Date(value).getTime()) ? `${label} must be a valid date-time` : undefined,
  filterValue(raw) {
    const parsed = new Date(raw);
    return Number.isNaN(parsed.getTime()) ? INVALID : parsed.toISOString();
  },
};

export function dateField(attribute: ScalarAttribute): ScalarField | undefined {
  switch (attribute.type) {
    case 'date':
      return scalarField(attribute, date);
    case 'time':
      return scalarField(attribute, time);
    case 'datetime':
    case 'timestamp':
      return scalarField(attribute, instant);
    default:
      return undefined;
  }
}
