/**
 * `strapi.plugin('graphql').service('extension')`: Strapi's GraphQL extension service on
 * Folio's (`instance.graphql.extension`, src/graphql/extension.ts): `shadowCRUD(uid)…` and
 * `use({ typeDefs, resolvers, resolversConfig })` or `use(({ strapi, nexus }) => …)`. What the
 * project adds is taken back when it is unloaded (a reload in development).
 */
import type { ExtensionInput } from '../../graphql/extension';
import type { Instance } from '../../instance';
import type { PluginParts } from './plugin';

export function graphqlPlugin(instance: Instance): PluginParts {
  return {
    services: {
      extension: ({ strapi }) => {
        const extension = instance.graphql.extension;
        // What the project changes is taken back with it (stop, reload).
        strapi.unsubscribers.push(() => extension.reset());
        return {
          shadowCRUD: (uid: string) => extension.shadowCRUD(uid),
          use(config: ExtensionInput) {
            // Strapi hands a function config { strapi, nexus }; Folio has no nexus (SDL typeDefs only).
            extension.use(typeof config === 'function' ? () => config({ strapi, nexus: undefined }) : config);
            return this;
          },
        };
      },
    },
  };
}
