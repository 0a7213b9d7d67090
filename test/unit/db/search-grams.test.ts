/**
 * The trigram choice behind PostgreSQL's `_q` (db/search-grams.ts): only pg_trgm's own entries
 * (three word characters), the rarest first by a sample's document frequencies, and no choice
 * when there is nothing to leave out.
 */
import { describe, expect, test } from 'bun:test';
import { countTrigrams, rarestTrigrams, wordTrigrams } from '../../../src/db/search-grams';

describe('trigrams of a search', () => {
  test('are the three-character runs of ASCII letters and digits, never across a space, punctuation or another script', () => {
    expect([...wordTrigrams('article 4242')]).toEqual(['art', 'rti', 'tic', 'icl', 'cle', '424', '242']);
    expect([...wordTrigrams('a-b c.d')]).toEqual([]);
    expect([...wordTrigrams('café ñu')]).toEqual(['caf']);
    expect([...wordTrigrams('日本語です')]).toEqual([]);
  });

  const rows = (n: number, text: string) => Array.from({ length: n }, (_, i) => [`${text} ${i}`]);

  test('the rarest trigram is looked up, and the next one only while it is rare too; unseen ones are rarest, ties keep their order', () => {
    const frequencies = countTrigrams([...rows(100, 'bench article'), ['bench article 4242'], ['bench article 777']]);
    expect(frequencies.rows).toBe(102);
    expect(frequencies.counts.get('art')).toBe(102);
    expect(frequencies.counts.get('424')).toBe(1);
    expect(rarestTrigrams('article 4242', frequencies)).toEqual(['424', '242']);
    expect(rarestTrigrams('article zebra', frequencies)).toEqual(['zeb', 'ebr']);
    // 777 is rare, every other trigram is in every row: one lookup, not a second reading a whole list.
    expect(rarestTrigrams('bench article 777', frequencies)).toEqual(['777']);
  });

  test('no choice is made when the search has no ASCII trigram at all', () => {
    const none = { rows: 0, counts: new Map<string, number>() };
    expect(rarestTrigrams('ab', none)).toBeUndefined();
    expect(rarestTrigrams('日本語', none)).toBeUndefined();
    expect(rarestTrigrams('abcd', none)).toEqual(['abc', 'bcd']);
  });

  test('a sample keeps only its most frequent trigrams: the others count as rare', () => {
    const counted = countTrigrams([['aaa bbb ccc'], ['aaa bbb'], ['aaa']], 2);
    expect([...counted.counts.keys()].sort()).toEqual(['aaa', 'bbb']);
  });
});
