/**
 * Runtime settings, from flags first, then environment variables, then defaults.
 */
import { resolve } from 'node:path';

export interface Config {
  /** Database file, secrets and uploads live here. */
  dataDir: string;
  contentTypesDir: string;
  port: number;
  host: string;
  /** Largest accepted JSON body, in bytes (413 above it). */
  bodyLimit: number;
  defaultLimit: number;
  maxLimit: number;
}

export interface ConfigInput {
  data?: string;
  contentTypes?: string;
  port?: string | number;
  host?: string;
}

const env = (name: string) => (process.env[name] === '' ? undefined : process.env[name]);

function positiveInteger(name: string, raw: string | number | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

export function resolveConfig(input: ConfigInput = {}): Config {
  return {
    dataDir: resolve(input.data ?? env('FOLIO_DATA') ?? './data'),
    contentTypesDir: resolve(input.contentTypes ?? env('FOLIO_CONTENT_TYPES') ?? './content-types'),
    port: positiveInteger('port', input.port ?? env('PORT'), 1337),
    host: input.host ?? env('HOST') ?? '127.0.0.1',
    bodyLimit: positiveInteger('FOLIO_BODY_LIMIT', env('FOLIO_BODY_LIMIT'), 1024 * 1024),
    defaultLimit: positiveInteger('FOLIO_DEFAULT_LIMIT', env('FOLIO_DEFAULT_LIMIT'), 25),
    maxLimit: positiveInteger('FOLIO_MAX_LIMIT', env('FOLIO_MAX_LIMIT'), 100),
  };
}
