/**
 * What a newcomer is told when there is nothing to serve yet: `folio` alone, or any command,
 * in a folder without content types points at `folio init`, written as this Folio is run
 * (the binary by its path, or the source), then at `folio serve`.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { resolveConfig } from '../config';
import type { SchemaError } from '../registry/types';
import { commandLine } from './serve';

/** A folder as the user would type it: relative to here when inside it. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return !rel ? '.' : rel.startsWith('..') ? dir : `./${rel}`;
}

/** The error is about the content type folder itself, and it is not there. */
export const noContentTypes = (error: SchemaError) =>
  error.attribute === undefined && /content type folder does not exist/.test(error.message) && !existsSync(error.file);

function steps(dir: string): string {
  const init = commandLine(['init', ...(shown(dir) === './content-types' ? [] : [shown(dir)])], {});
  const serve = commandLine(['serve', ...(shown(dir) === './content-types' ? [] : ['--content-types', shown(dir)])], {});
  return `Start here:  ${init}   (writes the example content types: articles, authors, categories, tags…)
Then:        ${serve}
Or point --content-types (env FOLIO_CONTENT_TYPES) at your own schemas, or at a Strapi project.`;
}

export function noContentTypesHelp(dir: string): string {
  return `Error: no content types at ${shown(dir)} (the folder does not exist).\n${steps(dir)}`;
}

/** Below the usage of a bare `folio`: where to start, when the default folder has no content types yet. */
export function startHere(): string {
  let dir: string;
  try {
    dir = resolveConfig({}).contentTypesDir;
  } catch {
    return '';
  }
  return existsSync(dir) ? '' : `\nNo content types in ${shown(dir)} yet.\n${steps(dir)}`;
}
