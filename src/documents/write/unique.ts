/**
 * Unique (and uid) attributes: a published version's value must differ from every other
 * published document's in its locale. A write takes the value's lock (./locks.ts) before
 * it looks, so a concurrent write of the same value cannot pass the same check.
 */
import type { Queryable } from '../../db/database';
import { valueTaken } from '../../db/store/versions';
import { ValidationError, type FieldError } from '../../errors';
import type { ScalarField } from '../../registry/fields/field';
import type { ContentType } from '../../registry/types';
import type { ModelWrite } from './input';
import { uniqueLock } from './locks';
import type { VersionKey } from './versions';

/** The unique (and uid) values a version will hold once written. */
export function uniqueValues(ct: ContentType, input: ModelWrite | undefined, existing?: Record<string, unknown>): [ScalarField, unknown][] {
  const values: [ScalarField, unknown][] = [];
  for (const field of Object.values(ct.fields)) {
    if (field.kind !== 'scalar' || !(field.attribute.unique || field.type === 'uid')) continue;
    const value = input && field.name in input.scalars ? input.scalars[field.name] : existing?.[field.name];
    if (value !== null && value !== undefined) values.push([field, value]);
  }
  return values;
}

/** The locks of a batch's unique values, taken in one call (./locks.ts: one call cannot deadlock another). */
export function uniqueLocks(ct: ContentType, locale: string, inputs: ModelWrite[]): string[] {
  return inputs.flatMap((input) => uniqueValues(ct, input).map(([field, value]) => uniqueLock(ct, field, locale, value)));
}

/**
 * Refuses a version whose unique values another published document of the locale holds,
 * naming every such attribute. `lock`: take the values' locks first (false when the caller
 * took them already).
 */
export async function assertUnique(
  tx: Queryable,
  ct: ContentType,
  key: VersionKey,
  input: ModelWrite | undefined,
  existing?: Record<string, unknown>,
  lock = true,
) {
  const values = uniqueValues(ct, input, existing);
  if (lock) await tx.lock(values.map(([field, value]) => uniqueLock(ct, field, key.locale, value)));
  const errors: FieldError[] = [];
  for (const [field, value] of values) {
    if (await valueTaken(tx, ct, field, value, key.locale, key.documentId)) {
      errors.push({ path: [field.name], message: 'This attribute must be unique', name: 'ValidationError', value });
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
}
