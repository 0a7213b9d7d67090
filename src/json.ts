/**
 * Shapes of parsed JSON and query-string values, shared by every layer that reads them.
 */

/** A plain object (not null, not an array): the only shape that has keys to read. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
