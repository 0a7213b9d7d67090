/**
 * documentIds (src/documents/document-id.ts) keep the format Strapi 5's cuid2 `createId()`
 * gives them, never repeat, draw their random characters evenly, and carry the creation time
 * after the first letter so new ids append to the documentId index.
 */
import { expect, test } from 'bun:test';
import { createId } from '@paralleldrive/cuid2';
import { createDocumentId } from '../../../src/documents/document-id';

const SHAPE = /^[a-z][a-z0-9]{23}$/;

test('a hundred thousand documentIds are all 24 lowercase letters and digits, start with a letter, as cuid2 makes them, and are all different', () => {
  expect(createId()).toMatch(SHAPE);
  const ids = Array.from({ length: 100_000 }, () => createDocumentId());
  for (const id of ids) if (!SHAPE.test(id)) throw new Error(`bad documentId ${id}`);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids.map((id) => id[0])).size).toBe(26);
});

test('every random character after the time is drawn evenly from the 36 letters and digits', () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 30_000; i++) for (const ch of createDocumentId().slice(9)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  expect(counts.size).toBe(36);
  // 450,000 draws: each character expects 12,500; a biased draw (a byte taken modulo 36
  // without rejection favours the first 4 characters by 1/7) would be off by ~1,800.
  const expected = (30_000 * 15) / 36;
  for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(800);
});

test('an id made a millisecond later sorts after an earlier one once their first letters agree, so new ids append to the index', () => {
  const start = Date.UTC(2026, 10, 24, 12, 0, 0);
  for (let ms = 0; ms < 2000; ms++) {
    const earlier = createDocumentId(start + ms).slice(1);
    const later = createDocumentId(start + ms + 1).slice(1);
    if (!(earlier < later)) throw new Error(`${earlier} does not sort before ${later}`);
  }
  // Ids of the same millisecond differ only in their random characters.
  expect(createDocumentId(start).slice(1, 9)).toBe(createDocumentId(start).slice(1, 9));
  expect(createDocumentId(start).slice(9)).not.toBe(createDocumentId(start).slice(9));
});

test('the time field keeps its 8 characters before 36^8 ms (2059) and wraps after it, so ids stay well-formed', () => {
  expect(createDocumentId(0)).toMatch(/^[a-z]00000000[a-z0-9]{15}$/);
  expect(createDocumentId(36 ** 8 - 1)).toMatch(/^[a-z]zzzzzzzz[a-z0-9]{15}$/);
  expect(createDocumentId(36 ** 8 + 35)).toMatch(/^[a-z]0000000z[a-z0-9]{15}$/);
});
