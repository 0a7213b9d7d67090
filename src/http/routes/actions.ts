/**
 * Document actions over REST (Strapi's REST API has none; its document service does):
 *   collection types  POST /api/:plural/:documentId/actions/publish|unpublish|discard-draft
 *   single types      POST /api/:singular/actions/publish|unpublish|discard-draft
 * `?locale=xx` (or `*`: every locale of the document) picks the versions; the answer is
 * `{ data: document }`: the published version after publish, the draft after the others.
 * Each is its own action (`api::article.article.publish`, `.unpublish`, `.discardDraft`).
 * Types without draft & publish answer 400 whoever asks: the action does not exist there.
 */
import { Elysia } from 'elysia';
import { actionName, type DocumentActionName } from '../../auth/actions';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { checkParameters, parseLocale, parseReadQuery } from '../../query/parse';
import type { ContentType } from '../../registry/types';
import { unstorableText } from '../../text';
import { writerOf, type Guard, type PeerSource } from '../guard';
import { parseQueryString } from '../query-string';
import { json } from '../respond';
import { toV4, wantsV4 } from '../v4';

const ACTION_PARAMETERS: ReadonlySet<string> = new Set(['locale']);

/** The path segment of each action. */
const SEGMENTS: Record<string, DocumentActionName> = { publish: 'publish', unpublish: 'unpublish', 'discard-draft': 'discardDraft' };

export function actionRoutes(instance: Instance, ct: ContentType, allow: Guard) {
  const { documents, registry, locales, config } = instance;
  const app = new Elysia({ name: `actions:${ct.uid}` });
  const base = ct.kind === 'collectionType' ? `/api/${ct.pluralName}/:documentId/actions` : `/api/${ct.singularName}/actions`;

  async function run(request: Request, server: PeerSource, params: Record<string, string>, action: DocumentActionName) {
    if (!ct.draftAndPublish) {
      throw new ValidationError(`${ct.displayName} (${ct.uid}) has no draft & publish: there is nothing to ${action === 'discardDraft' ? 'discard' : action}`, {
        action,
      });
    }
    const caller = await allow(request, actionName(ct, action));
    const raw = checkParameters(parseQueryString(request.url), ACTION_PARAMETERS, config.strictParams);
    const locale = raw.locale === undefined ? undefined : parseLocale(raw.locale, '') || undefined;
    let documentId: string | undefined;
    if (ct.kind === 'collectionType') {
      documentId = params.documentId!;
      const why = unstorableText(documentId);
      if (why) throw new ValidationError(`Invalid documentId: ${why}`, { source: 'path', param: 'documentId' });
    }
    const written = await documents[action](ct, documentId, { locale, actor: writerOf(caller, request, server, config.trustProxy) });
    if (!written) throw new NotFoundError();
    const query = parseReadQuery(registry, ct, { status: written.status }, await locales.defaultCode());
    if (ct.localized) query.locale = written.locale;
    const doc = await documents.findOne(ct, written.documentId, query);
    return json({ data: wantsV4(request) ? toV4(registry, ct, doc) : doc, meta: {} });
  }

  for (const [segment, action] of Object.entries(SEGMENTS)) {
    app
      .post(`${base}/${segment}`, ({ request, params, server }) => run(request, server, params as Record<string, string>, action), { parse: 'none' })
      .all(`${base}/${segment}`, () => {
        throw new MethodNotAllowedError(['POST']);
      });
  }
  return app;
}
