/**
 * The keys Strapi's schema files use, so a typo (`requierd`) is reported as a warning naming
 * the file and the key instead of silently doing nothing. The lists are the union of what
 * Strapi reads (core content-type loader, content-type builder validators, database layer)
 * and what its tools write, so real projects get no false warnings. Not an error: Strapi
 * itself ignores unknown keys.
 */
import type { Json } from './validate.ts';

const MODEL_KEYS = new Set([
  '$schema',
  'kind',
  'collectionName',
  'info',
  'options',
  'pluginOptions',
  'attributes',
  'config',
  // written by exports and older generators, read (or ignored) by Strapi's loader
  'connection',
  'globalId',
  'uid',
  'modelType',
  'modelName',
  'draftAndPublish',
  'reviewWorkflows',
]);

const ATTRIBUTE_KEYS = new Set([
  'type',
  'required',
  'unique',
  'private',
  'configurable',
  'visible',
  'writable',
  'searchable',
  'default',
  'min',
  'max',
  'minLength',
  'maxLength',
  'regex',
  'enum',
  'enumName',
  'targetField',
  'options',
  'pluginOptions',
  'customField',
  'conditions',
  'column',
  'columnName',
  'autoPopulate',
  // media
  'multiple',
  'allowedTypes',
  // relations (joinTable, joinColumn, morph* and useJoinTable are read by Strapi's database layer)
  'relation',
  'target',
  'inversedBy',
  'mappedBy',
  'targetAttribute',
  'useJoinTable',
  'joinTable',
  'joinColumn',
  'morphBy',
  'morphColumn',
  // components and dynamic zones
  'component',
  'repeatable',
  'components',
  // the content-type builder writes it on component attributes
  'displayName',
]);

/** One warning per unknown top-level or attribute key of a schema file. */
export function unknownKeyWarnings(file: string, raw: Json): string[] {
  const out: string[] = [];
  for (const key of Object.keys(raw)) {
    if (!MODEL_KEYS.has(key)) out.push(`${file}: unknown key "${key}" (ignored)${hint(key, MODEL_KEYS)}`);
  }
  const attributes = raw.attributes;
  if (typeof attributes !== 'object' || attributes === null) return out;
  for (const [name, a] of Object.entries(attributes as Json)) {
    if (typeof a !== 'object' || a === null || Array.isArray(a)) continue;
    for (const key of Object.keys(a)) {
      if (!ATTRIBUTE_KEYS.has(key)) out.push(`${file} (attribute "${name}"): unknown key "${key}" (ignored)${hint(key, ATTRIBUTE_KEYS)}`);
    }
  }
  return out;
}

/** `; did you mean "required"?` for a key within two edits of a known one. */
function hint(key: string, known: Set<string>): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best ? `; did you mean "${best}"?` : '';
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}
