/**
 * Order keys placed into a gap: always inside it, distinct between writers, and a gap is
 * found even where an older race left two equal keys.
 */
import { describe, expect, test } from 'bun:test';
import { generateKeyBetween } from 'fractional-indexing';
import { distinctKeyBetween, gapBefore } from '../../../src/documents/relations/order-keys';

describe('distinctKeyBetween', () => {
  test('stays strictly inside the gap, for open and closed gaps alike', () => {
    const pairs: [string | null, string | null][] = [
      [null, null],
      ['a0', null],
      [null, 'a0'],
      ['a0', 'a1'],
      ['a0V', 'a0V5'],
      ['Zz', 'a0'],
    ];
    for (const [low, high] of pairs) {
      for (let i = 0; i < 200; i++) {
        const key = distinctKeyBetween(low, high);
        if (low !== null) expect(key > low).toBe(true);
        if (high !== null) expect(key < high).toBe(true);
        // Still a key the library accepts as a bound.
        expect(() => generateKeyBetween(key, null)).not.toThrow();
      }
    }
  });

  test('gives two writers placing into the same gap different keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => distinctKeyBetween('a0', 'a1')));
    expect(keys.size).toBe(1000);
  });
});

describe('gapBefore', () => {
  test('steps over keys equal to the one before the gap', () => {
    expect(gapBefore(['a0', 'aV', 'aV', 'b0'], 2)).toEqual(['aV', 'b0']);
    expect(gapBefore(['a0', 'aV'], 0)).toEqual([null, 'a0']);
    expect(gapBefore(['a0', 'aV'], 2)).toEqual(['aV', null]);
    expect(gapBefore(['aV', 'aV'], 1)).toEqual(['aV', null]);
  });
});
