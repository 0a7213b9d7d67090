/**
 * `folio openapi [--out FILE]`: the OpenAPI document /api/openapi.json serves, written from the
 * content types alone (no database is opened, so it runs in a build step or CI).
 */
import { buildOpenApi } from '../http/openapi';
import type { Command } from './command';
import { loadSchemas, writeOutput } from './types';

export const openapiCommand: Command = {
  name: 'openapi',
  summary: 'write the OpenAPI 3.1 document of the API',
  usage: `Usage: folio openapi [--out FILE]

Writes the OpenAPI 3.1 document (the one GET /api/openapi.json answers) generated from the
content types: every route, with request and response schemas per content type. Prints it
to stdout without --out. Reads only the content types; no database is opened.`,
  options: { out: { type: 'string', short: 'o' } },
  async run({ values, positionals }) {
    const registry = loadSchemas(values, positionals);
    writeOutput(values.out as string | undefined, `${JSON.stringify(buildOpenApi(registry), null, 2)}\n`);
  },
};
