/**
 * What `@strapi/strapi` and `@strapi/utils` export to project code (module-host.ts makes them
 * importable): the factories, `errors`, `env`, and the few helpers projects commonly import.
 * The `Core`, `Data`, `UID` names are TypeScript types only: nothing to export at run time.
 */
import { FACTORIES } from './factories';
import { STRAPI_ERRORS } from './strapi-errors';
import { createEnv } from './env';
import { importDefault, STRAPI_MODULE, UTILS_MODULE } from './module-host';

let filled = false;

export function fillStrapiModules(vars: Record<string, string | undefined>): void {
  const env = createEnv(vars);
  if (filled) {
    UTILS_MODULE.env = env;
    return;
  }
  filled = true;
  Object.assign(STRAPI_MODULE, {
    factories: FACTORIES,
    createStrapi: () => {
      throw new Error('createStrapi is not available in Folio: Folio runs the project itself (folio serve --project DIR)');
    },
  });
  Object.assign(UTILS_MODULE, {
    errors: STRAPI_ERRORS,
    env,
    importDefault,
    policy: {
      createPolicy: (options: { name?: string; validator?: unknown; handler: Function }) => options,
    },
  });
}
