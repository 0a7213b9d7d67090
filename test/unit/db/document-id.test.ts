/**
 * documentIds keep cuid2's shape (Strapi 5's `createId()`): Folio draws them straight from
 * the CSPRNG in that format (src/documents/document-id.ts).
 */
import { expect, test } from 'bun:test';
import { createId } from '@paralleldrive/cuid2';
import { createDocumentId } from '../../../src/documents/document-id';

test('a documentId is 24 lowercase letters and digits starting with a letter, as cuid2 makes them', () => {
  for (let i = 0; i < 2000; i++) expect(createDocumentId()).toMatch(/^[a-z][a-z0-9]{23}$/);
  expect(createId()).toMatch(/^[a-z][a-z0-9]{23}$/);
});

test('ten thousand documentIds made in one burst are all different and use every character of the alphabet', () => {
  const ids = Array.from({ length: 10_000 }, () => createDocumentId());
  expect(new Set(ids).size).toBe(ids.length);
  const seen = new Set(ids.join(''));
  expect(seen.size).toBe(36);
  expect(new Set(ids.map((id) => id[0])).size).toBe(26);
});
