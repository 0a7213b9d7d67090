/**
 * /admin/api: the content manager's reads and writes, on the same services as the content
 * API (DocumentService for documents and their validation, query/parse.ts for list
 * queries, the document actions), with an admin session instead of an API grant. Writes
 * save drafts; publishing is its own action, as in Strapi's admin.
 *
 *   GET    /admin/api/schema                                   content types (with their view: views.ts), locales
 *   GET    /admin/api/content/:uid                             list (sort, pagination, _q, locale) + badges
 *   POST   /admin/api/content/:uid                             create (a draft)
 *   GET    /admin/api/content/:uid/:documentId                 the draft (`single` for a single type); `meta`:
 *          its badge, `publishedAt`, and each locale version's badge and dates (`availableLocales`),
 *          who created it and wrote it last as history keeps them (`createdBy`, `updatedBy`: `{ kind, name }` or null)
 *   PUT    /admin/api/content/:uid/:documentId                 save the draft
 *   DELETE /admin/api/content/:uid/:documentId
 *   POST   /admin/api/content/:uid/:documentId/actions/:action publish | unpublish | discard-draft; publish
 *          with a body `{ data }` saves those changes and publishes them in one write (all or nothing)
 *   POST   /admin/api/content/:uid/actions/bulk-:action        delete | publish | unpublish, body
 *          `{ documentIds, locale }`: one transaction, all or none (documents/write/bulk.ts)
 *   POST   /admin/api/uid                                      a free uid value (uid.ts)
 *   GET    /admin/api/preview/:uid/:documentId?locale=&status=  `{ data: { url } }`: the document's preview URL
 *          (./preview.ts; null without one); a document's read answers `meta.previewUrl` for its draft
 *   GET    /admin/api/recent                                   the home page's recent drafts and publications
 */
import { Elysia } from 'elysia';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { checkParameters, parseLocale, parseReadQuery, READ_PARAMETERS } from '../query/parse';
import type { ContentType } from '../registry/types';
import { unstorableText } from '../text';
import { readJsonBody } from '../http/body';
import { parseQueryString } from '../http/query-string';
import { json, noContent } from '../http/respond';
import { adminMay, type AdminAccounts } from './accounts';
import { checkCsrf } from './csrf';
import { adminActor, requireAdmin } from './session';
import { componentOf, editPopulate, schemaOf } from './schema';
import { slugify, uniqueSlug } from './slug';
import { storedViews, withView } from './views';
import { BULK_LIMIT } from '../documents/write/bulk';
import { previewEnabled, previewUrl } from './preview';

type Raw = Record<string, unknown>;
type Row = Record<string, unknown>;

const ACTIONS = { publish: 'publish', unpublish: 'unpublish', 'discard-draft': 'discardDraft' } as const;
const BULK_ACTIONS = { 'bulk-delete': 'delete', 'bulk-publish': 'publish', 'bulk-unpublish': 'unpublish' } as const;

/** Refuses text no column can hold, anywhere in a parsed query (PostgreSQL refuses NUL with an error). */
function checkText(value: unknown, at = ''): void {
  if (typeof value === 'string') {
    const why = unstorableText(value);
    if (why) throw new ValidationError(`Invalid parameter at '${at}': ${why}`, { source: 'query', param: at });
  } else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) checkText(key, at), checkText(child, at ? `${at}[${key}]` : key);
  }
}

/** The session's admin (401 without), allowed content (403), and for writes the CSRF checks. */
export const contentGate = (accounts: AdminAccounts, trustProxy: boolean) =>
  async function begin(request: Request) {
    const { user, token } = await requireAdmin(accounts, request);
    if (!adminMay(user.role, 'content')) throw new ForbiddenError();
    if (request.method !== 'GET' && request.method !== 'HEAD') checkCsrf(request, token, trustProxy);
    return user;
  };

