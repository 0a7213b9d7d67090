/**
 * `folio types [--out FILE]`: TypeScript declarations of the content types and components
 * (src/codegen/typescript.ts), for front ends using plain fetch or @strapi/client. Like
 * `folio openapi`, it reads only the content types: no database is opened.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateTypes } from '../codegen/typescript';
import type { Registry } from '../registry/types';
import { registryOf } from '../instance';
import { configFrom, UsageError, type Command } from './command';

/** The registry of the content-types folder the flags (or env) name; schema warnings go to stderr. */
export function loadSchemas(values: Record<string, unknown>, positionals: string[]): Registry {
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (values.out === '') throw new UsageError('--out needs a file name');
  const registry = registryOf(configFrom(values));
  for (const warning of registry.warnings) console.error(`[folio] warning: ${warning}`);
  return registry;
}

/** To the file (its folder made if missing), or to stdout without one. */
export function writeOutput(out: string | undefined, text: string): void {
  if (out === undefined) {
    process.stdout.write(text);
    return;
  }
  const path = resolve(out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}

export const typesCommand: Command = {
  name: 'types',
  summary: 'write TypeScript declarations of the content types',
  usage: `Usage: folio types [--out FILE]

Writes TypeScript declarations for every content type and component (Article, SharedSeo…),
their write inputs (ArticleInput), the response envelopes (StrapiResponse<T>,
StrapiListResponse<T>) and the error (StrapiErrorResponse). Prints them to stdout without
--out. Reads only the content types; no database is opened.`,
  options: { out: { type: 'string', short: 'o' } },
  async run({ values, positionals }) {
    writeOutput(values.out as string | undefined, generateTypes(loadSchemas(values, positionals)));
  },
};
