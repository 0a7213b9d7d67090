/**
 * The Strapi plugins whose services project code may call, on Folio's own: email,
 * users-permissions, upload and graphql (./plugin.ts shapes each as Strapi's plugin object).
 * Their REST routes stay Folio's own; routes an extension adds (src/extensions/<plugin>), and
 * users-permissions' routes whose action it replaces, are served as the project's.
 */
import type { Instance } from '../../instance';
import type { ProjectStrapi } from '../strapi';
import { emailPlugin } from './email';
import { graphqlPlugin } from './graphql';
import type { PluginParts } from './plugin';
import { uploadPlugin } from './upload';
import { usersPermissionsPlugin } from './users-permissions';

export function builtInPlugins(instance: Instance, log: ProjectStrapi['log']): Record<string, PluginParts> {
  return {
    email: emailPlugin(instance, log),
    'users-permissions': usersPermissionsPlugin(instance),
    upload: uploadPlugin(instance),
    graphql: graphqlPlugin(instance),
  };
}