export function adminContentRoutes(instance: Instance, accounts: AdminAccounts) {
  const { documents, registry, locales, config } = instance;
  const limits = { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit };
  const begin = contentGate(accounts, config.trustProxy);

  function typeOf(uid: string): ContentType {
    const ct = registry.contentType(uid);
    if (!ct || ct.system) throw new NotFoundError(`No content type "${uid}"`);
    return ct;
  }

  function query(request: Request, known: ReadonlySet<string>): Raw {
    const raw = checkParameters(parseQueryString(request.url), known, true);
    checkText(raw);
    return raw;
  }

  const localeOf = (raw: Raw) => (raw.locale === undefined ? undefined : parseLocale(raw.locale, '') || undefined);

  function documentIdOf(ct: ContentType, id: string): string | undefined {
    if (ct.kind === 'singleType') {
      if (id !== 'single') throw new NotFoundError();
      return undefined;
    }
    const why = unstorableText(id);
    if (why) throw new ValidationError(`Invalid documentId: ${why}`, { source: 'path', param: 'documentId' });
    return id;
  }

  async function dataOf(request: Request): Promise<Raw> {
    const body = (await readJsonBody(request, config.bodyLimit)) as Raw | undefined;
    const data = body && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Missing "data" payload in the request body');
    return data as Raw;
  }

  /**
   * Each draft's badge: `draft` (never published), `published` (the published version is
   * the draft as it was published: publishing copies updatedAt) or `modified` (saved since).
   */
  async function badges(ct: ContentType, drafts: Row[], locale: string): Promise<Record<string, string>> {
    if (!ct.draftAndPublish || drafts.length === 0) return {};
    const ids = drafts.map((d) => d.documentId as string);
    const published = await documents.findMany(
      ct,
      parseReadQuery(
        registry,
        ct,
        { status: 'published', locale, filters: { documentId: { $in: ids } }, pagination: { page: 1, pageSize: ids.length } },
        await locales.defaultCode(),
        {
          defaultLimit: ids.length,
          maxLimit: Math.max(ids.length, limits.maxLimit),
        },
      ),
    );
    const at = new Map(published.data.map((p) => [`${p.documentId}\u0000${p.locale ?? ''}`, p.updatedAt]));
    const badge: Record<string, string> = {};
    for (const d of drafts) {
      const key = `${d.documentId}\u0000${d.locale ?? ''}`;
      badge[`${d.documentId}:${d.locale ?? ''}`] = !at.has(key) ? 'draft' : at.get(key) === d.updatedAt ? 'published' : 'modified';
    }
    return badge;
  }

  /**
   * Every locale version of a document, for the edit view's side panel: its locale, badge,
   * and when it was last saved and published (Strapi's `meta.availableLocales`, with states).
   */
  async function localeVersions(ct: ContentType, documentId: string) {
    const read = (status: string) =>
      documents.findMany(
        ct,
        parseReadQuery(
          registry,
          ct,
          {
            status,
            locale: '*',
            fields: ['locale', 'updatedAt', 'publishedAt'],
            filters: { documentId: { $eq: documentId } },
            pagination: { page: 1, pageSize: 1000 },
          },
          '',
          {
            defaultLimit: 1000,
            maxLimit: 1000,
          },
        ),
      );
    const drafts = (await read(ct.draftAndPublish ? 'draft' : 'published')).data;
    const published = ct.draftAndPublish ? new Map((await read('published')).data.map((p) => [p.locale, p])) : new Map<unknown, Row>();
    return drafts
      .map((d) => {
        const p = published.get(d.locale);
        const status = !ct.draftAndPublish ? null : !p ? 'draft' : p.updatedAt === d.updatedAt ? 'published' : 'modified';
        return { locale: d.locale as string, status, updatedAt: d.updatedAt, publishedAt: p?.publishedAt ?? null };
      })
      .sort((a, b) => a.locale.localeCompare(b.locale));
  }

  /**
   * The draft of a document (or its only version without draft & publish), with its badge,
   * when its published version was published, and (localized types) its locale versions.
   */
  async function readDocument(ct: ContentType, documentId: string | undefined, locale: string | undefined) {
    const defaultLocale = await locales.defaultCode();
    const raw: Raw = { status: ct.draftAndPublish ? 'draft' : 'published', populate: editPopulate(registry, ct), ...(locale ? { locale } : {}) };
    const doc = await documents.findOne(ct, documentId, parseReadQuery(registry, ct, raw, defaultLocale));
    if (!doc) throw new NotFoundError();
    const versions = ct.localized ? await localeVersions(ct, doc.documentId as string) : undefined;
    const mine = versions?.find((v) => v.locale === doc.locale);
    const badge = mine
      ? mine.status
      : (await badges(ct, [doc], (doc.locale as string | undefined) ?? locale ?? defaultLocale))[`${doc.documentId}:${doc.locale ?? ''}`];
    const publishedAt = mine ? mine.publishedAt : badge && badge !== 'draft' ? await publishedAtOf(ct, doc) : null;
    // The draft is what is open: its preview (the only version's, without draft & publish).
    const target = {
      documentId: doc.documentId as string,
      locale: (doc.locale as string | undefined) ?? '',
      status: ct.draftAndPublish ? ('draft' as const) : ('published' as const),
    };
    const authors = await instance.history.authors(ct, doc.documentId as string, doc.locale as string | undefined);
    return json({
      data: doc,
      meta: {
        status: badge ?? null,
        publishedAt,
        ...(versions ? { availableLocales: versions } : {}),
        previewUrl: await previewUrl(instance, ct, target),
        createdBy: authors.created,
        updatedBy: authors.updated,
      },
    });
  }

  /** When the published version of a (not localized) document was published. */
  async function publishedAtOf(ct: ContentType, doc: Row) {
    const read = parseReadQuery(registry, ct, { status: 'published', fields: ['publishedAt'] }, await locales.defaultCode());
    return (await documents.findOne(ct, doc.documentId as string, read))?.publishedAt ?? null;
  }

  /**
   * A uid value no other entry of the type holds in this locale (Strapi's generateUIDField):
   * the slug of `data[targetField]` (else of the type's name), `-1`, `-2`… appended if taken.
   * The entry being edited (`documentId`) does not count against itself.
   */
  async function freeUid(body: Raw): Promise<string> {
    const ct = typeOf(String(body.contentType ?? ''));
    const attribute = typeof body.field === 'string' && Object.hasOwn(ct.attributes, body.field) ? ct.attributes[body.field] : undefined;
    if (attribute?.kind !== 'scalar' || attribute.type !== 'uid')
      throw new ValidationError('field must name a uid attribute', { errors: [{ path: ['field'], message: 'field must name a uid attribute' }] });
    const data = body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? (body.data as Raw) : {};
    const source = attribute.targetField ? data[attribute.targetField] : undefined;
    const base = slugify(typeof source === 'string' && source.trim() ? source : ct.singularName) || ct.singularName;
    const locale = typeof body.locale === 'string' && body.locale ? body.locale : undefined;
    const documentId = typeof body.documentId === 'string' ? body.documentId : undefined;
    const raw: Raw = {
      filters: { [attribute.name]: { $startsWith: base } },
      fields: [attribute.name],
      pagination: { page: 1, pageSize: 1000 },
      ...(locale ? { locale } : {}),
    };
    const taken = new Set<string>();
    // Both versions: a published value still holds the uid while its draft has moved on.
    for (const status of ct.draftAndPublish ? ['draft', 'published'] : ['published']) {
      const read = parseReadQuery(registry, ct, { ...raw, status }, await locales.defaultCode(), { defaultLimit: 1000, maxLimit: 1000 });
      for (const row of (await documents.findMany(ct, read)).data) if (row.documentId !== documentId) taken.add(String(row[attribute.name]));
    }
    return uniqueSlug(base, taken);
  }

  /**
   * What the home page lists: the drafts saved most recently (never published, or changed
   * since) and the documents published most recently, across content types and locales,
   * each named by its type's entry title.
   */
  async function recent(limit: number) {
    const types = registry.contentTypes.filter((ct) => !ct.system && !ct.hidden && ct.kind === 'collectionType' && ct.draftAndPublish);
    const views = await storedViews(instance, types.map(schemaOf));
    const drafts: Row[] = [];
    const published: Row[] = [];
    const read = (ct: ContentType, status: string, sort: string, main: string | null) =>
      parseReadQuery(
        registry,
        ct,
        {
          status,
          locale: '*',
          sort,
          fields: [...new Set([...(ct.localized ? ['locale'] : []), 'updatedAt', 'publishedAt', ...(main ? [main] : [])])],
          pagination: { page: 1, pageSize: limit },
        },
        '',
        { defaultLimit: limit, maxLimit: limit },
      );
    for (const ct of types) {
      const main = withView(schemaOf(ct), views.get(ct.uid)).mainField;
      const entry = (row: Row, status: string | null) => ({
        uid: ct.uid,
        type: ct.displayName,
        documentId: row.documentId,
        locale: row.locale ?? null,
        title: main && row[main] !== null && row[main] !== undefined && row[main] !== '' ? String(row[main]) : null,
        updatedAt: row.updatedAt,
        publishedAt: row.publishedAt ?? null,
        status,
      });
      const latest = (await documents.findMany(ct, read(ct, 'draft', 'updatedAt:desc', main))).data;
      const ids = [...new Set(latest.map((d) => d.documentId as string))];
      const live = ids.length
        ? (
            await documents.findMany(
              ct,
              parseReadQuery(
                registry,
                ct,
                {
                  status: 'published',
                  locale: '*',
                  fields: ct.localized ? ['locale', 'updatedAt'] : ['updatedAt'],
                  filters: { documentId: { $in: ids } },
                  pagination: { page: 1, pageSize: ids.length * 20 },
                },
                '',
                { defaultLimit: 1000, maxLimit: 1000 },
              ),
            )
          ).data
        : [];
      const at = new Map(live.map((p) => [`${p.documentId}\u0000${p.locale ?? ''}`, p.updatedAt]));
      for (const d of latest) {
        const key = `${d.documentId}\u0000${d.locale ?? ''}`;
        if (at.get(key) === d.updatedAt) continue;
        drafts.push(entry(d, at.has(key) ? 'modified' : 'draft'));
      }
      for (const p of (await documents.findMany(ct, read(ct, 'published', 'publishedAt:desc', main))).data) published.push(entry(p, 'published'));
    }
    const by = (key: string) => (a: Row, b: Row) => String(b[key]).localeCompare(String(a[key]));
    return { drafts: drafts.sort(by('updatedAt')).slice(0, limit), published: published.sort(by('publishedAt')).slice(0, limit) };
  }

  return new Elysia({ name: 'admin:content' })
    .get('/admin/api/recent', async ({ request }) => {
      await begin(request);
      return json({ data: await recent(8) });
    })
    .post(
      '/admin/api/uid',
      async ({ request }) => {
        await begin(request);
        const body = (await readJsonBody(request, config.bodyLimit)) as Raw | undefined;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Expected a JSON object');
        checkText(body);
        return json({ data: await freeUid(body) });
      },
      { parse: 'none' },
    )
    .get('/admin/api/schema', async ({ request }) => {
      await begin(request);
      const list = await locales.list();
      // A plugin's type the content manager hides (pluginOptions['content-manager'].visible: false) is not listed, as in Strapi.
      const types = registry.contentTypes.filter((ct) => !ct.system && !ct.hidden).map(schemaOf);
      const views = await storedViews(instance, types);
      return json({
        data: {
          contentTypes: types.map((ct) => withView(ct, views.get(ct.uid))),
          components: registry.components.map(componentOf),
          locales: list,
          defaultLocale: await locales.defaultCode(),
          preview: { enabled: previewEnabled(instance) },
        },
      });
    })
    .get('/admin/api/content/:uid', async ({ request, params }) => {
      await begin(request);
      const ct = typeOf(params.uid);
      const raw = query(request, READ_PARAMETERS);
      if (ct.draftAndPublish) raw.status = 'draft';
      const read = parseReadQuery(registry, ct, raw, await locales.defaultCode(), limits);
      const { data, pagination } = await documents.findMany(ct, read);
      return json({ data, meta: { pagination, status: await badges(ct, data, read.locale) } });
    })
    .post(
      '/admin/api/content/:uid',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const ct = typeOf(params.uid);
        if (ct.kind === 'singleType') throw new NotFoundError();
        const locale = localeOf(query(request, new Set(['locale'])));
        const written = await documents.create(ct, await dataOf(request), { status: 'draft', locale, actor });
        return readDocument(ct, written.documentId, written.locale || undefined).then((r) => new Response(r.body, { status: 201, headers: r.headers }));
      },
      { parse: 'none' },
    )
    .get('/admin/api/preview/:uid/:documentId', async ({ request, params }) => {
      await begin(request);
      const ct = typeOf(params.uid);
      const raw = query(request, new Set(['locale', 'status']));
      const status = raw.status === undefined || raw.status === 'draft' ? 'draft' : raw.status === 'published' ? 'published' : undefined;
      if (!status) throw new ValidationError('status must be draft or published', { errors: [{ path: ['status'], message: 'must be draft or published' }] });
      const documentId = documentIdOf(ct, params.documentId) ?? (await documents.singleDocumentId(ct));
      if (!documentId) throw new NotFoundError();
      const locale = ct.localized ? (localeOf(raw) ?? (await locales.defaultCode())) : '';
      return json({ data: { url: await previewUrl(instance, ct, { documentId, locale, status: ct.draftAndPublish ? status : 'published' }) } });
    })
    .get('/admin/api/content/:uid/:documentId', async ({ request, params }) => {
      await begin(request);
      const ct = typeOf(params.uid);
      return readDocument(ct, documentIdOf(ct, params.documentId), localeOf(query(request, new Set(['locale']))));
    })
    .put(
      '/admin/api/content/:uid/:documentId',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const ct = typeOf(params.uid);
        const documentId = documentIdOf(ct, params.documentId);
        const locale = localeOf(query(request, new Set(['locale'])));
        const data = await dataOf(request);
        const written =
          documentId === undefined
            ? await documents.upsertSingle(ct, data, { status: 'draft', locale, actor })
            : await documents.update(ct, documentId, data, { status: 'draft', locale, actor });
        if (!written) throw new NotFoundError();
        return readDocument(ct, written.documentId, written.locale || undefined);
      },
      { parse: 'none' },
    )
    .delete('/admin/api/content/:uid/:documentId', async ({ request, params, server }) => {
      const actor = adminActor(await begin(request), request, server, config.trustProxy);
      const ct = typeOf(params.uid);
      const locale = localeOf(query(request, new Set(['locale'])));
      const documentId = documentIdOf(ct, params.documentId) ?? (await documents.singleDocumentId(ct));
      if (!documentId || !(await documents.delete(ct, documentId, { locale, actor }))) throw new NotFoundError();
      return noContent();
    })
    .post(
      '/admin/api/content/:uid/actions/:action',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const ct = typeOf(params.uid);
        const action = Object.hasOwn(BULK_ACTIONS, params.action) ? BULK_ACTIONS[params.action as keyof typeof BULK_ACTIONS] : undefined;
        if (!action || ct.kind === 'singleType') throw new NotFoundError();
        const body = (await readJsonBody(request, config.bodyLimit)) as Raw | undefined;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Expected a JSON object { documentIds, locale }');
        const ids = body.documentIds;
        const bad = (message: string) => new ValidationError(message, { errors: [{ path: ['documentIds'], message }] });
        if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || !id || unstorableText(id)))
          throw bad('documentIds must be a list of documentIds');
        // Checked before anything is read: one transaction holds a lock per document.
        if (ids.length > BULK_LIMIT) throw bad(`At most ${BULK_LIMIT} documents per bulk action (got ${ids.length})`);
        if (body.locale !== undefined && (typeof body.locale !== 'string' || unstorableText(body.locale)))
          throw new ValidationError('locale must be a locale code', { errors: [{ path: ['locale'], message: 'locale must be a locale code' }] });
        const locale = body.locale ? parseLocale(body.locale, '') || undefined : undefined;
        const count = await documents.bulk(ct, action, ids as string[], { locale, actor });
        return json({ data: { count } });
      },
      { parse: 'none' },
    )
    .post(
      '/admin/api/content/:uid/:documentId/actions/:action',
      async ({ request, params, server }) => {
        const actor = adminActor(await begin(request), request, server, config.trustProxy);
        const ct = typeOf(params.uid);
        const action = Object.hasOwn(ACTIONS, params.action) ? ACTIONS[params.action as keyof typeof ACTIONS] : undefined;
        if (!action) throw new NotFoundError();
        const locale = localeOf(query(request, new Set(['locale'])));
        const documentId = documentIdOf(ct, params.documentId);
        // Publish with the form's unsaved changes (Strapi's admin sends them too): saved and published in one write, or nothing.
        const body = action === 'publish' && ct.draftAndPublish ? ((await readJsonBody(request, config.bodyLimit)) as Raw | undefined) : undefined;
        const data = body === undefined ? undefined : body && typeof body === 'object' && !Array.isArray(body) ? body.data : null;
        if (data !== undefined && (!data || typeof data !== 'object' || Array.isArray(data)))
          throw new ValidationError('Expected no body, or { data } to save and publish');
        const written =
          data === undefined
            ? await documents[action](ct, documentId, { locale, actor })
            : documentId === undefined
              ? await documents.upsertSingle(ct, data as Raw, { status: 'published', locale, actor })
              : await documents.update(ct, documentId, data as Raw, { status: 'published', locale, actor });
        if (!written) throw new NotFoundError();
        return readDocument(ct, written.documentId, written.locale || undefined);
      },
      { parse: 'none' },
    );
}
