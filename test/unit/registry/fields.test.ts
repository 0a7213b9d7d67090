/**
 * The compiled field model: one object per attribute answers every kind-specific
 * question (column type, storage conversions, checks, filter coercion, indexing).
 */
import { describe, expect, test } from 'bun:test';
import { compileField, ID_FIELD, INVALID, scalarFieldOf, type ScalarField } from '../../../src/registry/fields';
import { FILE_MODEL } from '../../../src/registry/file-model';
import type { RelationAttribute, ScalarAttribute, ScalarType } from '../../../src/registry/types';

const field = (type: ScalarType, extra: Partial<ScalarAttribute> = {}): ScalarField =>
  compileField({
    name: 'x',
    kind: 'scalar',
    type,
    unique: false,
    required: false,
    private: false,
    localized: false,
    writable: true,
    ...extra,
  }) as ScalarField;

describe('column types per engine', () => {
  test.each([
    ['integer', 'INTEGER', 'INTEGER'],
    ['biginteger', 'INTEGER', 'BIGINT'],
    ['float', 'REAL', 'DOUBLE PRECISION'],
    ['decimal', 'REAL', 'DOUBLE PRECISION'],
    ['boolean', 'INTEGER', 'INTEGER'],
    ['string', 'TEXT', 'TEXT COLLATE "C"'],
    ['json', 'TEXT', 'TEXT COLLATE "C"'],
    ['datetime', 'TEXT', 'TEXT COLLATE "C"'],
  ] as [ScalarType, string, string][])('%s is %s on SQLite and %s on PostgreSQL', (type, sqlite, postgres) => {
    expect(field(type).columnType('sqlite')).toBe(sqlite);
    expect(field(type).columnType('postgres')).toBe(postgres);
  });

  test('relations, media, components and dynamic zones have no column of their own', () => {
    const relation = compileField({
      name: 'r',
      kind: 'relation',
      relation: 'manyToOne',
      target: 'api::a.a',
      toMany: false,
      owner: true,
      linkTable: 't_r_lnk',
      required: false,
      private: false,
      localized: false,
      writable: true,
    } as RelationAttribute);
    expect(relation.kind).toBe('relation');
    expect(relation.columnType('sqlite')).toBeUndefined();
  });
});

describe('storage conversions', () => {
  test('booleans are 0/1 columns and come back as booleans', () => {
    expect(field('boolean').toColumn(true)).toBe(1);
    expect(field('boolean').toColumn(false)).toBe(0);
    expect(field('boolean').fromColumn(1)).toBe(true);
    expect(field('boolean').fromColumn(0)).toBe(false);
  });

  test('big integers are stored as BigInt and read back as strings, past 2^53', () => {
    const f = field('biginteger');
    expect(f.toColumn('9007199254740993')).toBe(9007199254740993n);
    expect(f.fromColumn('9007199254740993')).toBe('9007199254740993');
    expect(f.readAsText).toBe(true);
  });

  test('json and blocks round-trip through JSON text', () => {
    const value = { a: [1, 'two', null], nested: { ok: true } };
    expect(field('json').fromColumn(field('json').toColumn(value))).toEqual(value);
    expect(field('blocks').converts).toBe(true);
    expect(field('string').converts).toBe(false);
  });

  test('null stays null both ways for every type', () => {
    for (const type of ['integer', 'boolean', 'json', 'biginteger', 'string'] as ScalarType[]) {
      expect(field(type).toColumn(null)).toBeNull();
      expect(field(type).fromColumn(null)).toBeNull();
    }
  });
});

