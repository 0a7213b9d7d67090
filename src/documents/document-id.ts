/**
 * documentIds in Strapi 5's format: what `createId()` of @paralleldrive/cuid2 makes, 24
 * characters, lowercase letters and digits, a letter first. cuid2 hashes a timestamp, a
 * counter and a host fingerprint with SHA3-512 and converts the hash to base 36; that took
 * 0.1–0.3 ms per id, a fifth of a whole create request. The format is all that callers (and
 * Strapi's own validators) rely on, so the characters are drawn straight from the CSPRNG:
 * 1 letter (26 choices) + 23 characters of 36, about 123 random bits, so two ids coincide
 * with negligible probability however many processes make them.
 *
 * Each character takes one random byte; bytes at or above the largest multiple of the
 * alphabet's size are rejected (rejection sampling), so every character is equally likely.
 * Bytes come from a pooled buffer refilled 4 KiB at a time: one getRandomValues call serves
 * ~170 ids, and an id costs a few hundred nanoseconds.
 */
import { getRandomValues } from 'node:crypto';

const LENGTH = 24;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiples of 26 and 36 that fit in a byte: bytes at or above them are rejected. */
const LETTER_LIMIT = 256 - (256 % 26);
const CHARACTER_LIMIT = 256 - (256 % 36);

const pool = new Uint8Array(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** A new documentId. */
export function createDocumentId(): string {
  let byte = randomByte();
  while (byte >= LETTER_LIMIT) byte = randomByte();
  let id = ALPHABET[byte % 26]!;
  while (id.length < LENGTH) {
    byte = randomByte();
    if (byte < CHARACTER_LIMIT) id += ALPHABET[byte % 36];
  }
  return id;
}
