/**
 * Routes that are not content types: locales, health, the OpenAPI document.
 */
import { Elysia } from 'elysia';
import type { Instance } from '../../instance';
import type { Guard } from '../guard';
import { buildOpenApi } from '../openapi';
import { json } from '../respond';

export function systemRoutes(instance: Instance, allow: Guard) {
  let openapi: unknown;
  return new Elysia({ name: 'system' })
    .get('/_health', () => new Response(null, { status: 204, headers: { strapi: 'You are so French!' } }))
    .head('/_health', () => new Response(null, { status: 204 }))
    .get('/api/i18n/locales', async ({ request }) => {
      await allow(request, 'plugin::i18n.locales.listLocales');
      return json(await instance.locales.list());
    })
    .get('/api/openapi.json', () => json((openapi ??= buildOpenApi(instance.registry))));
}
