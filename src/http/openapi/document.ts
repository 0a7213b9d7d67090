/**
 * The OpenAPI 3.1 document of the whole API, generated from the registry: the content
 * routes of every type (paths-content.ts), the system and plugin routes (paths-system.ts),
 * and the schemas of every model with their envelopes (schemas.ts). Served at
 * /api/openapi.json and written by `folio openapi`. test/http/openapi.test.ts validates it
 * and checks that every route the app mounts appears in it.
 */
import { nameOf } from '../../codegen/names';
import type { Registry } from '../../registry/types';
import { version } from '../../../package.json' with { type: 'json' };
import { contentPaths } from './paths-content';
import { systemPaths } from './paths-system';
import { componentSchemas, type Schema } from './schemas';

/** One tag per content type, then the plugins'; a name appears once (a type may be called "Users"). */
function tags(registry: Registry): Schema[] {
  const out = new Map<string, Schema>();
  for (const ct of registry.contentTypes)
    if (!ct.plugin && !out.has(ct.displayName)) out.set(ct.displayName, { name: ct.displayName, description: ct.description || ct.uid });
  for (const name of ['Auth', 'Users', 'Roles', 'Upload', 'Locales', 'Realtime', 'System']) if (!out.has(name)) out.set(name, { name });
  return [...out.values()];
}

export function buildOpenApi(registry: Registry): Schema {
  const { schemas, names, responses } = componentSchemas(registry);
  const paths: Schema = systemPaths();
  // A plugin's types have no core routes (the plugin's own routes are its code's, not described here).
  for (const ct of registry.contentTypes) if (!ct.plugin) Object.assign(paths, contentPaths(ct, nameOf(names, ct)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio content API',
      version,
      description: 'The Strapi v5 REST dialect. Content is private by default: every route answers 403 until a role or an API token holds its action.',
    },
    tags: tags(registry),
    components: {
      schemas,
      responses,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (`folio token create`) or a user JWT (`POST /api/auth/local`)' },
      },
    },
    // Anonymous calls act as the public role; a bearer token acts as its holder.
    security: [{}, { bearer: [] }],
    paths,
  };
}
