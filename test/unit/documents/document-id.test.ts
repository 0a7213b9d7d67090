/**
 * documentIds drawn straight from the CSPRNG (src/documents/document-id.ts) keep the format
 * Strapi 5's cuid2 `createId()` gives them, never repeat, and use the alphabet evenly.
 */
import { expect, test } from 'bun:test';
import { createDocumentId } from '../../../src/documents/document-id';

test('a hundred thousand documentIds are all 24 lowercase letters and digits, start with a letter, and are all different', () => {
  const ids = Array.from({ length: 100_000 }, () => createDocumentId());
  for (const id of ids) if (!/^[a-z][a-z0-9]{23}$/.test(id)) throw new Error(`bad documentId ${id}`);
  expect(new Set(ids).size).toBe(ids.length);
});

test('every character after the first is drawn evenly from the 36 letters and digits', () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) for (const ch of createDocumentId().slice(1)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  expect(counts.size).toBe(36);
  // 460,000 draws: each character expects ~12,778; a biased draw (a byte taken modulo 36
  // without rejection favours the first 4 characters by 1/7) would be off by ~1,800.
  const expected = (20_000 * 23) / 36;
  for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(800);
});
