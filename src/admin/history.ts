/**
 * /admin/api/history: content history (src/history/) for the edit view, with an admin session
 * (Super Admin or Editor: whoever may edit content). Versions show the content whole,
 * private attributes included (the admin and the CLI are where they are shown).
 *
 *   GET  /admin/api/history/:uid/:documentId?locale=&before=&limit=   versions, newest first
 *        (`single` for a single type's document); `meta.hasMore`: older ones exist (ask again
 *        with `before` = the last id)
 *   GET  /admin/api/history/versions/:id                               one version
 *   POST /admin/api/history/versions/:id/restore                       its content becomes the draft
 *        (a write of its own, by the admin): `{ data: { version, document: { documentId, locale,
 *        status }, leftOut: [{ path, reason }] } }`
 */
import { Elysia } from 'elysia';
import { NotFoundError, ValidationError } from '../errors';
import { HISTORY_PAGE_LIMIT } from '../history/service';
import type { Instance } from '../instance';
import { parseQueryString } from '../http/query-string';
import { json } from '../http/respond';
import { unstorableText } from '../text';
import type { AdminAccounts } from './accounts';
import { contentGate } from './content';
import { adminActor } from './session';
import { idParam } from './settings/gate';

const LIST_PARAMETERS = new Set(['locale', 'before', 'limit']);

export function adminHistoryRoutes(instance: Instance, accounts: AdminAccounts) {
  const { registry, history, documents, config } = instance;
  const begin = contentGate(accounts, config.trustProxy);

  const versionId = (raw: string) => {
    const id = idParam(raw);
    if (id === undefined) throw new NotFoundError('No such version');
    return id;
  };

  function listQuery(url: string) {
    const query = parseQueryString(url);
    for (const key of Object.keys(query)) if (!LIST_PARAMETERS.has(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
    const number = (name: 'before' | 'limit', max: number) => {
      const raw = query[name];
      if (raw === undefined || raw === '') return undefined;
      if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
        throw new ValidationError(`${name} must be a whole number from 1 to ${max}`, {
          errors: [{ path: [name], message: `${name} must be a whole number from 1 to ${max}` }],
        });
      }
      return Number(raw);
    };
    const locale = query.locale;
    if (locale !== undefined && (typeof locale !== 'string' || unstorableText(locale)))
      throw new ValidationError('locale must be a locale code', { errors: [{ path: ['locale'], message: 'locale must be a locale code' }] });
    return { locale: (locale as string | undefined) || undefined, before: number('before', 2 ** 31 - 1), limit: number('limit', HISTORY_PAGE_LIMIT) };
  }

  return new Elysia({ name: 'admin:history' })
    .get('/admin/api/history/versions/:id', async ({ request, params }) => {
      await begin(request);
      const version = await history.get(versionId(params.id));
      if (!version) throw new NotFoundError('No such version');
      return json({ data: version });
    })
    .post(
      '/admin/api/history/versions/:id/restore',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const { version, written, leftOut } = await history.restore(versionId(params.id), actor);
        return json({ data: { version, document: { documentId: written.documentId, locale: written.locale, status: written.status }, leftOut } });
      },
      { parse: 'none' },
    )
    .get('/admin/api/history/:uid/:documentId', async ({ request, params }) => {
      await begin(request);
      const ct = registry.contentType(params.uid);
      if (!ct || ct.system) throw new NotFoundError(`No content type "${params.uid}"`);
      const query = listQuery(request.url);
      let documentId: string | undefined = params.documentId;
      if (ct.kind === 'singleType') {
        if (documentId !== 'single') throw new NotFoundError();
        documentId = await documents.singleDocumentId(ct);
        if (documentId === undefined) return json({ data: [], meta: { hasMore: false } });
      } else if (unstorableText(documentId)) throw new ValidationError('Invalid documentId', { source: 'path', param: 'documentId' });
      const limit = query.limit ?? 20;
      const versions = await history.list(ct, documentId, { locale: query.locale, before: query.before, limit: limit + 1 });
      return json({ data: versions.slice(0, limit), meta: { hasMore: versions.length > limit } });
    });
}
