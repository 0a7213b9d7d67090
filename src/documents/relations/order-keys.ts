/**
 * Order keys of relation lists (fractional indexing: text keys that sort byte by byte).
 * A key placed in a gap gets a random fraction: two writers placing into the same gap, or a
 * key hidden behind another version's (the inverse list shows each document at its first
 * key), then never produce the same key, and equal keys never make a later placement fail.
 */
import { randomInt } from 'node:crypto';
import { generateKeyBetween } from 'fractional-indexing';

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key after `low` and before `high` (null: no bound), distinct from any other writer's. */
export function distinctKeyBetween(low: string | null, high: string | null): string {
  const base = generateKeyBetween(low, high);
  let fraction = '';
  for (let i = 0; i < 7; i++) fraction += DIGITS[randomInt(62)];
  // The last digit is never 0, so the key stays a valid fractional key.
  const key = base + fraction + DIGITS[1 + randomInt(61)];
  // `base` can be a prefix of `high`, and a fraction could then pass it: keep the plain key.
  return high === null || key < high ? key : base;
}

/**
 * The bounds of the gap before `index` in a list ordered by key: the key before it, and the
 * first key after it that is greater (equal keys, left by an older race, are stepped over).
 */
export function gapBefore(keys: readonly string[], index: number): [string | null, string | null] {
  const low = keys[index - 1] ?? null;
  let next = index;
  while (low !== null && next < keys.length && keys[next]! <= low) next++;
  return [low, keys[next] ?? null];
}
