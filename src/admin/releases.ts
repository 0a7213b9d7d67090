/**
 * /admin/api/releases: releases (src/releases/) for the Releases page and the edit view's
 * "Add to release", with an admin session (Super Admin or Editor: whoever may edit content).
 * Release names travel in the path percent-encoded.
 *
 *   GET     /admin/api/releases                                  list: [{ name, status, scheduledAt, timezone, releasedAt, entries }]
 *   POST    /admin/api/releases                                  create { name, scheduledAt?, timezone? }, 201 + the release
 *   GET     /admin/api/releases/:name                            { name, status, scheduledAt, timezone, releasedAt, createdAt, entries: [{ type, documentId, locale, action }], error? }
 *   PUT     /admin/api/releases/:name                            reschedule { scheduledAt (null: unschedule), timezone? }
 *   DELETE  /admin/api/releases/:name
 *   POST    /admin/api/releases/:name/entries                    add { type (uid), documentId, locale?, action: publish|unpublish }
 *   DELETE  /admin/api/releases/:name/entries/:uid/:documentId   remove (?locale=: one locale; else every one)
 *   POST    /admin/api/releases/:name/publish                    publish now: all or nothing; a failure is a 400
 *           whose `error.details.failure` names the entry and the field
 *   GET     /admin/api/releases/documents/:uid/:documentId       the releases holding a document
 */
import { Elysia } from 'elysia';
import { NotFoundError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { parseQueryString } from '../http/query-string';
import { json, noContent } from '../http/respond';
import type { ContentType } from '../registry/types';
import { unstorableText } from '../text';
import type { AdminAccounts } from './accounts';
import { contentGate } from './content';
import { adminActor } from './session';
import { bodyOf, nameParam, text } from './settings/gate';

export function adminReleaseRoutes(instance: Instance, accounts: AdminAccounts) {
  const { releases, registry, config } = instance;
  const begin = contentGate(accounts, config.trustProxy);

  const typeOf = (uid: unknown, path = 'type'): ContentType => {
    const ct = typeof uid === 'string' ? registry.contentType(uid) : undefined;
    if (!ct || ct.system) throw new ValidationError(`${path} must be a content type's uid`, { errors: [{ path: [path], message: 'unknown content type' }] });
    return ct;
  };
  const localeOf = (url: string) => {
    const query = parseQueryString(url);
    for (const key of Object.keys(query)) if (key !== 'locale') throw ValidationError.invalidKey(key, 'query', { param: key });
    const locale = query.locale;
    if (locale !== undefined && (typeof locale !== 'string' || unstorableText(locale))) throw new ValidationError('locale must be a locale code');
    return (locale as string | undefined) || undefined;
  };
  const documentIdParam = (raw: string) => {
    const id = nameParam(raw);
    if (!id) throw new NotFoundError();
    return id;
  };

  return new Elysia({ name: 'admin:releases' })
    .get('/admin/api/releases', async ({ request }) => {
      await begin(request);
      return json({ data: await releases.list() });
    })
    .post(
      '/admin/api/releases',
      async ({ request, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        const name = text(body, 'name', { required: true, max: 200 })!;
        const at = text(body, 'scheduledAt', { max: 64 });
        const timezone = text(body, 'timezone', { max: 64 });
        return json({ data: await releases.create({ name, at, timezone }, by) }, 201);
      },
      { parse: 'none' },
    )
    .get('/admin/api/releases/documents/:uid/:documentId', async ({ request, params }) => {
      await begin(request);
      return json({ data: await releases.ofDocument(typeOf(params.uid, 'uid'), documentIdParam(params.documentId)) });
    })
    .get('/admin/api/releases/:name', async ({ request, params }) => {
      await begin(request);
      return json({ data: await releases.show(nameParam(params.name)) });
    })
    .put(
      '/admin/api/releases/:name',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        if (!('scheduledAt' in body))
          throw new ValidationError('Send scheduledAt (a time, or null to unschedule)', { errors: [{ path: ['scheduledAt'], message: 'required' }] });
        const at = body.scheduledAt === null ? null : text(body, 'scheduledAt', { required: true, max: 64 })!;
        return json({ data: await releases.schedule(nameParam(params.name), at, text(body, 'timezone', { max: 64 }), by) });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/releases/:name', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      await releases.delete(nameParam(params.name), by);
      return noContent();
    })
    .post(
      '/admin/api/releases/:name/entries',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        const body = await bodyOf(request, config.bodyLimit);
        const entry = {
          type: typeOf(body.type),
          documentId: text(body, 'documentId', { required: true, max: 255 })!,
          locale: text(body, 'locale', { max: 40 }),
          action: text(body, 'action', { required: true, max: 20 })!,
        };
        return json({ data: await releases.add(nameParam(params.name), entry, by) });
      },
      { parse: 'none' },
    )
    .delete('/admin/api/releases/:name/entries/:uid/:documentId', async ({ request, params, server }) => {
      const by = adminActor(await begin(request), request, server, config.trustProxy);
      const entry = { type: typeOf(params.uid, 'uid'), documentId: documentIdParam(params.documentId), locale: localeOf(request.url) };
      return json({ data: await releases.remove(nameParam(params.name), entry, by) });
    })
    .post(
      '/admin/api/releases/:name/publish',
      async ({ request, params, server }) => {
        const by = adminActor(await begin(request), request, server, config.trustProxy);
        return json({ data: await releases.publish(nameParam(params.name), by) });
      },
      { parse: 'none' },
    );
}
