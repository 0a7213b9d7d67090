/**
 * Settings → API tokens and Webhooks, on auth/tokens.ts and events/webhooks.ts (what the
 * `folio token` and `folio webhook` commands call). Their input is checked here first, field
 * by field, so a bad value is a 400 naming its field rather than a service's plain Error.
 * An access key is in the answer of create and regenerate only: nothing can read it later.
 *
 *   GET|POST  /admin/api/settings/tokens                      list | create {name, description, type, lifespanDays, actions}
 *   POST      /admin/api/settings/tokens/:id/regenerate       a new key (the old one stops working)
 *   DELETE    /admin/api/settings/tokens/:id                  revoke
 *   GET|POST  /admin/api/settings/webhooks                    list (+ event names) | create {name, url, events, secret, headers}
 *   PUT       /admin/api/settings/webhooks/:name              edit (the same fields; the delivery log is kept)
 *   DELETE    /admin/api/settings/webhooks/:name
 *   POST      /admin/api/settings/webhooks/:name/enable      resume sending (a restored copy's webhooks start disabled)
 *   POST      /admin/api/settings/webhooks/:name/disable     queue nothing and send nothing for it
 *   POST      /admin/api/settings/webhooks/:name/test         send a trigger-test event now
 *   GET       /admin/api/settings/webhooks/:name/deliveries   the attempt log, newest first
 */
import { Elysia } from 'elysia';
import { knownActions } from '../../auth/actions';
import { TOKEN_TYPES, type TokenType } from '../../auth/tokens';
import { NotFoundError } from '../../errors';
import { EVENT_NAMES } from '../../events/names';
import type { Instance } from '../../instance';
import { json, noContent } from '../../http/respond';
import type { AdminAccounts } from '../accounts';
import { bodyOf, fieldError, gate, idParam, nameParam, strings, text, type Body } from './gate';
import { adminActor } from '../session';

export function settingsIntegrationRoutes(instance: Instance, accounts: AdminAccounts) {
  const { tokens, webhooks, registry, config } = instance;
  const begin = gate(instance, accounts, 'settings');

  async function tokenOf(rawId: string) {
    const id = idParam(rawId);
    const token = id === undefined ? undefined : (await tokens.list()).find((t) => t.id === id);
    if (!token) throw new NotFoundError('Token not found');
    return token;
  }

  async function webhookInput(body: Body) {
    const name = text(body, 'name', { required: true, max: 200 })!.trim();
    const url = text(body, 'url', { required: true, max: 2000 })!;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
    } catch {
      throw fieldError('url', 'url must be an http:// or https:// address');
    }
    const events = strings(body, 'events');
    if (events.length === 0) throw fieldError('events', 'Choose at least one event');
    const unknown = events.find((e) => !EVENT_NAMES.includes(e));
    if (unknown !== undefined) throw fieldError('events', `Unknown event "${unknown}"`);
    const headers = strings(body, 'headers').filter((h) => h.trim() !== '');
    return { name, url, events, secret: text(body, 'secret', { max: 1000 }), headers };
  }

  const webhookOf = async (raw: string) => {
    const name = nameParam(raw);
    if (!(await webhooks.get(name))) throw new NotFoundError('Webhook not found');
    return name;
  };

  return new Elysia({ name: 'admin:settings:integrations' })
    .get('/admin/api/settings/tokens', async ({ request }) => {
      await begin(request);
      return json({ data: await tokens.list(), meta: { types: TOKEN_TYPES, actions: knownActions(registry) } });
    })
    .post(
      '/admin/api/settings/tokens',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        const name = text(body, 'name', { required: true, max: 100 })!.trim();
        if (!name) throw fieldError('name', 'name is required');
        const description = text(body, 'description', { max: 1000 });
        const type = body.type as TokenType;
        if (!TOKEN_TYPES.includes(type)) throw fieldError('type', `type must be one of: ${TOKEN_TYPES.join(', ')}`);
        const lifespan = body.lifespanDays;
        if (lifespan !== undefined && lifespan !== null && (typeof lifespan !== 'number' || !(lifespan > 0) || lifespan > 36500)) {
          throw fieldError('lifespanDays', 'lifespanDays must be a positive number of days, or none (unlimited)');
        }
        const actions = type === 'custom' ? strings(body, 'actions') : [];
        const known = new Set(knownActions(registry));
        const unknown = actions.find((a) => !known.has(a));
        if (unknown !== undefined) throw fieldError('actions', `Unknown action "${unknown}"`);
        if (type === 'custom' && actions.length === 0) throw fieldError('actions', 'A custom token needs at least one action');
        if ((await tokens.list()).some((t) => t.name === name)) throw fieldError('name', `A token named "${name}" already exists`);
        const created = await tokens.create(name, type, (lifespan as number | null) ?? undefined, description, actions, by);
        return json({ data: created }, 201);
      },
      { parse: 'none' },
    )
    .post('/admin/api/settings/tokens/:id/regenerate', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const token = await tokenOf(params.id);
      const accessKey = await tokens.regenerate(token.name, by);
      if (!accessKey) throw new NotFoundError('Token not found');
      return json({ data: { ...token, accessKey } });
    })
    .delete('/admin/api/settings/tokens/:id', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const token = await tokenOf(params.id);
      await tokens.revoke(token.name, by);
      return noContent();
    })
    .get('/admin/api/settings/webhooks', async ({ request }) => {
      await begin(request);
      return json({ data: await webhooks.list(), meta: { events: EVENT_NAMES } });
    })
    .post(
      '/admin/api/settings/webhooks',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const input = await webhookInput(await bodyOf(request, config.bodyLimit));
        if (await webhooks.get(input.name)) throw fieldError('name', `A webhook named "${input.name}" already exists`);
        return json({ data: await webhooks.create(input, by) }, 201);
      },
      { parse: 'none' },
    )
    .put(
      '/admin/api/settings/webhooks/:name',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const name = await webhookOf(params.name);
        const body = await bodyOf(request, config.bodyLimit);
        const input = await webhookInput({ ...body, name });
        // A blank secret and absent headers keep the stored ones (the page never shows them back).
        const headers = body.headers === undefined ? undefined : input.headers;
        return json({ data: await webhooks.update(name, { url: input.url, events: input.events, secret: input.secret, headers }, by) });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/settings/webhooks/:name', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      await webhooks.delete(await webhookOf(params.name), by);
      return noContent();
    })
    .post('/admin/api/settings/webhooks/:name/enable', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      return json({ data: await webhooks.setEnabled(await webhookOf(params.name), true, by) });
    })
    .post('/admin/api/settings/webhooks/:name/disable', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      return json({ data: await webhooks.setEnabled(await webhookOf(params.name), false, by) });
    })
    .post('/admin/api/settings/webhooks/:name/test', async ({ request, params }) => {
      await begin(request);
      const result = await webhooks.test(await webhookOf(params.name));
      return json({ data: result ?? null });
    })
    .get('/admin/api/settings/webhooks/:name/deliveries', async ({ request, params }) => {
      await begin(request);
      const attempts = (await webhooks.deliveries(await webhookOf(params.name))) ?? [];
      return json({ data: attempts.reverse().slice(0, 200) });
    });
}
