/**
 * The SQL builder: placeholders and parameters are produced together, so however
 * fragments are nested or ordered, the n-th placeholder binds the n-th parameter.
 */
import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { Sql, sql } from '../../../src/db/sql';

describe('sql tagged template', () => {
  test('turns interpolated values into parameters in the order they appear', () => {
    const q = sql`SELECT * FROM t WHERE a = ${1} AND b = ${'x'}`;
    expect(q.compile('question')).toEqual({ text: 'SELECT * FROM t WHERE a = ? AND b = ?', params: [1, 'x'] });
    expect(q.compile('numbered')).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b = $2', params: [1, 'x'] });
  });

  test('splices nested fragments with their own parameters at the place they are interpolated', () => {
    const inner = sql`c IN (${sql.list([3, 4])})`;
    const q = sql`SELECT ${sql.id('t', 'x')} FROM t WHERE a = ${1} AND ${inner} AND d = ${5}`;
    expect(q.compile('numbered')).toEqual({
      text: 'SELECT "t"."x" FROM t WHERE a = $1 AND c IN ($2, $3) AND d = $4',
      params: [1, 3, 4, 5],
    });
  });

  test('keeps parameters bound to their own placeholders when fragments are built inside out', () => {
    // The bug the builder prevents: a nested subquery whose parameters were pushed to a separate list after its parent's.
    const level2 = sql`(SELECT v FROM c2 WHERE owner = ${'inner'})`;
    const level1 = sql`(SELECT ${level2} FROM c1 WHERE owner = ${'outer'})`;
    expect(sql`ORDER BY ${level1}`.compile('numbered')).toEqual({
      text: 'ORDER BY (SELECT (SELECT v FROM c2 WHERE owner = $1) FROM c1 WHERE owner = $2)',
      params: ['inner', 'outer'],
    });
  });

  test('quotes identifiers and doubles embedded quotes', () => {
    expect(sql.id('we"ird').toString()).toBe('"we""ird"');
    expect(sql.id('t', 'col').toString()).toBe('"t"."col"');
    expect(() => sql.id('a\u0000b')).toThrow();
  });

  test('writes text literals into the statement, quotes doubled, with no parameter on either dialect', () => {
    expect(sql`WHERE t = ${sql.text("it's")}`.compile('numbered')).toEqual({ text: "WHERE t = 'it''s'", params: [] });
    expect(() => sql.text('a\u0000b')).toThrow();
  });

  test('joins fragments with a separator and keeps each fragment parameters', () => {
    const q = sql.join([sql`a = ${1}`, sql`b = ${2}`, sql`c`], sql` OR `);
    expect(q.compile('question')).toEqual({ text: 'a = ? OR b = ? OR c', params: [1, 2] });
    expect(sql.join([]).isEmpty).toBe(true);
  });

  test('and() drops empty conditions and parenthesises only when there are several', () => {
    expect(sql.and([]).isEmpty).toBe(true);
    expect(sql.and([sql.empty, sql`a = ${1}`]).compile('question')).toEqual({ text: 'a = ?', params: [1] });
    expect(sql.and([sql`a = ${1}`, sql.empty, sql`b = ${2}`]).compile('question').text).toBe('(a = ?) AND (b = ?)');
  });

  test('or() of nothing matches nothing, and not() of an empty condition matches nothing', () => {
    expect(sql.or([]).toString()).toBe('1 = 0');
    expect(sql.or([sql`a = ${1}`, sql.empty]).toString()).toBe('(a = ?) OR (1 = 1)');
    expect(sql.not(sql.empty).toString()).toBe('NOT (1 = 1)');
  });

  test('refuses undefined values and empty lists instead of producing broken SQL', () => {
    expect(() => sql`a = ${undefined as never}`).toThrow(TypeError);
    expect(() => sql.list([])).toThrow(TypeError);
  });

  test('raw text is taken as is and carries no parameters', () => {
    const q = sql`SELECT 1 ${sql.raw('ASC NULLS FIRST')}`;
    expect(q).toBeInstanceOf(Sql);
    expect(q.compile('numbered')).toEqual({ text: 'SELECT 1 ASC NULLS FIRST', params: [] });
  });

  test('compiled statements run on a real SQLite database with the values bound where written', () => {
    const db = new Database(':memory:');
    db.run('CREATE TABLE t (a INTEGER, b TEXT)');
    for (const [a, b] of [
      [1, 'x'],
      [2, 'y'],
      [3, 'z'],
    ] as const) {
      const { text, params } = sql`INSERT INTO ${sql.id('t')} (a, b) VALUES (${a}, ${b})`.compile('question');
      db.prepare(text).run(...(params as never[]));
    }
    const filter = sql.and([sql`a > ${1}`, sql`b <> ${'z'}`]);
    const { text, params } = sql`SELECT b FROM t WHERE ${filter} ORDER BY a`.compile('question');
    expect(db.prepare(text).all(...(params as never[]))).toEqual([{ b: 'y' }]);
    db.close();
  });
});
