/**
 * Routes that are not content types: locales, health, the OpenAPI document.
 */
import { Elysia } from 'elysia';
import { ping } from '../../db/store/health';
import { ServiceUnavailableError } from '../../errors';
import type { Instance } from '../../instance';
import type { Guard } from '../guard';
import { buildOpenApi } from '../openapi';
import { json } from '../respond';

/**
 * How long the health check waits for the database. A PostgreSQL server that stopped
 * answering (a network partition, a full connection queue) would otherwise hold the probe
 * until the monitor's own timeout, which says less than a prompt 503.
 */
export const HEALTH_TIMEOUT_MS = 3000;

/** Resolves when the database answers a trivial query in time; rejects otherwise. */
async function databaseAnswers(instance: Instance): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the database did not answer in time')), HEALTH_TIMEOUT_MS);
  });
  try {
    await Promise.race([ping(instance.db), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function systemRoutes(instance: Instance, allow: Guard) {
  let openapi: unknown;
  /**
   * 204 as Strapi answers it (monitors and the existing set-ups expect it) once the
   * database has answered; a 503 envelope with Retry-After when it does not, so a load
   * balancer takes the instance out of rotation instead of sending it requests that fail.
   */
  const health = (head: boolean) => async () => {
    try {
      await databaseAnswers(instance);
    } catch {
      throw new ServiceUnavailableError('The database is not answering', 5);
    }
    return new Response(null, { status: 204, headers: head ? {} : { strapi: 'You are so French!' } });
  };
  return new Elysia({ name: 'system' })
    .get('/_health', health(false))
    .head('/_health', health(true))
    .get('/api/i18n/locales', async ({ request }) => {
      await allow(request, 'plugin::i18n.locales.listLocales');
      return json(await instance.locales.list());
    })
    .get('/api/openapi.json', () => json((openapi ??= buildOpenApi(instance.registry))));
}
