/**
 * `folio graphql-schema [--out FILE]`: the GraphQL schema /graphql serves, as SDL, for
 * front-end codegen (graphql-codegen, Apollo's and urql's tooling). Like `folio openapi`, it
 * reads only the content types (and FOLIO_GRAPHQL_CONFIG's `shadowCRUD`): no database is opened.
 */
import { graphqlSdl } from '../graphql/service';
import { configFrom, type Command } from './command';
import { loadSchemas, writeOutput } from './types';

export const graphqlSchemaCommand: Command = {
  name: 'graphql-schema',
  summary: 'write the GraphQL schema (SDL) of the API',
  usage: `Usage: folio graphql-schema [--out FILE]

Writes the GraphQL schema that /graphql serves (Strapi 5's GraphQL plugin's names and types for
the content types) as SDL, for front-end code generators. Prints it to stdout without --out.
Reads only the content types; no database is opened.`,
  options: { out: { type: 'string', short: 'o' } },
  async run({ values, positionals }) {
    const registry = loadSchemas(values, positionals);
    writeOutput(values.out as string | undefined, `${graphqlSdl(registry, configFrom(values).graphql)}\n`);
  },
};