describe('normalising and checking values', () => {
  test('numeric strings become numbers, times gain milliseconds, date-times become ISO instants', () => {
    expect(field('integer').normalise('42')).toBe(42);
    expect(field('time').normalise('09:30:05')).toBe('09:30:05.000');
    expect(field('time').normalise('09:30:05.1')).toBe('09:30:05.100');
    expect(field('datetime').normalise(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(field('datetime').normalise('0')).toBe('1970-01-01T00:00:00.000Z');
    expect(field('datetime').normalise('1714563930000')).toBe('2024-05-01T11:45:30.000Z');
    // Digits parseISO reads as a basic ISO date are not milliseconds (Strapi tries parseISO first).
    expect(field('datetime').normalise('2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(field('date').normalise('2024-02-03T10:00:00Z')).toBe('2024-02-03');
  });

  test("a time needs its seconds and stays within the day, as Strapi's TIME_REGEX", () => {
    for (const bad of ['09:30', '24:00:00', '12:60:00', '12:00:60', '9:30:00', '12:00:00.1234']) {
      expect(field('time').check(field('time').normalise(bad), 'draft', 't')?.message).toBe('t must be a valid time (HH:mm:ss.SSS)');
    }
    expect(field('time').filterValue('09:30')).toBe(INVALID);
    expect(field('time').filterValue('09:30:00')).toBe('09:30:00.000');
  });

  test('a timestamp is stored as an ISO instant and answered as unix milliseconds in a string', () => {
    const f = field('timestamp');
    expect(f.normalise(1714563930000)).toBe('2024-05-01T11:45:30.000Z');
    expect(f.fromColumn('2024-05-01T11:45:30.000Z')).toBe('1714563930000');
    expect(f.filterValue('1714563930000')).toBe('2024-05-01T11:45:30.000Z');
    expect(field('datetime').converts).toBe(false);
  });

  test('messages use yup wording with the label', () => {
    expect(field('integer').check('abc', 'published', 'count')?.message).toBe('count must be a `number` type, but the final value was: `"abc"`.');
    expect(field('integer').check(2 ** 31, 'published', 'count')?.message).toBe('count must be less than or equal to 2147483647');
    expect(field('string', { maxLength: 3 }).check('abcd', 'draft', 'title')?.message).toBe('title must be at most 3 characters');
    expect(field('date').check('2023-02-29', 'draft', 'day')?.message).toBe('day must be a valid date (YYYY-MM-DD)');
    expect(field('enumeration', { enum: ['a', 'b'] }).check('c', 'draft', 'kind')?.message).toBe('kind must be one of the following values: a, b, ');
  });

  test('minimums and formats apply only when publishing; maximums always', () => {
    const f = field('string', { minLength: 3, maxLength: 5 });
    expect(f.check('ab', 'draft', 'x')).toBeUndefined();
    expect(f.check('ab', 'published', 'x')?.message).toBe('x must be at least 3 characters');
    expect(field('email').check('nope', 'draft', 'x')).toBeUndefined();
    expect(field('email').check('nope', 'published', 'x')?.message).toBe('x must be a valid email');
  });

  test('text that cannot be stored is refused before any pattern runs', () => {
    expect(field('string').check('a\u0000b', 'draft', 'x')?.message).toContain('NUL');
    expect(field('string').check('\ud800', 'draft', 'x')?.message).toContain('surrogate');
    expect(field('json').check('\ud800', 'draft', 'x')).toBeUndefined();
    const slow = field('string', { maxLength: 30, regex: '^(a+)+$' });
    expect(slow.check(`${'a'.repeat(100_000)}!`, 'published', 'x')?.message).toBe('x must be at most 30 characters');
  });

  test('blocks are checked node by node with a path into the value', () => {
    const problem = field('blocks').check([{ type: 'paragraph', children: [{ type: 'nope' }] }], 'draft', 'body');
    expect(problem?.path).toEqual([0, 'children', 0]);
  });

  test('each field caches its own compiled check: two fields of one name and different limits disagree', () => {
    expect(field('string', { maxLength: 2 }).check('abc', 'draft', 'x')).toBeDefined();
    expect(field('string', { maxLength: 5 }).check('abc', 'draft', 'x')).toBeUndefined();
  });
});

describe('filter values from the query string', () => {
  test.each([
    ['integer', '12', 12],
    ['integer', '1.5', INVALID],
    ['biginteger', '9007199254740993', 9007199254740993n],
    ['float', '1.5', 1.5],
    ['float', '', INVALID],
    ['boolean', 'TRUE', 1],
    ['boolean', 'f', 0],
    ['boolean', 'maybe', INVALID],
    ['date', '2024-01-31T10:00', '2024-01-31'],
    ['date', '2023-02-30', INVALID],
    ['datetime', '2024-01-31', '2024-01-31T00:00:00.000Z'],
    ['datetime', 'yesterday', INVALID],
    ['string', 'as is', 'as is'],
  ] as [ScalarType, string, unknown][])('%s reads %p as %p', (type, raw, expected) => {
    expect(field(type).filterValue(raw)).toBe(expected as never);
  });
});

describe('indexing and visibility', () => {
  test('short sortable values are indexed, long text, JSON and booleans are not', () => {
    expect(field('string').indexed).toBe(true);
    expect(field('datetime').indexed).toBe(true);
    expect(field('text').indexed).toBe(false);
    expect(field('json').indexed).toBe(false);
    expect(field('boolean').indexed).toBe(false);
    expect(field('text', { unique: true }).indexed).toBe(true);
  });

  test('private attributes and passwords are neither shown nor indexed', () => {
    expect(field('string', { private: true }).visible).toBe(false);
    expect(field('string', { private: true, unique: true }).indexed).toBe(false);
    expect(field('password').visible).toBe(false);
  });

  test('system columns resolve to fields like attributes', () => {
    expect(scalarFieldOf(FILE_MODEL, 'id')).toBe(ID_FIELD);
    expect(scalarFieldOf(FILE_MODEL, 'createdAt')?.type).toBe('datetime');
    expect(scalarFieldOf(FILE_MODEL, 'locale')).toBeUndefined();
    expect(scalarFieldOf(FILE_MODEL, 'mime')?.type).toBe('string');
    expect(scalarFieldOf(FILE_MODEL, 'nope')).toBeUndefined();
  });
});
