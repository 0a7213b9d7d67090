/**
 * What a Folio archive holds, in order:
 *  - `manifest.json` (always first): format, kind, Folio version, source engine, migrations
 *    applied, every table with its columns and row count, the number of uploaded files;
 *  - `secrets.json`: the API-token salt and JWT secret (keys and sessions stay valid);
 *  - kind `export` (portable): `tables/<name>.jsonl`, one JSON object per row, ids kept, in an
 *    order that satisfies foreign keys; kind `sqlite-backup`: `folio.db`, an online copy;
 *  - `uploads/<name>`: the uploaded files.
 */
import { ArchiveError } from './archive';
import type { SqlValue } from '../db/database';

export const FORMAT = 'folio-archive';
export const FORMAT_VERSION = 1;

export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  kind: 'export' | 'sqlite-backup';
  folioVersion: string;
  engine: 'sqlite' | 'postgres';
  createdAt: string;
  migrations: string[];
  tables: TableEntry[];
  files: number;
}

export const tableEntryName = (table: string) => `tables/${table}.jsonl`;

/** The manifest, checked: anything else is not an archive this Folio can read. */
export function parseManifest(text: string): Manifest {
  let value: Partial<Manifest>;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ArchiveError("The archive's manifest.json is not valid JSON");
  }
  if (value?.format !== FORMAT) throw new ArchiveError('Not a Folio archive (its manifest.json names no "folio-archive" format)');
  if (value.formatVersion !== FORMAT_VERSION)
    throw new ArchiveError(`Archive format version ${value.formatVersion} is not supported (this Folio reads version ${FORMAT_VERSION})`);
  if (value.kind !== 'export' && value.kind !== 'sqlite-backup') throw new ArchiveError(`Unknown archive kind "${value.kind}"`);
  const tablesOk =
    Array.isArray(value.tables) &&
    value.tables.every(
      (t) => typeof t?.name === 'string' && Number.isInteger(t.rows) && Array.isArray(t.columns) && t.columns.every((c) => typeof c === 'string'),
    );
  if (!tablesOk || !Array.isArray(value.migrations)) throw new ArchiveError("The archive's manifest.json is incomplete (tables, migrations)");
  return value as Manifest;
}

/** secrets.json, checked: an object of strings (the API-token salt, the JWT secret). */
export function parseSecrets(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ArchiveError("The archive's secrets.json is not valid JSON");
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new ArchiveError("The archive's secrets.json is not an object of strings");
  }
  return value as Record<string, string>;
}

/**
 * A stored value as JSON: big integers beyond 2^53 as their digits in a string (an integer
 * column turns them back into integers on both engines, exactly), bytes as base64.
 */
export function encodeValue(value: SqlValue): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value).toString('base64') };
  return value;
}

export function decodeValue(value: unknown): SqlValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'object' && typeof (value as { $base64?: unknown }).$base64 === 'string') {
    return new Uint8Array(Buffer.from((value as { $base64: string }).$base64, 'base64'));
  }
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}

export function encodeRow(row: Record<string, SqlValue>): string {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = encodeValue(value);
  return JSON.stringify(out);
}
