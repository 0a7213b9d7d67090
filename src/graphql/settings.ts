/**
 * The plugin's settings, given as Strapi's `config/plugins` `graphql.config` object: in
 * FOLIO_GRAPHQL_CONFIG (JSON text, or the path of a JSON file holding it) or, later, read from
 * the project's own config. Strapi's defaults otherwise (`@strapi/plugin-graphql` 5's
 * default-config and Apollo's): endpoint /graphql, shadow CRUD on, defaultLimit 10, no
 * maxLimit (-1), no depth limit; introspection and the landing page on unless NODE_ENV is
 * production. Anything malformed stops start-up with a message naming the key.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { GraphqlSettings } from './types';

const KNOWN = new Set([
  'endpoint',
  'shadowCRUD',
  'depthLimit',
  'defaultLimit',
  'maxLimit',
  'landingPage',
  'apolloServer',
  'subscriptions',
  'playgroundAlways',
  'amountLimit',
  'v4CompatibilityMode',
  'generateArtifacts',
  'artifacts',
]);

function fail(message: string): never {
  throw new Error(`FOLIO_GRAPHQL_CONFIG: ${message}`);
}

/** The settings from a `graphql.config` object (already parsed), for the given NODE_ENV. */
export function graphqlSettings(raw: unknown, nodeEnv?: string): GraphqlSettings {
  const production = nodeEnv === 'production';
  const config = (raw ?? {}) as Record<string, unknown>;
  if (typeof config !== 'object' || Array.isArray(config)) fail('expected a JSON object');
  const unknown = Object.keys(config).filter((k) => !KNOWN.has(k));
  if (unknown.length) fail(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  const integer = (key: string, fallback: number | undefined, min: number) => {
    const value = config[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(`${key} must be an integer >= ${min}`);
    return value;
  };
  const bool = (key: string, value: unknown, fallback: boolean) => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') fail(`${key} must be true or false`);
    return value;
  };
  const endpoint = config.endpoint ?? '/graphql';
  if (typeof endpoint !== 'string' || !/^\/[A-Za-z0-9/_.-]*$/.test(endpoint) || endpoint.startsWith('/api/') || endpoint.startsWith('/admin')) {
    fail('endpoint must be a path such as /graphql (not under /api or /admin)');
  }
  const apollo = (config.apolloServer ?? {}) as Record<string, unknown>;
  if (typeof apollo !== 'object' || Array.isArray(apollo)) fail('apolloServer must be an object');
  const maxLimit = integer('maxLimit', -1, -1)!;
  return {
    endpoint: endpoint.length > 1 ? endpoint.replace(/\/+$/, '') : endpoint,
    shadowCRUD: bool('shadowCRUD', config.shadowCRUD, true),
    depthLimit: integer('depthLimit', undefined, 0),
    defaultLimit: integer('defaultLimit', 10, 1)!,
    maxLimit: maxLimit === 0 ? -1 : maxLimit,
    landingPage: bool('landingPage', config.landingPage ?? config.playgroundAlways, !production),
    introspection: bool('apolloServer.introspection', apollo.introspection, !production),
  };
}

/** FOLIO_GRAPHQL_CONFIG: JSON text (starting with `{`), or the path of a JSON file. */
export function readGraphqlConfig(value: string | undefined, nodeEnv?: string): GraphqlSettings {
  if (value === undefined) return graphqlSettings(undefined, nodeEnv);
  let text = value.trim();
  if (!text.startsWith('{')) {
    if (!existsSync(text)) fail(`"${value}" is neither JSON text nor a file`);
    text = readFileSync(text, 'utf8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(`not valid JSON (${(error as Error).message})`);
  }
  return graphqlSettings(parsed, nodeEnv);
}
