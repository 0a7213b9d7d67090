/**
 * The names Folio gives stored tables and indexes, fitted to PostgreSQL's 63-byte identifiers.
 * The registry names a model's tables as it loads the schemas; db/layout.ts re-exports these,
 * so db/ code still takes every name from one module.
 */

/**
 * PostgreSQL's identifier limit (NAMEDATALEN - 1) in bytes. PostgreSQL cuts a longer name
 * silently, at a character boundary: two names sharing their first 63 bytes become one, and a
 * catalogue lookup by the full name finds nothing (schema sync would make the object again at
 * every start). SQLite has no limit, but names stay the same on both engines, so an archive
 * or a copy moves between them table for table.
 */
export const MAX_IDENTIFIER_BYTES = 63;

const FIT_HASH_LENGTH = 8;
const utf8 = new TextEncoder();
/** Long names fitted in this process, by fitted name (what schema sync adopts from older layouts). */
const fittedFrom = new Map<string, string>();

/** The longest start of `name` within `bytes` UTF-8 bytes, never cutting a character (as PostgreSQL cuts). */
export function clipToBytes(name: string, bytes: number): string {
  if (utf8.encode(name).length <= bytes) return name;
  let out = '';
  let used = 0;
  for (const char of name) {
    const size = utf8.encode(char).length;
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * Every name Folio builds (tables, link tables, indexes) goes through here: a name that fits
 * is returned as it is (existing installations keep their names); a longer one becomes its
 * readable start, `_` and 8 hex characters of a SHA-1 of the whole name, 63 bytes at most, so
 * names sharing a long start stay apart. `was`: the name an older Folio built for it (from
 * the whole name of the table it belongs to, when that table's name was fitted too).
 */
export function fitIdentifier(name: string, was = name): string {
  if (utf8.encode(name).length <= MAX_IDENTIFIER_BYTES) return name;
  const hash = new Bun.CryptoHasher('sha1').update(name).digest('hex').slice(0, FIT_HASH_LENGTH);
  const fitted = `${clipToBytes(name, MAX_IDENTIFIER_BYTES - FIT_HASH_LENGTH - 1)}_${hash}`;
  fittedFrom.set(fitted, was);
  return fitted;
}

/** The whole name a table had before it was fitted (itself when it was not): what Strapi's own names are made from. */
export const wholeName = (table: string) => fittedFrom.get(table) ?? table;

/** A name built from a table's: fitted, and remembered as older Folios spelled it (from the table's whole name). */
const fromTable = (table: string, rest: string) => fitIdentifier(`${table}_${rest}`, `${wholeName(table)}_${rest}`);

/**
 * The name an older Folio gave what is now `name`, when `name` was fitted: the whole name on
 * SQLite, its first 63 bytes on PostgreSQL (what PostgreSQL made of it). Undefined otherwise.
 */
export function legacyName(name: string, engine: 'sqlite' | 'postgres'): string | undefined {
  const whole = fittedFrom.get(name);
  if (whole === undefined) return undefined;
  return engine === 'sqlite' ? whole : clipToBytes(whole, MAX_IDENTIFIER_BYTES);
}

/** The link table of an owning relation attribute of the model stored in `table`. */
export const linkTableName = (table: string, attribute: string) => fromTable(table, `${attribute}_lnk`);

/** The link table of a morphToOne / morphToMany attribute of the content type stored in `table`. */
export const morphTableName = (table: string, attribute: string) => fromTable(table, `${attribute}_mph`);

/** An index of `table`: `<table>_<suffix>` (`title_idx`, `version_uq`, `source_idx`…), fitted. */
export const indexName = (table: string, suffix: string) => fromTable(table, suffix);
