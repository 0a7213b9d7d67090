/**
 * The REST routes of one content type, generated from the registry:
 *   collection types  GET/POST /api/:plural, GET/PUT/DELETE /api/:plural/:documentId
 *   single types      GET/PUT/DELETE /api/:singular
 * Other methods on those paths answer 405 with an Allow header.
 */
import { Elysia } from 'elysia';
import { actionName, type ContentAction } from '../../auth/actions';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../../errors';
import type { Instance } from '../../instance';
import { parseLocale, parseReadQuery, parseStatus } from '../../query/parse';
import type { ReadQuery } from '../../query/types';
import type { ContentType } from '../../registry/types';
import type { Written } from '../../documents/service';
import { readJsonBody } from '../body';
import { parseQueryString } from '../query-string';
import { json, noContent } from '../respond';

type Raw = Record<string, unknown>;

export function contentRoutes(instance: Instance, ct: ContentType) {
  const { documents, access, registry, locales, config } = instance;
  const limits = { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit };

  /** Authenticates, authorizes the action and parses the query string. */
  async function begin(request: Request, action: ContentAction): Promise<Raw> {
    const principal = await access.authenticate(request.headers.get('authorization'));
    await access.authorize(principal, actionName(ct, action));
    return parseQueryString(request.url);
  }

  async function readQuery(raw: Raw): Promise<ReadQuery> {
    return parseReadQuery(registry, ct, raw, await locales.defaultCode(), limits);
  }

  /** Write routes accept fields/populate/status/locale only, like Strapi's. */
  function writeOptions(raw: Raw) {
    for (const key of Object.keys(raw)) {
      if (!['fields', 'populate', 'status', 'locale'].includes(key)) throw ValidationError.invalidKey(key, 'query', { param: key });
    }
    return { status: parseStatus(raw.status), locale: raw.locale === undefined ? undefined : parseLocale(raw.locale, '') || undefined };
  }

  async function bodyData(request: Request): Promise<Raw> {
    const body = (await readJsonBody(request, config.bodyLimit)) as Raw | undefined;
    const data = body && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new ValidationError('Missing "data" payload in the request body');
    }
    return data as Raw;
  }

  /** Reads back the version a write produced, shaped by the request's fields/populate. */
  async function respondWith(written: Written, raw: Raw, status: number) {
    const query = await readQuery({ fields: raw.fields, populate: raw.populate });
    query.status = written.status;
    if (ct.localized) query.locale = written.locale;
    const doc = await documents.findOne(ct, written.documentId, query);
    return json({ data: doc, meta: {} }, status);
  }

  const app = new Elysia({ name: `content:${ct.uid}` });
  const notAllowed = (allow: string[]) => () => {
    throw new MethodNotAllowedError(['HEAD', ...allow]);
  };

  if (ct.kind === 'collectionType') {
    const base = `/api/${ct.pluralName}`;
    const one = `${base}/:documentId`;
    app
      .get(base, async ({ request }) => {
        const query = await readQuery(await begin(request, 'find'));
        const { data, pagination } = await documents.findMany(ct, query);
        return json({ data, meta: { pagination } });
      })
      .post(
        base,
        async ({ request }) => {
          const raw = await begin(request, 'create');
          const options = writeOptions(raw);
          const written = await documents.create(ct, await bodyData(request), options);
          return respondWith(written, raw, 201);
        },
        { parse: 'none' },
      )
      .get(one, async ({ request, params }) => {
        const query = await readQuery(await begin(request, 'findOne'));
        const doc = await documents.findOne(ct, (params as { documentId: string }).documentId, query);
        if (!doc) throw new NotFoundError();
        return json({ data: doc, meta: {} });
      })
      .put(
        one,
        async ({ request, params }) => {
          const raw = await begin(request, 'update');
          const options = writeOptions(raw);
          const written = await documents.update(ct, (params as { documentId: string }).documentId, await bodyData(request), options);
          if (!written) throw new NotFoundError();
          return respondWith(written, raw, 200);
        },
        { parse: 'none' },
      )
      .delete(one, async ({ request, params }) => {
        const raw = await begin(request, 'delete');
        const { locale } = writeOptions(raw);
        await documents.delete(ct, (params as { documentId: string }).documentId, { locale });
        return noContent();
      })
      .all(base, notAllowed(['GET', 'POST']))
      .all(one, notAllowed(['GET', 'PUT', 'DELETE']));
  } else {
    const base = `/api/${ct.singularName}`;
    app
      .get(base, async ({ request }) => {
        const query = await readQuery(await begin(request, 'find'));
        const doc = await documents.findOne(ct, undefined, query);
        if (!doc) throw new NotFoundError();
        return json({ data: doc, meta: {} });
      })
      .put(
        base,
        async ({ request }) => {
          const raw = await begin(request, 'update');
          const options = writeOptions(raw);
          const written = await documents.upsertSingle(ct, await bodyData(request), options);
          return respondWith(written, raw, 200);
        },
        { parse: 'none' },
      )
      .delete(base, async ({ request }) => {
        const raw = await begin(request, 'delete');
        const { locale } = writeOptions(raw);
        const documentId = await documents.singleDocumentId(ct);
        if (documentId) await documents.delete(ct, documentId, { locale });
        return noContent();
      })
      .all(base, notAllowed(['GET', 'PUT', 'DELETE']));
  }
  return app;
}
